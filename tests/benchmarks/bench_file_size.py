#!/usr/bin/env python3
"""What a large script costs: `pipelint check` against the bare tree-sitter parse, per size.

The file-size limit (`max-file-size`, default 8 MiB) is chosen from this
table: it says how long and how much memory `pipelint check` takes on a
script of 1, 2, 5 and 10 MB, side by side with parsing the same bytes with
tree-sitter-bash alone (the floor no linter built on it can go under). Each
measurement is a fresh process; time is wall time, memory is peak RSS
(`ru_maxrss` of the child). Beside them, the engine floor: what the check
pays before its first rule (imports, the parse with the guards' repair
rounds, the candidates query), with the number of parses the guards needed;
what the rules, the facts and the output cost is the difference. And
`check --fix` on a copy: it lints again after each pass of fixes, and its
time must grow with the size as the check's does (choosing among 23,000 fixes
was once quadratic). The kinds of script:

- `fixtures`: the repository's fixtures repeated (functions, loops,
  heredocs, pipelines; a finding every few lines), like a large real script;
- `dense`: two lines repeated, each with a finding (what tests/test_cli.py
  used to lint at 10 MB), the worst case for findings and fixes;
- `scripts`: real scripts one after another (those under corpus/x,
  made by tests/benchmarks/fetch_debian_corpus.sh,
  /usr/share, /usr/lib and /etc that tree-sitter parses without an ERROR),
  a large script as people write them. The fixtures joined are not one:
  tree-sitter-bash misreads the join (#347) into one ERROR over most of a
  megabyte, and the parse guards' repair rounds then cost a parse each.
  Past about 6.7 MB tree-sitter-bash reads these scripts joined as one ERROR
  from the first byte (a script of the second round starts it; each prefix
  parses clean): measure `scripts` up to 6.5 MB;
- `nesting`: `echo $($(…))`, `$(` nested DEPTH deep (`--depths`), where any walk
  that re-visits a subtree per ancestor, or recurses, shows (issue 14: 20k
  levels took 24.6 s, 50k over 120 s, against 0.03 s to parse).

    python tests/benchmarks/bench_file_size.py --corpus fixtures --sizes 1 2 5 10
    python tests/benchmarks/bench_file_size.py --corpus dense --sizes 1 2 5 10
    python tests/benchmarks/bench_file_size.py --corpus scripts --sizes 1 2 5 6.5
    python tests/benchmarks/bench_file_size.py --corpus nesting --depths 1000 5000 10000 20000 50000
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus_home import DEBIAN_CORPUS  # same folder: run as a script

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"

PARSE_ONLY = "import sys, tree_sitter, tree_sitter_bash as b; tree_sitter.Parser(tree_sitter.Language(b.language())).parse(open(sys.argv[1], 'rb').read())"

# The least `pipelint check` of this design pays on the file before its first rule: its imports,
# the guarded parse (with the repair rounds an exact tree needs, each a parse) and the one
# candidates query; no rule, fact or output (bench_lint.py's engine floor, with the guards).
ENGINE_FLOOR = """
import sys
import pipelint.cli.main
from pipelint.engine import candidates, registry
from pipelint.shell import dialect
from pipelint.shell.parsed import parse_script
source = open(sys.argv[1], 'rb').read()
parsed = parse_script(source, dialect.detect(source, sys.argv[1]))
candidates.find(candidates.plan([rule() for rule in registry.RULES]), parsed.root)
"""


DENSE = b'cat "data.txt" | grep -v foo | sort > out.txt\nif [ -f x ]; then echo "hi" | tr a b; fi\n'


SCRIPT_SOURCES = [DEBIAN_CORPUS, Path("/usr/share"), Path("/usr/lib"), Path("/etc")]


def real_scripts() -> list[bytes]:
    """Every script of SCRIPT_SOURCES that parses without an ERROR, in path order, each ending its last line."""
    sys.path.insert(0, str(REPO))
    from pipelint.shell import syntax
    from pipelint.cli.discovery import walk_scripts

    scripts = []
    for root in SCRIPT_SOURCES:
        if not root.is_dir():
            continue
        for path in sorted(walk_scripts(root, lambda path: False, embedded=False)):
            try:
                text = path.read_bytes()
            except OSError:
                continue
            if b"\0" not in text and not syntax.parse(text).root_node.has_error:
                scripts.append(text if text.endswith(b"\n") else text + b"\n")
    return scripts


def whole_scripts(scripts: list[bytes], size: int) -> bytes:
    """Scripts one after another (from the first again when they run out) up to size, cut only between two:
    a script cut in the middle can leave tree-sitter one ERROR over the whole file (it did at 10 MB)."""
    chosen: list[bytes] = []
    total = index = 0
    while total < size:
        script = scripts[index % len(scripts)]
        if chosen and total + len(script) > size:
            break
        chosen.append(script)
        total += len(script)
        index += 1
    return b"".join(chosen)


def build_script(path: Path, megabytes: float, corpus: str) -> None:
    if corpus == "scripts":
        path.write_bytes(whole_scripts(real_scripts(), int(megabytes * 1_000_000)))
        return
    if corpus == "dense":
        body = DENSE
    else:
        body = b"".join(p.read_bytes() for p in sorted(FIXTURES.glob("*sh")))
    size = int(megabytes * 1_000_000)
    path.write_bytes((body * (size // len(body) + 1))[:size].rsplit(b"\n", 1)[0] + b"\n")


def build_nesting(path: Path, depth: int) -> None:
    path.write_bytes(b"echo " + b"$(" * depth + b")" * depth + b"\n")  # issue 14's case: nothing but nesting


def repair_rounds(script: Path) -> int:
    """How many times the parse guards parse the script again to repair what tree-sitter-bash misread."""
    sys.path.insert(0, str(REPO))
    from pipelint.shell import dialect, parse_guards

    source = script.read_bytes()
    return parse_guards.guard(source, dialect.detect(source, str(script))).rounds


def measure(command: list[str], repo: Path = REPO) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one run in a fresh child process."""
    env = dict(os.environ, PYTHONPATH=str(repo))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # run from bytecode, as an installed pipelint does
    start = time.perf_counter()
    # Run from the scratch folder: `python -m` puts the working folder first on sys.path, and a
    # checkout there would shadow --repo's package.
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=Path(command[-1]).parent)
    _, _, usage = os.wait4(child.pid, 0)  # this child's own rusage, not the maximum over all children
    elapsed = time.perf_counter() - start
    child.returncode = 0  # reaped by wait4 already
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 2, 5, 10], help="script sizes in MB, rising")
    parser.add_argument("--depths", type=int, nargs="+", default=[1000, 5000, 10000, 20000, 50000], help="for nesting")
    parser.add_argument("--corpus", choices=("fixtures", "dense", "scripts", "nesting"), default="fixtures")
    parser.add_argument("--extra", nargs="*", default=["--max-file-size", "0", "--no-cache"], help="`pipelint check` flags")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose pipelint runs (e.g. main's, for a before)")
    args = parser.parse_args()
    print(f"corpus: {args.corpus}; load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    label = "depth" if args.corpus == "nesting" else "size"
    print(f"| {label} | tree-sitter parse | engine floor (parses) | pipelint check | time ratio | check --fix | parse RSS | check RSS | RSS ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="bench-size-") as work:
        script = Path(work) / "big.sh"
        cases = args.depths if args.corpus == "nesting" else args.sizes
        for case in sorted(cases):
            if args.corpus == "nesting":
                build_nesting(script, int(case))
                name = f"{case:,}"
            else:
                build_script(script, case, args.corpus)
                name = f"{case:g} MB"
            parse_time, parse_rss = measure([sys.executable, "-c", PARSE_ONLY, str(script)])
            floor_time, _ = measure([sys.executable, "-c", ENGINE_FLOOR, str(script)], args.repo)
            check = [sys.executable, "-m", "pipelint", "check", "--quiet", *args.extra, str(script)]
            check_time, check_rss = measure(check, args.repo)
            floor = f"{floor_time:.2f} s ({floor_time / parse_time:.1f}×, {1 + repair_rounds(script)})"
            fixed = script.with_name("fixed.sh")
            shutil.copyfile(script, fixed)  # `--fix` rewrites it: a copy, each size afresh
            fix_time, _ = measure([sys.executable, "-m", "pipelint", "check", "--quiet", "--fix", "--exit-zero", *args.extra, str(fixed)], args.repo)
            print(
                f"| {name} | {parse_time:.2f} s | {floor} | {check_time:.2f} s | {check_time / parse_time:.1f}× | {fix_time:.2f} s "
                f"| {parse_rss:.0f} MB | {check_rss:.0f} MB | {check_rss / parse_rss:.1f}× |"
            )


if __name__ == "__main__":
    main()
