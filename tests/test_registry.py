"""The registry's lines and the rule classes say the same, and what each command imports stays what it needs.

Selection reads the registry's lines without importing a rule (registry.py):
a line that disagreed with its class would select by one and report by the
other. The import tests keep start-up from growing back: `pipelint --version`
imports no engine, a run answered from the cache no tree-sitter and no rule,
and a lint the rules it runs only (docs/benchmarks.md, "Start-up").
"""

from __future__ import annotations

import json
import subprocess
import sys
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


def imported_by(code: str, cwd: Path) -> set[str]:
    """The modules a fresh interpreter holds after running code (the command line's entry point, say)."""
    script = f"import json, sys\ntry:\n{code}\nexcept SystemExit:\n    pass\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    done = subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def main_with(*arguments: str) -> str:
    return f"    sys.argv = ['pipelint', *{list(arguments)!r}]\n    from pipelint.cli.main import main\n    main()"


def engine_modules(modules: set[str]) -> set[str]:
    return {name for name in modules if name.startswith(("tree_sitter", "pipelint.rule", "pipelint.engine.checker"))}


def test_version_imports_no_engine_and_no_format(tmp_path):
    modules = imported_by(main_with("--version"), tmp_path)
    assert engine_modules(modules) == set()
    assert not {name for name in modules if name.startswith(("pipelint.output.", "pipelint.cli.run", "rich", "pathspec"))}


def test_a_run_answered_from_the_cache_imports_no_tree_sitter_and_no_rule(tmp_path):
    (tmp_path / "one.sh").write_text("cat f | grep x\n")
    first = imported_by(main_with("check", "one.sh"), tmp_path)
    assert "pipelint.rules.pl001_useless_cat" in first
    assert "pipelint.rules.pl504_sort_head" not in first  # off by default: not imported
    assert not {name for name in first if name.startswith(("pathspec", "concurrent", "multiprocessing", "subprocess"))}
    again = imported_by(main_with("check", "one.sh"), tmp_path)
    assert engine_modules(again) == set()
