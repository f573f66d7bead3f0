"""What the LSP tests share: a recording test client, and helpers to open, wait and apply edits.

Edits from the server are applied here with an independent position
conversion (Python str and `str.encode`), not with pipelint's LineIndex, so a
wrong range cannot be hidden by converting it back the same wrong way.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.exceptions import JsonRpcException
from pygls.protocol import default_converter

from pipelint.lsp.diagnostics import failure_wire
from pipelint.lsp.documents import DocumentText, LintJob, Snapshot, lint_document
from pipelint.shell.positions import Encoding

SERVER = [sys.executable, "-m", "pipelint", "lsp"]
REPOSITORY = Path(__file__).resolve().parents[2]
# The server runs this checkout's pipelint, whatever the working directory.
SERVER_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPOSITORY), os.environ.get("PYTHONPATH")]))}


@dataclass
class Published:
    params: types.PublishDiagnosticsParams
    at: float  # time.perf_counter() when the client received it


# How long a wait may last before the test says what never came: a bound
# against a hang, not a guess at how long a lint takes. Waits end on the
# message itself (`arrival`), however loaded the machine; an exact-lint of a
# 5,000-line script took 31 min of wall time for the whole suite on a
# machine loaded by four CPU hogs, where a fixed 10 s failed six tests.
WAIT_BOUND = 600.0


def _arrived(client: LanguageClient) -> None:
    """Wake every wait: something the tests may be waiting for came in."""
    for waiter in client.waiters:
        if not waiter.done():
            waiter.set_result(None)
    client.waiters.clear()


async def arrival(client: LanguageClient, found, what: str, timeout: float = WAIT_BOUND):
    """found() once it answers something other than None, checked again at each message the client records."""
    deadline = time.monotonic() + timeout
    while (answer := found()) is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"{what} did not come within {timeout:.0f} s")
        waiter = asyncio.get_running_loop().create_future()
        client.waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter, remaining)
        except TimeoutError:
            pass
    return answer


def _record_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(Published(params, time.perf_counter()))
    _arrived(client)


def _record_registration(client: LanguageClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)
    _arrived(client)


@dataclass
class Traced:
    message: str
    at: float


def _record_trace(client: LanguageClient, params: types.LogTraceParams) -> None:
    client.traces.append(Traced(params.message, time.perf_counter()))
    _arrived(client)


def make_client() -> LanguageClient:
    """pytest-lsp's test client, also keeping every publishDiagnostics with its version and time."""
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record_diagnostics
    features[types.CLIENT_REGISTER_CAPABILITY] = _record_registration
    features[types.LOG_TRACE] = _record_trace
    register_lsp_features(client, features)
    client.published = []
    client.registrations = []
    client.traces = []
    client.waiters = []
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=make_client, server_env=SERVER_ENV)


def initialize_params(workspace: Path, capabilities: types.ClientCapabilities) -> types.InitializeParams:
    uri = from_fs_path(str(workspace))
    return types.InitializeParams(
        capabilities=capabilities,
        root_uri=uri,
        workspace_folders=[types.WorkspaceFolder(uri=uri, name=workspace.name)],
    )


# -- helpers the tests share --------------------------------------------------

def file_uri(path: Path) -> str:
    return from_fs_path(str(path))


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1, language_id: str = "shellscript") -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)
        )
    )


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def published(client: LanguageClient, uri: str, version: int | None = None, after: int = 0, timeout: float = WAIT_BOUND) -> Published:
    """The first publishDiagnostics for uri (at that version) among those received after index `after`."""

    def found() -> Published | None:
        for item in client.published[after:]:
            if item.params.uri == uri and (version is None or item.params.version == version):
                return item
        return None

    return await arrival(client, found, f"diagnostics for {uri} version {version}", timeout)


def trace_verbosely(client: LanguageClient) -> None:
    """Ask the server for `$/logTrace` (it says which lint published what, server.py `trace`)."""
    client.protocol.notify(types.SET_TRACE, types.SetTraceParams(value=types.TraceValue.Verbose))


async def traced(client: LanguageClient, text: str, after: int = 0, timeout: float = WAIT_BOUND) -> Traced:
    """The first `$/logTrace` holding text among those received after index `after`."""

    def found() -> Traced | None:
        return next((item for item in client.traces[after:] if text in item.message), None)

    return await arrival(client, found, f"a trace with {text!r}", timeout)


async def exact_diagnostics(client: LanguageClient, uri: str, version: int, after: int = 0, timeout: float = WAIT_BOUND) -> Traced:
    """When the exact lint of that version was done: its diagnostics published, or found the same as the provisional ones."""
    return await traced(client, f"exact diagnostics of {uri} version {version}:", after, timeout)


