#!/usr/bin/env python3
"""`cat FILE | consumer` against `consumer < FILE`: the cost PL001/PL004 remove.

Alternates the two forms in one run (A B A B …) on a page-cached file and
reports median wall time, median CPU time (user+sys of the whole pipeline)
and their ratios. Consumers: the dump article's fread() loop (compiled here with cc)
and `wc -l`.

    python tests/benchmarks/bench_redirect.py --size-mib 512 --rounds 7
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

READER_C = r"""
#include <stdio.h>
static char buf[65536];
int main(void) { while (fread(buf, sizeof buf, 1, stdin) > 0) {} return 0; }
"""


def timed(command: str) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(["bash", "-c", command], check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def compare(name: str, piped: str, redirected: str, rounds: int) -> str:
    timed(piped), timed(redirected)  # warm up
    samples: dict[str, list[tuple[float, float]]] = {"piped": [], "redirected": []}
    for _ in range(rounds):
        samples["piped"].append(timed(piped))
        samples["redirected"].append(timed(redirected))
    wall = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
    cpu = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
    return (
        f"| {name} | {wall['piped']:.3f} s / {cpu['piped']:.3f} s | {wall['redirected']:.3f} s / {cpu['redirected']:.3f} s "
        f"| {wall['piped'] / wall['redirected']:.2f}× | {cpu['piped'] / max(cpu['redirected'], 1e-9):.2f}× |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mib", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-redirect-", dir=os.environ.get("BENCH_DIR", Path.cwd())))
    try:
        data = work / "dump.sql"
        line = b"INSERT INTO t VALUES (1, 'abcdefghijklmnopqrstuvwxyz', 3.14159, '2026-11-22 00:00:00');\n"
        with open(data, "wb") as handle:
            chunk = line * ((1 << 20) // len(line) + 1)
            for _ in range(args.size_mib):
                handle.write(chunk[: 1 << 20])
        subprocess.run(["cat", str(data)], stdout=subprocess.DEVNULL, check=True)  # page-cache it
        reader = work / "reader"
        (work / "reader.c").write_text(READER_C)
        subprocess.run(["cc", "-O2", "-o", str(reader), str(work / "reader.c")], check=True)
        print(f"{args.size_mib} MiB page-cached file, {args.rounds} alternating rounds, medians (wall / CPU)")
        print(f"kernel {os.uname().release}, {os.cpu_count()} CPUs, {shutil.which('cat')}\n")
        print("| consumer | `cat F \\| consumer` | `consumer < F` | wall ratio | CPU ratio |")
        print("|---|---|---|---|---|")
        print(compare("fread() loop (as in the dump article)", f"cat {data} | {reader}", f"{reader} < {data}", args.rounds))
        print(compare("`wc -l`", f"cat {data} | wc -l >/dev/null", f"wc -l < {data} >/dev/null", args.rounds))
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
