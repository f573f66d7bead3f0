"""A script as pipelint reads it: one parse, its repairs, and what may be trusted and edited in it.

tree-sitter-bash's parse goes through the guards (`parse_guards.py`: what it
misreads without an ERROR is repaired in a copy of the same length), with
here-documents ended where bash ends them (`heredocs.py`); the complete
statements inside ERROR nodes are salvaged and parsed again (`syntax.salvage`);
and where bash itself runs a `$(…)` otherwise than it reads it
(`bash_quirks.py`) is known. `parse_script` does all of it once, and the
engine then asks the result — and nothing else — whether a finding can be
trusted (`trusts`, `trusts_finding`) and whether a fix's edits may be made
(`guard_fix`).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace
from functools import cached_property

from tree_sitter import Node, Tree

from pipelint.finding import Applicability, Edit, Finding, Note, ParseFailure
from pipelint.shell import parse_guards, syntax
from pipelint.shell.bash_quirks import HereDocumentSubstitutions
from pipelint.shell.dialect import Dialect, adds_bashism

BASH_HEREDOC_SUBSTITUTION = (
    "bash 5.2 runs a `$(…)` holding a here-document from its own printout, which drops a `;` after the "
    "operator on its line; the edit may change whether it does"
)


@dataclass
class ParsedScript:
    """What the rules walk, where the parse failed, and what must not be trusted or edited in it."""

    source: bytes
    dialect: Dialect
    root: Node  # the guarded parse, or the re-parse of its salvaged text
    guarded: parse_guards.GuardedParse  # what tree-sitter misread without an ERROR, repaired or not
    failures: list[ParseFailure]  # what did not parse, or was misread past repair: not linted
    error_count: int  # ERROR nodes and MISSING tokens of the guarded parse (the fixer's "parses no worse")
    fix_barriers: list[tuple[int, int]]  # whole lines around what did not parse: no edit there
    error_nodes: list[tuple[int, int]] = field(default_factory=list)  # the guarded parse's ERROR nodes
    kept: list[tuple[int, int]] = field(default_factory=list)  # complete statements salvaged from them

    def __post_init__(self) -> None:
        # Both lists hold disjoint ranges; sorted, one bisection answers `trusts` (asked of every
        # command: a scan of the kept statements made a broken 5 MB script quadratic).
        self.error_nodes.sort()
        self.kept.sort()
        self._error_starts = [start for start, _ in self.error_nodes]
        self._kept_starts = [start for start, _ in self.kept]

    @property
    def tree(self) -> Tree:
        """The guarded parse (before any salvage): what an editor's hover and directives read."""
        return self.guarded.tree

    @cached_property
    def still_broken(self) -> list[tuple[int, int]]:
        """ERROR nodes and MISSING tokens of what the rules walk (the salvage's own, if any)."""
        return syntax.error_ranges(self.root)

    @cached_property
    def _quirks(self) -> HereDocumentSubstitutions:
        return HereDocumentSubstitutions(self.source, self.root)

    def notes(self) -> list[Note]:
        """What the guards repaired, in order (`GuardedParse.notes`)."""
        return self.guarded.notes()

    def trusts(self, start: int, end: int) -> bool:
        """[start, end) is read as bash reads it: outside every ERROR node, or wholly inside one statement
        kept from it, and not in what the guards could not repair."""
        if not self.guarded.trusts(start, end):
            return False
        before_end = bisect.bisect_left(self._error_starts, end)  # the ERROR nodes that start before end
        if before_end == 0 or self.error_nodes[before_end - 1][1] <= start:
            return True
        holder = bisect.bisect_right(self._kept_starts, start) - 1  # the last kept statement starting at or before
        return holder >= 0 and end <= self.kept[holder][1]

    def trusts_finding(self, start: int, end: int) -> bool:
        """A finding at [start, end) stands: trusted, and not inside or next to what still does not parse."""
        return not _touches(self.still_broken, start, end) and self.trusts(start, end)

    def guard_fix(self, finding: Finding) -> Finding:
        """The finding with its fix kept, made unsafe, or dropped, by what every fix must respect.

        Dropped: an edit next to a parse error, in a here-document body or on a
        byte the guards repaired, one that adds a bashism to an sh script, one
        that moves a CRLF line's `\r` onto another word. Unsafe: a safe fix in
        a `$(…)` that bash runs otherwise than it reads (`bash_quirks`).
        """
        fix = finding.fix
        if fix is None or not fix.edits:
            return finding
        start, end = fix.span
        if _touches(self.fix_barriers, start, end):
            return finding.with_fix(None)
        if not all(self.guarded.allows_edit(edit.start, edit.end) for edit in fix.edits):
            return finding.with_fix(None)
        if self.dialect is Dialect.SH and adds_bashism(self.source, fix.edits):
            return finding.with_fix(None)
        if any(_moves_carriage_return(self.source, edit) for edit in fix.edits):
            return finding.with_fix(None)
        if fix.applicability is Applicability.SAFE and self._quirks.holds(start, end):
            help_text = finding.help or f"The fix is unsafe: {BASH_HEREDOC_SUBSTITUTION}."
            return replace(finding, fix=replace(fix, applicability=Applicability.UNSAFE), help=help_text)
        return finding


