"""Here-document bodies where bash ends them, not where tree-sitter-bash does.

tree-sitter-bash ends a body at lines bash reads as data: a tab-indented
`EOF` under plain `<<EOF`, `EOF ` with a trailing blank, `  EOF`, `EOF;`,
`EOF\\r` in a file with LF line ends, spaces under `<<-`, an `EOF` that a
backslash-newline joins to the line before. The rest of the body then parses
as commands, and a fix or a `# pipelint: disable` comment written there would
change what the command reads (`cat > job.sh <<EOF` writes another job.sh).

bash's rule, which this module follows (bash(1) "Here Documents", and
`read_secondary_line` in bash's parse.y):
- the delimiter is the word after `<<`/`<<-` with quotes removed; it is not
  expanded (`<<"$x"` ends at a line `$x`);
- the body starts on the line after the operator's logical line (quotes,
  substitutions and backslash-newlines can make that line span several);
  several here-documents on one line take their bodies in order;
- a body ends at the first line equal to the delimiter, after removing the
  leading TABs (only those) under `<<-`; when the word is unquoted, a
  backslash-newline joins two lines before that comparison;
- without such a line the body runs to the end of the file.

`inside_body` is the one answer to "is this offset inside a here-document
body?"; the checker and the language server's "Disable" action both ask it.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from tree_sitter import Node, Query, QueryCursor, QueryError

from pipelint.shell import syntax
from pipelint.shell.dialect import Dialect, detect

# Parents of a `<<` token that is a shift, not a here-document (`$(( 1 << 2 ))`).
_ARITHMETIC = frozenset({"binary_expression", "arithmetic_expansion", "compound_assignment"})
# Unquoted, these end a word (bash(1) "metacharacter").
_METACHARACTERS = frozenset(b" \t\n;&|<>()")
# A `#` starts a comment only at the start of a word.
_BEFORE_WORD = frozenset(b" \t\n;&|()<>")


@dataclass(frozen=True)
class HereDocument:
    """One `<<WORD` and its body, as bash reads them (byte offsets)."""

    operator: int  # the `<<`
    strip_tabs: bool  # `<<-`
    word_start: int
    word_end: int
    delimiter: bytes  # the word with quotes removed
    quoted: bool  # no expansion in the body, no backslash-newline joining
    body_start: int  # first byte of the first body line
    body_end: int  # first byte of the delimiter line (the end of the file when there is none)
    end: int  # end of the delimiter line, its newline excluded
    terminated: bool

    def covers(self, offset: int) -> bool:
        """Text inserted at offset would land in the body or on its delimiter line."""
        return self.body_start <= offset <= self.end

    def overlaps(self, start: int, end: int) -> bool:
        """A span [start, end) holds body bytes or delimiter-line bytes."""
        return start < self.end and self.body_start < end if start < end else self.covers(start)


class HereDocuments:
    """Every here-document of a script, in order.

    Bodies never overlap: several here-documents on one line take their
    bodies one after the other. So a lookup is one bisection.
    """

    def __init__(self, documents: list[HereDocument]) -> None:
        self.documents = documents
        self._starts = [document.body_start for document in documents]

    def __iter__(self) -> Iterator[HereDocument]:
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)

    def containing(self, offset: int) -> HereDocument | None:
        """The here-document whose body (or delimiter line) text inserted at offset would join."""
        index = bisect_right(self._starts, offset) - 1
        if index >= 0 and self.documents[index].covers(offset):
            return self.documents[index]
        return None

    def overlapping(self, start: int, end: int) -> bool:
        """Whether [start, end) touches a body or a delimiter line (an insertion: whether it lands in one)."""
        index = bisect_right(self._starts, max(start, end - 1)) - 1
        return index >= 0 and self.documents[index].overlaps(start, end)


def find(source: bytes, root: Node, dialect: Dialect = Dialect.BASH) -> HereDocuments:
    """Every here-document in source; root tells which `<<` are operators (not in quotes or arithmetic)."""
    documents: list[HereDocument] = []
    if b"<<" not in source:
        return HereDocuments(documents)
    resume = 0  # bodies already read end here: an operator before it is body text or on a line already read
    for operator in _operator_offsets(root, source):
        if operator < resume:
            continue
        pending, line_end = _operator_line(source, operator, dialect)
        cursor = line_end + 1
        for heading in pending:
            document = _read_body(source, heading, cursor)
            documents.append(document)
            cursor = document.end + 1
        resume = max(cursor, line_end + 1)
    return HereDocuments(documents)


def inside_body(source: bytes, root: Node, offset: int, dialect: Dialect | None = None) -> bool:
    """Whether text inserted at offset would become here-document data (bash's view)."""
    if dialect is None:
        dialect = detect(source, None)
    return find(source, root, dialect).containing(offset) is not None


@functools.cache
def _operators_query() -> Query:
    """`<<` and `<<-` tokens, and the shifts in arithmetic among them.

    A shift in arithmetic is told by the query, not by `Node.parent`, which walks down from the
    root: asked of the 2,000 operators of a 6.5 MB script, it cost a third of its parse.
    Grammar versions differ in where a shift may be (`compound_assignment`, a `<<` right in
    `arithmetic_expansion`): a pattern the grammar cannot match is left out. Each compile costs
    tree-sitter ~27 M instructions whatever the pattern, so the query is compiled whole, less
    the patterns it says are impossible, not one pattern at a time (four compiles to two with
    tree-sitter-bash 0.25.1).
    """
    language = syntax.language()
    lines = ['["<<" "<<-"] @operator']
    lines += [f'({kind} "<<" @shift)' for kind in sorted(_ARITHMETIC) if language.id_for_node_kind(kind, True) is not None]
    while True:
        try:
            return Query(language, "\n".join(lines))
        except QueryError as error:
            impossible = re.match(r"Impossible pattern at row (\d+)", str(error))
            if impossible is None or int(impossible.group(1)) == 0:
                raise
            del lines[int(impossible.group(1))]


def _operator_offsets(root: Node, source: bytes) -> list[int]:
    """Where each `<<`/`<<-` token that is a redirection starts, ERROR nodes included.

    The query looks only where the text holds `<<`: run over a whole 6.5 MB
    tree for its 2,000 operators, it cost a fifth of the parse.
    """
    cursor = QueryCursor(_operators_query())
    operators: set[int] = set()
    shifts: set[int] = set()
    for start, end in _spans_of(b"<<", source):
        cursor.set_byte_range(start, end)
        captures = cursor.captures(root)
        operators.update(node.start_byte for node in captures.get("operator", []))
        shifts.update(node.start_byte for node in captures.get("shift", []))
    return sorted(operators - shifts)


def _spans_of(needle: bytes, source: bytes, gap: int = 4096) -> Iterator[tuple[int, int]]:
    """Byte ranges covering every occurrence of needle, occurrences less than gap apart in one range."""
    start = source.find(needle)
    while start != -1:
        end = start + len(needle)
        following = source.find(needle, end)
        while following != -1 and following - end < gap:
            end = following + len(needle)
            following = source.find(needle, end)
        yield start, end
        start = following


@dataclass(frozen=True)
class _Heading:
    operator: int
    strip_tabs: bool
    word_start: int
    word_end: int
    delimiter: bytes
    quoted: bool


def _operator_line(source: bytes, start: int, dialect: Dialect) -> tuple[list[_Heading], int]:
    """The here-document operators on the logical line from start, and where that line ends (its newline)."""
    headings: list[_Heading] = []
    scanner = _Scanner(source, start)
    while scanner.position < len(source):
        position = scanner.position
        if source.startswith(b"<<<", position):
            scanner.position += 3  # a here-string's operator: no here-document starts inside it (`b 3<<<"$PW"`)
            continue
        if source.startswith(b"<<", position):
            heading = _heading(source, position, dialect)
            if heading is None:
                scanner.position += 2
                continue
            headings.append(heading)
            scanner.position = heading.word_end
            continue
        if source[position] == 0x0A:  # "\n"
            return headings, position
        scanner.step()
    return headings, len(source)


def _heading(source: bytes, operator: int, dialect: Dialect) -> _Heading | None:
    position = operator + 2
    strip_tabs = source.startswith(b"-", position)
    if strip_tabs:
        position += 1
    while position < len(source) and source[position] in b" \t":
        position += 1
    word_end, delimiter, quoted = _read_word(source, position, dialect)
    if word_end == position:
        return None  # `<<` with no word: a syntax error bash reports itself
    return _Heading(operator, strip_tabs, position, word_end, delimiter, quoted)


def _read_word(source: bytes, start: int, dialect: Dialect) -> tuple[int, bytes, bool]:
    """(end, value after quote removal, quoted) of the shell word at start."""
    value = bytearray()
    quoted = False
    position = start
    size = len(source)
    while position < size:
        byte = source[position]
        if byte in _METACHARACTERS:
            break
        if byte == 0x5C:  # backslash
            quoted = True
            if position + 1 < size and source[position + 1] != 0x0A:
                value.append(source[position + 1])
            position += 2
        elif byte == 0x27:  # '
            quoted = True
            close = _find(source, b"'", position + 1)
            value += source[position + 1 : close]
            position = close + 1
        elif byte == 0x22:  # "
            quoted = True
            position = _double_quoted_value(source, position + 1, value)
        elif byte == 0x24 and dialect is not Dialect.SH and source[position + 1 : position + 2] in (b"'", b'"'):
            # bash and ksh: $'…' and $"…" are quoting too; dash reads a `$` and a quoted string.
            quoted = True
            if source[position + 1] == 0x27:
                close = _ansi_c_end(source, position + 2)
                value += source[position + 2 : close]
                position = close + 1
            else:
                position = _double_quoted_value(source, position + 2, value)
        else:
            value.append(byte)
            position += 1
    return min(position, size), bytes(value), quoted


def _double_quoted_value(source: bytes, position: int, value: bytearray) -> int:
    """Append the value of "…" from just after its quote; return the offset after the closing quote."""
    size = len(source)
    while position < size and source[position] != 0x22:
        if source[position] == 0x5C and position + 1 < size and source[position + 1] in b'$`"\\\n':
            if source[position + 1] != 0x0A:
                value.append(source[position + 1])
            position += 2
            continue
        value.append(source[position])
        position += 1
    return position + 1


def _ansi_c_end(source: bytes, position: int) -> int:
    size = len(source)
    while position < size and source[position] != 0x27:
        position += 2 if source[position] == 0x5C else 1
    return min(position, size)


def _find(source: bytes, needle: bytes, start: int) -> int:
    found = source.find(needle, start)
    return len(source) if found == -1 else found


class _Scanner:
    """Steps over one shell token at a time on an operator's line: quotes and substitutions whole.

    Only what can hide a newline matters here: a newline inside quotes, `$( )`,
    `${ }` or backquotes does not end the line; a backslash-newline continues
    it; a comment ends at its newline.
    """

    def __init__(self, source: bytes, position: int) -> None:
        self.source = source
        self.position = position

    def step(self) -> None:
        source, position = self.source, self.position
        byte = source[position]
        if byte == 0x5C:  # backslash: the next byte is literal, a newline is a continuation
            self.position = position + 2
        elif byte == 0x27:
            self.position = _find(source, b"'", position + 1) + 1
        elif byte == 0x22:
            self.position = _skip_double_quoted(source, position + 1)
        elif byte == 0x60:  # backquote
            self.position = skip_backquoted(source, position + 1)
        elif byte == 0x24 and source[position + 1 : position + 2] in (b"(", b"{"):
            self.position = skip_bracketed(source, position + 1)
        elif byte == 0x24 and source[position + 1 : position + 2] == b"'":
            self.position = _ansi_c_end(source, position + 2) + 1
        elif byte == 0x23 and (position == 0 or source[position - 1] in _BEFORE_WORD):  # a comment
            self.position = _find(source, b"\n", position)
        else:
            self.position = position + 1


def word_end(source: bytes, start: int) -> int:
    """The end of the shell word at start: quotes, substitutions and escapes whole, up to a blank or metacharacter."""
    scanner = _Scanner(source, start)
    size = len(source)
    while scanner.position < size and source[scanner.position] not in _METACHARACTERS:
        if source[scanner.position] == 0x23 and scanner.position == start:
            break  # a `#` there starts a comment, not a word
        scanner.step()
    return min(scanner.position, size)


def _skip_double_quoted(source: bytes, position: int) -> int:
    size = len(source)
    while position < size:
        byte = source[position]
        if byte == 0x22:
            return position + 1
        if byte == 0x5C:
            position += 2
        elif byte == 0x60:
            position = skip_backquoted(source, position + 1)
        elif byte == 0x24 and source[position + 1 : position + 2] in (b"(", b"{"):
            position = skip_bracketed(source, position + 1)
        else:
            position += 1
    return size


def skip_backquoted(source: bytes, position: int) -> int:
    size = len(source)
    while position < size and source[position] != 0x60:
        position += 2 if source[position] == 0x5C else 1
    return min(position + 1, size)


_CLOSERS = {0x28: 0x29, 0x7B: 0x7D, 0x5B: 0x5D}  # ( → ), { → }, [ → ] (`$[…]`, bash's old arithmetic)


def skip_bracketed(source: bytes, position: int) -> int:
    """From an opening `(`, `{` or `[` to just after its match, stepping over quotes inside."""
    closer = _CLOSERS[source[position]]
    opener = source[position]
    depth = 0
    size = len(source)
    while position < size:
        byte = source[position]
        if byte == opener:
            depth += 1
        elif byte == closer:
            depth -= 1
            if depth == 0:
                return position + 1
        elif byte == 0x5C:
            position += 1
        elif byte == 0x27:
            position = _find(source, b"'", position + 1)
        elif byte == 0x22:
            position = _skip_double_quoted(source, position + 1) - 1
        elif byte == 0x60:
            position = skip_backquoted(source, position + 1) - 1
        position += 1
    return size


def _read_body(source: bytes, heading: _Heading, start: int) -> HereDocument:
    """Read lines from start until one is the delimiter (bash's comparison)."""
    size = len(source)
    position = min(start, size)
    while position < size:
        line_start = position
        line_end, logical = _logical_line(source, position, join=not heading.quoted)
        candidate = logical.lstrip(b"\t") if heading.strip_tabs else logical
        if candidate == heading.delimiter:
            return HereDocument(**asdict(heading), body_start=start, body_end=line_start, end=line_end, terminated=True)
        position = line_end + 1
    return HereDocument(**asdict(heading), body_start=min(start, size), body_end=size, end=size, terminated=False)


def _logical_line(source: bytes, start: int, join: bool) -> tuple[int, bytes]:
    """(end, text) of the line at start; with join, backslash-newlines are removed and lines joined."""
    end = _find(source, b"\n", start)
    if not join:
        return end, source[start:end]
    pieces = []
    while True:
        line = source[start:end]
        if end < len(source) and syntax.is_line_continuation(source, end):
            pieces.append(line[:-1])
            start = end + 1
            end = _find(source, b"\n", start)
            continue
        pieces.append(line)
        return end, b"".join(pieces)


def tree_sitter_ends(root: Node, operator: int) -> tuple[int, int] | None:
    """(body start, end) of the here-document tree-sitter-bash read for the `<<` at operator, or None."""
    token = root.descendant_for_byte_range(operator, operator + 2)
    redirect = token.parent if token is not None else None
    if redirect is None or redirect.type != "heredoc_redirect":
        return None
    body_start = None
    end = redirect.end_byte
    for child in redirect.children:
        if child.type in ("heredoc_body", "heredoc_end") and body_start is None:
            body_start = child.start_byte
        if child.type == "heredoc_end":
            end = child.end_byte
    if body_start is None:
        return None
    return body_start, end

