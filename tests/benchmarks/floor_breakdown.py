#!/usr/bin/env python3
"""Where a `--jobs 1` lint's time goes, against a bare parse of the same files, in one process.

bench_lint.py times whole runs; this splits one, and measures CPU time
(`time.process_time`), which a loaded machine moves less than wall time.
Each step runs over every file of the corpus, the steps alternating in each
round (A B C …, A B C …), medians of the rounds:

  bare parse     a fresh tree-sitter parser over each file's bytes (bench_lint's floor)
  parse          `syntax.parse`, as the engine parses
  guarded parse  `parsed.parse_script`: the parse guards' walk and repair rounds, the salvage of
                 ERROR nodes, bash's quirks (shell/parsed.py)
  query          the candidates query over the guarded trees (`candidates.find`, the default rules)
  lint           `linter.process` with the default rules: all of the above, the scripts inside
                 strings, the rules, the script facts, directives

plus the start-up a run pays once: the engine's imports (a fresh interpreter,
`python -c "import pipelint.engine.linter"` against `python -c pass`).

    python tests/benchmarks/floor_breakdown.py --corpus x --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lint import SOURCES, build_corpus  # noqa: E402


def cpu_of(step, items) -> float:
    start = time.process_time()
    for item in items:
        step(item)
    return time.process_time() - start


def started(code: str) -> float:
    """CPU seconds of a fresh interpreter running code (its children's rusage)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", nargs="+", choices=sorted(SOURCES), default=["x"])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    import tree_sitter
    import tree_sitter_bash

    from pipelint.engine import candidates, linter
    from pipelint.engine.config import Settings
    from pipelint.shell import dialect, parsed, syntax

    with tempfile.TemporaryDirectory(prefix="floor-") as work:
        files, size, lines = build_corpus(Path(work), args.corpus)
        paths = sorted(path for path in Path(work).rglob("*") if path.is_file())
        sources = [path.read_bytes() for path in paths]
    settings = Settings()
    rules = [rule() for rule in settings.enabled_rules()]
    plan = candidates.plan(rules)
    language = tree_sitter.Language(tree_sitter_bash.language())
    bare = tree_sitter.Parser(language)
    dialects = [dialect.detect(source, str(path)) for source, path in zip(sources, paths)]
    guarded = [parsed.parse_script(source, found) for source, found in zip(sources, dialects)]

    steps = {
        "bare parse": lambda: cpu_of(bare.parse, sources),
        "parse": lambda: cpu_of(syntax.parse, sources),
        "guarded parse": lambda: cpu_of(lambda pair: parsed.parse_script(*pair), list(zip(sources, dialects))),
        "query": lambda: cpu_of(lambda script: candidates.find(plan, script.root), guarded),
        "lint": lambda: cpu_of(lambda pair: linter.process(pair[0], str(pair[1]), settings, pair[1]), list(zip(sources, paths))),
    }
    print(f"{files} scripts, {size / 1024:.0f} KiB, {lines:,} lines ({' + '.join(args.corpus)}); "
          f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")  # fmt: skip
    samples: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(args.rounds):
        for name, step in steps.items():
            samples[name].append(step())
    imports = [started("import pipelint.engine.linter") - started("pass") for _ in range(args.rounds)]
    median = {name: statistics.median(values) for name, values in samples.items()}
    floor = median["bare parse"]
    print("\n| step | median CPU | × bare parse |")
    print("|---|---|---|")
    for name, value in median.items():
        print(f"| {name} | {value:.3f} s | {value / floor:.2f} |")
    engine = statistics.median(imports)
    print(f"| engine imports (once per process) | {engine:.3f} s | {engine / floor:.2f} |")
    guards, query, lint = median["guarded parse"], median["query"], median["lint"]
    print(f"\nguards beyond the parse: {(guards - median['parse']) / floor:.2f}× bare parse; "
          f"floor (guarded parse + query + imports): {(guards + query + engine) / floor:.2f}×; "
          f"the rest of the lint (rules, facts, regions, directives): {(lint - guards - query) / floor:.2f}×")  # fmt: skip
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
