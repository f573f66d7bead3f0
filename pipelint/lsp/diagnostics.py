"""Findings and parse failures → LSP diagnostics."""

from __future__ import annotations

from lsprotocol import types

from pipelint.finding import Finding, Severity
from pipelint.lsp.documents import DocumentText, Snapshot, too_large_message
from pipelint.lsp.ranges import to_range
from pipelint.output.common import rule_url
from pipelint.positions import Encoding

SOURCE = "pipelint"

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


def finding_diagnostic(snapshot: Snapshot, finding: Finding, encoding: Encoding) -> types.Diagnostic:
    fix = finding.fix
    return types.Diagnostic(
        range=to_range(snapshot.index, finding.start, finding.end, encoding),
        message=finding.message,
        severity=SEVERITIES.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=rule_url(finding)),
        source=SOURCE,
        # The rule's name, and whether a quick fix exists (for clients that look).
        data={
            "name": finding.name,
            "fix": fix.applicability.value if fix is not None and fix.edits else None,
        },
    )


def parse_failure_diagnostic(snapshot: Snapshot, encoding: Encoding) -> types.Diagnostic | None:
    """One note where tree-sitter stopped understanding the script, as the CLI prints it.

    Information, not Error: tree-sitter-bash rejects some scripts bash runs, and
    the note is about what pipelint could not check, not about the script.
    The range covers the rest of the first broken line only, so the squiggle
    does not swallow the file.
    """
    failures = snapshot.report.parse_failures if snapshot.report is not None else []
    if not failures:
        return None
    first = failures[0]
    index = snapshot.index
    end = min(first.end, index.line_end(index.line_of(first.start)))
    more = len(failures) - 1
    extra = f" (and {more} more place{'s' if more != 1 else ''})" if more else ""
    return types.Diagnostic(
        range=to_range(index, first.start, max(end, first.start), encoding),
        message=f"could not parse from here{extra}; the rest of the file was checked",
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
    )


def diagnostics(snapshot: Snapshot, encoding: Encoding) -> list[types.Diagnostic]:
    found = [finding_diagnostic(snapshot, finding, encoding) for finding in snapshot.findings]
    note = parse_failure_diagnostic(snapshot, encoding)
    if note is not None:
        found.append(note)
    return found


def too_large_diagnostic(document: DocumentText) -> types.Diagnostic:
    """The one diagnostic of a document too large to lint as you type, on its first line."""
    start = types.Position(line=0, character=0)
    return types.Diagnostic(
        range=types.Range(start=start, end=start),
        message=too_large_message(document),
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
    )
