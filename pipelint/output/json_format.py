"""One JSON array of findings, ruff-compatible in shape."""

from __future__ import annotations

import json
import re
from typing import TextIO

from pipelint.finding import Finding
from pipelint.linter import FileReport
from pipelint.output.common import RenderOptions, rule_url, span


def finding_record(report: FileReport, finding: Finding) -> dict:
    where = span(report, finding.start, finding.end)
    record = {
        "code": finding.code,
        "name": finding.name,
        "message": finding.message,
        "severity": finding.severity.value,
        "filename": report.display_name,
        "location": {"row": where.row, "column": where.column},
        "end_location": {"row": where.end_row, "column": where.end_column},
        "url": rule_url(finding),
        "fix": None,
        "help": finding.help,  # advice that is not a fix, or null
    }
    if finding.fix is not None:
        edits = []
        for edit in finding.fix.edits:
            at = span(report, edit.start, edit.end)
            edits.append(
                {
                    "content": edit.content.decode("utf-8", "surrogateescape"),
                    "location": {"row": at.row, "column": at.column},
                    "end_location": {"row": at.end_row, "column": at.end_column},
                }
            )
        record["fix"] = {
            "applicability": finding.fix.applicability.value,
            "message": finding.fix.title,
            "edits": edits,
        }
    return record


def dumps(value: object, **kwargs) -> str:
    """JSON text that keeps undecodable script bytes: each becomes a `\\udcNN` escape.

    Script text is decoded with surrogateescape, so a Latin-1 byte in a fix is a
    lone surrogate; escaping it (instead of writing it raw or as "?") keeps the
    output valid UTF-8 and lets a reader restore the exact byte.
    """
    text = json.dumps(value, ensure_ascii=False, **kwargs)
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    records = [finding_record(report, finding) for report in reports for finding in report.findings]
    out.write(dumps(records, indent=2))
    out.write("\n")
