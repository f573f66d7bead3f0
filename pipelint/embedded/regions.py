"""Shell text that lives inside another text, and the way back to that text.

`sh -c 'cat f | wc -l'` runs a second script: the string's contents. A
Dockerfile's `RUN` line and a workflow's `run:` block are scripts inside
files that are not scripts. A `Region` holds such an inner script as the
shell will see it, plus the pieces of it that are copied verbatim from the
host text, so that:

- a finding inside the region points at the host's bytes (`outer_span`);
- a fix inside it is written back only where the edit round-trips the host's
  quoting exactly (`place_edits`): inside one piece, with content that piece's
  quoting can hold unchanged. Anything else stays a finding without a fix.

Text between pieces (the spaces `ssh` puts between its arguments, a
placeholder for an expansion the outer shell does) maps to no host byte: an
edit touching it has no place to go.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from pipelint.shell import syntax
from pipelint.shell.dialect import Dialect
from pipelint.shell.options import ANY, Environment, Startup, startup_environment
from pipelint.finding import Edit

if TYPE_CHECKING:
    from tree_sitter import Node


class Quoting(Enum):
    """How a piece is written in the host text: what an edit's content may hold there."""

    RAW = "raw"  # copied as is, line breaks included (a quoted here-document body, a whole script)
    LINE = "line"  # copied as is within one line (a Dockerfile line, a line of a YAML block scalar)
    SINGLE = "single"  # inside '…': anything but '
    DOUBLE = "double"  # inside "…": nothing the quotes would expand or end: $ ` " \
    HEREDOC = "heredoc"  # an unquoted here-document body (`<<EOF`): nothing the outer shell expands: $ ` \
    UNQUOTED = "unquoted"  # a bare word: only characters that need no quoting
    ESCAPED = "escaped"  # the character after a backslash (`\\"`): a finding may point at it, no edit may touch it
    # Copied as is, but the host cannot take an edit there: a folded YAML scalar (its
    # line breaks are not the script's), a step that may also run under PowerShell.
    READ_ONLY = "read-only"
    INTERPOLATED = "interpolated"  # in a value Compose interpolates first: no `$`

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
        if self is Quoting.HEREDOC:
            return not any(ch in content for ch in b"$`\\")
        if self is Quoting.INTERPOLATED:
            return b"$" not in content
        return all(ch in _BARE for ch in content)


