"""One JSON array of records, ruff-compatible in shape: one per finding and one per parse failure.

A finding's record is ruff's (`code`, `message`, `filename`, `location`,
`end_location`, `fix`, `url`) plus `name`, `severity`, `help` and `kind`
(`"finding"`), and with `pipelint check --trace FILE`, `measured` (`wall_s`,
`cpu_s`, `bytes`: what `pipelint trace` measured of its pipeline). A part of a script that did not parse, which makes the exit
status 1, is a record too: `kind` `"parse-error"`, with `code`, `name`,
`url` and `fix` null, as ruff writes a syntax error; a consumer that reads
ruff's JSON reads it without change, and one that wants findings only keeps
the records whose `code` is not null.

The output is always valid UTF-8 without lone surrogates: text that was not
valid UTF-8 is written with U+FFFD, and where the exact bytes matter they
travel too, base64-encoded: `filename_bytes` beside `filename`, and
`content_bytes` beside an edit's `content`. Both keys appear only when
needed.
"""

from __future__ import annotations

import json
from typing import TextIO

from pipelint.finding import ParseFailure
from pipelint.finding import Edit, Finding
from pipelint.engine.report import FileReport
from pipelint.output.common import (
    NOTE_KIND,
    PARSE_FAILURE_KIND,
    NoteGroup,
    note_groups,
    parse_failure_text,
    RenderOptions,
    exact_bytes,
    lossy,
    rule_url,
    span,
)


def _place(report: FileReport, start: int, end: int) -> dict:
    where = span(report, start, end)
    return {
        "location": {"row": where.row, "column": where.column},
        "end_location": {"row": where.end_row, "column": where.end_column},
    }


def _with_exact_bytes(record: dict, key: str, value: str) -> dict:
    record[key] = lossy(value)
    exact = exact_bytes(value)
    if exact is not None:
        record[f"{key}_bytes"] = exact
    return record


def _edit_record(report: FileReport, edit: Edit) -> dict:
    record = _with_exact_bytes({}, "content", edit.content.decode("utf-8", "surrogateescape"))
    return record | _place(report, edit.start, edit.end)


def finding_record(report: FileReport, finding: Finding) -> dict:
    record = {
        "kind": "finding",
        "code": finding.code,
        "name": finding.name,
        "message": lossy(finding.message),
        "severity": finding.severity.value,
    }
    _with_exact_bytes(record, "filename", report.display_name)
    record |= _place(report, finding.start, finding.end)
    record["url"] = rule_url(finding)
    record["fix"] = None
    if finding.fix is not None:
        record["fix"] = {
            "applicability": finding.fix.applicability.value,
            "message": lossy(finding.fix.title),
            "edits": [_edit_record(report, edit) for edit in finding.fix.edits],
        }
    record["help"] = lossy(finding.help) if finding.help else None
    if finding.measured is not None:  # `pipelint check --trace`
        record["measured"] = finding.measured.as_json()
    return record


def parse_failure_record(report: FileReport, failure: ParseFailure) -> dict:
    record = {
        "kind": PARSE_FAILURE_KIND,
        "code": None,
        "name": None,
        "message": parse_failure_text(report.index, failure),
        "severity": "error",
    }
    _with_exact_bytes(record, "filename", report.display_name)
    record |= _place(report, failure.start, failure.end)
    record |= {"url": None, "fix": None, "help": None}
    return record


def note_record(report: FileReport, group: NoteGroup) -> dict:
    """A note (`common.note_groups`): `kind` "note", `code` null, severity "info", the lines in `message`."""
    record = {"kind": NOTE_KIND, "code": None, "name": None, "message": group.text, "severity": "info"}
    _with_exact_bytes(record, "filename", report.display_name)
    record |= _place(report, group.start, group.end)
    record |= {"url": None, "fix": None, "help": None}
    return record


def records(reports: list[FileReport], options: RenderOptions | None = None) -> list[dict]:
    """Every record of the run: per file, in the order of their positions."""
    verbose = options is not None and options.verbose
    found = []
    for report in reports:
        placed = [(finding.start, finding_record(report, finding)) for finding in report.findings]
        placed += [(failure.start, parse_failure_record(report, failure)) for failure in report.parse_failures]
        placed += [(group.start, note_record(report, group)) for group in note_groups(report, verbose)]
        found += [record for _, record in sorted(placed, key=lambda item: item[0])]
    return found


def dumps(value: object, **kwargs) -> str:
    return json.dumps(value, ensure_ascii=False, **kwargs)


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    out.write(dumps(records(reports, options), indent=2))
    out.write("\n")
