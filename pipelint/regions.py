"""Shell text that lives inside another text, and the way back to that text.

`sh -c 'cat f | wc -l'` runs a second script: the string's contents. A
Dockerfile's `RUN` line and a workflow's `run:` block are scripts inside
files that are not scripts. A `Region` holds such an inner script as the
shell will see it, plus the pieces of it that are copied verbatim from the
host text, so that:

- a finding inside the region points at the host's bytes (`outer_span`);
- a fix inside it is written back only where the edit round-trips the host's
  quoting exactly (`outer_edit`): inside one piece, with content that piece's
  quoting can hold unchanged. Anything else stays a finding without a fix.

Text between pieces (the spaces `ssh` puts between its arguments, a
placeholder for an expansion the outer shell does) maps to no host byte: an
edit touching it has no place to go.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from pipelint.dialect import Dialect
from pipelint.finding import Edit


class Quoting(Enum):
    """How a piece is written in the host text: what an edit's content may hold there."""

    RAW = "raw"  # copied as is, line breaks included (a quoted here-document body, a whole script)
    LINE = "line"  # copied as is within one line (a Dockerfile line, a line of a YAML block scalar)
    SINGLE = "single"  # inside '…': anything but '
    DOUBLE = "double"  # inside "…": nothing the quotes would expand or end: $ ` " \
    UNQUOTED = "unquoted"  # a bare word: only characters that need no quoting
    ESCAPED = "escaped"  # the character after a backslash (`\\"`): a finding may point at it, no edit may touch it
    # Copied as is, but the host cannot take an edit there: a folded YAML scalar (its
    # line breaks are not the script's), a step that may also run under PowerShell.
    READ_ONLY = "read-only"

    def holds(self, content: bytes) -> bool:
        if self is Quoting.ESCAPED or self is Quoting.READ_ONLY:
            return False
        if self is Quoting.RAW:
            return True
        if self is Quoting.LINE:
            return b"\n" not in content and b"\r" not in content
        if self is Quoting.SINGLE:
            return b"'" not in content
        if self is Quoting.DOUBLE:
            return not any(ch in content for ch in b'$`"\\')
        return all(ch in _BARE for ch in content)


# Bytes a bare shell word may hold without quoting (no blanks, no metacharacters).
_BARE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./-=:,@%+")


@dataclass(frozen=True, order=True)
class Piece:
    """text[inner : inner + length] is host[outer : outer + length], written under `quotings`.

    A piece of a region nested in another region is under both quotings
    (`ssh h "sh -c 'cat f | wc'"`): an edit must suit every one of them.
    """

    inner: int
    outer: int
    length: int
    quotings: tuple[Quoting, ...] = (Quoting.RAW,)

    @property
    def inner_end(self) -> int:
        return self.inner + self.length

    def holds(self, content: bytes) -> bool:
        return all(quoting.holds(content) for quoting in self.quotings)


# One stretch of a region's text: its bytes, where they are in the host (None: nowhere), their quoting there.
Part = tuple[bytes, "int | None", Quoting]