# Where a piece of each quoting sits, for advice: "would need quoting inside '…'".
_WHERE = {
    Quoting.RAW: "the text",
    Quoting.LINE: "one line of the host (a line break there would start another)",
    Quoting.SINGLE: "'…'",
    Quoting.DOUBLE: '"…"',
    Quoting.HEREDOC: "a here-document whose delimiter is unquoted",
    Quoting.UNQUOTED: "an unquoted word",
    Quoting.ESCAPED: "an escape",
    Quoting.READ_ONLY: "text the host cannot take an edit in (a folded YAML block, a step that may run under PowerShell)",
    Quoting.INTERPOLATED: "a Compose value, where Compose would read a `$` as its own variable",
}

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
    # `set -o` names in force from its first line: `bash -e -c '…'`, GitHub Actions' `bash -eo pipefail {0}`.
    options: frozenset[str] = frozenset()
    # Whether anything sees the status of its last command: True for a file (its caller),
    # a Dockerfile RUN or a CI step; for `sh -c '…'`, whether the outer script sees that command's.
    status_handed_on: bool = True
    stdout_over_network: bool = False  # the remote command of `ssh`: its output crosses the link
    stdin_over_network: bool = False
    reports_parse_failures: bool = True  # False where the text may be partly the outer shell's words
    depth: int = 0  # how many regions enclose this one
    # Lines the text must never hold: the delimiters of the here-documents it sits in
    # (an edit that wrote one would end the host's here-document early).
    terminators: tuple[bytes, ...] = ()
    # (placeholder, the host text it stands for): a rewrite is shown with the host's words (GitHub's `${{ … }}`).
    opaque: tuple[tuple[bytes, bytes], ...] = ()
    # The startup variables (`shell.options.STARTUP_VARIABLES`: SHELLOPTS, BASHOPTS, BASH_ENV) in the
    # environment of the shell that runs the text, each with its value (None: not known): a host's `ENV`,
    # `env:` or `variables:`, the outer command's `BASH_ENV=… bash -c`, an `export SHELLOPTS` of the
    # outer script. The shells the text starts inherit them.
    environment: Environment = ()
    # Code runs first in the same shell that pipelint cannot read (a `before_script` from another file):
    # it may define any function or alias and turn on any option (issue 25, class 4).
    unseen_code_before: bool = False
    # Where the text holds an expansion the OUTER shell (or the host: `${{ … }}`) makes, with the text
    # written there: the inner shell reads its value as code, and no one can read it (class 2).
    outer_code: tuple[tuple[int, bytes], ...] = ()
    # The shell reads the text from its standard input (`bash -s <<EOF`, `ssh host <<EOF`): a command
    # of the text that reads stdin reads the rest of the text as data (class 3).
    script_on_stdin: bool = False
    _starts: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_starts", tuple(piece.inner for piece in self.pieces))

    @property
    def startup(self) -> Startup:
        """What the environment does to the shell before the first line (`shell.options.startup_environment`)."""
        return startup_environment(self.environment, bash_reads_files=self.dialect is Dialect.BASH)

    @property
    def start_options(self) -> frozenset[str]:
        """The `set -o`/`shopt` names in force from the first line: the command line's and the environment's;
        ANY where unseen code runs first or a value is not known."""
        startup = self.startup
        unknown = startup.options.unknown or startup.runs_file or self.unseen_code_before
        return self.options | startup.options.on | (frozenset({ANY}) if unknown else frozenset())

    @property
    def runs_code_first(self) -> bool:
        """Code pipelint cannot read runs in the same shell before the first line (BASH_ENV, a `before_script` elsewhere)."""
        return self.unseen_code_before or self.startup.runs_file

    @classmethod
    def from_parts(cls, parts: Iterable[Part], dialect: Dialect, origin: str, **facts: object) -> Region:
        """The region whose text is the parts in order; a part with an outer offset is a piece.

        Parts without one (a join, a placeholder) stand for no host byte.
        """
        builder = RegionBuilder()
        for data, outer, quoting in parts:
            if outer is None:
                builder.invent(data)
            else:
                builder.copy(data, outer, quoting)
        anchor = builder.pieces[0].outer if builder.pieces else 0
        facts.setdefault("anchor", anchor)
        return cls(bytes(builder.text), tuple(builder.pieces), dialect, origin, **facts)  # type: ignore[arg-type]

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

    def _place(self, edit: Edit) -> Edit | str:
        """The edit in host bytes, or why it has no place there (for the advice a user reads)."""
        if edit.end > edit.start:
            piece = self.piece_at(edit.start)
        else:  # an insertion where two pieces meet goes to the end of the first: on the line of what it follows
            piece = self.piece_ending_at(edit.start) or self.piece_at(edit.start)
        touched = [p for p in self.pieces if p.inner < max(edit.end, edit.start + 1) and edit.start < p.inner_end]
        if piece is not None:
            touched.append(piece)
        if any(Quoting.ESCAPED in p.quotings for p in touched):
            return "the edit touches a character written with a backslash, or a name the launcher writes in (`{}`)"
        if piece is None or edit.end > piece.inner_end:
            return "the edit spans text the outer command puts together (its words, expansions, or lines `<<-` strips)"
        for quoting in piece.quotings:
            if not quoting.holds(edit.content):
                return f"its new text would need quoting inside {_WHERE[quoting]}"
        shift = piece.outer - piece.inner
        return Edit(edit.start + shift, edit.end + shift, edit.content)

    def place_edits(self, edits: Sequence[Edit]) -> tuple[Edit, ...] | str:
        """All of a fix's edits in host bytes, or why they have no place there.

        No place either when the edited text would hold a line equal to one
        of the terminators: the host's here-document would end on it.
        """
        mapped = []
        for edit in edits:
            placed = self._place(edit)
            if isinstance(placed, str):
                return placed
            mapped.append(placed)
        if self.terminators and self._writes_terminator(edits):
            return "the edit would write the line that ends the here-document"
        return tuple(sorted(mapped))

    def _writes_terminator(self, edits: Sequence[Edit]) -> bool:
        """The edits leave more lines that read as a terminator than there were (leading TABs ignored: `<<-`).

        Only the lines the edits touch can change: comparing those keeps a
        body of 4,000 findings linear (the whole body each time took 40 s).
        """
        if not edits:
            return False
        text = self.text
        start = text.rfind(b"\n", 0, min(edit.start for edit in edits)) + 1
        end = text.find(b"\n", max(edit.end for edit in edits))
        end = len(text) if end < 0 else end
        edited = bytearray(text[start:end])
        for edit in sorted(edits, reverse=True):
            edited[edit.start - start : edit.end - start] = edit.content

        def count(lines: bytes) -> int:
            return sum(line.lstrip(b"\t") in self.terminators for line in lines.split(b"\n"))

        return count(bytes(edited)) > count(text[start:end])

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
        # The parent's outer expansions that our text copies are unknown code here too (`ssh h "sh -c '$x'"`).
        inherited = [
            (piece.inner + at - piece.outer, written)
            for piece in self.pieces
            for at, written in parent.outer_code
            if piece.outer <= at < piece.outer + piece.length
        ]
        return replace(
            self,
            outer_code=tuple(sorted(set(self.outer_code) | set(inherited))),
            pieces=tuple(pieces),
            anchor=parent.anchor if anchor is None else anchor,
            depth=parent.depth + 1,
            terminators=tuple(dict.fromkeys(self.terminators + parent.terminators)),
            opaque=self.opaque + parent.opaque,  # the parent's placeholders are in our text too
        )


