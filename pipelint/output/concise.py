"""One line per finding: `path:row:col: CODE [*] message`."""

from __future__ import annotations

from typing import TextIO

from pipelint.output.common import RenderOptions, marker, printable, span


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    for report in reports:
        for finding in report.findings:
            where = span(report, finding.start, finding.end)
            out.write(
                f"{printable(report.display_name)}:{where.row}:{where.column}: {finding.code} {marker(finding, options)}{finding.message}\n"
            )
