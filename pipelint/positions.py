"""The one place where positions are converted.

tree-sitter reports byte offsets and (row, byte column) points; people and the
JSON output count columns in characters; LSP clients count UTF-16 code units
(or UTF-8 bytes, if negotiated).  Scripts may hold invalid UTF-8: such a byte
decodes (surrogateescape) to one lone surrogate, so it counts as one character
and one UTF-16 unit.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from enum import Enum


class Encoding(Enum):
    """How a column is counted."""

    CHARACTERS = "characters"  # code points: the CLI and JSON outputs
    UTF16 = "utf-16"  # LSP default
    UTF8 = "utf-8"  # bytes: tree-sitter, LSP when negotiated


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


class LineIndex:
    """Maps byte offsets of one source to line/column positions and back."""

    def __init__(self, source: bytes):
        self.source = source
        self.line_starts = [0]
        start = source.find(b"\n")
        while start != -1:
            self.line_starts.append(start + 1)
            start = source.find(b"\n", start + 1)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset) - 1

    def line_bytes(self, line: int) -> bytes:
        start = self.line_starts[line]
        end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.source)
        return self.source[start:end]

    def line_text(self, line: int) -> str:
        """The line without its terminator, decoded losslessly."""
        return self.line_bytes(line).rstrip(b"\r\n").decode("utf-8", "surrogateescape")

    def position(self, offset: int, encoding: Encoding = Encoding.CHARACTERS) -> Position:
        offset = max(0, min(offset, len(self.source)))
        line = self.line_of(offset)
        prefix = self.source[self.line_starts[line] : offset]
        if encoding is Encoding.UTF8:
            return Position(line, len(prefix))
        return Position(line, _units(prefix.decode("utf-8", "surrogateescape"), encoding))

    def offset(self, position: Position, encoding: Encoding = Encoding.CHARACTERS) -> int:
        """The byte offset of a position; columns past the line end clamp to it."""
        if position.line >= len(self.line_starts):
            return len(self.source)
        start = self.line_starts[max(position.line, 0)]
        raw = self.line_bytes(max(position.line, 0))
        content = raw.rstrip(b"\r\n")
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
