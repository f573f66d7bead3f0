"""One JSON array of findings, ruff-compatible in shape."""

from __future__ import annotations

import json
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
    }
    if finding.fix is not None:
        edits = []
        for edit in finding.fix.edits:
            at = span(report, edit.start, edit.end)
            edits.append(
                {
                    "content": edit.content.decode("utf-8", "surrogateescape").encode("utf-8", "replace").decode("utf-8"),
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


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    records = [finding_record(report, finding) for report in reports for finding in report.findings]
    json.dump(records, out, indent=2, ensure_ascii=False)
    out.write("\n")
