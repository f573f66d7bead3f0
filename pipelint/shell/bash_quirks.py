"""Where bash itself runs a script otherwise than it reads: a fix there may change what runs.

bash 5.2 keeps a `$(…)` as the text it prints back from its own parse, and
that printout drops a `;` written after a here-document's operator on its
line: `n=$(cat <<X | ( head -n 1; wc -l )` runs `head -n 1 wc -l`, and
`$(cat <<X; echo b; echo c` runs `echo b echo c`. A redirect on a stage in
between sometimes hides it (`cat <<X | tee /dev/null 2>/dev/null | ( … )`
runs as written), so removing or moving a stage there can change what bash
runs (fuzz seed 2418, script 4639: PL101). Such a `$(…)`, one holding a
here-document with a `;` after its operator on the same line, gets no safe
fix. dash, backquotes and a `;` on a line of its own are not affected.
"""

from __future__ import annotations

import bisect
import functools

from tree_sitter import Node, Query

from pipelint.shell import syntax

_QUERY = "(command_substitution) @substitution\n(heredoc_redirect) @document"


@functools.cache
def _query() -> Query:
    return Query(syntax.language(), _QUERY)


class HereDocumentSubstitutions:
    """The `$(…)` spans of a script where bash 5.2 may drop a `;` (see above), found on first use."""

    def __init__(self, source: bytes, root: Node) -> None:
        self._source = source
        self._root = root
        self._spans: list[tuple[int, int]] | None = None

    def holds(self, start: int, end: int) -> bool:
        """Whether [start, end) lies in a `$(…)` that holds a here-document."""
        spans = self._found()
        index = bisect.bisect_right(spans, (start, len(self._source) + 1)) - 1
        # Spans nest; any that starts before start may hold it: look back over them.
        while index >= 0:
            low, high = spans[index]
            if low <= start and end <= high:
                return True
            index -= 1
        return False

    def _found(self) -> list[tuple[int, int]]:
        if self._spans is None:
            self._spans = []
            if b"$(" in self._source and b"<<" in self._source:
                self._spans = _spans(self._source, self._root)
        return self._spans


def _spans(source: bytes, root: Node) -> list[tuple[int, int]]:
    captured = syntax.captures(_query(), root, outside_errors=False)
    documents = sorted(node.start_byte for node in captured.get("document", []))
    spans = []
    for node in captured.get("substitution", []):
        start, end = node.start_byte, node.end_byte
        if not source.startswith(b"$(", start):
            continue  # backquotes run their text as written
        first = bisect.bisect_left(documents, start)
        last = bisect.bisect_left(documents, end)
        if any(_semicolon_after(source, operator, end) for operator in documents[first:last]):
            spans.append((start, end))
    return sorted(spans)


def _semicolon_after(source: bytes, operator: int, end: int) -> bool:
    """A `;` follows the here-document operator on its line (within the substitution)."""
    line_end = source.find(b"\n", operator, end)
    return b";" in source[operator : end if line_end == -1 else line_end]
