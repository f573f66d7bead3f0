"""Code actions: a quick fix per fixable finding, "Disable PLxxx", and fix-all.

Every edit is a byte edit from the engine (a rule's `Fix`, the directive
edit, or the text `documents.fix_document` returns for fix-all), turned into
LSP ranges by `ranges`.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from pipelint.finding import Applicability, Edit, Finding
from pipelint.lsp.diagnostics import finding_diagnostic
from pipelint.lsp.directive import disable_edit
from pipelint.lsp.documents import DocumentText, Snapshot
from pipelint.lsp.ranges import to_offsets, to_range
from pipelint.output.common import is_fixable
from pipelint.shell.positions import Encoding

FIX_ALL = "source.fixAll.pipelint"
KINDS = (types.CodeActionKind.QuickFix, FIX_ALL)
FIX_ALL_TITLE = "pipelint: fix all auto-fixable problems"


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """LSP kinds are hierarchical: asking for "source" or "source.fixAll" includes FIX_ALL."""
    if not only:
        return True
    return any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


def text_edit(document: DocumentText, edit: Edit, encoding: Encoding) -> types.TextEdit:
    return types.TextEdit(
        range=to_range(document.index, edit.start, edit.end, encoding),
        new_text=edit.content.decode("utf-8", "surrogateescape"),
    )


def workspace_edit(document: DocumentText, edits: Sequence[Edit], encoding: Encoding, versioned: bool) -> types.WorkspaceEdit:
    """Edits tied to the document version when the client supports it, so stale ones are refused."""
    changes = [text_edit(document, edit, encoding) for edit in sorted(edits)]
    if versioned:
        named = types.OptionalVersionedTextDocumentIdentifier(uri=document.uri, version=document.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=named, edits=changes)])
    return types.WorkspaceEdit(changes={document.uri: changes})


def overlapping(snapshot: Snapshot, range_: types.Range, encoding: Encoding) -> list[Finding]:
    """Findings that touch the requested range (a bare cursor counts at either end of a finding)."""
    start, end = to_offsets(snapshot.index, range_, encoding)
    return [f for f in snapshot.findings if f.start <= end and start <= f.end]


def fix_action(snapshot: Snapshot, finding: Finding, encoding: Encoding, versioned: bool) -> types.CodeAction | None:
    fix = finding.fix
    if fix is None or not fix.edits or fix.applicability is Applicability.DISPLAY_ONLY:
        return None
    unsafe = fix.applicability is Applicability.UNSAFE
    return types.CodeAction(
        title=f"{finding.code}: {fix.title}" + (" (unsafe fix)" if unsafe else ""),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[finding_diagnostic(snapshot.index, finding, encoding)],
        is_preferred=not unsafe,
        edit=workspace_edit(snapshot.document, fix.edits, encoding, versioned),
    )


def disable_action(snapshot: Snapshot, finding: Finding, encoding: Encoding, versioned: bool) -> types.CodeAction | None:
    if snapshot.report is not None and snapshot.report.host is not None:
        return None  # the directive is placed by the shell parse of a script; a Dockerfile or workflow is none
    found = disable_edit(snapshot.source, snapshot.tree, finding.code, finding.start)
    if found is None:
        return None
    scope = "this file" if found.file_wide else "this command"
    return types.CodeAction(
        title=f"Disable {finding.code} for {scope}",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[finding_diagnostic(snapshot.index, finding, encoding)],
        edit=workspace_edit(snapshot.document, [found.edit], encoding, versioned),
    )


def has_fixes(snapshot: Snapshot) -> bool:
    """Cheap: whether fix-all would change anything (the settings decide about unsafe fixes)."""
    return any(is_fixable(f, snapshot.settings.unsafe_fixes) for f in snapshot.findings)


def changed_span(old: bytes, new: bytes) -> Edit:
    """One edit turning old into new: the differing middle, cut at character boundaries.

    A single edit keeps the editor's cursor and folds where nothing changed,
    unlike replacing the whole document.  Neither end falls inside a UTF-8
    character or between the "\\r" and "\\n" of a line end: no LSP position
    names such a place, so the client would cut elsewhere.
    """
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    # Never split a multi-byte character: positions are counted in characters.
    while 0 < prefix < len(old) and 0x80 <= old[prefix] <= 0xBF:
        prefix -= 1
    while suffix > 0 and 0x80 <= old[len(old) - suffix] <= 0xBF:
        suffix -= 1
    if 0 < prefix < len(old) and old[prefix - 1 : prefix + 1] == b"\r\n":
        prefix -= 1
    end = len(old) - suffix
    if 0 < end < len(old) and old[end - 1 : end + 1] == b"\r\n":
        suffix -= 1
    return Edit(prefix, len(old) - suffix, new[prefix : len(new) - suffix])


def quick_fixes(snapshot: Snapshot, range_: types.Range, encoding: Encoding, versioned: bool) -> list[types.CodeAction]:
    """The fix and the "Disable" action of each finding the range touches."""
    found = []
    for finding in overlapping(snapshot, range_, encoding):
        for action in (
            fix_action(snapshot, finding, encoding, versioned),
            disable_action(snapshot, finding, encoding, versioned),
        ):
            if action is not None:
                found.append(action)
    return found


def unresolved_fix_all(document: DocumentText) -> types.CodeAction:
    """Fix-all without its edit, which codeAction/resolve computes if the user picks it."""
    return types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL, data={"uri": document.uri})


def fix_all(document: DocumentText, fixed: bytes | None, encoding: Encoding, versioned: bool) -> types.CodeAction | None:
    """Fix-all turning the document into `fixed`; None if that changes nothing."""
    if fixed is None or fixed == document.source:
        return None
    edit = workspace_edit(document, [changed_span(document.source, fixed)], encoding, versioned)
    return types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL, data={"uri": document.uri}, edit=edit)


def disabled_fix_all(reason: str) -> types.CodeAction:
    return types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL, disabled=types.CodeActionDisabled(reason=reason))