def parse_script(source: bytes, dialect: Dialect, tree: Tree | None = None) -> ParsedScript:
    """The script parsed once, as pipelint reads it.

    tree: tree-sitter's parse of source, when the caller has it (the language server's incremental one).
    """
    # The guards parse a copy of the source, of the same length, in which what
    # tree-sitter-bash misreads without an ERROR is repaired (parse_guards.py).
    guarded = parse_guards.guard(source, dialect, tree)
    root = guarded.tree.root_node
    error_nodes = syntax.outermost_errors(root)
    failures = [ParseFailure(syntax.first_broken_offset(e), e.end_byte) for e in error_nodes]
    # No fix may touch what did not parse: the broken part of each ERROR node
    # (complete statements before it ran fine) and every MISSING token, nor
    # anything on the same line.
    all_errors = syntax.error_ranges(root)
    missing = [
        (start, end) for start, end in all_errors if not any(e.start_byte <= start and end <= e.end_byte for e in error_nodes)
    ]
    barriers = [_whole_lines(source, start, end) for start, end in [(f.start, f.end) for f in failures] + missing]
    if not failures:
        failures = [ParseFailure(start, end) for start, end in missing]
    failures = _merged(failures + [ParseFailure(start, end) for start, end in guarded.unchecked])
    kept: list[tuple[int, int]] = []
    if error_nodes:
        # Lint the complete statements tree-sitter left inside ERROR nodes.
        salvaged, kept = syntax.salvage(guarded.text, error_nodes)
        root = syntax.parse(salvaged).root_node
        guarded.distrust_swallowed(root)
    error_ranges = [(e.start_byte, e.end_byte) for e in error_nodes]
    return ParsedScript(source, dialect, root, guarded, failures, len(all_errors), barriers, error_ranges, kept)


def _merged(failures: list[ParseFailure]) -> list[ParseFailure]:
    """In order, one failure per stretch: a here-document the guards could not repair often holds an ERROR too."""
    merged: list[ParseFailure] = []
    for failure in sorted(failures, key=lambda f: f.start):
        if merged and failure.start < merged[-1].end:
            merged[-1] = ParseFailure(merged[-1].start, max(merged[-1].end, failure.end))
        else:
            merged.append(failure)
    return merged


def _whole_lines(source: bytes, start: int, end: int) -> tuple[int, int]:
    line_start = source.rfind(b"\n", 0, start) + 1
    line_end = source.find(b"\n", end)
    return line_start, len(source) if line_end == -1 else line_end


def _touches(ranges: list[tuple[int, int]], start: int, end: int) -> bool:
    """Inside or right next to one of the ranges."""
    return any(r_start <= end and start <= r_end for r_start, r_end in ranges)


def _moves_carriage_return(source: bytes, edit: Edit) -> bool:
    """The edit ends right before a line's `\r` and changes what stands there.

    In a CRLF script the shell reads the `\r` as part of the last word
    (`cat f | grep 500\r` greps for `500\r`); text put or removed before it
    moves the `\r` onto another word (`grep 500 < f\r` opens `f\r`). Issue 13 class 9.
    """
    if source[edit.end : edit.end + 1] != b"\r":
        return False
    return source[edit.start : edit.end] != edit.content
