"""The one table of rule codes: selection, `pipelint rule --all` and the docs all read it.

One line per rule: its code and name, the class that implements it, and
whether `pipelint check` runs it without configuration. Selection reads the
lines alone, so choosing the rules (and answering a run from the cache)
imports no rule; a rule's module, in `pipelint/rules/` and named for its
code and name (`pl001_useless_cat`), is imported when the rule is first
used: `Line.load`, `Settings.enabled_rules`. Importing every rule's
module cost ~80 M instructions of a start-up that needs none of them for
`--version`, and the opt-in ones for no default run.

The class says the same as its line (code, name, `enabled_by_default`,
`default_in_loops`): tests/test_registry.py fails when they disagree.
`RULES`, `BY_CODE` and `BY_NAME` are the classes, every module imported on
first use of those names.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipelint.rule import Rule

ON, OFF, IN_LOOPS = "on", "off", "in loops"  # a rule's default: checked, not checked, checked inside loops only


@dataclass(frozen=True)
class Line:
    code: str
    name: str
    class_name: str  # in pipelint.rules.<module>
    default: str = ON  # ON, OFF or IN_LOOPS (`ruledocs.default_set` says it in `pipelint rule --all`)

    @property
    def module(self) -> str:
        """`pipelint.rules.pl001_useless_cat` for PL001 useless-cat."""
        return f"pipelint.rules.{self.code.lower()}_{self.name.replace('-', '_')}"

    @property
    def enabled_by_default(self) -> bool:
        return self.default == ON

    @property
    def default_in_loops(self) -> bool:
        return self.default == IN_LOOPS

    def load(self) -> type[Rule]:
        return _load(self.module, self.class_name)


@functools.cache
def _load(module: str, class_name: str) -> type[Rule]:
    """Asked for every file a run lints: import_module's own bookkeeping cost 90 µs a file."""
    return getattr(importlib.import_module(module), class_name)


TABLE: tuple[Line, ...] = (
    Line("PL001", "useless-cat", "UselessCatRule"),
    Line("PL002", "useless-cat-heredoc", "UselessCatHeredocRule"),
    Line("PL003", "pass-through-cat", "PassThroughCatRule"),
    Line("PL004", "piped-dump-import", "PipedDumpImportRule"),
    Line("PL101", "tee-devnull", "TeeDevNullRule"),
    Line("PL102", "tee-slow-mount", "TeeSlowMountRule"),
    Line("PL103", "stray-tee", "StrayTeeRule"),
    Line("PL201", "dd-small-blocks", "DdSmallBlocksRule"),
    Line("PL203", "useless-dd-reader", "UselessDdReaderRule"),
    Line("PL301", "serialized-transfer", "SerializedTransferRule"),
    Line("PL302", "slow-compression-in-transfer", "SlowCompressionInTransferRule"),
    Line("PL303", "double-compression", "DoubleCompressionRule"),
    Line("PL304", "dump-then-restore", "DumpThenRestoreRule"),
    Line("PL401", "bulk-load-order", "BulkLoadOrderRule"),
    Line("PL501", "grep-count", "GrepCountRule", OFF),
    Line("PL502", "sort-uniq", "SortUniqRule", OFF),
    Line("PL503", "echo-pipe", "EchoPipeRule", IN_LOOPS),
    Line("PL504", "sort-head", "SortHeadRule", OFF),
    Line("PL505", "double-sort", "DoubleSortRule", OFF),
    Line("PL506", "xargs-per-item", "XargsPerItemRule"),
    Line("PL601", "prefer-splicecat-concat", "PreferSplicecatConcatRule", OFF),
    Line("PL602", "prefer-splicecat-tee", "PreferSplicecatTeeRule", OFF),
    Line("PL900", "unused-directive", "UnusedDirectiveRule", OFF),
)

LINE_BY_CODE: dict[str, Line] = {line.code: line for line in TABLE}
LINE_BY_NAME: dict[str, Line] = {line.name: line for line in TABLE}


def __getattr__(name: str):
    """RULES, BY_CODE, BY_NAME: the rule classes, every rule module imported the first time one is asked for."""
    if name == "RULES":
        value: object = tuple(line.load() for line in TABLE)
    elif name == "BY_CODE":
        value = {line.code: line.load() for line in TABLE}
    elif name == "BY_NAME":
        value = {line.name: line.load() for line in TABLE}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


class UnknownSelector(ValueError):
    """A --select/--ignore/config entry that names no rule."""


def line_of(code_or_name: str) -> Line | None:
    return LINE_BY_CODE.get(code_or_name.upper()) or LINE_BY_NAME.get(code_or_name.lower())


def lookup(code_or_name: str) -> type[Rule] | None:
    line = line_of(code_or_name)
    return None if line is None else line.load()


def resolve(selector: str) -> list[Line]:
    """Rules named by a selector: `ALL`, a code prefix (`PL`, `PL0`, `PL001`) or a name."""
    token = selector.strip()
    if token.upper() == "ALL":
        return list(TABLE)
    by_name = LINE_BY_NAME.get(token.lower())
    if by_name is not None:
        return [by_name]
    matched = [line for line in TABLE if line.code.startswith(token.upper())]
    if not matched or not token.upper().startswith("PL"):
        raise UnknownSelector(f"unknown rule selector {selector!r}: not a rule code, code prefix or name")
    return matched


def rule_for_shellcheck(code: str) -> list[type[Rule]]:
    """The rules a ShellCheck code silences: `SC2002`, `2002`, a range `SC2000-SC2999`, `all` (as ShellCheck reads them)."""
    from pipelint.shell.directives import shellcheck_range

    span = shellcheck_range(code)
    return [] if span is None else rules_for_shellcheck_range(*span)


def rules_for_shellcheck_range(low: int, high: int) -> list[type[Rule]]:
    """The rules that answer to a ShellCheck code in [low, high) (`Rule.shellcheck_codes`; every rule is imported)."""
    rules: tuple[type[Rule], ...] = globals().get("RULES") or __getattr__("RULES")
    return [rule for rule in rules if any(low <= int(code[2:]) < high for code in rule.shellcheck_codes)]