@dataclass(frozen=True)
class Region:
    """An inner script: its text, its dialect, and how it maps back to the host text."""

    text: bytes
    pieces: tuple[Piece, ...]  # sorted by inner offset, not overlapping
    dialect: Dialect
    origin: str  # for messages: "the command `sh -c` runs", "a Dockerfile RUN"
    # Where the inner script starts in the host (for a finding that maps nowhere better).
    anchor: int = 0
    # Facts the inner script cannot see in its own text.
    errexit: bool = False  # `set -e` in force from its first line (GitHub Actions' `bash -e`)
    pipefail: bool = False
    stdout_over_network: bool = False  # the remote command of `ssh`: its output crosses the link
    stdin_over_network: bool = False
    reports_parse_failures: bool = True  # False where the text may be partly the outer shell's words
    depth: int = 0  # how many regions enclose this one
    # (placeholder, the host text it stands for): a rewrite is shown with the host's words (GitHub's `${{ … }}`).
    opaque: tuple[tuple[bytes, bytes], ...] = ()
    _starts: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_starts", tuple(piece.inner for piece in self.pieces))

    @classmethod
    def whole(cls, source: bytes, dialect: Dialect) -> Region:
        """A script file: every byte maps to itself."""
        return cls(source, (Piece(0, 0, len(source)),), dialect, "the script")

    @classmethod
    def from_parts(cls, parts: Iterable[Part], dialect: Dialect, origin: str, **facts: object) -> Region:
        """The region whose text is the parts in order; a part with an outer offset is a piece.

        Parts without one (a join, a placeholder) stand for no host byte.
        """
        text = bytearray()
        pieces = []
        for data, outer, quoting in parts:
            if outer is not None and data:
                pieces.append(Piece(len(text), outer, len(data), (quoting,)))
            text += data
        anchor = pieces[0].outer if pieces else 0
        facts.setdefault("anchor", anchor)
        return cls(bytes(text), tuple(pieces), dialect, origin, **facts)  # type: ignore[arg-type]

    def _index_at(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset) - 1

    def piece_at(self, offset: int) -> Piece | None:
        """The piece holding the byte at inner offset."""
        index = self._index_at(offset)
        if index < 0:
            return None
        piece = self.pieces[index]
        return piece if offset < piece.inner_end else None

    def piece_ending_at(self, offset: int) -> Piece | None:
        """The piece whose last byte is just before inner offset."""
        index = self._index_at(offset - 1)
        if index < 0:
            return None
        piece = self.pieces[index]
        return piece if piece.inner < offset <= piece.inner_end else None

    def outer_offset(self, offset: int) -> int | None:
        piece = self.piece_at(offset)
        return None if piece is None else piece.outer + (offset - piece.inner)

    def outer_end(self, offset: int) -> int | None:
        """Host offset of an end (exclusive) offset."""
        piece = self.piece_ending_at(offset)
        return None if piece is None else piece.outer + (offset - piece.inner)

    def outer_span(self, start: int, end: int) -> tuple[int, int]:
        """A finding's span in host bytes; ends that fall between pieces move to the nearest piece."""
        outer_start = self.outer_offset(start)
        if outer_start is None:
            outer_start = self._nearest_after(start)
        outer_end = self.outer_end(end) if end > start else outer_start
        if outer_end is None:
            outer_end = self._nearest_before(end)
        return outer_start, max(outer_start, outer_end)

    def _nearest_after(self, offset: int) -> int:
        following = [piece for piece in self.pieces if piece.inner >= offset]
        if following:
            return following[0].outer
        return self.pieces[-1].outer + self.pieces[-1].length if self.pieces else self.anchor

    def _nearest_before(self, offset: int) -> int:
        preceding = [piece for piece in self.pieces if piece.inner_end <= offset]
        if preceding:
            return preceding[-1].outer + preceding[-1].length
        return self.pieces[0].outer if self.pieces else self.anchor

    def outer_edit(self, edit: Edit) -> Edit | None:
        """The same edit in host bytes, or None when the host's quoting cannot take it unchanged."""
        if edit.end > edit.start:
            piece = self.piece_at(edit.start)
        else:  # an insertion where two pieces meet goes to the end of the first: on the line of what it follows
            piece = self.piece_ending_at(edit.start) or self.piece_at(edit.start)
        if piece is None or edit.end > piece.inner_end or not piece.holds(edit.content):
            return None
        shift = piece.outer - piece.inner
        return Edit(edit.start + shift, edit.end + shift, edit.content)

    def inner_edit(self, edit: Edit) -> Edit | None:
        """The inverse of outer_edit: a host edit as an edit of the text, or None when it is outside every piece."""
        for piece in self.pieces:
            if piece.outer <= edit.start and edit.end <= piece.outer + piece.length:
                shift = piece.inner - piece.outer
                return Edit(edit.start + shift, edit.end + shift, edit.content)
        return None

    def shown(self, text: str) -> str:
        """text, read from this region's, with each placeholder back to the host text it stands for."""
        for placeholder, original in self.opaque:
            text = text.replace(placeholder.decode(), original.decode("utf-8", "replace"))
        return text

    def inside(self, parent: Region) -> Region:
        """This region, found in parent.text, with its pieces mapped to parent's host.

        A piece of ours that crosses parent's pieces is cut where they join,
        and each part keeps both quotings.
        """
        pieces: list[Piece] = []
        for piece in self.pieces:
            cursor = piece.inner
            while cursor < piece.inner_end:
                in_parent = piece.outer + (cursor - piece.inner)
                holder = parent.piece_at(in_parent)
                if holder is None:
                    cursor += 1  # a byte the parent invented (a join, a placeholder): maps nowhere
                    continue
                length = min(piece.inner_end - cursor, holder.inner_end - in_parent)
                quotings = tuple(dict.fromkeys(piece.quotings + holder.quotings))
                pieces.append(Piece(cursor, holder.outer + (in_parent - holder.inner), length, quotings))
                cursor += length
        anchor = parent.outer_offset(self.anchor)
        return replace(
            self,
            pieces=tuple(pieces),
            anchor=parent.anchor if anchor is None else anchor,
            depth=parent.depth + 1,
            opaque=self.opaque + parent.opaque,  # the parent's placeholders are in our text too
        )
