"""The pygls server behind `pipelint lsp`: document events, requests, config reloads.

Lints run in a worker (`worker.py`: a process by default), at once on open,
change and save: no fixed debounce.  One lint per document runs at a time;
changes meanwhile only mark the document, and when the running lint ends the
newest text is linted (latest wins: a burst of keystrokes costs the lint that
was running and one more, whatever its length).  A result is published only
if the document still holds the text that was linted under the same config:
stale results are dropped by version and config generation.

A change also starts a provisional lint (`provisional.py`), latest-wins the
same way, and the exact lint of the text waits for it: only the top-level
statements the edit touched are linted, the findings of the others are
carried over from the last exact lint.  Its diagnostics go out at once for
the text's version (unless that version's exact ones are out already); the
exact ones follow when they differ.  When the provisional lint cannot be exact it gives no
result, and only the exact lint's diagnostics go out.  Nothing else reads a
provisional result: a snapshot is always an exact lint's.

No request waits for a lint:
- hover needs only the current text's parse tree.  It is built on the loop,
  right after a lint's diagnostics are sent or at the first request that
  needs it: tree-sitter 0.26 holds the GIL while it parses, so a thread would
  not free the loop.  It starts from the last version's tree (reparse.py:
  tree.edit and an incremental parse, ~2 ms for a keystroke in 5,000 lines
  where a fresh parse takes ~30 ms);
- quick fixes and "disable" come from the snapshot of the current version.
  While the newest text is not linted yet there is none, so none are offered:
  the client's diagnostics are for an older text too, and clients ask again
  when new diagnostics arrive.  Except when the client holds provisional
  diagnostics of the current version: the exact ones may bring no new
  publication to ask again on, so the request waits for the exact lint;
- fix-all asked for by kind (format on save) is computed for the current text
  in the worker, beside any lint in progress; offered next to quick fixes, it
  needs a current snapshot that has something to fix, and is resolved in the
  worker.

Documents over documents.LIVE_LINT_BYTES are not linted, nor parsed: one
Information diagnostic says so, fix-all answers with a disabled action, and
hovers and quick fixes have nothing to offer.  Documents are
synced in full: the server never applies incremental edits itself, so its text
is exactly the editor's, whatever line separators it holds.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcParseError
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from pipelint import __version__
from pipelint.engine import config
from pipelint.lsp import framing, handlers
from pipelint.lsp.diagnostics import notification_json, to_json, too_large_diagnostic
from pipelint.lsp.documents import (
    DocumentText,
    LintJob,
    ProvisionalJob,
    Snapshot,
    document_path,
    fix_document,
    is_config_file,
    lint_document,
    provisional_document,
    too_large,
    too_large_message,
)
from pipelint.lsp.protocol import PipelintProtocol
from pipelint.lsp.ranges import encoding_for
from pipelint.lsp.worker import Worker, place_from_environment
from pipelint.shell.positions import Encoding

logger = logging.getLogger(__name__)


class PipelintServer(LanguageServer):
    def __init__(self, lint_in: str | None = None) -> None:
        super().__init__(
            "pipelint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            protocol_cls=PipelintProtocol,
        )
        self.worker = Worker(lint_in or place_from_environment())
        self.texts: dict[str, DocumentText] = {}  # the current version of each open document
        self.snapshots: dict[str, Snapshot] = {}  # the latest lint result kept (current or not)
        self.linting: dict[str, Lint] = {}  # at most one lint per document
        self.relint: set[str] = set()  # changed while their lint ran: lint the newest text after it
        self.provisionals: dict[str, Lint] = {}  # at most one provisional lint per document
        self.reprovisional: set[str] = set()  # changed while their provisional lint ran
        self.provisioned: dict[str, DocumentText] = {}  # the text each document's last provisional lint was of
        self.deferred: set[str] = set()  # their exact lint waits for their provisional one
        # The provisional diagnostics published for a document's current text, until its exact ones arrive.
        self.shown: dict[str, tuple[DocumentText, str]] = {}
        self.fixes: dict[str, tuple[DocumentText, asyncio.Future]] = {}  # fix-all, per text
        self.shown_errors: set[str] = set()
        # Bumped by every config reload: a lint started under older settings is
        # stale like one of an older text (its diagnostics and its config error).
        self.config_generation = 0

    # -- reading the client -------------------------------------------------
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Speak LSP on stdin/stdout, with framing.FrameReader in place of pygls's reader."""
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        reader = framing.FrameReader(framing.BlockingStream(stdin or sys.stdin.buffer, self.thread_pool))
        try:
            asyncio.run(self._serve(reader))
        except BrokenPipeError:
            logger.error("the client has gone: shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.worker.stop()
            self.shutdown()

    async def _serve(self, reader: framing.FrameReader) -> None:
        self.worker.start()
        while True:
            try:
                body = await reader.next_body()
            except framing.BadFrame as error:
                self.protocol.reply_error(None, framing_error(error))
                continue
            if body is None:
                return
            self.protocol.receive(body)

    # -- what the client negotiated ------------------------------------------
    @property
    def encoding(self) -> Encoding:
        return encoding_for(self.workspace.position_encoding)

    def client_supports(self, *path: str) -> bool:
        node: object = self.client_capabilities
        for name in path:
            node = getattr(node, name, None)
            if node is None:
                return False
        return bool(node)

    @property
    def versioned_edits(self) -> bool:
        return self.client_supports("workspace", "workspace_edit", "document_changes")

    @property
    def resolves_edits(self) -> bool:
        support = self.client_capabilities.text_document
        support = support.code_action if support is not None else None
        resolve = support.resolve_support if support is not None else None
        return resolve is not None and "edit" in resolve.properties

    @property
    def shows_disabled_actions(self) -> bool:
        return self.client_supports("text_document", "code_action", "disabled_support")

    @property
    def markdown_hover(self) -> bool:
        text_document = self.client_capabilities.text_document
        formats = text_document.hover.content_format if text_document and text_document.hover else None
        return not formats or types.MarkupKind.Markdown in formats

    # -- documents ----------------------------------------------------------
    def current(self, uri: str) -> DocumentText | None:
        """The open document's text now (None if the client has not opened it)."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is None:
            return None
        known = self.texts.get(uri)
        if known is None or not known.is_text_of(document.version, document.source):
            base = known.handover() if known is not None else None
            known = DocumentText(uri, document.version, document.source, document.language_id, base)
            self.texts[uri] = known
        return known

    def requested(self, uri: str) -> DocumentText:
        """The document a request names: InvalidParams if it is not open."""
        document = self.current(uri)
        if document is None:
            raise JsonRpcInvalidParams(f"Invalid Params: {uri} is not an open document")
        return document

    def current_snapshot(self, document: DocumentText) -> Snapshot | None:
        snapshot = self.snapshots.get(document.uri)
        return snapshot if snapshot is not None and snapshot.document is document else None

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

    def job(self, document: DocumentText) -> LintJob:
        return LintJob.of(document, self.folder_for(document.uri), self.encoding)

    # -- linting ------------------------------------------------------------
    def request_lint(self, uri: str) -> None:
        """Lint the document's current text in the worker now; if a lint of the document runs, after it.

        When a provisional lint of the change can start, it runs first and the
        exact lint after it: on two cores shared with the editor, the two side
        by side made the provisional one two to three times slower.
        """
        document = self.current(uri)
        if document is None:
            return
        running = self.linting.get(uri)
        if running is not None:
            if not running.is_of(document, self.config_generation):
                self.relint.add(uri)  # only the newest text counts: the set keeps no versions
                self.request_provisional(document)
            return
        if too_large(document):
            self.snapshots.pop(uri, None)
            self.publish(uri, document.version, to_json([too_large_diagnostic(too_large_message(document))]))
            return
        if self.request_provisional(document) or uri in self.provisionals:
            self.deferred.add(uri)  # the exact lint starts when the provisional one ends
            return
        generation = self.config_generation
        self.linting[uri] = Lint(document, generation, asyncio.ensure_future(self._lint(document, generation)))

    async def _lint(self, document: DocumentText, generation: int) -> None:
        uri = document.uri
        try:
            result = await self.worker.run(lint_document, self.job(document))
            # else stale: the text changed, the document closed, or a config changed meanwhile
            if self.current(uri) is document and generation == self.config_generation:
                self.accept(Snapshot.of(document, result))
        except Exception as error:  # one bad document must not take the server down
            self.report_internal_error(uri, error)
        finally:
            self.linting.pop(uri, None)
            if uri in self.relint:
                self.relint.discard(uri)
                self.request_lint(uri)

    def request_provisional(self, document: DocumentText) -> bool:
        """Start a provisional lint of the text (one per document and text); whether one started.

        If a provisional lint of an older text runs, this one starts after it.
        It needs the document's last exact lint, of another text, under the same config.
        """
        uri = document.uri
        running = self.provisionals.get(uri)
        if running is not None:
            if not running.is_of(document, self.config_generation):
                self.reprovisional.add(uri)
            return False
        base = self.snapshots.get(uri)
        if self.provisioned.get(uri) is document or base is None or base.document is document or too_large(document):
            return False
        if base.result.baseline is None or base.result.report is None or base.source == document.source:
            return False
        self.provisioned[uri] = document
        generation = self.config_generation
        task = asyncio.ensure_future(self._provisional(document, base, generation))
        self.provisionals[uri] = Lint(document, generation, task)
        return True

    async def _provisional(self, document: DocumentText, base: Snapshot, generation: int) -> None:
        uri = document.uri
        started = time.perf_counter()
        try:
            result = await self.worker.run(provisional_document, ProvisionalJob.of(self.job(document), base))
            took = f"{(time.perf_counter() - started) * 1000:.0f} ms, {result.took * 1000:.0f} in the worker"
            if result.diagnostics is None:
                self.trace(f"provisional diagnostics of {uri} version {document.version}: none ({result.reason}; {took})")
            elif self.current(uri) is document and generation == self.config_generation and self.current_snapshot(document) is None:
                self.shown[uri] = (document, result.diagnostics)
                self.publish(uri, document.version, result.diagnostics)
                self.trace(f"provisional diagnostics of {uri} version {document.version}: published ({took})")
        except Exception as error:  # the exact lint follows: log it, and bother no one
            detail = "".join(traceback.format_exception(error))
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=f"{uri}: provisional lint: {detail}"))
        finally:
            self.provisionals.pop(uri, None)
            current = self.current(uri)
            if uri in self.reprovisional:
                self.reprovisional.discard(uri)
                if current is not None and not too_large(current) and self.current_snapshot(current) is None:
                    self.request_provisional(current)
            if uri in self.deferred:
                self.deferred.discard(uri)
                self.request_lint(uri)  # after the provisional lint started just now, if one did

    def accept(self, snapshot: Snapshot) -> None:
        self.snapshots[snapshot.uri] = snapshot
        error = snapshot.config_error
        if error and error not in self.shown_errors:
            self.shown_errors.add(error)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"pipelint: {error}"))
        self.log_rule_crashes(snapshot)
        shown = self.shown.pop(snapshot.uri, None)
        if shown is not None and shown[0] is snapshot.document and shown[1] == snapshot.diagnostics:
            self.trace(f"exact diagnostics of {snapshot.uri} version {snapshot.version}: the same as the provisional ones")
        else:
            self.publish(snapshot.uri, snapshot.version, snapshot.diagnostics)
            self.trace(f"exact diagnostics of {snapshot.uri} version {snapshot.version}: published")
        # Editors ask for code actions as soon as diagnostics arrive (VS Code for
        # its light bulb), and those need the tree and the findings: parse and
        # unpickle now, after the diagnostics have gone out, rather than when
        # the request waits for them.
        asyncio.get_running_loop().call_soon(self._parse_ahead, snapshot)

    def _parse_ahead(self, snapshot: Snapshot) -> None:
        if self.current_snapshot(snapshot.document) is snapshot:
            snapshot.tree  # noqa: B018 - cached properties, kept for this version
            snapshot.report  # noqa: B018

    def log_rule_crashes(self, snapshot: Snapshot) -> None:
        """A rule that raised: the other rules' diagnostics stand; the traceback goes to the log."""
        for crash in snapshot.crashes:
            message = f"internal error in {crash.code} on {snapshot.uri} (please report): {crash.summary}\n{crash.traceback}"
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))

    def shows_provisional(self, document: DocumentText) -> bool:
        """The client holds provisional diagnostics of this text: its exact ones may bring no new publication."""
        shown = self.shown.get(document.uri)
        return shown is not None and shown[0] is document

    async def snapshot_for_actions(self, document: DocumentText) -> Snapshot | None:
        """The current text's snapshot; if the client holds provisional diagnostics of it, after its exact lint."""
        snapshot = self.current_snapshot(document)
        if snapshot is not None or not self.shows_provisional(document):
            return snapshot
        while True:
            snapshot = self.current_snapshot(document)
            running = self.linting.get(document.uri)
            if snapshot is not None or running is None or self.current(document.uri) is not document:
                return snapshot
            await asyncio.shield(running.task)  # a cancelled request does not cancel the lint

    def trace(self, message: str) -> None:
        """`$/logTrace`, when the client asked for a trace (`$/setTrace`): what each lint published."""
        if getattr(self.protocol, "trace", types.TraceValue.Off) != types.TraceValue.Off:
            self.log_trace(types.LogTraceParams(message=f"pipelint: {message}"))

    def publish(self, uri: str, version: int | None, found: str) -> None:
        """publishDiagnostics; found: the diagnostics' JSON array (diagnostics.py)."""
        self.protocol.send_json(notification_json(uri, version, found))

    async def fixed_source(self, document: DocumentText) -> bytes | None:
        """What `pipelint check --fix` would make of the text, computed once per text in the worker."""
        known = self.fixes.get(document.uri)
        if known is None or known[0] is not document:
            known = (document, asyncio.ensure_future(self.worker.run(fix_document, self.job(document))))
            self.fixes[document.uri] = known
        try:
            return await asyncio.shield(known[1])
        except Exception:
            if self.fixes.get(document.uri) is known:
                del self.fixes[document.uri]  # the next request tries again
            raise

    def forget(self, uri: str) -> None:
        for table in (self.snapshots, self.texts, self.fixes, self.shown, self.provisioned):
            table.pop(uri, None)
        for marks in (self.relint, self.reprovisional, self.deferred):
            marks.discard(uri)
        self.publish(uri, None, "[]")

    def reload_config(self) -> None:
        """A config file changed: lint every open document again (workers read config files afresh)."""
        config.read_afresh()
        self.config_generation += 1
        self.shown_errors.clear()
        self.snapshots.clear()
        self.fixes.clear()
        self.shown.clear()
        self.provisioned.clear()
        for document in list(self.workspace.text_documents.values()):
            if not is_config_file(document_path(document.uri)):
                self.request_lint(document.uri)

    def report_internal_error(self, uri: str, error: Exception) -> None:
        detail = "".join(traceback.format_exception(error))
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=f"{uri}: {detail}"))
        message = f"pipelint: internal error while linting {uri}: {error!r} (details in the log; please report it)"
        if message not in self.shown_errors:
            self.shown_errors.add(message)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=message))


@dataclass(frozen=True)
class Lint:
    """The lint running for a document: of which text, under which config generation."""

    document: DocumentText
    generation: int
    task: asyncio.Future

    def is_of(self, document: DocumentText, generation: int) -> bool:
        return self.document is document and self.generation == generation


def framing_error(error: framing.BadFrame) -> JsonRpcParseError:
    return JsonRpcParseError(f"Parse Error: {error}; skipped to the next message")


def create_server(lint_in: str | None = None) -> PipelintServer:
    server = PipelintServer(lint_in)
    handlers.register(server)
    return server


def serve() -> None:
    """Speak LSP on stdin/stdout until the client says exit."""
    try:
        server = create_server()
    except ValueError as error:  # a bad PIPELINT_LSP_LINT_IN
        print(f"pipelint: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    server.start_io()
