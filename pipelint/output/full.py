"""The default on a terminal: each finding with its source line underlined, and the fix as help."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.text import Text

from pipelint.finding import Applicability
from pipelint.linter import FileReport
from pipelint.output.common import RenderOptions, marker, printable, span

_SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}


def _expand(line: str) -> str:
    return line.replace("\t", "    ")


def _excerpt(report: FileReport, finding) -> list[Text]:
    where = span(report, finding.start, finding.end)
    line = report.index.line_text(where.row - 1)
    shown = _expand(line).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    start = len(_expand(line[: where.column - 1]))
    end_col = where.end_column - 1 if where.end_row == where.row else len(line)
    end = max(len(_expand(line[:end_col])), start + 1)
    gutter = str(where.row)
    pad = " " * len(gutter)
    style = _SEVERITY_STYLE.get(finding.severity.value, "bold")
    underline = Text(f"{pad} | ", style="blue")
    underline.append(" " * start + "^" * (end - start), style=style)
    underline.append(f" {finding.code}", style=style)
    return [
        Text(f"{pad} |", style="blue"),
        Text(f"{gutter} | ", style="blue") + Text(shown),
        underline,
        Text(f"{pad} |", style="blue"),
    ]


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    console = Console(file=out, highlight=False, soft_wrap=True, force_terminal=options.color, no_color=options.color is False)
    for report in reports:
        for finding in report.findings:
            where = span(report, finding.start, finding.end)
            header = Text()
            header.append(printable(report.display_name), style="bold")
            header.append(f":{where.row}:{where.column}: ")
            header.append(finding.code, style=_SEVERITY_STYLE.get(finding.severity.value, "bold"))
            header.append(f" {marker(finding, options)}{finding.name}: {finding.message}")
            console.print(header)
            for line in _excerpt(report, finding):
                console.print(line)
            if finding.fix is not None:
                help_line = Text("  = help: ", style="bold cyan")
                help_line.append(finding.fix.title)
                if finding.fix.applicability is Applicability.UNSAFE:
                    help_line.append(" (unsafe fix)", style="dim")
                elif finding.fix.applicability is Applicability.DISPLAY_ONLY:
                    help_line.append(" (apply by hand)", style="dim")
                console.print(help_line)
            if finding.help is not None:
                console.print(Text("  = help: ", style="bold cyan") + Text(finding.help) + Text(" (apply by hand)", style="dim"))
            console.print()