async def diagnostics(client: LanguageClient, uri: str, version: int | None = None, after: int = 0) -> list[types.Diagnostic]:
    return list((await published(client, uri, version, after)).params.diagnostics)


# -- applying what the server sends, independently of pipelint's LineIndex -------

def _offset(text: str, position: types.Position, encoding: str) -> int:
    """A str index for an LSP position; lines end at "\\r\\n", "\\n" or a lone "\\r", as LSP says."""
    pieces = re.split(r"(\r\n|\r|\n)", text)  # line, terminator, line, …, line
    lines, ends = pieces[0::2], pieces[1::2] + [""]
    if position.line >= len(lines):
        return len(text)
    index = sum(len(line) + len(end) for line, end in zip(lines[: position.line], ends))
    units = 0
    for count, char in enumerate(lines[position.line]):
        if units >= position.character:
            return index + count
        units += len(char.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(char.encode("utf-8", "surrogateescape"))
    return index + len(lines[position.line])


def apply_text_edits(text: str, edits: list[types.TextEdit], encoding: str = "utf-16") -> str:
    spans = [(_offset(text, e.range.start, encoding), _offset(text, e.range.end, encoding), e.new_text) for e in edits]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def apply_workspace_edit(text: str, uri: str, edit: types.WorkspaceEdit, version: int | None = None, encoding: str = "utf-16") -> str:
    if edit.document_changes:
        for change in edit.document_changes:
            assert change.text_document.uri == uri
            if version is not None:
                assert change.text_document.version == version
            text = apply_text_edits(text, list(change.edits), encoding)
        return text
    return apply_text_edits(text, list(edit.changes[uri]), encoding)


async def code_actions(client: LanguageClient, uri: str, range_: types.Range, only: list[str] | None = None):
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=range_,
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return list(result or [])


# -- talking to the server below the typed API ----------------------------------

def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def send_raw(client: LanguageClient, data: bytes) -> None:
    """Bytes straight onto the server's stdin: frames the typed client would never write."""
    client.protocol.writer.write(data)


def expect_response(client: LanguageClient, request_id: int | str | None) -> asyncio.Future:
    """A future for the response with this id (None: an error the server could not tie to a request).

    pygls's client resolves futures it keeps by id; registering one here (its
    `_request_futures`) lets a test await the answer to a request it wrote raw.
    """
    future: concurrent.futures.Future = concurrent.futures.Future()
    client.protocol._request_futures[request_id] = future
    return asyncio.wrap_future(future)


async def refusal(answer: asyncio.Future, timeout: float = 30) -> JsonRpcException:
    """The JSON-RPC error a response carries; fails if it is a result or does not come."""
    try:
        result = await asyncio.wait_for(answer, timeout)
    except JsonRpcException as error:
        return error
    raise AssertionError(f"expected an error response, got {result!r}")


async def raw_request(client: LanguageClient, method: str, params: object, request_id: int | str) -> asyncio.Future:
    """Send a request as raw JSON (params the typed client would refuse to build); its answer's future."""
    answer = expect_response(client, request_id)
    body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode()
    send_raw(client, frame(body))
    return answer


@contextlib.asynccontextmanager
async def lsp_server(workspace: Path, env: dict[str, str] | None = None, capabilities: types.ClientCapabilities | None = None):
    """A server of its own, started with extra environment variables, initialized, shut down after."""
    client = make_client()
    await client.start_io(*SERVER, env={**SERVER_ENV, **(env or {})})
    try:
        await client.initialize_session(initialize_params(workspace, capabilities or client_capabilities("visual-studio-code")))
        yield client
    finally:
        try:  # also after a failed test, or stop() would wait for a server never told to exit
            await asyncio.wait_for(client.shutdown_session(), 30)
        except Exception:
            client._server.kill()  # pygls keeps the subprocess here
        await client.stop()


def take_snapshot(
    uri: str, version: int | None, text: str, language_id: str | None, folder: Path, encoding: Encoding = Encoding.UTF16
) -> Snapshot:
    """Lint one document's text here and now, as the server's worker does."""
    document = DocumentText(uri, version, text, language_id)
    return Snapshot.of(document, lint_document(LintJob.of(document, folder, encoding)))


def failure_diagnostic(snapshot: Snapshot, encoding: Encoding) -> types.Diagnostic | None:
    """The note on the snapshot's parse failures, as an lsprotocol Diagnostic, or None."""
    failures = snapshot.report.parse_failures if snapshot.report is not None else []
    wire = failure_wire(snapshot.index, failures, encoding)
    return None if wire is None else default_converter().structure(wire, types.Diagnostic)
