#!/usr/bin/env python3
"""What `pipelint trace` costs the script it runs: traced against untraced, side by side in one run.

Two scripts, each run in interleaved rounds (A B C D A B C D …): untraced
(`bash SCRIPT`), under the tracer alone (`pipelint-tracer`: what the script
itself feels), the whole `pipelint trace -o /dev/null` (Python's start, the
record read back, the scripts linted, the report), and, where strace is
installed, the candidate docs/trace.md weighs against it: `strace -f
--seccomp-bpf -e trace=execve,exit_group`. Medians of wall and CPU time
(user+sys of every process), ratios against untraced, and the load average
before and after (the machine may be shared).

- `cat F | gzip -1 > /dev/null` on a page-cached file (1 GiB by default):
  goal, within 5% of the untraced wall time;
- a loop starting short processes (10,000 `/bin/true` by default): goal,
  within 25%.

    python tests/benchmarks/bench_trace.py --size-mib 1024 --processes 10000 --rounds 5
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_redirect import scratch_folder, timed  # noqa: E402

def commands(script: Path, tracer: str, pipelint: str) -> dict[str, str]:
    forms = {
        "untraced": f"bash {script}",
        "tracer": f"{tracer} --record 3 --shell bash -- bash {script} 3>/dev/null",
        "pipelint trace": f"{pipelint} trace -o /dev/null -- bash {script}",
    }
    if shutil.which("strace"):
        forms["strace -f --seccomp-bpf"] = f"strace -f -qq --seccomp-bpf -e trace=execve,exit_group -o /dev/null bash {script}"
    return forms


def measure(name: str, forms: dict[str, str], rounds: int) -> list[str]:
    for command in forms.values():
        timed(command)  # warm up: page cache, binaries
    samples: dict[str, list[tuple[float, float]]] = {form: [] for form in forms}
    for _ in range(rounds):
        for form, command in forms.items():
            samples[form].append(timed(command))
    wall = {form: statistics.median(s[0] for s in samples[form]) for form in forms}
    cpu = {form: statistics.median(s[1] for s in samples[form]) for form in forms}
    rows = []
    for form in forms:
        rows.append(
            f"| {name} | {form} | {wall[form]:.3f} s | {cpu[form]:.3f} s "
            f"| {wall[form] / wall['untraced']:.3f}× | {cpu[form] / cpu['untraced']:.3f}× |"
        )
    return rows


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mib", type=int, default=1024)
    parser.add_argument("--processes", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    tracer = shutil.which("pipelint-tracer")
    pipelint = shutil.which("pipelint")
    if tracer is None or pipelint is None:
        sys.exit("pipelint and pipelint-tracer must be on PATH (pip install . in a virtualenv, then activate it)")
    with scratch_folder("trace") as work:
        data = work / "data"
        with open(data, "wb") as handle:
            block = os.urandom(1 << 20)  # gzip works for its living: incompressible data
            for _ in range(args.size_mib):
                handle.write(block)
        pipeline = work / "pipeline.sh"
        pipeline.write_text(f"cat {data} | gzip -1 > /dev/null\n")
        processes = work / "processes.sh"
        processes.write_text(f"i=0\nwhile [ $i -lt {args.processes} ]; do /bin/true; i=$((i + 1)); done\n")
        print(f"{args.rounds} interleaved rounds, medians; kernel {os.uname().release}, {os.cpu_count()} CPUs")
        print(f"load average before: {load()}\n")
        print("| script | run | wall | CPU | wall ratio | CPU ratio |")
        print("|---|---|---|---|---|---|")
        for row in measure(f"`cat F \\| gzip -1`, {args.size_mib} MiB", commands(pipeline, tracer, pipelint), args.rounds):
            print(row)
        for row in measure(f"{args.processes:,} `/bin/true`", commands(processes, tracer, pipelint), args.rounds):
            print(row)
        print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
