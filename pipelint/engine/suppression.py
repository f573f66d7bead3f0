"""Which rules a directive comment disables, and where (`shell.directives` says where they are and what they cover).

The codes are read here because only the rule registry knows them: a rule
code or name (`PL001`, `useless-cat`), `all`, or a ShellCheck code that a
rule answers to (`SC2002`).
"""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from pipelint.engine import registry
from pipelint.shell.directives import ALL, Directive, written_codes


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
    written = written_codes(comment)
    if written is None:
        return None
    codes: set[str] = set()
    for token in written.pipelint:
        if token.lower() == ALL:
            codes.add(ALL)
        else:
            rule = registry.lookup(token)
            codes.add(rule.code if rule else token.upper())
    for token in written.shellcheck:
        if token.lower() == ALL:
            codes.add(ALL)
        codes.update(rule.code for rule in registry.rule_for_shellcheck(token))
    return frozenset(codes)


def collect(directives: Iterable[Directive]) -> list[Suppression]:
    """The suppressions the directives make (a directive whose codes name no rule disables nothing)."""
    found = []
    for directive in directives:
        codes = directive_codes(directive.comment)
        if codes:
            found.append(Suppression(codes, directive.start, directive.end))
    return found
