#!/usr/bin/env python3
"""Both cores on a folder as it is: `pipelint check` with its default jobs against `--jobs 1`.

bench_lint.py lints copies named `.sh`/`.bash`, which discovery finds by
name alone; a real tree holds files that are no scripts, and discovery reads
the `#!` line of each. Here every command runs on the folders given, as
they are, uncached, alternating in each round (A B …), medians of the
rounds, and the ratio the goal is about (issue 28: default jobs ≤ 0.6×
`--jobs 1` on two cores). With `--baseline CHECKOUT` the same two runs of
another checkout, for its own ratio (then give `--python` a venv without an
editable pipelint: see bench_lint.py).

    python tests/benchmarks/bench_jobs.py "$CORPUS" --rounds 7    # the folder fetch_debian_corpus.sh unpacked
    python tests/benchmarks/bench_jobs.py "$CORPUS" --rounds 7 --python /tmp/venv/bin/python --baseline /tmp/before
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lint import REPO, imported_from, load, timed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--baseline", type=Path, help="another checkout to time beside this one (a before)")
    args = parser.parse_args()
    checkouts = {"": REPO, **({"baseline ": args.baseline.resolve()} if args.baseline else {})}
    for checkout in checkouts.values():
        if imported_from(args.python, checkout) != checkout.resolve():
            sys.exit(f"{args.python} imports another pipelint than {checkout}: use --python from a venv without pipelint")
    pipelint = [args.python, "-m", "pipelint", "check", "--quiet", "--exit-zero", "--no-cache"]
    folders = [str(folder.resolve()) for folder in args.folders]
    commands = {}
    for label, checkout in checkouts.items():
        commands[f"{label}--jobs 1"] = ([*pipelint, "--jobs", "1", *folders], checkout)
        commands[f"{label}default jobs"] = ([*pipelint, *folders], checkout)
    print(f"{' '.join(folders)}; {os.cpu_count()} CPUs; load average before: {load()}")
    with tempfile.TemporaryDirectory(prefix="bench-jobs-") as work:  # run from a folder without pipelint in it
        for command, checkout in commands.values():
            timed(command, Path(work), checkout)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, (command, checkout) in commands.items():
                walls[name].append(timed(command, Path(work), checkout)[0])
    median = {name: statistics.median(values) for name, values in walls.items()}
    print("\n| run | median wall time | × its --jobs 1 |\n|---|---|---|")
    for label in checkouts:
        one = median[f"{label}--jobs 1"]
        for name in (f"{label}--jobs 1", f"{label}default jobs"):
            print(f"| {name} | {median[name]:.3f} s | {median[name] / one:.2f} |")
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
