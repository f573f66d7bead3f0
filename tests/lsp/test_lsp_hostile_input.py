"""A client that sends nonsense gets JSON-RPC errors, and the server keeps serving.

Requests are written raw (lsp_client.raw_request, send_raw): the typed client
would refuse to build them.  After each one the same server must still answer
a real request, which is what "keeps serving" means here.
"""

from __future__ import annotations

import pytest
from lsp_client import diagnostics, expect_response, file_uri, frame, open_document, raw_request, refusal, send_raw
from lsprotocol import types

from pipelint.lsp.framing import MAX_BODY_BYTES

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = "#!/bin/bash\n# pipelint: disable=PL003\ncat access.log | grep 500\n"
UNKNOWN = "file:///nowhere/never-opened.sh"
RANGE = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}


async def still_serving(client, workspace, name: str = "alive.sh") -> None:
    """A fresh document is linted and a hover on it answered."""
    uri = file_uri(workspace / name)
    open_document(client, uri, SCRIPT)
    assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL001"]
    answer = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(1, 22))
    )
    assert answer is not None and "PL003" in answer.contents.value


def position(line: int, character: int) -> dict:
    return {"line": line, "character": character}


@pytest.mark.parametrize(
    ("method", "params", "mentions"),
    [
        ("textDocument/hover", {"textDocument": {"uri": "OPEN"}, "position": position(-1, 0)}, "Position.line"),
        ("textDocument/hover", {"textDocument": {"uri": "OPEN"}, "position": position(0, -5)}, "Position.character"),
        ("textDocument/hover", {"textDocument": {"uri": "OPEN"}, "position": position(2**40, 0)}, "Position.line"),
        ("textDocument/hover", {"textDocument": 5, "position": position(0, 0)}, "text_document"),
        ("textDocument/hover", {"position": position(0, 0)}, "text_document"),
        ("textDocument/hover", {"textDocument": {"uri": UNKNOWN}, "position": position(0, 0)}, "not an open document"),
        ("textDocument/codeAction", {"textDocument": {"uri": "OPEN"}, "range": RANGE}, "context"),
        ("textDocument/codeAction", {"textDocument": {"uri": "OPEN"}, "range": "all", "context": {"diagnostics": []}}, "range"),
        (
            "textDocument/codeAction",
            {"textDocument": {"uri": UNKNOWN}, "range": RANGE, "context": {"diagnostics": []}},
            "not an open document",
        ),
        ("codeAction/resolve", {"title": "t", "kind": "source.fixAll.pipelint", "data": {"uri": UNKNOWN}}, "not an open document"),
        ("codeAction/resolve", {"title": "t", "kind": "quickfix", "data": 3}, "fix-all"),
    ],
)
async def test_invalid_params_get_an_invalid_params_error(client, workspace, method, params, mentions):
    uri = file_uri(workspace / "open.sh")
    open_document(client, uri, SCRIPT)
    await diagnostics(client, uri, version=1)
    params = {key: ({"uri": uri} if value == {"uri": "OPEN"} else value) for key, value in params.items()}
    error = await refusal(await raw_request(client, method, params, request_id=f"bad-{method}"))
    assert error.code == -32602
    assert mentions in error.message
    await still_serving(client, workspace)


BODY = b'{"jsonrpc": "2.0", "method": "$/ping", "params": {}}'


@pytest.mark.parametrize(
    ("garbage", "code"),
    [
        (b"Content-Length: abc\r\n\r\n" + BODY, -32700),  # wedged pygls's reader
        (b"Content-Length: 99999999999\r\n\r\n" + BODY, -32700),  # MemoryError in pygls's reader
        (b"Content-Length: %d\r\n\r\n" % (MAX_BODY_BYTES + 1) + BODY, -32700),
        (b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n" + BODY, -32700),  # too many digits for int()
        (b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + BODY, -32700),  # no length at all
        (b"this is not a header\r\n\r\n" + BODY, -32700),
        (b"x" * 200_000 + b"Content-Length: 12\r\n\r\n" + BODY, -32700),  # a long line, cut into pieces
        (frame(b"{not json"), -32700),
        (frame(b"\xff\xfe{}"), -32700),  # not UTF-8
        (frame(b"[" * 100_000 + b"]" * 100_000), -32700),  # deeper than the JSON parser recurses
        (frame(b"[1, 2]"), -32600),  # a batch: not an LSP message
        (frame(b'{"id": null, "method": "textDocument/hover"}'), -32600),  # no "jsonrpc": "2.0"
    ],
)
async def test_garbage_is_answered_and_the_server_keeps_serving(client, workspace, garbage, code):
    answer = expect_response(client, None)  # errors not tied to a request carry id null
    send_raw(client, garbage)
    assert (await refusal(answer)).code == code
    await still_serving(client, workspace)


async def test_a_frame_whose_body_runs_into_the_next_header_is_skipped(client, workspace):
    """The body of a bad frame has no line end; the next message's header follows it at once."""
    answer = expect_response(client, None)
    send_raw(client, b"Content-Length: abc\r\n\r\n" + BODY + frame(BODY)[:-len(BODY)] + BODY)
    assert (await refusal(answer)).code == -32700
    await still_serving(client, workspace)


async def test_a_malformed_notification_is_logged_not_answered(client, workspace):
    logged = len(client.log_messages)
    body = b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 7}}'
    send_raw(client, frame(body))
    await still_serving(client, workspace)
    assert any("textDocument/didOpen" in m.message for m in client.log_messages[logged:])


async def test_a_request_with_an_unusable_id_is_answered_with_id_null(client, workspace):
    answer = expect_response(client, None)
    send_raw(client, frame(b'{"jsonrpc": "2.0", "id": {"no": 1}, "method": "textDocument/hover", "params": 1}'))
    assert (await refusal(answer)).code == -32602
    await still_serving(client, workspace)


async def test_a_path_component_over_255_bytes_is_linted_without_an_error(client, workspace):
    uri = file_uri(workspace / ("x" * 300) / "deep.sh")
    shown = len(client.messages)
    open_document(client, uri, SCRIPT)
    assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL001"]
    assert client.messages[shown:] == []
