"""Which rules a directive comment disables, and where (`shell.directives` says where they are and what they cover).

The codes are read here because only the rule registry knows them: a rule
code or name (`PL001`, `useless-cat`), `all`, or a ShellCheck code that a
rule answers to (`SC2002`, a range `SC2000-SC2999`, `all`).

Each suppression remembers the codes it silenced a finding of (`used`), so
that the rule for directives that disable nothing (PL900, `unused`) can say
which codes of which comment did no work.
"""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pipelint.engine import registry
from pipelint.finding import Finding, ParseFailure
from pipelint.rule import Rule
from pipelint.shell.directives import (
    ALL,
    DUPLICATE,
    NOT_ENABLED,
    PIPELINT,
    UNKNOWN,
    UNUSED,
    Directive,
    Token,
    UnusedCodes,
    shellcheck_range,
    tokens,
)


@dataclass(frozen=True)
class Suppression:
    codes: frozenset[str]  # rule codes, or {"all"}
    start: int
    end: int
    directive: Directive | None = field(default=None, compare=False)
    # The codes it silenced a finding of; shared by its copies moved into a host's bytes (`moved`).
    used: set[str] = field(default_factory=set, compare=False, repr=False)

    def covers(self, code: str, offset: int) -> bool:
        return self.start <= offset < self.end and (ALL in self.codes or code in self.codes)

    def moved(self, start: int, end: int) -> Suppression:
        """The same suppression over another span (an inner script's, in its host's bytes): one record of use."""
        return Suppression(self.codes, start, end, self.directive, self.used)


@dataclass(frozen=True)
class _Link:
    """The suppressions over a stretch of text, innermost first: a stack that stretches share the tail of."""

    suppression: Suppression
    below: _Link | None


class Coverage:
    """What a set of suppressions disables at each offset, for a lookup per finding.

    The text is cut at every suppression's start and end; each piece keeps the
    codes disabled over it, so a lookup is one binary search. Asking every
    suppression for every finding was quadratic: a directive on each of
    24,000 commands took 36 s, where the lint alone takes 5. Each piece also
    keeps the suppressions over it, as a stack whose tail the nested pieces
    share (directives cover statements, which nest), to record which ones a
    finding was silenced by.
    """

    def __init__(self, suppressions: Iterable[Suppression]) -> None:
        starting: dict[int, list[Suppression]] = defaultdict(list)
        ending: dict[int, list[Suppression]] = defaultdict(list)
        for suppression in suppressions:
            if suppression.codes:
                starting[suppression.start].append(suppression)
                ending[suppression.end].append(suppression)
        self._cuts = sorted(starting.keys() | ending.keys())
        self._codes: list[frozenset[str]] = []  # disabled from self._cuts[i] to the next cut
        self._over: list[_Link | None] = []  # the suppressions over that piece
        active: Counter[str] = Counter()
        stack: _Link | None = None
        for cut in self._cuts:
            for suppression in starting[cut]:  # starts before ends: an empty suppression covers nothing
                active.update(suppression.codes)
                stack = _Link(suppression, stack)
            for suppression in ending[cut]:
                active.subtract(suppression.codes)
                stack = _without(stack, suppression)
            self._codes.append(frozenset(code for code, count in active.items() if count > 0))
            self._over.append(stack)

    def covers(self, code: str, offset: int, besides: Directive | None = None) -> bool:
        """Some suppression covers offset and disables code (`Suppression.covers`); each such one records it.

        besides: a directive whose own suppression does not count (the report about it must not hide itself).
        """
        index = bisect.bisect_right(self._cuts, offset) - 1
        if index < 0:
            return False
        codes = self._codes[index]
        if code not in codes and ALL not in codes:
            return False
        found = False
        link = self._over[index]
        while link is not None:
            suppression = link.suppression
            if (code in suppression.codes or ALL in suppression.codes) and (
                besides is None or suppression.directive is not besides
            ):
                suppression.used.add(code)
                found = True
            link = link.below
        return found


