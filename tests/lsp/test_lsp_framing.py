"""The frame reader on its own: every bad frame is one BadFrame, and the next message still arrives."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest

from pipelint.lsp.framing import MAX_BODY_BYTES, MAX_LINE_BYTES, BadFrame, BlockingStream, FrameReader


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RecordingStream(io.BytesIO):
    """Remembers the largest single read, to show no announced length is allocated unchecked."""

    largest = 0

    def read(self, size: int = -1) -> bytes:
        self.largest = max(self.largest, size)
        return super().read(size)

    def readline(self, size: int = -1) -> bytes:
        self.largest = max(self.largest, size)
        return super().readline(size)


async def read_all(data: bytes) -> tuple[list[bytes | str], RecordingStream]:
    """Each body, or "bad" for each BadFrame, until the end of the input."""
    stream = RecordingStream(data)
    with ThreadPoolExecutor(1) as executor:
        reader = FrameReader(BlockingStream(stream, executor))
        seen: list[bytes | str] = []
        while True:
            try:
                body = await reader.next_body()
            except BadFrame:
                seen.append("bad")
                continue
            if body is None:
                return seen, stream
            seen.append(body)


A, B = b'{"a": 1}', b'{"b": [2, "\\r\\n Content-Length: 9"]}'


@pytest.mark.asyncio
async def test_well_formed_frames_with_other_headers_and_blank_lines():
    data = frame(A) + b"\r\n" + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(B)
    assert (await read_all(data))[0] == [A, B]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "bad",
    [
        b"Content-Length: abc\r\n\r\n" + A,
        b"Content-Length: -5\r\n\r\n" + A,
        b"Content-Length: 99999999999\r\n\r\n" + A,
        b"Content-Length: %d\r\n\r\n" % (MAX_BODY_BYTES + 1) + A,
        b"Content-Length: " + b"9" * 10_000 + b"\r\n\r\n" + A,
        b"Content-Type: x\r\n\r\n" + A,
        b"not a header at all\r\n" + A,
        b"\x00\xff" * 100_000 + A,  # binary, no line end for 200 KB
    ],
)
async def test_a_bad_frame_is_one_error_and_the_next_message_arrives(bad):
    seen, stream = await read_all(frame(A) + bad + frame(B))
    assert seen == [A, "bad", B]
    assert stream.largest <= MAX_BODY_BYTES


@pytest.mark.asyncio
async def test_a_header_cut_between_two_pieces_of_a_long_line_is_found():
    for cut in range(1, len(b"Content-Length: 12\r\n")):
        garbage = b"x" * (MAX_LINE_BYTES - cut)
        seen, _ = await read_all(b"Content-Length: abc\r\n\r\n" + garbage + frame(B))
        assert seen == ["bad", B], cut


@pytest.mark.asyncio
async def test_a_body_longer_than_announced_costs_that_message_only():
    # 3 bytes announced, 8 sent: the rest runs into the next header.
    seen, _ = await read_all(b"Content-Length: 3\r\n\r\n" + A + frame(B))
    assert seen == [A[:3], "bad", B]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", [A]),
        (b"Content-Length: 10\r\n", [A]),  # inside the headers
        (b"Content-Length: 10\r\n\r\n{}", [A]),  # inside a body
        (b"garbage", [A, "bad"]),
    ],
)
async def test_the_end_of_the_input_ends_reading(data, expected):
    assert (await read_all(frame(A) + data))[0] == expected
