"""The pygls server behind `pipelint lsp`: document events, requests, config reloads.

Linting runs on open and save at once, and DEBOUNCE_SECONDS after the last
change while typing.  A lint result (a `Snapshot`) is kept per document and
version, so code actions and hovers between two edits reuse it.  Documents are
synced in full: the server never applies incremental edits itself, so its text
is exactly the editor's, whatever line separators the text holds.
"""

from __future__ import annotations

import asyncio
import traceback
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from pipelint import __version__, config
from pipelint.lsp import actions, hover
from pipelint.lsp.diagnostics import diagnostics
from pipelint.lsp.documents import Snapshot, document_path, is_config_file, take_snapshot
from pipelint.lsp.ranges import encoding_for, prefer_utf8
from pipelint.positions import Encoding

# Long enough that a burst of keystrokes costs one lint (a 5,000-line script
# takes 0.1-0.4 s, see docs/editors.md), short enough that diagnostics follow
# a pause in typing.
DEBOUNCE_SECONDS = 0.2

CONFIG_GLOBS = tuple(f"**/{name}" for name in config.CONFIG_FILES)
WATCHER_ID = "pipelint-config-files"


class PipelintProtocol(LanguageServerProtocol):
    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        # Choose UTF-8 positions whenever the client offers them (see ranges.prefer_utf8).
        return (yield from super().lsp_initialize(prefer_utf8(params)))


class PipelintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "pipelint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            protocol_cls=PipelintProtocol,
        )
        self.snapshots: dict[str, Snapshot] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.shown_errors: set[str] = set()

    # -- what the client negotiated ------------------------------------------
    @property
    def encoding(self) -> Encoding:
        return encoding_for(self.workspace.position_encoding)

    def _client_supports(self, *path: str) -> bool:
        node: object = self.client_capabilities
        for name in path:
            node = getattr(node, name, None)
            if node is None:
                return False
        return bool(node)

    @property
    def versioned_edits(self) -> bool:
        return self._client_supports("workspace", "workspace_edit", "document_changes")

    @property
    def resolves_edits(self) -> bool:
        support = self.client_capabilities.text_document
        support = support.code_action if support is not None else None
        resolve = support.resolve_support if support is not None else None
        return resolve is not None and "edit" in resolve.properties

    @property
    def markdown_hover(self) -> bool:
        text_document = self.client_capabilities.text_document
        formats = text_document.hover.content_format if text_document and text_document.hover else None
        return not formats or types.MarkupKind.Markdown in formats

    # -- documents ----------------------------------------------------------
    def open_document(self, uri: str):
        return self.workspace.text_documents.get(unquote(uri))

    def folder_for(self, uri: str) -> Path:
        """The workspace folder holding the document (untitled buffers: the first folder)."""
        path = document_path(uri)
        folders = [Path(p) for p in (document_path(f.uri) for f in self.workspace.folders.values()) if p]
        if path is not None:
            holding = [folder for folder in folders if folder in path.parents]
            if holding:
                return max(holding, key=lambda folder: len(folder.parts))
        if folders:
            return folders[0]
        root = self.workspace.root_path
        return Path(root) if root else Path.cwd()

    def snapshot(self, uri: str) -> Snapshot | None:
        """The lint result for the document's current text, linting it if needed."""
        document = self.open_document(uri)
        if document is None:
            return None
        text = document.source
        cached = self.snapshots.get(uri)
        if cached is not None and cached.version == document.version and cached.text == text:
            return cached
        snapshot = take_snapshot(uri, document.version, text, document.language_id, self.folder_for(uri))
        self.snapshots[uri] = snapshot
        self.log_rule_crashes(snapshot)
        return snapshot

    def log_rule_crashes(self, snapshot: Snapshot) -> None:
        """A rule that raised: the other rules' diagnostics stand; the traceback goes to the log."""
        for crash in snapshot.report.crashes if snapshot.report is not None else ():
            message = f"internal error in {crash.code} on {snapshot.uri} (please report): {crash.summary}\n{crash.traceback}"
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))

    def lint_and_publish(self, uri: str) -> None:
        self.pending.pop(uri, None)
        try:
            snapshot = self.snapshot(uri)
            if snapshot is None:
                return
            found = diagnostics(snapshot, self.encoding)
        except Exception as error:  # one bad document must not take the server down
            self.report_internal_error(uri, error)
            return
        if snapshot.config_error and snapshot.config_error not in self.shown_errors:
            self.shown_errors.add(snapshot.config_error)
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Error, message=f"pipelint: {snapshot.config_error}")
            )
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=snapshot.version, diagnostics=found)
        )

    def schedule(self, uri: str) -> None:
        self.cancel(uri)
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(DEBOUNCE_SECONDS, self.lint_and_publish, uri)

    def cancel(self, uri: str) -> None:
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()

    def forget(self, uri: str) -> None:
        self.cancel(uri)
        self.snapshots.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def reload_config(self) -> None:
        """A config file changed: read config files afresh and lint every open document again."""
        config.load.cache_clear()
        self.shown_errors.clear()
        self.snapshots.clear()
        for document in list(self.workspace.text_documents.values()):
            if not is_config_file(document_path(document.uri)):
                self.cancel(document.uri)
                self.lint_and_publish(document.uri)

    def report_internal_error(self, uri: str, error: Exception) -> None:
        detail = "".join(traceback.format_exception(error))
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=f"{uri}: {detail}"))
        message = f"pipelint: internal error while linting {uri}: {error!r} (details in the log; please report it)"
        if message not in self.shown_errors:
            self.shown_errors.add(message)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=message))


def create_server() -> PipelintServer:
    server = PipelintServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: PipelintServer, params: types.InitializedParams) -> None:
        if not ls._client_supports("workspace", "did_change_watched_files", "dynamic_registration"):
            return  # the client may still send didChangeWatchedFiles, and didSave always works
        watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in CONFIG_GLOBS]
        registration = types.Registration(
            id=WATCHER_ID,
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        ls.client_register_capability(types.RegistrationParams(registrations=[registration]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PipelintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.lint_and_publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PipelintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: PipelintServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if is_config_file(document_path(uri)):
            ls.reload_config()
        else:
            ls.cancel(uri)
            ls.lint_and_publish(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PipelintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: PipelintServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(is_config_file(document_path(change.uri)) for change in params.changes):
            ls.reload_config()

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=list(actions.KINDS), resolve_provider=True),
    )
    def code_action(ls: PipelintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        snapshot = ls.snapshot(params.text_document.uri)
        if snapshot is None or snapshot.report is None:
            return None
        return actions.code_actions(
            snapshot, params, ls.encoding, versioned=ls.versioned_edits, resolvable=ls.resolves_edits
        ) or None

    @server.feature(types.CODE_ACTION_RESOLVE)
    def code_action_resolve(ls: PipelintServer, action: types.CodeAction) -> types.CodeAction:
        uri = action.data.get("uri") if isinstance(action.data, dict) else None
        snapshot = ls.snapshot(uri) if uri else None
        if action.kind != actions.FIX_ALL or snapshot is None or snapshot.report is None:
            return action
        return actions.resolve_fix_all(action, snapshot, ls.encoding, ls.versioned_edits)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: PipelintServer, params: types.HoverParams) -> types.Hover | None:
        snapshot = ls.snapshot(params.text_document.uri)
        if snapshot is None or snapshot.report is None:
            return None
        return hover.hover(snapshot, params.position, ls.encoding, ls.markdown_hover)

    return server


def serve() -> None:
    """Speak LSP on stdin/stdout until the client says exit."""
    create_server().start_io()