def _without(stack: _Link | None, gone: Suppression) -> _Link | None:
    """The stack without one suppression; only the links above it are copied (none when it is on top)."""
    above: list[Suppression] = []
    while stack is not None and stack.suppression is not gone:
        above.append(stack.suppression)
        stack = stack.below
    rest = stack.below if stack is not None else None
    for suppression in reversed(above):
        rest = _Link(suppression, rest)
    return rest


def directive_codes(comment: bytes) -> frozenset[str] | None:
    """The rule codes a comment disables, or None if it is no directive."""
    written = tokens(comment)
    return None if written is None else _codes_of(written)


def _codes_of(written: Iterable[Token]) -> frozenset[str]:
    return frozenset(code for token in written for code in token_codes(token.text, token.tool))


def token_codes(token: str, tool: str) -> list[str]:
    """The rule codes one written token names (`all` stays `all`); none for an unknown code."""
    if token.lower() == ALL:
        return [ALL]
    if tool == PIPELINT:
        rule = registry.lookup(token)
        return [rule.code] if rule is not None else []
    span = shellcheck_range(token)
    if span is None:
        return []
    return [rule.code for rule in registry.rules_for_shellcheck_range(*span)]


def collect(directives: Iterable[Directive]) -> list[Suppression]:
    """The suppression each directive makes (a directive whose codes name no rule disables nothing)."""
    return [Suppression(_codes_of(directive.tokens), directive.start, directive.end, directive) for directive in directives]


def unused(suppressions: Iterable[Suppression], enabled: frozenset[str], reporter: str) -> list[UnusedCodes]:
    """The pipelint codes of each directive that disabled nothing, and why; ShellCheck's codes are ShellCheck's.

    enabled: the codes of the rules that ran. reporter: the code of the rule
    that reports them: a directive naming it is not reported (as ruff's
    `# noqa: F401, RUF100`), nor is that code ever idle. Called once every
    finding the suppressions could cover has been looked up (`Coverage.covers`).
    """
    found = []
    for suppression in suppressions:
        directive = suppression.directive
        if directive is None or directive.at is None or reporter in suppression.codes:
            continue
        seen: set[str] = set()
        idle = []
        for token in directive.tokens:
            if token.tool != PIPELINT:
                continue
            codes = token_codes(token.text, token.tool)
            reason = _why_idle(codes, seen, enabled, suppression.used)
            seen.update(codes)
            if reason is not None:
                idle.append((token, reason))
        if idle:
            found.append(UnusedCodes(directive, tuple(idle)))
    return found


def _why_idle(codes: list[str], seen: set[str], enabled: frozenset[str], used: set[str]) -> str | None:
    """Why a token of a directive disables nothing, or None when it does."""
    if not codes:
        return UNKNOWN
    (code,) = codes
    if code in seen:
        return DUPLICATE
    if code == ALL:
        return None if used else UNUSED
    if code not in enabled:
        return NOT_ENABLED
    return None if code in used else UNUSED


def report_unused(
    suppressions: Sequence[Suppression], rules: Iterable[Rule | type[Rule]], source: bytes, failures: Sequence[ParseFailure]
) -> list[Finding]:
    """The findings of the rule that reports directives disabling nothing (PL900), if it ran.

    Call it once every finding the suppressions could cover was looked up:
    for a script with scripts inside (`sh -c '…'`), after those were linted
    (linter.py). A directive next to a parse failure is left alone (the
    findings it covered may be the ones the failure hid), and a report about
    a directive is hidden by the others only: `# pipelint: disable=all` does
    not hide the report that it disables nothing.
    """
    rules = list(rules)
    reporter = next((rule for rule in rules if rule.uses("check_directive")), None)
    if reporter is None or not suppressions:
        return []
    if isinstance(reporter, type):
        reporter = reporter()
    enabled = frozenset(rule.code for rule in rules)
    coverage = Coverage(suppressions)
    found = []
    for idle in unused(suppressions, enabled, reporter.code):
        directive = idle.directive
        if any(f.start <= directive.end and directive.start <= f.end for f in failures):
            continue
        for finding in reporter.check_directive(idle, source):
            if not coverage.covers(finding.code, finding.start, besides=directive):
                found.append(finding)
    return found
