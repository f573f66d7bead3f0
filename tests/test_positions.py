"""The one place positions are converted, with non-ASCII text, emoji and raw bytes."""

from __future__ import annotations

import pytest

from pipelint.positions import Encoding, LineIndex, Position

SOURCE = "x\néa😀b\tc\n".encode() + b"\xff\xfez\r\nlast"


@pytest.mark.parametrize(
    ("needle", "characters", "utf16", "utf8"),
    [
        (b"b", Position(1, 3), Position(1, 4), Position(1, 7)),
        (b"c", Position(1, 5), Position(1, 6), Position(1, 9)),
        (b"z", Position(2, 2), Position(2, 2), Position(2, 2)),
        (b"last", Position(3, 0), Position(3, 0), Position(3, 0)),
    ],
)
def test_offsets_to_positions_and_back(needle, characters, utf16, utf8):
    index = LineIndex(SOURCE)
    offset = SOURCE.index(needle)
    assert index.position(offset, Encoding.CHARACTERS) == characters
    assert index.position(offset, Encoding.UTF16) == utf16
    assert index.position(offset, Encoding.UTF8) == utf8
    for position, encoding in ((characters, Encoding.CHARACTERS), (utf16, Encoding.UTF16), (utf8, Encoding.UTF8)):
        assert index.offset(position, encoding) == offset


def test_columns_past_the_end_clamp_to_the_line_end():
    index = LineIndex(SOURCE)
    assert index.offset(Position(2, 99), Encoding.UTF16) == SOURCE.index(b"\r\n")
    assert index.offset(Position(9, 0)) == len(SOURCE)


def test_line_text_is_lossless():
    index = LineIndex(SOURCE)
    assert index.line_text(2).encode("utf-8", "surrogateescape") == b"\xff\xfez"
