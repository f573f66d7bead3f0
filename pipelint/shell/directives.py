"""Comments that speak to linters: `# pipelint: disable=…`, `# shellcheck disable=…`, `# shellcheck shell=…`.

This module knows how such comments are written and what stretch of text
each one covers (ShellCheck's placement rules, so the comments users already
have keep working); which rules their codes name is the engine's question
(`engine.suppression`), since only the rule registry knows the codes.

A directive before a command covers that command (a whole compound command,
too); before the file's first command it covers the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.shell import syntax

# Codes are separated by commas (spaces allowed around them); anything after
# the list is the reason: `# pipelint: disable=PL001 the log is tiny`.
PIPELINT_DIRECTIVE = re.compile(rb"#\s*pipelint:\s*disable\s*=\s*([A-Za-z0-9_\-]+(?:\s*,\s*[A-Za-z0-9_\-]+)*)")
SHELLCHECK_DIRECTIVE = re.compile(rb"#\s*shellcheck\s+(?:[a-z-]+=\S+\s+)*disable\s*=\s*([A-Za-z0-9_,\-]+)")
# `# shellcheck shell=bash`, `# pipelint: shell=sh`: the dialect of the file.
SHELL_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(?:shellcheck|pipelint:?)[ \t]+shell=([A-Za-z0-9_]+)", re.MULTILINE)

ALL = "all"  # the token that disables every rule


@dataclass(frozen=True)
class Directive:
    """A comment that may disable rules, and the stretch of text [start, end) it covers."""

    comment: bytes
    start: int
    end: int


@dataclass(frozen=True)
class WrittenCodes:
    """The tokens of a directive comment as written: pipelint's (codes or names), ShellCheck's (SC codes)."""

    pipelint: tuple[str, ...] = ()
    shellcheck: tuple[str, ...] = ()


def written_codes(comment: bytes) -> WrittenCodes | None:
    """The tokens a comment's disable directives name, or None if it holds no directive."""
    pipelint = PIPELINT_DIRECTIVE.search(comment)
    shellcheck = SHELLCHECK_DIRECTIVE.search(comment)
    if pipelint is None and shellcheck is None:
        return None
    return WrittenCodes(_tokens(pipelint, " "), _tokens(shellcheck, ""))


def _tokens(match: re.Match[bytes] | None, blanks: str) -> tuple[str, ...]:
    if match is None:
        return ()
    text = match.group(1).decode("ascii", "replace").replace(blanks, "") if blanks else match.group(1).decode("ascii", "replace")
    return tuple(token for token in text.split(",") if token)


def may_hold_directives(source: bytes) -> bool:
    """Whether any comment of source can be a directive: most scripts name neither tool, and their comments need no reading."""
    return b"pipelint" in source or b"shellcheck" in source


def placed(comments: list[Node], source_length: int) -> list[Directive]:
    """Each directive comment with what it covers: the next statement, or the file before the first command."""
    found = []
    for comment in comments:
        text = syntax.text(comment)
        if written_codes(text) is None:
            continue
        if _before_first_command(comment):
            found.append(Directive(text, 0, source_length))
            continue
        statement = _next_statement(comment)
        if statement is not None:
            found.append(Directive(text, statement.start_byte, statement.end_byte))
    return found


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
