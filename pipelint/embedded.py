"""Shell text that a command of the script runs: `sh -c '…'` and its kin.

`find_regions(context)` returns, for one parsed script, the inner scripts its
commands run, each a `regions.Region` whose pieces point into the script.
The linter lints each region like a script of its own and maps what it finds
back (linter.py).

Words become inner text by the shell's quote removal (`words_region`): the
contents of '…' verbatim, of "…" with `\\$ \\` \\" \\\\` unescaped, of a bare
word with its backslashes removed. Expansions belong to the OUTER shell: a
plain `$name`/`${name}` stays as written (the inner script sees some value
there), anything else (`$(…)`, `$((…))`, `${x:-…}`) becomes an opaque
placeholder word, so that its text is not linted twice. Placeholders and the
blanks that join several words map to no byte of the script: an edit there
has nowhere to go.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from tree_sitter import Node

from pipelint import syntax
from pipelint.command import Command
from pipelint.dialect import SHELLS, Dialect
from pipelint.programs import WRAPPERS
from pipelint.regions import Piece, Quoting, Region

# How deep regions may nest (`ssh h "sh -c '…'"` is two): enough for real scripts, bounded for hostile ones.
MAX_DEPTH = 3

_PLAIN_EXPANSION = re.compile(rb"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})\Z")
_DOUBLE_QUOTE_ESCAPES = frozenset(b'$`"\\')


class _Builder:
    """Inner text grown piece by piece from the script's words."""

    def __init__(self) -> None:
        self.text = bytearray()
        self.pieces: list[Piece] = []

    def copy(self, data: bytes, outer: int, quoting: Quoting) -> None:
        """Bytes that are in the script as they are in the inner text."""
        if not data:
            return
        last = self.pieces[-1] if self.pieces else None
        if last is not None and last.inner_end == len(self.text) and last.outer + last.length == outer and last.quotings == (quoting,):
            self.pieces[-1] = Piece(last.inner, last.outer, last.length + len(data), last.quotings)
        else:
            self.pieces.append(Piece(len(self.text), outer, len(data), (quoting,)))
        self.text += data

    def invent(self, data: bytes) -> None:
        """Bytes of the inner text that stand for nothing in the script (joins, placeholders)."""
        self.text += data


def _placeholder(node: Node) -> bytes:
    """An opaque word for an expansion the outer shell performs."""
    text = syntax.text(node)
    if node.type in ("simple_expansion", "expansion") and _PLAIN_EXPANSION.match(text):
        return text
    return b"_" * max(1, len(text.replace(b"\n", b"")))


def _add_word(builder: _Builder, node: Node, quoted: bool = False) -> bool:
    """Append what the shell makes of one word; False when it cannot be told (`$'…'` escapes and the like)."""
    kind = node.type
    start = node.start_byte
    if kind == "raw_string":
        builder.copy(syntax.text(node)[1:-1], start + 1, Quoting.SINGLE)
        return True
    if kind == "string":
        return _add_double_quoted(builder, node)
    if kind in ("word", "number"):
        _add_escaped(builder, syntax.text(node), start, Quoting.UNQUOTED, frozenset(b"\\"), quoted)
        return True
    if kind == "concatenation":
        return all(_add_word(builder, part, quoted) for part in node.children)
    if kind in ("simple_expansion", "expansion", "command_substitution", "arithmetic_expansion"):
        builder.invent(_placeholder(node))
        return True
    return False  # $'…', $"…", process substitution, brace expansion: not worth guessing


def _add_double_quoted(builder: _Builder, node: Node) -> bool:
    cursor = node.start_byte + 1
    end = node.end_byte - 1
    source_of = syntax.text(node)
    for child in node.named_children:
        if child.start_byte > cursor:
            _add_escaped(builder, source_of[cursor - node.start_byte : child.start_byte - node.start_byte], cursor, Quoting.DOUBLE, _DOUBLE_QUOTE_ESCAPES, True)
        if child.type == "string_content":
            _add_escaped(builder, syntax.text(child), child.start_byte, Quoting.DOUBLE, _DOUBLE_QUOTE_ESCAPES, True)
        else:
            builder.invent(_placeholder(child))
        cursor = child.end_byte
    if end > cursor:
        _add_escaped(builder, source_of[cursor - node.start_byte : end - node.start_byte], cursor, Quoting.DOUBLE, _DOUBLE_QUOTE_ESCAPES, True)
    return True


def _add_escaped(builder: _Builder, data: bytes, outer: int, quoting: Quoting, escapable: frozenset[int], quoted: bool) -> None:
    """Copy data, dropping the backslash of each escape the shell removes (and backslash-newlines)."""
    run_start = 0
    index = 0
    while index < len(data):
        if data[index] == 0x5C and index + 1 < len(data):  # backslash
            following = data[index + 1]
            if following == 0x0A or not quoted or following in escapable:
                builder.copy(data[run_start:index], outer + run_start, quoting)
                if following != 0x0A:
                    builder.copy(bytes([following]), outer + index + 1, Quoting.ESCAPED)
                index += 2
                run_start = index
                continue
        index += 1
    builder.copy(data[run_start:], outer + run_start, quoting)


def words_region(words: Sequence[Node], dialect: Dialect, origin: str, **facts: object) -> Region | None:
    """The inner script several words make when joined by blanks (as `ssh` and `sh -c` do), or None."""
    builder = _Builder()
    for index, word in enumerate(words):
        if index:
            builder.invent(b" ")
        if not _add_word(builder, word):
            return None
    anchor = words[0].start_byte if words else 0
    return Region(bytes(builder.text), tuple(builder.pieces), dialect, origin, anchor=anchor, **facts)  # type: ignore[arg-type]


def _shell_dialect(program: bytes) -> Dialect | None:
    """The dialect of a shell a script names as a program; None for zsh and non-shells."""
    shell = SHELLS.get(program.decode("utf-8", "replace"))
    return shell.dialect if shell is not None and shell.discovered else None


def _shell_c(command: Command) -> Region | None:
    """`sh -c 'SCRIPT' [ARG0 ARG…]`, `bash -ec '…'`, `sudo sh -c '…'`: the script the shell runs."""
    if command.program is None or not command.exact or not command.has("-c") or not command.operands:
        return None
    dialect = _shell_dialect(command.program)
    if dialect is None:
        return None
    name = command.program.decode("utf-8", "replace")
    return words_region(command.operands[:1], dialect, f"the script `{name} -c` runs", errexit=command.has("-e"))


# Finders: each reads one command and returns the region it runs, or None.
FINDERS = (_shell_c,)


# First words that may lead to a region: the programs finders look for and the
# wrappers the command model sees through to them. Only these commands are read.
LEADS = frozenset({b"sh", b"bash", b"dash", b"ksh", b"mksh", b"ash"}) | frozenset(WRAPPERS)


def find_regions(commands: Iterable[Node], read: Callable[[Node], Command], depth: int = 0) -> list[Region]:
    """The inner scripts these command nodes run (none below MAX_DEPTH); read gives a node's model."""
    if depth >= MAX_DEPTH:
        return []
    found = []
    for node in commands:
        if syntax.basename(syntax.command_name(node)) not in LEADS:
            continue
        command = read(node)
        for finder in FINDERS:
            region = finder(command)
            if region is not None:
                found.append(region)
                break
    return found
