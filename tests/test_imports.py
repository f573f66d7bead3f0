"""What each command imports stays what it needs (docs/benchmarks.md, "Start-up").

`pipelint --version` imports no settings, engine or output format; a run
answered from the cache no tree-sitter, no rule and no worker pool; a lint
the rules it runs only. Counted by module names, in a fresh interpreter:
no time is measured here (tests/benchmarks/bench_startup.py does that).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


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


def test_a_folder_answered_from_the_cache_starts_no_worker(tmp_path):
    for name in ("a.sh", "b.sh"):
        (tmp_path / name).write_text("cat f | grep x\n")
    imported_by(main_with("check", "."), tmp_path)
    again = imported_by(main_with("check", "."), tmp_path)
    assert engine_modules(again) == set()
    assert not {name for name in again if name.startswith(("concurrent", "multiprocessing"))}


def test_a_small_folder_is_linted_without_workers_and_a_large_one_with_them(tmp_path):
    """Workers only for work worth their start (run.WORKERS_WORTH_MS)."""
    small, large = tmp_path / "small", tmp_path / "large"
    for folder, lines in ((small, 1), (large, 30_000)):  # 3 files of 300 KiB: ~270 ms of lint by the estimate
        folder.mkdir()
        for name in ("a.sh", "b.sh", "c.sh"):
            (folder / name).write_text("cat f | grep x\n" + "# a comment\n" * lines)
    assert "multiprocessing" not in imported_by(main_with("check", "--no-cache", "--jobs", "2", "."), small)
    assert "multiprocessing" in imported_by(main_with("check", "--no-cache", "--jobs", "2", "."), large)
