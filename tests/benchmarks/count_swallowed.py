#!/usr/bin/env python3
"""How often tree-sitter-bash misreads real scripts, and what the parse guards make of it.

For every shell script under the folders named (a `.sh` name or a shell
shebang, as `pipelint check` picks them; files under a
`bash-completion/completions/` folder have no shebang and are read as bash),
counts:

- statements tree-sitter-bash joined across lines, per upstream issue
  (#316 single-bracket tests, #347 after a pipeline, #228 assignments, other),
  and how many were split and checked piece by piece;
- here-documents it ends (or starts) elsewhere than bash, repaired or not;
- redirects holding words bash gives to the command (#233);
- crashes of `pipelint check --fix --unsafe-fixes`, and fixed scripts that
  `bash -n` refuses while the original passes;
- the time tree-sitter takes to parse them all, and the time through the guards.

Then times the guards on a generated 10,000-line script full of tests and
redirects (the #316 shape), against tree-sitter's parse of the same bytes.

    python tests/benchmarks/count_swallowed.py corpus/x /usr/share /usr/lib /etc
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from pipelint.shell import parse_guards, syntax  # noqa: E402
from pipelint.engine.config import Settings  # noqa: E402
from pipelint.shell.dialect import Dialect, detect  # noqa: E402
from pipelint.cli.discovery import is_shell_script  # noqa: E402
from pipelint.engine.linter import process  # noqa: E402

COMPLETIONS = "bash-completion/completions/"
STRAY_QUERY = "(file_redirect destination: (_) . destination: (_)) @redirect (heredoc_redirect argument: (_) @word)"


def scripts(folders: list[str]):
    """(path, read-as path) of every script below folders; completions are read as bash."""
    for folder in folders:
        for directory, _, names in os.walk(folder):
            for name in names:
                path = Path(directory) / name
                if path.is_symlink() or not path.is_file():
                    continue
                if COMPLETIONS in path.as_posix():
                    yield path, path.as_posix() + ".bash"
                elif is_shell_script(path):
                    yield path, path.as_posix()


def stray_redirects(root) -> int:
    from tree_sitter import Query, QueryCursor

    captures = QueryCursor(Query(syntax.language(), STRAY_QUERY)).captures(root)
    return len(captures.get("redirect", [])) + len(captures.get("word", []))


def bash_accepts(source: bytes) -> bool:
    with tempfile.NamedTemporaryFile(suffix=".sh") as handle:
        handle.write(source)
        handle.flush()
        return subprocess.run(["bash", "-n", handle.name], capture_output=True).returncode == 0


class Tally:
    def __init__(self) -> None:
        self.files = 0
        self.counts: Counter[str] = Counter()
        self.files_with: Counter[str] = Counter()
        self.problems: list[str] = []
        self.parse_seconds = 0.0
        self.guard_seconds = 0.0

    def add(self, path: Path, read_as: str, settings: Settings) -> None:
        source = path.read_bytes()
        if b"\0" in source[:8192]:
            return
        self.files += 1
        dialect = Dialect.BASH if read_as.endswith(".bash") else detect(source, read_as)
        try:
            # Alternately, so both see the same machine: tree-sitter alone, then through the guards.
            start = time.perf_counter()
            syntax.parse(source)
            middle = time.perf_counter()
            guarded = parse_guards.guard(source, dialect)
            self.parse_seconds += middle - start
            self.guard_seconds += time.perf_counter() - middle
            report = process(source, read_as, settings, Path(read_as), fix=True)
        except Exception as error:  # the point is to find these
            self.problems.append(f"{path}: crash: {type(error).__name__}: {error}")
            return
        seen: set[str] = set()
        for stretch in guarded.joined:
            kind = f"joined {stretch.issue or '(other)'}"
            self._count(kind, seen)
            self._count("joined, checked piece by piece" if not stretch.unchecked else "joined, not repaired", seen)
        if guarded.rounds:
            self.counts[f"files parsed again {guarded.rounds} time(s)"] += 1
        for misread in guarded.misread:
            self._count("here-document misread, " + ("repaired" if misread.repaired else "not repaired"), seen)
        strays = stray_redirects(syntax.parse(source).root_node)
        if strays:
            self.counts["redirect words bash gives the command (#233)"] += strays
            self.files_with["redirect words bash gives the command (#233)"] += 1
        if report.crashes:
            self.problems += [f"{path}: rule crash {crash.code}: {crash.summary}" for crash in report.crashes]
        if report.fixed_source is not None:
            self.counts["files fixed"] += 1
            if bash_accepts(source) and not bash_accepts(report.fixed_source):
                self.problems.append(f"{path}: the fixed text fails `bash -n`")

    def _count(self, kind: str, seen: set[str]) -> None:
        self.counts[kind] += 1
        if kind not in seen:
            seen.add(kind)
            self.files_with[kind] += 1

    def print(self) -> None:
        print(f"{self.files} scripts")
        print(f"{'':52} {'cases':>6} {'files':>6}")
        for kind in sorted(self.counts):
            files = self.files_with.get(kind, self.counts[kind])
            print(f"{kind:52} {self.counts[kind]:6} {files:6}")
        print(f"problems (crashes, fixes bash -n refuses): {len(self.problems)}")
        ratio = self.guard_seconds / self.parse_seconds if self.parse_seconds else 0.0
        print(
            f"tree-sitter parse of every script {self.parse_seconds:.2f} s, through the guards "
            f"{self.guard_seconds:.2f} s ({ratio:.2f}x)"
        )
        for problem in self.problems:
            print("  " + problem)


def generated(lines: int) -> bytes:
    """The #316 shape again and again: tests, a pipeline, a redirect, assignments."""
    block = b'[ "$n" -eq 0 ]\ncat words.txt | wc -l\necho r > k\na= b=\n[ -f x ] && echo y >> log\n'
    return block * (lines // 5)


def time_generated(lines: int, rounds: int) -> None:
    """Median times of tree-sitter's parse, the guarded parse, and the guards' own work (its parses taken out)."""
    source = generated(lines)
    parse, guard, own = [], [], []
    parsing = [0.0]
    plain_parse = syntax.parse

    def counted_parse(text: bytes):
        start = time.perf_counter()
        tree = plain_parse(text)
        parsing[0] += time.perf_counter() - start
        return tree

    for _ in range(rounds):  # alternately, so both see the same machine
        start = time.perf_counter()
        plain_parse(source)
        parse.append(time.perf_counter() - start)
        parsing[0] = 0.0
        parse_guards.syntax.parse = counted_parse
        start = time.perf_counter()
        guarded = parse_guards.guard(source)
        guard.append(time.perf_counter() - start)
        parse_guards.syntax.parse = plain_parse
        own.append(guard[-1] - parsing[0])
    p, g, o = (sorted(times)[len(times) // 2] for times in (parse, guard, own))
    pieces = sum(len(s.pieces()) for s in guarded.joined)
    print(
        f"generated {lines} lines ({len(source)} bytes): {len(guarded.joined)} joined statements, {pieces} pieces; "
        f"tree-sitter parse {p * 1000:.0f} ms, guarded parse {g * 1000:.0f} ms, "
        f"of which the guards' own work {o * 1000:.0f} ms ({o / len(source) * 1e6:.1f} µs per byte)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*")
    parser.add_argument("--lines", type=int, nargs="*", default=[2000, 10000, 20000])
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    if arguments.folders:
        tally = Tally()
        settings = Settings(unsafe_fixes=True)
        for path, read_as in scripts(arguments.folders):
            tally.add(path, read_as, settings)
        tally.print()
    for lines in arguments.lines:
        time_generated(lines, arguments.rounds)


if __name__ == "__main__":
    main()
