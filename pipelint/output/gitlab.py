"""GitLab Code Quality: a JSON array of issues for a merge request's Code Quality widget.

Each issue has a description, the rule code as `check_name`, a severity
(error → major, warning → minor, info → info; a parse failure is major, since
it fails the job too), the path and first/last line, and a fingerprint.
GitLab matches issues between the base and the head of a merge request by
fingerprint, so it is a hash of the path, the rule and the text of the
finding's first line, not of line numbers: an edit elsewhere in the file
keeps it. Identical lines get an occurrence number so fingerprints stay
unique within a report.

Paths must be relative to the project root; run pipelint from there. An
absolute path under `$CI_PROJECT_DIR` is made relative to it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import TextIO

from pipelint.finding import Severity
from pipelint.engine.report import FileReport
from pipelint.output.common import parse_failure_text, RenderOptions, lossy, span

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}
PARSE_ERROR = "pipelint/parse-error"


def project_path(display_name: str) -> str:
    """The path GitLab shows: relative to $CI_PROJECT_DIR when it is absolute and inside it."""
    root = os.environ.get("CI_PROJECT_DIR")
    path = Path(display_name)
    if root and path.is_absolute():
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return display_name[2:] if display_name.startswith("./") else display_name


def fingerprint(path: str, check: str, line_text: str, occurrence: int) -> str:
    key = "\0".join((path, check, line_text.strip(), str(occurrence)))
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def issues(reports: list[FileReport]) -> list[dict]:
    found = []
    for report in reports:
        path = project_path(report.display_name)
        seen: Counter[tuple[str, str]] = Counter()

        def issue(check: str, description: str, severity: str, start: int, end: int) -> dict:
            where = span(report, start, end)
            line_text = report.index.line_text(where.row - 1)
            # A span that ends just after a newline ends on the line before.
            last = where.end_row - 1 if where.end_column == 1 and where.end_row > where.row else where.end_row
            occurrence = seen[(check, line_text.strip())]
            seen[(check, line_text.strip())] += 1
            return {
                "description": lossy(description),
                "check_name": check,
                "fingerprint": fingerprint(path, check, line_text, occurrence),
                "severity": severity,
                "location": {"path": lossy(path), "lines": {"begin": where.row, "end": last}},
            }

        for finding in report.findings:
            description = f"{finding.code} {finding.message}"
            found.append(issue(finding.code, description, SEVERITIES[finding.severity], finding.start, finding.end))
        for failure in report.parse_failures:
            found.append(
                issue(
                    PARSE_ERROR,
                    f"pipelint {parse_failure_text(report.index, failure)}",
                    "major",
                    failure.start,
                    failure.end,
                )
            )
    return found


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    json.dump(issues(reports), out, indent=2, ensure_ascii=False)
    out.write("\n")
