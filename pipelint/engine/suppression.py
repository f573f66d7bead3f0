"""`# pipelint: disable=…` and `# shellcheck disable=…` directives.

A directive before a command covers that command (a whole compound command,
too); before the file's first command it covers the file — ShellCheck's rules,
so the comments users already have keep working.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.engine import registry
from pipelint.shell import syntax

# Codes are separated by commas (spaces allowed around them); anything after
# the list is the reason: `# pipelint: disable=PL001 the log is tiny`.
PIPELINT_DIRECTIVE = re.compile(rb"#\s*pipelint:\s*disable\s*=\s*([A-Za-z0-9_\-]+(?:\s*,\s*[A-Za-z0-9_\-]+)*)")
SHELLCHECK_DIRECTIVE = re.compile(rb"#\s*shellcheck\s+(?:[a-z-]+=\S+\s+)*disable\s*=\s*([A-Za-z0-9_,\-]+)")

ALL = "all"


@dataclass(frozen=True)
class Suppression:
    codes: frozenset[str]  # rule codes, or {"all"}
    start: int
    end: int

    def covers(self, code: str, offset: int) -> bool:
        return self.start <= offset < self.end and (ALL in self.codes or code in self.codes)


class Coverage:
    """What a set of suppressions disables at each offset, for a lookup per finding.

    The text is cut at every suppression's start and end; each piece keeps the
    codes disabled over it, so a lookup is one binary search. Asking every
    suppression for every finding was quadratic: a directive on each of
    24,000 commands took 36 s, where the lint alone takes 5.
    """

    def __init__(self, suppressions: Iterable[Suppression]) -> None:
        starting: dict[int, list[frozenset[str]]] = defaultdict(list)
        ending: dict[int, list[frozenset[str]]] = defaultdict(list)
        for suppression in suppressions:
            starting[suppression.start].append(suppression.codes)
            ending[suppression.end].append(suppression.codes)
        self._cuts = sorted(starting.keys() | ending.keys())
        self._codes: list[frozenset[str]] = []  # disabled from self._cuts[i] to the next cut
        active: Counter[str] = Counter()
        for cut in self._cuts:
            for codes in starting[cut]:  # starts before ends: an empty suppression covers nothing
                active.update(codes)
            for codes in ending[cut]:
                active.subtract(codes)
            self._codes.append(frozenset(code for code, count in active.items() if count > 0))

    def covers(self, code: str, offset: int) -> bool:
        """Some suppression covers offset and disables code (`Suppression.covers`)."""
        index = bisect.bisect_right(self._cuts, offset) - 1
        if index < 0:
            return False
        codes = self._codes[index]
        return code in codes or ALL in codes


def directive_codes(comment: bytes) -> frozenset[str] | None:
    """The rule codes a comment disables, or None if it is no directive."""
    codes: set[str] = set()
    found = False
    match = PIPELINT_DIRECTIVE.search(comment)
    if match:
        found = True
        for token in match.group(1).decode("ascii", "replace").replace(" ", "").split(","):
            if token.lower() == ALL:
                codes.add(ALL)
            elif token:
                rule = registry.lookup(token)
                codes.add(rule.code if rule else token.upper())
    match = SHELLCHECK_DIRECTIVE.search(comment)
    if match:
        found = True
        for token in match.group(1).decode("ascii", "replace").split(","):
            if token.lower() == ALL:
                codes.add(ALL)
            codes.update(rule.code for rule in registry.rule_for_shellcheck(token))
    return frozenset(codes) if found else None


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


def may_hold_directives(source: bytes) -> bool:
    """Whether any comment of source can be a directive: most scripts name neither tool, and their comments need no reading."""
    return b"pipelint" in source or b"shellcheck" in source


def collect(comments: list[Node], source_length: int) -> list[Suppression]:
    suppressions = []
    for comment in comments:
        codes = directive_codes(syntax.text(comment))
        if not codes:
            continue
        if _before_first_command(comment):
            suppressions.append(Suppression(codes, 0, source_length))
            continue
        statement = _next_statement(comment)
        if statement is not None:
            suppressions.append(Suppression(codes, statement.start_byte, statement.end_byte))
    return suppressions