# `$name` and `${name}`: the inner script sees some value there, one word when quoted.
_PLAIN_EXPANSION = re.compile(rb"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})\Z")


class RegionBuilder:
    """Inner text grown piece by piece from a host's text (words, here-document lines).

    substituted: text a launcher replaces before the shell reads the script
    (`{}` of `find -exec` and `xargs -I{}`): wherever it occurs it is an
    ESCAPED piece, which a finding may point at and no edit may touch.
    """

    def __init__(self, substituted: bytes = b"") -> None:
        self.text = bytearray()
        self.pieces: list[Piece] = []
        self.substituted = substituted
        self.expanded = False  # the text holds an expansion of the outer shell
        self.outer_code: list[tuple[int, bytes]] = []  # where each one is in the text, and how it is written

    def copy(self, data: bytes, outer: int, quotings: Quoting | tuple[Quoting, ...]) -> None:
        """Bytes that are in the host as they are in the inner text."""
        if isinstance(quotings, Quoting):
            quotings = (quotings,)
        if self.substituted and self.substituted in data and quotings != (Quoting.ESCAPED,):
            cut = data.index(self.substituted)
            after = cut + len(self.substituted)
            self.copy(data[:cut], outer, quotings)
            self.copy(self.substituted, outer + cut, Quoting.ESCAPED)
            self.copy(data[after:], outer + after, quotings)
            return
        if not data:
            return
        last = self.pieces[-1] if self.pieces else None
        if last is not None and last.inner_end == len(self.text) and last.outer + last.length == outer and last.quotings == quotings:
            self.pieces[-1] = Piece(last.inner, last.outer, last.length + len(data), last.quotings)
        else:
            self.pieces.append(Piece(len(self.text), outer, len(data), quotings))
        self.text += data

    def invent(self, data: bytes) -> None:
        """Bytes of the inner text that stand for nothing in the host (joins, placeholders)."""
        self.text += data

    def expansion(self, written: bytes) -> None:
        """An expansion the OUTER shell performs, as an opaque word that maps nowhere.

        A plain `$name`/`${name}` stays as written (the inner script sees some
        value there); anything else (`$(…)`, `` `…` ``, `${x:-…}`) becomes
        underscores, so that its text is not linted twice.
        """
        self.expanded = True
        self.outer_code.append((len(self.text), written))
        if _PLAIN_EXPANSION.match(written):
            self.invent(written)
        else:
            self.invent(b"_" * max(1, len(written.replace(b"\n", b""))))

    def drop(self, count: int) -> None:
        """Forget the first count bytes built: an option in the same word as the script (`--command='…'`)."""
        del self.text[:count]
        self.outer_code = [(at - count, written) for at, written in self.outer_code if at >= count]
        kept = []
        for piece in self.pieces:
            if piece.inner_end > count:
                cut = max(0, count - piece.inner)
                kept.append(Piece(piece.inner + cut - count, piece.outer + cut, piece.length - cut, piece.quotings))
        self.pieces = kept

    def region(self, dialect: Dialect, origin: str, anchor: int, **facts: object) -> Region:
        """The region built; its parse failures are not the host's to report when an expansion is in it.

        The outer shell's expansion may well be what makes it parse (`sh -c
        "$cmd <>/dev/$tty"`), and a file that parsed must not turn into one
        that did not because of text pipelint reconstructed.
        """
        facts.setdefault("reports_parse_failures", not self.expanded)
        facts.setdefault("outer_code", tuple(self.outer_code))
        return Region(bytes(self.text), tuple(self.pieces), dialect, origin, anchor=anchor, **facts)  # type: ignore[arg-type]


def stdout_crosses_link(node: Node, region: Region | None) -> bool:
    """node's stdout is the stdout of a remote command, which crosses the network link.

    `ssh h "mysqldump db | gzip"`: gzip's output is the remote command's
    output (`Region.stdout_over_network`), which ssh carries back.
    """
    return region is not None and region.stdout_over_network and syntax.writes_script_stdout(node)
