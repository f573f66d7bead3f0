"""Comments that speak to linters: `# pipelint: disable=…`, `# shellcheck disable=…`, `# shellcheck shell=…`.

This module knows how such comments are written and what stretch of text
each one covers; which rules their codes name is the engine's question
(`engine.suppression`), since only the rule registry knows the codes.

Where a directive stands decides what it covers:

- on a line of its own, before a command: that command (a whole compound
  command, too); before the file's first command: the file (ShellCheck's
  placement, so the comments users already have keep working);
- at the end of a line, after code: that line only, never the next (as
  ruff's `# noqa`). Where the line ends a command that began on an earlier
  line (a pipeline or `&&` list continued over lines), that command's lines
  too; a compound command it follows (`done  # …`) is not covered beyond
  the line. ShellCheck rejects this placement (SC1126) and stops checking
  the file; pipelint reads it.

ShellCheck's own grammar is read as ShellCheck reads it: several `key=value`
pairs (`# shellcheck source=lib.sh disable=SC2002`), a quoted value
(`disable='SC2002,SC2086'`), bare numbers (`disable=2002`), ranges
(`disable=SC2000-SC3000`, the end excluded) and `all`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

# Codes are separated by commas (spaces allowed around them); anything after
# the list is the reason: `# pipelint: disable=PL001 the log is tiny`.
PIPELINT_DIRECTIVE = re.compile(rb"#\s*pipelint:\s*disable\s*=\s*([A-Za-z0-9_\-]+(?:\s*,\s*[A-Za-z0-9_\-]+)*)")
# `# shellcheck key=value key=value … # comment` (ShellCheck's `readAnnotation`).
SHELLCHECK_ANNOTATION = re.compile(rb"#\s*shellcheck\s+")
_SHELLCHECK_PAIR = re.compile(rb"([A-Za-z-]+)=('[^'\n]*'|\"[^\"\n]*\"|[^\s#'\"]+)[ \t]*")
# One element of a `disable=` list: `all`, `SC2002`, `2002`, `SC2000-SC3000` (ShellCheck's `readElement`).
SHELLCHECK_ELEMENT = re.compile(r"(?:SC)?(\d+)(?:-(?:SC)?(\d+))?", re.IGNORECASE)
# `# shellcheck shell=bash`, `# pipelint: shell=sh`: the dialect of the file.
SHELL_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(?:shellcheck|pipelint:?)[ \t]+shell=([A-Za-z0-9_]+)", re.MULTILINE)

ALL = "all"  # the token that disables every rule
PIPELINT, SHELLCHECK = "pipelint", "shellcheck"  # whose directive a token is written in

# Compound commands: a directive at the end of their last line covers that line only, not their body.
_COMPOUND = frozenset({
    "if_statement", "while_statement", "for_statement", "c_style_for_statement", "case_statement",
    "compound_statement", "subshell", "function_definition",
})  # fmt: skip


@dataclass(frozen=True)
class Token:
    """One code of a directive as written: `PL001`, `useless-cat`, `SC2002`, `SC2000-SC3000`, `all`.

    start, end: where it is in the comment (bytes); tool: PIPELINT or SHELLCHECK.
    """

    text: str
    start: int
    end: int
    tool: str


@dataclass(frozen=True)
class Directive:
    """A comment that may disable rules, and the stretch of text [start, end) it covers.

    at: where the comment starts in the text (None where it is not in the
    text the findings are in: a Dockerfile's comment read for its scripts).
    """

    comment: bytes
    start: int
    end: int
    at: int | None = None
    tokens: tuple[Token, ...] = field(default=(), compare=False)  # the codes the comment names
    # A whole line of a host file (a Dockerfile's), which its parser drops: removed, the line goes whole.
    host_line: bool = False


# Why a code of a directive disables nothing (PL900 unused-directive).
UNKNOWN = "unknown"  # no rule has this code or name
DUPLICATE = "duplicate"  # named twice in one directive
NOT_ENABLED = "not enabled"  # the rule did not run on this file
UNUSED = "unused"  # the rule ran, and found nothing the directive covers


@dataclass(frozen=True)
class UnusedCodes:
    """A directive whose codes (some or all) disable nothing, each with why (UNKNOWN, DUPLICATE, …)."""

    directive: Directive
    idle: tuple[tuple[Token, str], ...]


def tokens(comment: bytes) -> tuple[Token, ...] | None:
    """The codes a comment's disable directives name, in order, or None if it holds no directive."""
    pipelint = PIPELINT_DIRECTIVE.search(comment)
    shellcheck = _shellcheck_disable_values(comment)
    if pipelint is None and shellcheck is None:
        return None
    found: list[Token] = []
    if pipelint is not None:
        found += _split(pipelint.group(1), pipelint.start(1), PIPELINT)
    for value, at in shellcheck or ():
        found += _split(value, at, SHELLCHECK)
    return tuple(found)


def _split(value: bytes, at: int, tool: str) -> list[Token]:
    """A comma-separated list starting at offset at: each piece, blanks around it dropped."""
    found = []
    cursor = at
    for piece in value.split(b","):
        stripped = piece.strip(b" \t")
        start = cursor + len(piece) - len(piece.lstrip(b" \t"))
        if stripped:
            found.append(Token(stripped.decode("ascii", "replace"), start, start + len(stripped), tool))
        cursor += len(piece) + 1
    return found


def _shellcheck_disable_values(comment: bytes) -> list[tuple[bytes, int]] | None:
    """Each `disable=` value of a `# shellcheck …` annotation, unquoted, with where it starts; None: no annotation."""
    prefix = SHELLCHECK_ANNOTATION.search(comment)
    if prefix is None:
        return None
    return _disable_values(comment, prefix.end()) or None


def _disable_values(text: bytes, at: int) -> list[tuple[bytes, int]]:
    """The `disable=` values of the key=value pairs from at, as ShellCheck reads them: one pair after the
    other, up to a `#` (a comment) or the first thing that is no pair."""
    values = []
    while (pair := _SHELLCHECK_PAIR.match(text, at)) is not None:
        value, start = pair.group(2), pair.start(2)
        if value[:1] in (b"'", b'"'):
            value, start = value[1:-1], start + 1
        if pair.group(1) == b"disable":
            values.append((value, start))
        at = pair.end()
    return values


def shellcheckrc_disabled(text: bytes) -> list[str]:
    """The elements of the `disable=` keys of a `.shellcheckrc` (`SC2002`, `SC2000-SC2999`, `all`).

    Its lines hold the key=value pairs a `# shellcheck` annotation holds,
    without the prefix, and `#` comments (ShellCheck's `readConfigKVs`).
    """
    found = []
    for line in text.splitlines():
        start = len(line) - len(line.lstrip())
        for value, at in _disable_values(line, start):
            found += [token.text for token in _split(value, at, SHELLCHECK)]
    return found


def shellcheck_range(token: str) -> tuple[int, int] | None:
    """The codes [low, high) a ShellCheck element names: `SC2002` → (2002, 2003); `SC2000-SC3000` → (2000, 3000)."""
    if token.lower() == ALL:
        return 0, 1_000_000
    match = SHELLCHECK_ELEMENT.fullmatch(token)
    if match is None:
        return None
    low = int(match.group(1))
    return low, int(match.group(2)) if match.group(2) else low + 1


def may_hold_directives(source: bytes) -> bool:
    """Whether any comment of source can be a directive: most scripts name neither tool, and their comments need no reading."""
    return b"pipelint" in source or b"shellcheck" in source


def placed(comments: list[Node], source: bytes) -> list[Directive]:
    """Each directive comment with what it covers (see the module's docstring)."""
    found = []
    for comment in comments:
        start, end = comment.start_byte, comment.end_byte
        text = source[start:end]
        written = tokens(text)
        if written is None:
            continue
        if trails_code(source, comment):
            found.append(Directive(text, _trailed_start(source, comment), end, start, written))
        elif _before_first_command(comment):
            found.append(Directive(text, 0, len(source), start, written))
        else:
            statement = _next_statement(comment)
            covered = (statement.start_byte, statement.end_byte) if statement is not None else (end, end)
            found.append(Directive(text, *covered, start, written))
    return found


def logical_line_start(source: bytes, offset: int, root: Node | None = None) -> int:
    """Where the line holding offset starts, back over lines that a backslash continues into it.

    root: the parse, to tell a continuation from a comment that ends in a
    backslash (`# see C:\\`), which continues nothing; without it, every
    trailing backslash counts.
    """
    start = source.rfind(b"\n", 0, offset) + 1
    while start > 0:
        line_end = start - 1  # a backslash before `\r\n` escapes the `\r`: no continuation
        backslashes = len(source[:line_end]) - len(source[:line_end].rstrip(b"\\"))
        if backslashes % 2 == 0:
            break
        if root is not None:
            holder = root.descendant_for_byte_range(line_end - 1, line_end)
            if holder is not None and holder.type == "comment":
                break
        start = source.rfind(b"\n", 0, line_end) + 1
    return start


def trails_code(source: bytes, comment: Node) -> bool:
    """Whether code stands before the comment on its line (a backslash-continued line counts as one)."""
    start = logical_line_start(source, comment.start_byte, _root_of(comment))
    return bool(source[start : comment.start_byte].strip())


def _root_of(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def _trailed_start(source: bytes, comment: Node) -> int:
    """Where a trailing directive's cover starts: its line, or the line where the command it ends began."""
    root = _root_of(comment)
    line = logical_line_start(source, comment.start_byte, root)
    before = comment.prev_named_sibling
    if before is None or before.end_byte < line or before.start_byte >= line or _holds_compound(before):
        return line
    return logical_line_start(source, before.start_byte, root)


def _holds_compound(node: Node) -> bool:
    """node is, or holds, a compound command: its body is not the line's to cover."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _COMPOUND:
            return True
        stack.extend(current.named_children)
    return False


def _next_statement(comment: Node) -> Node | None:
    sibling = comment.next_named_sibling
    while sibling is not None and sibling.type == "comment":
        sibling = sibling.next_named_sibling
    return sibling


def _before_first_command(comment: Node) -> bool:
    if comment.parent is None or comment.parent.type != "program":
        return False
    sibling = comment.prev_named_sibling
    while sibling is not None:
        if sibling.type != "comment":
            return False
        sibling = sibling.prev_named_sibling
    return True
