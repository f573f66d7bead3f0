"""The registry's lines and the rule classes say the same.

Selection reads the registry's lines without importing a rule (registry.py):
a line that disagreed with its class would select by one and report by the
other.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelint.engine import registry
from pipelint.engine.config import Settings

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("line", registry.TABLE, ids=[line.code for line in registry.TABLE])
def test_each_line_says_what_its_class_says(line):
    rule = line.load()
    assert (rule.code, rule.name) == (line.code, line.name)
    assert (rule.enabled_by_default, rule.default_in_loops) == (line.enabled_by_default, line.default_in_loops)
    assert rule.__module__ == line.module


def test_the_lines_are_in_code_order_and_unique():
    codes = [line.code for line in registry.TABLE]
    assert codes == sorted(set(codes))
    assert len({line.name for line in registry.TABLE}) == len(codes)


def test_every_rule_module_has_a_line():
    modules = {path.stem for path in (REPO / "pipelint" / "rules").glob("pl[0-9]*.py")}
    assert modules == {line.module.rsplit(".", 1)[1] for line in registry.TABLE}


def test_selection_reads_the_lines():
    assert [line.code for line in registry.resolve("PL00")] == ["PL001", "PL002", "PL003", "PL004"]
    assert registry.resolve("sort-head") == [registry.LINE_BY_CODE["PL504"]]
    assert registry.lookup("pl504") is registry.BY_CODE["PL504"]
    assert [rule.code for rule in Settings().enabled_rules()] == sorted(Settings().enabled_codes())
    assert registry.RULES == tuple(line.load() for line in registry.TABLE)
