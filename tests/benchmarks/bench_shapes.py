#!/usr/bin/env python3
"""Does the lint stay linear in each thing a script can have many of?

bench_file_size.py grows a script by repeating real ones; this grows one
thing at a time: `set -e` / `set +e` pairs, assignments each read by a
pipeline, directives, stages of one pipeline, `elif` branches, mounts, dumps,
stray tees, here-documents, functions… For each shape, `pipelint check
--select ALL` runs in a fresh process on N and 2N repetitions; the last column
is the ratio of the two times. About 2 is linear; about 4 is quadratic, and
the shape is a hang waiting for a large enough script. The sixth session
found five such shapes this way (docs/benchmarks.md, *Large scripts*).

    python tests/benchmarks/bench_shapes.py
    python tests/benchmarks/bench_shapes.py --count 4000 --shapes toggles assignments
    python tests/benchmarks/bench_shapes.py --repo /tmp/main-before   # that checkout's pipelint
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Each shape: one repetition, given its index (a whole script where the shape is one construct).
SHAPES = {
    "toggles": lambda i: "set -e\ncat a | sort\nset +e\n",
    "assignments": lambda i: f"v{i}=file{i}.txt\ncat $v{i} | wc -l\n",
    "directives": lambda i: '# pipelint: disable=PL003\ncat "data.txt" | grep -v foo | sort > out.txt\n',
    "mounts": lambda i: f"mount -t nfs h:/x /mnt/m{i}\ncat a | tee /mnt/m{i}/f | wc -l\n",
    "dumps": lambda i: f"mysqldump db{i} > d{i}.sql\nmysql -h r db{i} < d{i}.sql\n",
    "stray tees": lambda i: f"cat <<EOF | sort | tee o{i} | wc -l\nx\nEOF\n",
    "here-documents": lambda i: f"cat <<EOF{i} | sort\nline {i}\nEOF{i}\n",
    "functions": lambda i: f"f{i}() {{ cat a{i} | sort; }}\n",
    "inner scripts": lambda i: f"sh -c 'cat a{i} | sort'\n",
    "transfers": lambda i: f"gzip -c f{i} > f{i}.gz\nscp f{i}.gz h:/x/\nssh h gunzip /x/f{i}.gz\n",
    "loops": lambda i: f"for x in a b; do cat $x | sort; done\n",
    "case items": lambda i: f"  {i}) cat a | sort ;;\n",
    "elif branches": lambda i: f"elif [ $x = {i} ]; then cat a | sort\n",
    "pipeline stages": lambda i: " | cat",
    "&& chain": lambda i: f"cat a{i} | sort && ",
}
# The script around the repetitions, where a shape is one construct.
FRAMES = {
    "case items": ("case $x in\n", "esac\n"),
    "elif branches": ("if [ $x = a ]; then :\n", "fi\n"),
    "pipeline stages": ("cat a", "\n"),
    "&& chain": ("", "true\n"),
}


def script(shape: str, count: int) -> str:
    head, tail = FRAMES.get(shape, ("", ""))
    return "#!/bin/bash\n" + head + "".join(SHAPES[shape](i) for i in range(count)) + tail


def timed(path: Path, repo: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(repo))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # run from bytecode, as an installed pipelint does
    command = [sys.executable, "-m", "pipelint", "check", "--quiet", "--no-cache", "--exit-zero", "--select", "ALL"]
    start = time.perf_counter()
    subprocess.run([*command, "--slow-mount", "/mnt", str(path)], env=env, cwd=path.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="N: each shape is timed at N and 2N repetitions")
    parser.add_argument("--shapes", nargs="+", choices=sorted(SHAPES), default=list(SHAPES))
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose pipelint runs")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    print(f"| shape | {args.count:,} | {2 * args.count:,} | ratio |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="bench-shapes-") as work:
        for shape in args.shapes:
            times = []
            for count in (args.count, 2 * args.count):
                path = Path(work) / f"{shape.replace(' ', '-')}-{count}.sh"
                path.write_text(script(shape, count))
                times.append(timed(path, args.repo))
            print(f"| {shape} | {times[0]:.2f} s | {times[1]:.2f} s | {times[1] / times[0]:.1f} |")


if __name__ == "__main__":
    main()
