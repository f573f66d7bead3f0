#!/usr/bin/env python3
"""A tree-sitter-bash build against the packaged one, side by side: parse errors, guard repairs, parse cost.

    python tests/benchmarks/bench_grammar.py --grammar PATH/bash.so FOLDER...

PATH is any compiled tree-sitter-bash language library (a shared object that
exports `tree_sitter_bash`, built from a patched grammar by whoever builds
it); this script builds nothing and fetches nothing. Without `--grammar` it
compares the packaged grammar with itself (a check of the measurement's
noise).

Each grammar is loaded in a worker process of its own, which points
pipelint's parser (`shell/syntax.language`) at it; the files go to both
workers in turn, alternating which goes first, so both see the same machine.
For every script below the folders (picked as `pipelint check` picks them;
files under `bash-completion/completions/` are read as bash), per grammar:

- parse-error places (ERROR nodes and MISSING tokens of tree-sitter's parse)
  and files with any, among the scripts whose shell accepts them (`bash -n`,
  `dash -n` for sh: shell/acceptance.py), and the stretches pipelint then
  reports as not checked (`ParsedScript.failures`, notes by default);
- what the parse guards still repair (shell/parse_guards.py): statements
  joined across lines per upstream issue (#316, #347, #228, other), here-
  documents ended elsewhere than bash ends them, stretches read another way
  (`<>`, here-strings on a descriptor, opaque expansions), files parsed
  again, and redirects holding words bash gives the command (#233);
- the time of tree-sitter's parse alone, and of pipelint's guarded parse
  (`shell.parsed.parse_script`: guards, salvage, here-documents), each the
  fastest of --repeat runs per file, summed; and their ratios.

    --places   also list each parse-error place left on an accepted script

A grammar is `packaged` or a library's path; either with `,no-rereads`
turns off the guards' readings of what tree-sitter cannot parse, so that

    python tests/benchmarks/bench_grammar.py --baseline packaged,no-rereads FOLDER...

measures what those readings recover (B) against none (A) on one grammar.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

PACKAGED = "packaged"
STRAY_QUERY = "(file_redirect destination: (_) . destination: (_)) @redirect"


def load_language(spec: str):
    """The tree-sitter Language of the packaged grammar, or of a compiled library at spec (a path)."""
    from tree_sitter import Language

    if spec == PACKAGED:
        import tree_sitter_bash

        return Language(tree_sitter_bash.language())
    library = ctypes.CDLL(str(Path(spec).resolve()))
    library.tree_sitter_bash.restype = ctypes.c_void_p
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
    load_language.keep = library  # the pointer lives in it: keep it loaded
    return Language(new_capsule(library.tree_sitter_bash(), b"tree_sitter.Language", None))


# The worker: one grammar, asked one file at a time.


def worker(spec: str, repeat: int) -> None:
    grammar, _, option = spec.partition(",")
    language = load_language(grammar)
    from pipelint.shell import parse_guards, syntax

    syntax.language = lambda: language  # before any parser or query is made
    syntax._parser.cache_clear()
    syntax.query.cache_clear()
    if option == "no-rereads":
        parse_guards._rereads = lambda *arguments: iter(())
    from tree_sitter import QueryCursor

    from pipelint.shell.dialect import Dialect
    from pipelint.shell.parsed import parse_script

    strays = syntax.query(STRAY_QUERY)
    for line in sys.stdin:
        request = json.loads(line)
        source = Path(request["path"]).read_bytes()
        dialect = Dialect(request["dialect"])
        parse_times, guarded_times = [], []
        for _ in range(repeat):
            start = time.perf_counter()
            tree = syntax.parse(source)
            middle = time.perf_counter()
            parsed = parse_script(source, dialect)
            parse_times.append(middle - start)
            guarded_times.append(time.perf_counter() - middle)
        guarded = parsed.guarded
        joined = {(stretch.start, stretch.end, stretch.issue) for stretch in guarded.joined}
        unchecked = {(stretch.start, stretch.end) for stretch in guarded.joined if stretch.unchecked}
        reply = {
            "parse": min(parse_times),
            "guarded": min(guarded_times),
            "errors": [start for start, _ in syntax.error_ranges(tree.root_node)],
            "failures": [[failure.start, failure.end] for failure in parsed.failures],
            # One per stretch: the salvage of an ERROR adds one per newline it finds swallowed in a statement.
            "joined": Counter(issue or "other" for _, _, issue in joined),
            "joined unchecked": sum(1 for start, end, _ in joined if (start, end) in unchecked),
            "here-documents": Counter("repaired" if m.repaired else "not repaired" for m in guarded.misread),
            "rereads": Counter(reread.shape for reread in guarded.rereads),
            "parsed again": int(guarded.rounds > 0),
            "#233": len(QueryCursor(strays).captures(tree.root_node).get("redirect", [])),
        }
        print(json.dumps(reply), flush=True)


class Worker:
    def __init__(self, spec: str, repeat: int) -> None:
        command = [sys.executable, __file__, "--worker", spec, "--repeat", str(repeat)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, request: dict) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


# The comparison.


class Tally:
    def __init__(self, name: str) -> None:
        self.name = name
        self.counts: Counter[str] = Counter()
        self.parse = 0.0
        self.guarded = 0.0
        self.places: list[str] = []

    def add(self, reply: dict, accepted: bool | None, path: Path, source: bytes) -> None:
        self.parse += reply["parse"]
        self.guarded += reply["guarded"]
        counts = self.counts
        if accepted:
            counts["parse-error places, scripts the shell accepts"] += len(reply["errors"])
            counts["scripts the shell accepts with parse errors"] += bool(reply["errors"])
            counts["stretches not checked (notes), scripts the shell accepts"] += len(reply["failures"])
            for offset in reply["errors"]:
                line = source.count(b"\n", 0, offset) + 1
                self.places.append(f"{path}:{line}")
        elif accepted is False:
            counts["parse-error places, scripts the shell rejects"] += len(reply["errors"])
        for issue, number in reply["joined"].items():
            counts[f"guards: statements joined, {issue}"] += number
        counts["guards: joined statements not split"] += reply["joined unchecked"]
        for outcome, number in reply["here-documents"].items():
            counts[f"guards: here-documents misread, {outcome}"] += number
        for shape, number in reply["rereads"].items():
            counts[f"guards: read another way, {shape}"] += number
        counts["guards: scripts parsed again"] += reply["parsed again"]
        counts["redirects holding words bash gives the command (#233)"] += reply["#233"]


def described(spec: str) -> str:
    grammar, _, option = spec.partition(",")
    name = "tree-sitter-bash 0.25.1 (packaged)" if grammar == PACKAGED else Path(grammar).name
    return f"{name}, {option}" if option else name


def compare(baseline: str, grammar: str, folders: list[str], repeat: int, places: bool) -> None:
    from count_swallowed import scripts  # the scripts `pipelint check` picks, completions read as bash

    from pipelint.shell.acceptance import shell_accepts
    from pipelint.shell.dialect import Dialect, detect

    names = (described(baseline), described(grammar))
    workers = [Worker(baseline, repeat), Worker(grammar, repeat)]
    tallies = [Tally(name) for name in names]
    files = 0
    load_before = os.getloadavg()
    for path, read_as in scripts(folders):
        source = path.read_bytes()
        if b"\0" in source[:8192]:
            continue
        dialect = Dialect.BASH if read_as.endswith(".bash") else detect(source, read_as)
        request = {"path": str(path), "dialect": dialect.value}
        order = [0, 1] if files % 2 == 0 else [1, 0]
        replies = {index: workers[index].ask(request) for index in order}
        broken = any(replies[index]["errors"] or replies[index]["failures"] for index in (0, 1))
        accepted = shell_accepts(source, dialect) if broken else None
        for index in (0, 1):
            tallies[index].add(replies[index], accepted, path, source)
        files += 1
    for each in workers:
        each.close()
    report(files, tallies, places, load_before, os.getloadavg())


def report(files: int, tallies: list[Tally], places: bool, load_before, load_after) -> None:
    first, second = tallies
    width = max(len(key) for tally in tallies for key in tally.counts) if any(t.counts for t in tallies) else 40
    print(f"{files} scripts; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"{'':{width}}  {'A':>9}  {'B':>9}")
    print(f"{'':{width}}  A = {first.name}; B = {second.name}")
    for key in sorted(set(first.counts) | set(second.counts)):
        print(f"{key:{width}}  {first.counts[key]:9}  {second.counts[key]:9}")
    for tally in tallies:
        ratio = tally.guarded / tally.parse if tally.parse else 0.0
        print(
            f"{tally.name}: tree-sitter's parse {tally.parse:.2f} s, pipelint's guarded parse "
            f"{tally.guarded:.2f} s ({ratio:.2f}x the parse)"
        )
    if first.parse and first.guarded:
        print(
            f"B against A: parse {second.parse / first.parse:.2f}x, guarded parse {second.guarded / first.guarded:.2f}x"
        )
    if places:
        for tally in tallies:
            print(f"parse-error places left on scripts the shell accepts, {tally.name}:")
            for place in tally.places:
                print(f"  {place}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*")
    parser.add_argument("--grammar", default=PACKAGED, help="B: a compiled tree-sitter-bash library (.so)")
    parser.add_argument("--baseline", default=PACKAGED, help="A: the grammar B is measured against")
    parser.add_argument("--repeat", type=int, default=3, help="parses per file and grammar; the fastest counts")
    parser.add_argument("--places", action="store_true", help="list the parse-error places left")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        worker(arguments.worker, arguments.repeat)
        return
    if not arguments.folders:
        parser.error("name at least one folder of scripts")
    for spec in (arguments.grammar, arguments.baseline):
        grammar = spec.partition(",")[0]
        if grammar != PACKAGED and not Path(grammar).is_file():
            parser.error(f"no such library: {grammar}")
    compare(arguments.baseline, arguments.grammar, arguments.folders, arguments.repeat, arguments.places)


if __name__ == "__main__":
    main()
