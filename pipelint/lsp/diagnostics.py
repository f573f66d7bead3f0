"""Findings and parse failures → LSP diagnostics, written as JSON for the wire.

A lint of a 5,000-line script has ~1,000 findings: built as lsprotocol objects
and turned to JSON by pygls' converter they cost ~50 ms on the server's loop
(tests/benchmarks/bench_lsp.py).  So the worker that linted writes the
diagnostics' JSON itself, the form pygls would send, and the server splices it
into the notification.  Everything of a diagnostic but its range depends only
on the finding's code, name, severity, message and fix: that part's JSON is
kept per finding (`_fields_json`), so the findings a keystroke leaves alone
cost a lookup and their range.  The lsprotocol objects code actions carry are
read back from the same dictionaries: one mapping, two forms.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.protocol import default_converter

from pipelint.finding import Finding, Severity
from pipelint.shell.positions import Encoding, LineIndex
from pipelint.output.common import note_groups, parse_failure_text, rule_url

if TYPE_CHECKING:
    from pipelint.finding import ParseFailure
    from pipelint.engine.linter import FileReport

SOURCE = "pipelint"

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}

# pygls' own converter: camelCase names, None fields left out, as on the wire.
CONVERTER = default_converter()

# What a finding's diagnostic says besides where: (code, name, severity, message, fix applicability).
FieldsKey = tuple[str, str, Severity, str, "str | None"]

# Bounded: several times the distinct messages of a 5,000-line script (~1,000).
FIELDS_KEPT = 8192
_fields_kept: dict[FieldsKey, str] = {}


def _fields(finding: Finding) -> dict:
    fix = finding.fix
    return {
        "severity": SEVERITIES.get(finding.severity, types.DiagnosticSeverity.Warning).value,
        "code": finding.code,
        "codeDescription": {"href": rule_url(finding)},
        "source": SOURCE,
        "message": finding.message,
        # The rule's name, and whether a quick fix exists (for clients that look).
        "data": {"name": finding.name, "fix": fix.applicability.value if fix is not None and fix.edits else None},
    }


def _fields_json(finding: Finding) -> str:
    """The diagnostic's JSON after its range, `,"severity":…}`; kept per finding, as most outlive a keystroke."""
    fix = finding.fix
    key = (finding.code, finding.name, finding.severity, finding.message, fix.applicability if fix and fix.edits else None)
    known = _fields_kept.get(key)
    if known is None:
        if len(_fields_kept) >= FIELDS_KEPT:
            _fields_kept.clear()
        known = _fields_kept[key] = "," + json.dumps(_fields(finding))[1:]
    return known


def _range(index: LineIndex, start: int, end: int, encoding: Encoding) -> dict:
    first, last = index.position(start, encoding), index.position(end, encoding)
    return {
        "start": {"line": first.line, "character": first.column},
        "end": {"line": last.line, "character": last.column},
    }


def _range_json(index: LineIndex, start: int, end: int, encoding: Encoding) -> str:
    first, last = index.position(start, encoding), index.position(end, encoding)
    return (
        f'{{"range":{{"start":{{"line":{first.line},"character":{first.column}}},'
        f'"end":{{"line":{last.line},"character":{last.column}}}}}'
    )


def failure_wire(index: LineIndex, failures: list[ParseFailure], encoding: Encoding) -> dict | None:
    """One note where tree-sitter stopped understanding the script, as the CLI prints it.

    Information, not Error: tree-sitter-bash rejects some scripts bash runs, and
    the note is about what pipelint could not check, not about the script.
    The range covers the rest of the first broken line only, so the squiggle
    does not swallow the file.
    """
    if not failures:
        return None
    first = failures[0]
    end = min(first.end, index.line_end(index.line_of(first.start)))
    more = len(failures) - 1
    extra = f" (and {more} more place{'s' if more != 1 else ''} did not parse)" if more else ""
    return {
        "range": _range(index, first.start, max(end, first.start), encoding),
        "severity": types.DiagnosticSeverity.Information.value,
        "source": SOURCE,
        "message": parse_failure_text(index, first) + extra,
    }


def notes_wire(report: FileReport, index: LineIndex, encoding: Encoding) -> list[dict]:
    """The notes the CLI prints (`common.note_groups`: what was not checked though the shell accepts it), each an
    Information diagnostic on the first line of its stretch."""
    found = []
    for group in note_groups(report, verbose=False):
        end = min(group.end, index.line_end(index.line_of(group.start)))
        found.append(
            {
                "range": _range(index, group.start, max(end, group.start), encoding),
                "severity": types.DiagnosticSeverity.Information.value,
                "source": SOURCE,
                "message": group.text,
            }
        )
    return found


def diagnostics_json(report: FileReport | None, index: LineIndex, encoding: Encoding) -> str:
    """The JSON array of the report's diagnostics, as pygls would write them (runs in the worker)."""
    if report is None:
        return "[]"
    found = findings_json(report.findings, report.parse_failures, index, encoding)
    notes = notes_wire(report, index, encoding)
    if not notes:
        return found
    return found[:-1] + ("," if found != "[]" else "") + ",".join(json.dumps(note) for note in notes) + "]"


def findings_json(findings: Sequence[Finding], failures: list[ParseFailure], index: LineIndex, encoding: Encoding) -> str:
    """The JSON array of these findings' diagnostics, and the note on parse failures (a provisional lint's too)."""
    found = [_range_json(index, f.start, f.end, encoding) + _fields_json(f) for f in findings]
    note = failure_wire(index, failures, encoding)
    if note is not None:
        found.append(json.dumps(note))
    return "[" + ",".join(found) + "]"


def moved_findings_json(moved: Sequence[tuple[Finding, int]], index: LineIndex, encoding: Encoding) -> str:
    """The JSON array of findings each moved by some bytes (a provisional lint's, `provisional.lint_moved`)."""
    found = [_range_json(index, f.start + delta, f.end + delta, encoding) + _fields_json(f) for f, delta in moved]
    return "[" + ",".join(found) + "]"


def notification_json(uri: str, version: int | None, found: str) -> str:
    """The publishDiagnostics notification around the diagnostics' JSON array: spliced, not converted again."""
    where = f'"uri":{json.dumps(uri)}' + (f',"version":{int(version)}' if version is not None else "")
    method = json.dumps(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return f'{{"jsonrpc":"2.0","method":{method},"params":{{{where},"diagnostics":{found}}}}}'


def finding_diagnostic(index: LineIndex, finding: Finding, encoding: Encoding) -> types.Diagnostic:
    """One finding as an lsprotocol Diagnostic (a code action's; published ones go out as JSON: findings_json)."""
    wire = {"range": _range(index, finding.start, finding.end, encoding), **_fields(finding)}
    return CONVERTER.structure(wire, types.Diagnostic)


def to_json(found: list[types.Diagnostic]) -> str:
    """Diagnostics built as lsprotocol objects (the rare ones), as JSON for `PipelintServer.publish`."""
    return json.dumps(CONVERTER.unstructure(found, list[types.Diagnostic]))


def too_large_diagnostic(message: str) -> types.Diagnostic:
    """The one diagnostic of a document too large to lint as you type, on its first line."""
    start = types.Position(line=0, character=0)
    return types.Diagnostic(
        range=types.Range(start=start, end=start),
        message=message,
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
    )
