#!/usr/bin/env python3
"""Host files: linting N commands as a Dockerfile's RUNs and a workflow's steps, against the same N lines as one script.

A host file costs a region per RUN or `run:` (its own parse and rule pass)
plus the host's parser; this measures that cost side by side, alternating
the three in one run, and reports median wall times and ratios to the script.

    python tests/benchmarks/bench_hosts.py --commands 2000 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = (
    "cat access.log | grep -c 500 > errors{n}",
    "mysqldump shop | gzip -c > shop{n}.sql.gz",
    "tar -C /srv -cf - data | gzip > data{n}.tgz",
    "sort -u words{n}.txt | wc -l",
)


def commands(count: int) -> list[str]:
    return [COMMANDS[n % len(COMMANDS)].format(n=n) for n in range(count)]


def build(folder: Path, count: int) -> dict[str, Path]:
    lines = commands(count)
    workflow = folder / ".github" / "workflows" / "many.yml"
    workflow.parent.mkdir(parents=True)
    files = {
        "script": (folder / "many.sh", "#!/bin/sh\n" + "".join(f"{line}\n" for line in lines)),
        "Dockerfile": (folder / "Dockerfile", "FROM debian:12\n" + "".join(f"RUN {line}\n" for line in lines)),
        "workflow": (
            workflow,
            "on: push\njobs:\n  all:\n    runs-on: ubuntu-latest\n    steps:\n"
            + "".join(f"      - run: {line}\n" for line in lines),
        ),
    }
    for path, text in files.values():
        path.write_text(text)
    return {name: path for name, (path, _) in files.items()}


def timed(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pipelint", "check", "--quiet", "--exit-zero", str(path)],
        stdout=subprocess.DEVNULL,
        check=True,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-hosts-") as work:
        paths = build(Path(work), args.commands)
        times: dict[str, list[float]] = {name: [] for name in paths}
        for _ in range(args.rounds):
            for name, path in paths.items():
                times[name].append(timed(path))
    script = statistics.median(times["script"])
    print(f"{args.commands} commands, {args.rounds} rounds, median wall time")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"  {name:<10} {median:6.2f} s   {median / script:4.2f}× the script")


if __name__ == "__main__":
    main()
