"""What the server does for each LSP message it handles; `register` wires them up.

Notifications keep the server's state (`server.py`); requests answer from it
and wait for no lint, but a code action on a text whose provisional
diagnostics the client holds waits for its exact lint (see server.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from pipelint.engine import config
from pipelint.lsp import actions, hover
from pipelint.lsp.documents import (
    DocumentText,
    document_path,
    is_config_file,
    is_shell_document,
    too_large,
    too_large_message,
)

if TYPE_CHECKING:
    from pipelint.lsp.documents import Snapshot
    from pipelint.shell.positions import Encoding


class PipelintServer(Protocol):
    """What the handlers ask of the server (`server.PipelintServer`): its state, and what the client negotiated."""

    @property
    def encoding(self) -> Encoding: ...
    @property
    def versioned_edits(self) -> bool: ...
    @property
    def resolves_edits(self) -> bool: ...
    @property
    def shows_disabled_actions(self) -> bool: ...
    @property
    def markdown_hover(self) -> bool: ...
    def client_supports(self, *path: str) -> bool: ...
    def client_register_capability(self, params: types.RegistrationParams) -> Any: ...
    def window_show_message(self, params: types.ShowMessageParams) -> None: ...
    def feature(self, method: str, options: Any = None) -> Callable[[Callable[..., Any]], Any]: ...
    def current(self, uri: str) -> DocumentText | None: ...
    def requested(self, uri: str) -> DocumentText: ...
    def current_snapshot(self, document: DocumentText) -> Snapshot | None: ...
    async def snapshot_for_actions(self, document: DocumentText) -> Snapshot | None: ...
    async def fixed_source(self, document: DocumentText) -> bytes | None: ...
    def request_lint(self, uri: str) -> None: ...
    def forget(self, uri: str) -> None: ...
    def reload_config(self) -> None: ...

CONFIG_GLOBS = tuple(f"**/{name}" for name in config.CONFIG_FILES)
WATCHER_ID = "pipelint-config-files"


# -- notifications ------------------------------------------------------------

def initialized(ls: PipelintServer, params: types.InitializedParams) -> None:
    if not ls.client_supports("workspace", "did_change_watched_files", "dynamic_registration"):
        return  # the client may still send didChangeWatchedFiles, and didSave always works
    watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in CONFIG_GLOBS]
    registration = types.Registration(
        id=WATCHER_ID,
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    ls.client_register_capability(types.RegistrationParams(registrations=[registration]))


def did_open(ls: PipelintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.request_lint(params.text_document.uri)


def did_change(ls: PipelintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.request_lint(params.text_document.uri)


def did_save(ls: PipelintServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if is_config_file(document_path(uri)):
        ls.reload_config()
        return
    document = ls.current(uri)
    if document is not None and ls.current_snapshot(document) is not None:
        return  # this text's exact diagnostics are out, and a save changes nothing a lint reads
    ls.request_lint(uri)  # else its lint runs (no second one) or has yet to


def did_close(ls: PipelintServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)


def did_change_watched_files(ls: PipelintServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(is_config_file(document_path(change.uri)) for change in params.changes):
        ls.reload_config()


# -- requests -----------------------------------------------------------------

async def code_action(ls: PipelintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    document = ls.requested(params.text_document.uri)
    # Exact results only: with provisional diagnostics shown, after the exact lint of this text.
    snapshot = await ls.snapshot_for_actions(document)
    if ls.current(document.uri) is not document:
        return None  # changed while the exact lint ran: the client asks again for the new text
    only = params.context.only
    found: list[types.CodeAction] = []
    if snapshot is not None and actions.wanted(types.CodeActionKind.QuickFix, only):
        found += actions.quick_fixes(snapshot, params.range, ls.encoding, ls.versioned_edits)
    if actions.wanted(actions.FIX_ALL, only):
        fix_all = await _fix_all(ls, document, snapshot, asked_by_kind=bool(only))
        if fix_all is not None:
            found.append(fix_all)
    return found or None


async def _fix_all(
    ls: PipelintServer, document: DocumentText, snapshot: Snapshot | None, asked_by_kind: bool
) -> types.CodeAction | None:
    """Asked for by kind (format on save, a command): computed now, for the current text.

    Offered alongside quick fixes on every cursor move: only when the current
    snapshot has something to fix, and left to codeAction/resolve when the
    client can resolve.
    """
    if too_large(document):
        return _too_large_to_fix(ls, document) if asked_by_kind else None
    if snapshot is not None and not actions.has_fixes(snapshot):
        return None
    if not asked_by_kind:
        if snapshot is None:
            return None  # nothing says yet that there is anything to fix
        if ls.resolves_edits:
            return actions.unresolved_fix_all(document)
    return actions.fix_all(document, await ls.fixed_source(document), ls.encoding, ls.versioned_edits)


def _too_large_to_fix(ls: PipelintServer, document: DocumentText) -> types.CodeAction | None:
    message = too_large_message(document, "fix")
    if ls.shows_disabled_actions:
        return actions.disabled_fix_all(message)
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=f"pipelint: {message}"))
    return None


async def code_action_resolve(ls: PipelintServer, action: types.CodeAction) -> types.CodeAction:
    uri = action.data.get("uri") if isinstance(action.data, dict) else None
    if action.kind != actions.FIX_ALL or not isinstance(uri, str):
        raise JsonRpcInvalidParams("Invalid Params: not a pipelint fix-all action")
    document = ls.requested(uri)
    if too_large(document):
        raise JsonRpcInvalidParams(f"Invalid Params: {too_large_message(document, 'fix')}")
    fixed = await ls.fixed_source(document)
    resolved = actions.fix_all(document, fixed, ls.encoding, ls.versioned_edits)
    action.edit = resolved.edit if resolved is not None else types.WorkspaceEdit(changes={})
    return action


def on_hover(ls: PipelintServer, params: types.HoverParams) -> types.Hover | None:
    document = ls.requested(params.text_document.uri)
    if too_large(document) or not is_shell_document(document.language_id, document.path, document.source[:256]):
        return None
    found = hover.hover(document, params.position, ls.encoding, ls.markdown_hover)
    snapshot = ls.current_snapshot(document)
    if found is None and snapshot is not None and snapshot.settings.trace_file is not None:
        found = hover.measured_hover(document, params.position, ls.encoding, snapshot.settings.trace_file, ls.markdown_hover)
    return found


def register(server: PipelintServer) -> None:
    for method, handler in (
        (types.INITIALIZED, initialized),
        (types.TEXT_DOCUMENT_DID_OPEN, did_open),
        (types.TEXT_DOCUMENT_DID_CHANGE, did_change),
        (types.TEXT_DOCUMENT_DID_SAVE, did_save),
        (types.TEXT_DOCUMENT_DID_CLOSE, did_close),
        (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, did_change_watched_files),
        (types.CODE_ACTION_RESOLVE, code_action_resolve),
        (types.TEXT_DOCUMENT_HOVER, on_hover),
    ):
        server.feature(method)(handler)
    options = types.CodeActionOptions(code_action_kinds=list(actions.KINDS), resolve_provider=True)
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)(code_action)
