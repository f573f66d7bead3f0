"""The one place positions are converted, with non-ASCII text, emoji and raw bytes."""

from __future__ import annotations

import re

import pytest

from pipelint.shell.positions import Encoding, LineBreaks, LineIndex, Position

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


# -- line breaks: "\n" for bash and the CLI; "\r\n", "\n" and a lone "\r" for LSP ----

MIXED = "#!/bin/sh\r\ncat é.log | grep x\recho 😀 ok\ncat b | wc\r\r\nü\rlast".encode()


def lsp_lines(text: str) -> list[str]:
    """An independent oracle: LSP's line split, on decoded text."""
    return re.split(r"\r\n|\r|\n", text)


def test_lsp_breaks_count_crlf_lf_and_a_lone_cr_as_one_line_end_each():
    index = LineIndex(MIXED, LineBreaks.LSP)
    lines = lsp_lines(MIXED.decode())
    assert len(index.line_starts) == len(lines) == 7
    assert [index.line_text(n) for n in range(len(lines))] == lines


@pytest.mark.parametrize("encoding", list(Encoding))
def test_lsp_positions_match_the_oracle_at_every_character(encoding):
    index = LineIndex(MIXED, LineBreaks.LSP)
    text = MIXED.decode()
    units = {
        Encoding.CHARACTERS: len,
        Encoding.UTF16: lambda s: len(s.encode("utf-16-le")) // 2,
        Encoding.UTF8: lambda s: len(s.encode()),
    }[encoding]
    for at in range(len(text) + 1):
        before = lsp_lines(text[:at])
        expected = Position(len(before) - 1, units(before[-1]))
        if text[at - 1 : at + 1] == "\r\n":
            continue  # inside a terminator: see the next test
        offset = len(text[:at].encode())
        assert index.position(offset, encoding) == expected, repr(text[:at])
        assert index.offset(expected, encoding) == offset


def test_an_offset_inside_crlf_is_the_end_of_its_line_for_lsp():
    index = LineIndex(MIXED, LineBreaks.LSP)
    inside = MIXED.index(b"\r\n") + 1
    assert index.position(inside, Encoding.UTF16) == Position(0, len("#!/bin/sh"))


def test_the_cli_keeps_counting_only_newlines():
    index = LineIndex(MIXED)
    assert len(index.line_starts) == MIXED.count(b"\n") + 1 == 4
    # The lone "\r" is a character of line 1 (0-based), as bash sees it.
    echo = MIXED.index(b"echo")
    assert index.position(echo) == Position(1, len("cat é.log | grep x\r"))
    assert index.line_text(1) == "cat é.log | grep x\recho 😀 ok"
