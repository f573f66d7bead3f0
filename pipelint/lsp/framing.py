"""Reading LSP messages off the client's byte stream, and surviving bad ones.

A message is a header block — `Content-Length: N`, maybe `Content-Type: …`,
each line ended by "\\r\\n", then an empty line — and N bytes of JSON.
pygls's reader trusts the header: `Content-Length: abc` never matches its
pattern, so it reads on through bodies and every later message is misaligned
(the server is wedged); `Content-Length: 99999999999` asks for 93 GiB in one
read (MemoryError: the server dies).

`FrameReader` raises `BadFrame` for a header block it cannot use (no length,
a length that is not a number, one over MAX_BODY_BYTES, a line that is not a
header) and then skips to the next message.  A skipped body is read in pieces
of at most MAX_LINE_BYTES and dropped, so memory stays bounded whatever the
client sends.  The next message starts at the first line that ends in
`Content-Length: N` "\\r\\n": a JSON body cannot contain that (a raw CR or LF
is not allowed inside a JSON string, and outside strings the text would not
be JSON), so the first such line after a bad frame is a real header, even when
it comes glued to the end of the body it follows.
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import Executor
from typing import BinaryIO

# The largest body accepted.  The biggest message a client sends is a whole
# document (didOpen, or didChange with full sync); documents over the live
# lint limit (documents.LIVE_LINT_BYTES, 1 MiB) are only held, not linted,
# so 64 MiB leaves room for any script while refusing absurd lengths before
# allocating them.
MAX_BODY_BYTES = 64 * 1024 * 1024

# Header lines are a few dozen bytes; longer lines are read in pieces this size.
MAX_LINE_BYTES = 64 * 1024

# A header: a token (RFC 9110 field name), a colon, a value, a line end.
_HEADER = re.compile(rb"([A-Za-z0-9!#$%&'*+.^_`|~-]+):[ \t]*(.*?)[ \t]*\r?\n")
_CONTENT_LENGTH_AT_LINE_END = re.compile(rb"Content-Length:[ \t]*\d+[ \t]*\r\n\Z", re.IGNORECASE)
# Enough of the previous piece of a long line to hold a header split between two pieces.
_CARRY = 64


class BadFrame(Exception):
    """A header block the reader cannot use; the message describes it."""


class BlockingStream:
    """A blocking binary stream (stdin) read in an executor's threads, as pygls does."""

    def __init__(self, stream: BinaryIO, executor: Executor):
        self.stream = stream
        self.executor = executor

    async def readline(self, limit: int) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.stream.readline, limit)

    async def read(self, size: int) -> bytes:
        """Exactly size bytes, or fewer at the end of the input."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.stream.read, size)


class FrameReader:
    def __init__(self, stream: BlockingStream):
        self.stream = stream
        self.lost = False  # after a bad frame: until the next Content-Length line
        self.carry = b""
        self.pushed_back: bytes | None = None  # a bad line, which may end in the next header

    async def next_body(self) -> bytes | None:
        """The next message's body; None at the end of the input.

        Raises BadFrame for an unusable header block; the next call skips to
        the next message.
        """
        try:
            length = await self._header_block()
        except BadFrame:
            self.lost = True
            raise
        if length is None:
            return None
        body = await self.stream.read(length)
        return body if len(body) == length else None

    async def _header_block(self) -> int | None:
        fields: dict[bytes, bytes] = {}
        while True:
            line = await self._next_line()
            if not line:
                return None
            if self.lost:
                line = self._resynchronise(line)
                if line is None:
                    continue
            if line in (b"\r\n", b"\n"):
                if fields:
                    return content_length(fields)
                continue  # blank lines between messages are harmless
            header = _HEADER.fullmatch(line)
            glued = _CONTENT_LENGTH_AT_LINE_END.search(line)
            if header is None or (glued is not None and glued.start() > 0):
                # Not a header, or the tail of a body longer than announced
                # running into the next header: look at it again for that header.
                self.pushed_back = line
                raise BadFrame(f"not a header line: {line[:60]!r}")
            fields[header.group(1).lower()] = header.group(2)

    async def _next_line(self) -> bytes:
        """The next line, or the next MAX_LINE_BYTES of a longer one; b"" at the end of the input."""
        line, self.pushed_back = self.pushed_back, None
        return line if line is not None else await self.stream.readline(MAX_LINE_BYTES)

    def _resynchronise(self, line: bytes) -> bytes | None:
        """The Content-Length line that ends this piece of input, if it holds one."""
        window = self.carry + line
        self.carry = b"" if line.endswith(b"\n") else window[-_CARRY:]
        match = _CONTENT_LENGTH_AT_LINE_END.search(window)
        if match is None:
            return None
        self.lost = False
        self.carry = b""
        return match.group(0)


def content_length(fields: dict[bytes, bytes]) -> int:
    """The body length a header block announces; BadFrame if it is missing, not a number or too big."""
    raw = fields.get(b"content-length")
    if raw is None:
        raise BadFrame("no Content-Length header")
    if not raw.isdigit():
        raise BadFrame(f"Content-Length {raw.decode('ascii', 'backslashreplace')!r} is not a number")
    # Compare digit counts first: int() of a 5,000-digit string is refused by Python itself.
    if len(raw.lstrip(b"0")) > len(str(MAX_BODY_BYTES)) or int(raw) > MAX_BODY_BYTES:
        raise BadFrame(f"Content-Length {raw.decode()} is over the {MAX_BODY_BYTES}-byte limit")
    return int(raw)
