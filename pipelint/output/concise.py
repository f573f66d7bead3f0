"""One line per finding, `path:row:col: CODE [*] message`, and per parse failure, `path:row:col: parse-error …`.

With colour (`RenderOptions.color`), the path is bold and the code takes its
severity's colour, as in the full format; the text is the same.
"""

from __future__ import annotations

from typing import TextIO

import click

from pipelint.output.common import (
    PARSE_FAILURE_KIND,
    parse_failure_text,
    RenderOptions,
    marker,
    one_line,
    printable,
    span,
)

# The colours of the full format's severities (full.py), without importing rich for them.
_SEVERITY_COLOUR = {"error": "red", "warning": "yellow", "info": "cyan"}


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    colour = bool(options.color)

    def styled(text: str, **style: object) -> str:
        return click.style(text, **style) if colour and text else text  # type: ignore[arg-type]

    for report in reports:
        name = styled(printable(report.display_name), bold=True)
        lines = []
        for finding in report.findings:
            where = span(report, finding.start, finding.end)
            code = styled(finding.code, fg=_SEVERITY_COLOUR.get(finding.severity.value), bold=True)
            text = f"{code} {styled(marker(finding, options), fg='cyan')}{one_line(finding.message)}"
            lines.append((finding.start, f"{name}:{where.row}:{where.column}: {text}"))
        for failure in report.parse_failures:
            where = span(report, failure.start, failure.end)
            kind = styled(PARSE_FAILURE_KIND, fg="red", bold=True)
            text = parse_failure_text(report.index, failure)
            lines.append((failure.start, f"{name}:{where.row}:{where.column}: {kind} {text}"))
        for _, line in sorted(lines, key=lambda item: item[0]):
            out.write(line + "\n")
