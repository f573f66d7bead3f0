"""The one table of rule codes: selection, `pipelint rule --all` and the docs all read it."""

from __future__ import annotations

from pipelint.rule import Rule
from pipelint.shell.directives import shellcheck_range
from pipelint.rules.pl001_useless_cat import UselessCatRule
from pipelint.rules.pl002_useless_cat_heredoc import UselessCatHeredocRule
from pipelint.rules.pl003_pass_through_cat import PassThroughCatRule
from pipelint.rules.pl004_piped_dump_import import PipedDumpImportRule
from pipelint.rules.pl101_tee_devnull import TeeDevNullRule
from pipelint.rules.pl102_tee_slow_mount import TeeSlowMountRule
from pipelint.rules.pl103_stray_tee import StrayTeeRule
from pipelint.rules.pl201_dd_small_blocks import DdSmallBlocksRule
from pipelint.rules.pl203_useless_dd_reader import UselessDdReaderRule
from pipelint.rules.pl301_serialized_transfer import SerializedTransferRule
from pipelint.rules.pl302_slow_compression_in_transfer import SlowCompressionInTransferRule
from pipelint.rules.pl303_double_compression import DoubleCompressionRule
from pipelint.rules.pl304_dump_then_restore import DumpThenRestoreRule
from pipelint.rules.pl401_bulk_load_order import BulkLoadOrderRule
from pipelint.rules.pl501_grep_count import GrepCountRule
from pipelint.rules.pl502_sort_uniq import SortUniqRule
from pipelint.rules.pl503_echo_pipe import EchoPipeRule
from pipelint.rules.pl504_sort_head import SortHeadRule
from pipelint.rules.pl505_double_sort import DoubleSortRule
from pipelint.rules.pl506_xargs_per_item import XargsPerItemRule
from pipelint.rules.pl601_prefer_splicecat_concat import PreferSplicecatConcatRule
from pipelint.rules.pl602_prefer_splicecat_tee import PreferSplicecatTeeRule
from pipelint.rules.pl900_unused_directive import UnusedDirectiveRule

RULES: tuple[type[Rule], ...] = (
    UselessCatRule,  # PL001 useless-cat
    UselessCatHeredocRule,  # PL002 useless-cat-heredoc
    PassThroughCatRule,  # PL003 pass-through-cat
    PipedDumpImportRule,  # PL004 piped-dump-import
    TeeDevNullRule,  # PL101 tee-devnull
    TeeSlowMountRule,  # PL102 tee-slow-mount
    StrayTeeRule,  # PL103 stray-tee
    DdSmallBlocksRule,  # PL201 dd-small-blocks
    UselessDdReaderRule,  # PL203 useless-dd-reader
    SerializedTransferRule,  # PL301 serialized-transfer
    SlowCompressionInTransferRule,  # PL302 slow-compression-in-transfer
    DoubleCompressionRule,  # PL303 double-compression
    DumpThenRestoreRule,  # PL304 dump-then-restore
    BulkLoadOrderRule,  # PL401 bulk-load-order
    GrepCountRule,  # PL501 grep-count
    SortUniqRule,  # PL502 sort-uniq
    EchoPipeRule,  # PL503 echo-pipe
    SortHeadRule,  # PL504 sort-head
    DoubleSortRule,  # PL505 double-sort
    XargsPerItemRule,  # PL506 xargs-per-item
    PreferSplicecatConcatRule,  # PL601 prefer-splicecat-concat
    PreferSplicecatTeeRule,  # PL602 prefer-splicecat-tee
    UnusedDirectiveRule,  # PL900 unused-directive
)

BY_CODE: dict[str, type[Rule]] = {rule.code: rule for rule in RULES}
BY_NAME: dict[str, type[Rule]] = {rule.name: rule for rule in RULES}


class UnknownSelector(ValueError):
    """A --select/--ignore/config entry that names no rule."""


def lookup(code_or_name: str) -> type[Rule] | None:
    return BY_CODE.get(code_or_name.upper()) or BY_NAME.get(code_or_name.lower())


def resolve(selector: str) -> list[type[Rule]]:
    """Rules named by a selector: `ALL`, a code prefix (`PL`, `PL0`, `PL001`) or a name."""
    token = selector.strip()
    if token.upper() == "ALL":
        return list(RULES)
    by_name = BY_NAME.get(token.lower())
    if by_name is not None:
        return [by_name]
    matched = [rule for rule in RULES if rule.code.startswith(token.upper())]
    if not matched or not token.upper().startswith("PL"):
        raise UnknownSelector(f"unknown rule selector {selector!r}: not a rule code, code prefix or name")
    return matched


def rule_for_shellcheck(code: str) -> list[type[Rule]]:
    """The rules a ShellCheck code silences: `SC2002`, `2002`, a range `SC2000-SC2999`, `all` (as ShellCheck reads them)."""
    span = shellcheck_range(code)
    return [] if span is None else rules_for_shellcheck_range(*span)


def rules_for_shellcheck_range(low: int, high: int) -> list[type[Rule]]:
    """The rules that answer to a ShellCheck code in [low, high) (`Rule.shellcheck_codes`)."""
    return [rule for rule in RULES if any(low <= int(code[2:]) < high for code in rule.shellcheck_codes)]
