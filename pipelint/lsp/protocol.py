"""pygls's LSP protocol, with the answers JSON-RPC owes a client that sent something wrong.

pygls turns a request whose params do not fit the LSP types (a negative
position, no `context` in a code action, a `textDocument` that is not an
object) into a `window/showMessage` and never answers it, so the client waits
for ever.  Here every request gets a response: InvalidParams (-32602) naming
the field, and InvalidRequest (-32600) or ParseError (-32700, id null as
JSON-RPC 2.0 requires when the id cannot be known) for what is not a request
at all.  A notification cannot be answered: its problem goes to the client's
log (`window/logMessage`).
"""

from __future__ import annotations

import json
import logging
from typing import Any

import cattrs
from cattrs.v import format_exception
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
)
from pygls.protocol import LanguageServerProtocol, lsp_method

from pipelint.lsp.ranges import prefer_utf8

logger = logging.getLogger(__name__)


class PipelintProtocol(LanguageServerProtocol):
    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        # Choose UTF-8 positions whenever the client offers them (see ranges.prefer_utf8).
        return (yield from super().lsp_initialize(prefer_utf8(params)))

    def receive(self, body: bytes) -> None:
        """Handle one message body as pygls would, answering what pygls leaves unanswered."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
            self.reply_error(None, JsonRpcParseError(f"Parse Error: {error}"))
            return
        if not isinstance(data, dict) or data.get("jsonrpc") != self.VERSION:
            self.reply_error(_request_id(data), JsonRpcInvalidRequest('Invalid Request: not a JSON-RPC "2.0" object'))
            return
        try:
            message = self.structure_message(data)
        except JsonRpcException as error:
            self._refuse(data, error)
            return
        try:
            self.handle_message(message)
        except Exception:  # pygls answers requests itself; this is a last resort to keep serving
            logger.exception("failed to handle %s", data.get("method"))

    def _refuse(self, data: dict, error: JsonRpcException) -> None:
        cause = error.__cause__
        if isinstance(error, JsonRpcInvalidParams) and isinstance(cause, Exception):
            detail = "; ".join(cattrs.transform_error(cause, format_exception=_describe))
            error = JsonRpcInvalidParams(f"Invalid Params: {detail}")
        if "method" in data and "id" in data:
            self.reply_error(_request_id(data), error)
        else:
            method = data.get("method", "a response")
            self.send_log(types.MessageType.Error, f"pipelint: ignored {method}: {error.message}")

    def reply_error(self, request_id: int | str | None, error: JsonRpcException) -> None:
        """A JSON-RPC error response; written as a plain dict so that an unknown id stays `null`."""
        response = {
            "jsonrpc": self.VERSION,
            "id": request_id,
            "error": {"code": error.code, "message": error.message},
        }
        self._send_data(response)

    def send_json(self, body: str) -> None:
        """Write one message already in JSON (ASCII, as json.dumps makes it), framed as pygls frames its own."""
        if self.writer is None:
            logger.error("Unable to send data, no available transport!")
            return
        header = f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        self.writer.write((header + body).encode(self.CHARSET))

    def send_log(self, kind: types.MessageType, message: str) -> None:
        self.notify(types.WINDOW_LOG_MESSAGE, types.LogMessageParams(type=kind, message=message))


def _request_id(data: Any) -> int | str | None:
    request_id = data.get("id") if isinstance(data, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        return None
    return request_id


def _describe(error: BaseException, kind: Any) -> str:
    """cattrs' wording, except for validators, whose own message says what was wrong."""
    if isinstance(error, ValueError) and not isinstance(error, JsonRpcInternalError):
        return str(error)
    return format_exception(error, kind)
