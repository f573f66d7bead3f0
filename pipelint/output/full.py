"""The default on a terminal: each finding with its source line underlined, the fix and advice as help."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.text import Text

from pipelint.finding import Finding
from pipelint.engine.report import FileReport
from pipelint.output.common import (
    PARSE_FAILURE_KIND,
    parse_failure_text,
    RenderOptions,
    fix_label,
    help_label,
    marker,
    one_line,
    printable,
    span,
)

_SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}


def _expand(line: str) -> str:
    return line.replace("\t", "    ")


def _excerpt(report: FileReport, start: int, end: int, label: str, style: str) -> list[Text]:
    where = span(report, start, end)
    line = report.index.line_text(where.row - 1)
    shown = _expand(line).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    first = len(_expand(line[: where.column - 1]))
    end_col = where.end_column - 1 if where.end_row == where.row else len(line)
    last = max(len(_expand(line[:end_col])), first + 1)
    gutter = str(where.row)
    pad = " " * len(gutter)
    underline = Text(f"{pad} | ", style="blue")
    underline.append(" " * first + "^" * (last - first), style=style)
    underline.append(f" {label}", style=style)
    return [
        Text(f"{pad} |", style="blue"),
        Text(f"{gutter} | ", style="blue") + Text(shown),
        underline,
        Text(f"{pad} |", style="blue"),
    ]


def _header(report: FileReport, start: int, end: int, label: str, style: str, text: str) -> Text:
    where = span(report, start, end)
    header = Text()
    header.append(printable(report.display_name), style="bold")
    header.append(f":{where.row}:{where.column}: ")
    header.append(label, style=style)
    header.append(f" {one_line(text)}")
    return header


def _help_lines(finding: Finding, options: RenderOptions) -> list[Text]:
    """The fix and how it is applied; then `help` (advice to apply by hand, or why the fix is unsafe)."""
    lines = []
    if finding.fix is not None:
        line = Text("  = help: ", style="bold cyan")
        line.append(one_line(finding.fix.title))
        line.append(fix_label(finding, options), style="dim")
        lines.append(line)
    if finding.help:
        lines.append(Text("  = help: ", style="bold cyan") + Text(one_line(finding.help)) + Text(help_label(finding), style="dim"))
    return lines


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    # Colour is the command line's decision (`cli/terminal.py`), not rich's reading of the environment.
    colour = options.color if options.color is not None else out.isatty()
    console = Console(file=out, highlight=False, soft_wrap=True, force_terminal=colour, no_color=not colour)
    for report in reports:
        blocks = []
        for finding in report.findings:
            style = _SEVERITY_STYLE.get(finding.severity.value, "bold")
            text = f"{marker(finding, options)}{finding.name}: {finding.message}"
            lines = [_header(report, finding.start, finding.end, finding.code, style, text)]
            lines += _excerpt(report, finding.start, finding.end, finding.code, style)
            blocks.append((finding.start, lines + _help_lines(finding, options)))
        for failure in report.parse_failures:
            style = _SEVERITY_STYLE["error"]
            text = parse_failure_text(report.index, failure)
            lines = [_header(report, failure.start, failure.end, PARSE_FAILURE_KIND, style, text)]
            blocks.append((failure.start, lines + _excerpt(report, failure.start, failure.end, PARSE_FAILURE_KIND, style)))
        for _, lines in sorted(blocks, key=lambda block: block[0]):
            for line in lines:
                console.print(line)
            console.print()
