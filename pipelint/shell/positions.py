"""The one place where positions are converted.

tree-sitter reports byte offsets and (row, byte column) points; people and the
JSON output count columns in characters; LSP clients count UTF-16 code units
(or UTF-8 bytes, if negotiated).  Scripts may hold invalid UTF-8: such a byte
decodes (surrogateescape) to one lone surrogate, so it counts as one character
and one UTF-16 unit.

What ends a line differs too: bash, and so the CLI's line numbers, know only
"\n" (a "\r" before it belongs to the line, a lone "\r" is an ordinary
character), while an LSP client ends a line at "\r\n", "\n" or a lone "\r".
A `LineIndex` counts lines one way or the other (`LineBreaks`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from enum import Enum


class Encoding(Enum):
    """How a column is counted."""

    CHARACTERS = "characters"  # code points: the CLI and JSON outputs
    UTF16 = "utf-16"  # LSP default
    UTF8 = "utf-8"  # bytes: tree-sitter, LSP when negotiated


class LineBreaks(Enum):
    """What ends a line."""

    NEWLINE = re.compile(rb"\n")  # bash, the CLI and its outputs
    LSP = re.compile(rb"\r\n|\r|\n")  # the LSP specification ("Text Documents": EOL)


@dataclass(frozen=True, order=True)
class Position:
    """A 0-based line and a 0-based column counted in some Encoding."""

    line: int
    column: int


def _units(text: str, encoding: Encoding) -> int:
    if encoding is Encoding.CHARACTERS:
        return len(text)
    if encoding is Encoding.UTF8:
        return len(text.encode("utf-8", "surrogateescape"))
    # Astral characters take two UTF-16 units; lone surrogates from
    # surrogateescape stand for one raw byte and take one.
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def byte_position(source: bytes, offset: int) -> Position:
    """The line ("\n" ends one, as tree-sitter counts) and byte column of one offset, without
    building a LineIndex: ~0.1 ms for one offset in 128 KB where an index costs ~3 ms."""
    return Position(source.count(b"\n", 0, offset), offset - (source.rfind(b"\n", 0, offset) + 1))


class LineIndex:
    """Maps byte offsets of one source to line/column positions and back."""

    def __init__(self, source: bytes, breaks: LineBreaks = LineBreaks.NEWLINE):
        self.source = source
        self.breaks = breaks
        self.line_starts = [0, *(match.end() for match in breaks.value.finditer(source))]
        self._ascii: dict[int, bool] = {}

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset) - 1

    def _next_line_start(self, line: int) -> int:
        return self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.source)

    def line_bytes(self, line: int) -> bytes:
        start = self.line_starts[line]
        end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.source)
        return self.source[start:end]

    def line_end(self, line: int) -> int:
        """The offset where the line's text ends, before its terminator."""
        return self.line_starts[line] + len(self.line_bytes(line).rstrip(b"\r\n"))

    def line_text(self, line: int) -> str:
        """The line without its terminator, decoded losslessly."""
        return self.source[self.line_starts[line] : self.line_end(line)].decode("utf-8", "surrogateescape")

    def _is_ascii(self, line: int) -> bool:
        """Whether the line is ASCII, asked once per line: decoding each finding's line prefix
        again made a one-line script with many findings quadratic (issue 14's nested `$(…)`)."""
        known = self._ascii.get(line)
        if known is None:
            known = self._ascii[line] = self.line_bytes(line).isascii()
        return known

    def position(self, offset: int, encoding: Encoding = Encoding.CHARACTERS) -> Position:
        offset = max(0, min(offset, len(self.source)))
        line = self.line_of(offset)
        if self.breaks is LineBreaks.LSP and offset + 2 >= self._next_line_start(line):
            # Between the "\r" and "\n" of one terminator: that is the line's end for
            # a client, which would otherwise clamp a column past it the same way.
            # (A terminator is at most 2 bytes: offsets before it need no look.)
            offset = min(offset, self.line_end(line))
        if encoding is Encoding.UTF8 or self._is_ascii(line):
            return Position(line, offset - self.line_starts[line])  # a byte is a character and a UTF-16 unit
        prefix = self.source[self.line_starts[line] : offset]
        return Position(line, _units(prefix.decode("utf-8", "surrogateescape"), encoding))

    def offset(self, position: Position, encoding: Encoding = Encoding.CHARACTERS) -> int:
        """The byte offset of a position; columns past the line end clamp to it."""
        if position.line >= len(self.line_starts):
            return len(self.source)
        line = max(position.line, 0)
        start = self.line_starts[line]
        content = self.source[start : self.line_end(line)]
        if encoding is Encoding.UTF8:
            return start + min(position.column, len(content))
        units = 0
        consumed = 0
        for ch in content.decode("utf-8", "surrogateescape"):
            if units >= position.column:
                break
            units += _units(ch, encoding)
            consumed += len(ch.encode("utf-8", "surrogateescape"))
        return start + consumed


class CharacterOffsets:
    """Byte offsets of character indices into a decoded text.

    Parsers of other languages count in characters (PyYAML's marks index the
    decoded str); findings and edits count UTF-8 bytes.  The text is the
    source decoded with "surrogateescape", so it encodes back to the same bytes.
    """

    def __init__(self, text: str):
        self.text = text
        self._ascii = text.isascii()
        self._line_starts = [0, *(index + 1 for index, ch in enumerate(text) if ch == "\n")] if not self._ascii else [0]
        self._byte_starts = [0]
        for start, end in zip(self._line_starts, self._line_starts[1:]):
            self._byte_starts.append(self._byte_starts[-1] + len(text[start:end].encode("utf-8", "surrogateescape")))

    def byte(self, index: int) -> int:
        if self._ascii:
            return index
        line = bisect.bisect_right(self._line_starts, index) - 1
        start = self._line_starts[line]
        return self._byte_starts[line] + len(self.text[start:index].encode("utf-8", "surrogateescape"))
