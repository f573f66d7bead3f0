"""One line per finding, `path:row:col: CODE [*] message`, and per parse failure, `path:row:col: parse-error …`."""

from __future__ import annotations

from typing import TextIO

from pipelint.output.common import (
    PARSE_FAILURE_KIND,
    PARSE_FAILURE_TEXT,
    RenderOptions,
    marker,
    one_line,
    printable,
    span,
)


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    for report in reports:
        name = printable(report.display_name)
        lines = []
        for finding in report.findings:
            where = span(report, finding.start, finding.end)
            text = f"{finding.code} {marker(finding, options)}{one_line(finding.message)}"
            lines.append((finding.start, f"{name}:{where.row}:{where.column}: {text}"))
        for failure in report.parse_failures:
            where = span(report, failure.start, failure.end)
            lines.append((failure.start, f"{name}:{where.row}:{where.column}: {PARSE_FAILURE_KIND} {PARSE_FAILURE_TEXT}"))
        for _, line in sorted(lines, key=lambda item: item[0]):
            out.write(line + "\n")
