#!/usr/bin/env python3
"""`xargs -I{} CMD {}` / `xargs -n 1 CMD` against `xargs CMD`: the process per item PL506 reports.

Makes a folder of small files (a fixed seed, so every run lists the same
names), page-caches them, then alternates the two forms in one run (A B A B
…) and reports median wall time, median CPU time (user+sys of every process)
and their ratios. A check first asserts that each pair prints the same bytes.

    python tests/benchmarks/bench_xargs_per_file.py --files 3000 --rounds 7
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
from pathlib import Path

# The same alternating A B A B runs and ratio row as `cat F | c` against `c < F`.
from bench_redirect import compare, require_same_output, scratch_folder  # noqa: E402  (same folder: run as a script)


def make_files(folder: Path, count: int) -> None:
    rng = random.Random(506)
    for number in range(count):
        (folder / f"f{number:05d}-{rng.randint(0, 10**6)}.txt").write_text("x" * rng.randint(10, 200) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    if args.files < 1 or args.rounds < 1:
        parser.error("--files and --rounds must be at least 1")
    with scratch_folder("xargs") as work:
        folder = work / "files"
        folder.mkdir()
        make_files(folder, args.files)
        subprocess.run(f"cat {folder}/* > /dev/null", shell=True, check=True)  # page-cache them
        listing = f"cd {folder} && ls"
        pairs = [
            (
                "`ls \\| xargs -I{} basename {}` vs `ls \\| xargs -d '\\n' basename -a`",
                f"{listing} | xargs -I{{}} basename {{}}",
                f"{listing} | xargs -d '\\n' basename -a",
            ),
            ("`ls \\| xargs -n 1 sha256sum` vs `ls \\| xargs sha256sum`", f"{listing} | xargs -n 1 sha256sum", f"{listing} | xargs sha256sum"),
            ("`ls \\| xargs -I{} cat {}` vs `ls \\| xargs -d '\\n' cat`", f"{listing} | xargs -I{{}} cat {{}}", f"{listing} | xargs -d '\\n' cat"),
        ]
        for _, each, once in pairs:
            require_same_output("bench_xargs_per_file", each, once)
        load = os.getloadavg()[0]  # other jobs on the CPUs stretch both forms' wall time, not their ratio alone
        print(f"{args.files} files, {args.rounds} alternating rounds, medians (wall / CPU)")
        print(f"{os.cpu_count()} CPUs (load {load:.1f}), {shutil.which('xargs')}\n")
        print("| forms | a process per item | one call for many | wall ratio | CPU ratio |")
        print("|---|---|---|---|---|")
        for name, each, once in pairs:
            print(compare(name, f"{each} > /dev/null", f"{once} > /dev/null", args.rounds))


if __name__ == "__main__":
    main()
