"""Shrink a failing script to a small one that still fails the same way (delta debugging).

Zeller's ddmin, first over the script's lines (the shebang stays: it picks
the dialect), then over the space-separated words of each line left. A
candidate counts as failing the same way when its original still parses,
a safe fix still applies, only rules of the first failure fix it, the
failure has the same issue-13 class, every command name in it was a
command name in the unshrunk script, and it prints no error the unshrunk
one did not (so `command not found`, or a file no longer created, cannot
stand in for the bug). Every test costs a lint and a dozen
shell runs (~0.1-0.3 s), so the search stops after `budget` tests.

Written here rather than taken from picire (last release 2021) or
hypothesis (whose shrinker works on its own choice sequences inside a test,
not on a script that failed in a worker process): the algorithm is 30 lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import harness

from pipelint.shell import syntax

from .check import Failure, check, shell_of


def ddmin(items: list, still_fails: Callable[[list], bool]) -> list:
    """A 1-minimal sublist of items for which still_fails holds (it holds for items)."""
    chunks = 2
    while len(items) >= 2:
        size = -(-len(items) // chunks)
        subsets = [items[i : i + size] for i in range(0, len(items), size)]
        for index in range(len(subsets)):
            complement = [item for j, subset in enumerate(subsets) if j != index for item in subset]
            if still_fails(complement):
                items, chunks = complement, max(chunks - 1, 2)
                break
        else:
            if chunks >= len(items):
                break
            chunks = min(chunks * 2, len(items))
    return items


# `/tmp/…/run.script: line 3: ` or dash's `…: 3: ` before a shell's own message.
_WHERE = re.compile(rb"^\S*\.script: (?:line )?\d+: ", re.MULTILINE)


def error_lines(source: bytes, path: str, workdir: Path) -> set[bytes]:
    """What the script prints on stderr with its inputs present, without line numbers."""
    stderr = harness.run_script(source, workdir, shell_of(path), timeout=10).stderr
    return set(_WHERE.sub(b"", stderr).splitlines())


def command_names(source: bytes) -> set[bytes]:
    """The words that stand as command names (a file name must not become one)."""
    return {syntax.text(node) for node in syntax.walk(syntax.parse(source).root_node) if node.type == "command_name"}


class Shrinker:
    def __init__(self, failure: Failure, workdir: Path, budget: int = 150):
        self.failure = failure
        self.workdir = workdir
        self.budget = budget
        self.best = failure
        self.cache: dict[bytes, bool] = {}
        self.errors = error_lines(failure.source, failure.path, workdir)
        self.commands = command_names(failure.source)

    def fails_alike(self, source: bytes) -> bool:
        if source in self.cache:
            return self.cache[source]
        if self.budget <= 0:
            return False
        self.budget -= 1
        if not command_names(source) <= self.commands or not error_lines(source, self.failure.path, self.workdir) <= self.errors:
            self.cache[source] = False
            return False
        verdict = check(source, self.failure.path, self.workdir)
        found = verdict.failure
        alike = (
            found is not None
            and found.issue_class == self.failure.issue_class
            and set(found.rules) <= set(self.failure.rules)
        )
        if alike and len(source) < len(self.best.source):
            self.best = found
        self.cache[source] = alike
        return alike

    def shrink(self) -> Failure:
        shebang, *lines = self.failure.source.split(b"\n")
        lines = ddmin(lines, lambda kept: self.fails_alike(b"\n".join([shebang, *kept])))
        for index in range(len(lines)):
            words = lines[index].split(b" ")

            def with_words(kept: list[bytes], index: int = index) -> bool:
                return self.fails_alike(b"\n".join([shebang, *lines[:index], b" ".join(kept), *lines[index + 1 :]]))

            lines[index] = b" ".join(ddmin(words, with_words))
        return self.best


def shrink(failure: Failure, workdir: Path, budget: int = 150) -> Failure:
    return Shrinker(failure, workdir, budget).shrink()
