"""Shrink a failing script to a small one that still fails the same way (delta debugging).

Zeller's ddmin, first over the script's lines (the shebang stays: it picks
the dialect), then over the space-separated words of each line left. A
candidate counts as failing the same way when its original still parses,
a safe fix still applies, only rules of the first failure fix it, and the
failure has the same issue-13 class. Every test costs a lint and a dozen
shell runs (~0.1-0.3 s), so the search stops after `budget` tests.

Written here rather than taken from picire (last release 2021) or
hypothesis (whose shrinker works on its own choice sequences inside a test,
not on a script that failed in a worker process): the algorithm is 30 lines.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .check import Failure, check


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


class Shrinker:
    def __init__(self, failure: Failure, workdir: Path, budget: int = 250):
        self.failure = failure
        self.workdir = workdir
        self.budget = budget
        self.best = failure
        self.cache: dict[bytes, bool] = {}

    def fails_alike(self, source: bytes) -> bool:
        if source in self.cache:
            return self.cache[source]
        if self.budget <= 0:
            return False
        self.budget -= 1
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


def shrink(failure: Failure, workdir: Path, budget: int = 250) -> Failure:
    return Shrinker(failure, workdir, budget).shrink()
