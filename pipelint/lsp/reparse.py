"""tree-sitter's incremental parse of a document's new version from the previous version's tree.

The server syncs documents in full (server.py), so the edit is recovered
here: the new text differs from the old one between their common prefix and
common suffix.  That one edit, told to a copy of the old tree (`Tree.edit`),
lets tree-sitter reuse every subtree outside it: ~1-3 ms instead of ~30 ms
for the 5,000-line script of tests/benchmarks/bench_lsp.py.  Described
correctly, an edit gives the tree a fresh parse gives (tree-sitter's
contract; tests/lsp/test_lsp_reparse.py holds it on random edits).
"""

from __future__ import annotations

import threading
from dataclasses import astuple, dataclass

from tree_sitter import Point, Tree

from pipelint.shell import syntax
from pipelint.shell.positions import byte_position


@dataclass(frozen=True)
class TextChange:
    """The bytes [start, old_end) of the old text became [start, new_end) of the new one."""

    start: int
    old_end: int
    new_end: int


def edit_between(old: bytes, new: bytes) -> TextChange | None:
    """The one edit that turns old into new (None if they are equal): the span between common prefix and suffix."""
    if old == new:
        return None
    prefix = _common_length(old, new, lambda text, size: text[:size])
    # The suffix may not overlap the prefix in either text ("aa" → "aaa").
    most = min(len(old), len(new)) - prefix
    suffix = _common_length(old, new, lambda text, size: text[len(text) - size :], most)
    return TextChange(prefix, len(old) - suffix, len(new) - suffix)


def _common_length(old: bytes, new: bytes, part, most: int | None = None) -> int:
    """The largest size whose parts of old and new are equal, by bisection: ~17 slice
    comparisons (memcmp) for 128 KB, where a loop over bytes would take ~10 ms."""
    low, high = 0, min(len(old), len(new)) if most is None else most
    while low < high:
        middle = (low + high + 1) // 2
        if part(old, middle) == part(new, middle):
            low = middle
        else:
            high = middle - 1
    return low


def _point(source: bytes, offset: int) -> Point:
    return Point(*astuple(byte_position(source, offset)))


def reparse(old_source: bytes, old_tree: Tree, new_source: bytes) -> Tree:
    """new_source's parse, reusing old_tree (the parse of old_source), which is left as it was."""
    edit = edit_between(old_source, new_source)
    if edit is None:
        return old_tree
    tree = old_tree.copy()  # the old version's tree may still be read (a hover on its snapshot)
    tree.edit(
        start_byte=edit.start,
        old_end_byte=edit.old_end,
        new_end_byte=edit.new_end,
        start_point=_point(old_source, edit.start),
        old_end_point=_point(old_source, edit.old_end),
        new_end_point=_point(new_source, edit.new_end),
    )
    return syntax.parse(new_source, tree)


class LastParses:
    """Each document's last source and parse in this worker, for the next lint to start from.

    The worker pool's processes each keep their own, and the pool hands them
    jobs in turn: a lint starts from the version the same process linted
    last (the one before last), as good a start, the edit between them being
    one span all the same.  A few documents only (the ones being edited).
    """

    KEPT = 8

    def __init__(self) -> None:
        self._parses: dict[str, tuple[bytes, Tree]] = {}
        self._lock = threading.Lock()  # the "thread" place lints two documents at once
        self.reused = 0  # parses that started from a kept one (for the benchmark)

    def parse(self, uri: str, source: bytes) -> Tree:
        with self._lock:
            last = self._parses.pop(uri, None)
        if last is None:
            tree = syntax.parse(source)
        else:
            tree = reparse(*last, source)
            self.reused += 1
        with self._lock:
            self._parses[uri] = (source, tree)
            while len(self._parses) > self.KEPT:
                del self._parses[next(iter(self._parses))]  # the least recently linted
        return tree
