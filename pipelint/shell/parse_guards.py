"""Guards against tree-sitter-bash parses that are wrong without saying so.

tree-sitter-bash 0.25 sometimes joins several lines into one statement and
reports no ERROR node (`has_error` is False):

- #316: `[ 1 -eq 0 ]`, a line with a `>` redirect, another `[ … ]` become one
  `test_command` holding everything in between;
- #347: after a pipeline of three stages, a line that goes on with `&&`/`||`
  loses its first command into the last stage's arguments;
- #228: `a=1 b=2` then a newline and a command parse as `a=1 b=2 command`;
- and any other newline found where bash ends a statement (below).

It also ends here-documents early (`heredocs.py`), so that the rest of a body
parses as commands.

`guard(source)` finds both and parses a repaired copy of the source, of the
same length, so every offset stays valid:

- a newline that ends a statement for bash but sits inside a line-bound node
  (between two children of a simple command, a redirect, a single-bracket
  test, or of a pipeline or list where no `|`/`&&`/`||` precedes it) is
  a *swallowed boundary*; the copy gets a `;` there (on the first blank
  after the last word, or on the newline itself), which ends the statement
  for tree-sitter as the newline does for bash;
- a line tree-sitter took for the end of a here-document that bash does not
  end there gets its first byte changed, a body line tree-sitter read as
  part of the operator's line loses its leading backslash, and a delimiter
  tree-sitter cannot read is rewritten, on the operator and on its line, to
  letters of the same length.

Where tree-sitter cannot parse a stretch at all (an ERROR), and only there,
a few shapes bash accepts are given a reading of the same length that every
rule reads as bash does (`_rereads`, docs/parsing.md): an expansion
tree-sitter-bash cannot read (`${b:$len:$max}`, `$((0x${c}))`) becomes an
opaque `${___#}`, a computed word, which is what it is; `<>` is read as `<`
on its descriptor; a here-string on a descriptor (`3<<<"$PW"`, not in sh) as
an input redirect of that descriptor from a computed word. Nothing they hold
may change the shell's state (no `$( )`, no assignment), and no fix edits
the statement they are in.

The copy is parsed again until nothing more is found (a few rounds). What the
rounds could not repair is untrusted: no finding there, no fix touches it.
Fixes inside repaired pieces are allowed: bash reads the piece as the repaired
copy shows it (`;` and a newline end a statement alike), the edit touches no
repaired byte, and the fixer lints its result again through this guard.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from tree_sitter import Node, Tree

from pipelint.shell import heredocs, syntax
from pipelint.shell.dialect import Dialect
from pipelint.shell.heredocs import HereDocument, HereDocuments
from pipelint.finding import Note, NoteCause
from pipelint.shell.positions import Encoding, LineIndex

# Repair, parse again, look again: each round repairs every boundary it sees,
# and what a repair reveals is usually repaired by the next. Three were enough
# for every file of the corpus run (tests/benchmarks/count_swallowed.py).
MAX_ROUNDS = 6

# Nodes that never hold an unescaped newline between two children (bash ends
# the statement there). A single-bracket test is one too, and the expressions
# inside it; `[[ … ]]`, `(( … ))`, strings and substitutions may span lines.
_LINE_BOUND = frozenset(
    {
        "command", "file_redirect", "herestring_redirect", "variable_assignment",
        "variable_assignments", "declaration_command", "unset_command", "redirected_statement",
    }
)
# Nodes that may go on after a newline only right after one of these tokens.
_CONTINUED_AFTER = {"pipeline": frozenset({"|", "|&"}), "list": frozenset({"&&", "||"})}
_TEST_EXPRESSIONS = frozenset({"binary_expression", "unary_expression", "parenthesized_expression", "negated_command"})
# The children of these are statements: a swallowed stretch ends at one of them.
_STATEMENT_PARENTS = frozenset(
    {
        "program", "compound_statement", "subshell", "do_group", "if_statement", "elif_clause",
        "else_clause", "case_item", "while_statement", "command_substitution", "process_substitution",
        "function_definition", "ERROR",
    }
)
# After these a newline is not a place for `;` (`then;` is a syntax error); such a boundary waits for the next round.
_NO_SEMICOLON_AFTER = frozenset(
    {b"then", b"do", b"else", b"elif", b"if", b"while", b"until", b"in", b"{", b"(", b"!", b"|", b"&", b";", b"&&", b"||"}
)

# Which upstream bug a swallowed boundary is, for the note (tree-sitter-bash issue numbers).
ISSUE_TEST = "#316"
ISSUE_ASSIGNMENTS = "#228"
ISSUE_PIPELINE = "#347"


@dataclass(frozen=True)
class Swallowed:
    """A newline that ends a statement for bash, inside one tree-sitter node."""

    newline: int
    node: Node  # the line-bound node whose children it separates
    last_token: Node  # the last child before it that is not a comment
    statement: Node  # the statement tree-sitter made of several
    issue: str | None


@dataclass
class JoinedStretch:
    """A statement tree-sitter-bash made of several lines, and how it was split."""

    start: int
    end: int
    issue: str | None
    boundaries: list[int] = field(default_factory=list)  # newlines that end statements inside it
    unchecked: list[tuple[int, int]] = field(default_factory=list)  # pieces that still did not parse

    def pieces(self) -> list[tuple[int, int]]:
        cuts = [self.start, *sorted(self.boundaries), self.end]
        return [(a, b) for a, b in zip(cuts, cuts[1:]) if a < b]


@dataclass(frozen=True)
class HereDocumentMisread:
    """A here-document tree-sitter-bash ended (or started) elsewhere than bash."""

    operator: int
    delimiter_line: int  # where bash's delimiter line starts (the end of the file if none)
    end: int  # the end of what the final parse may still misread
    repaired: bool  # the final parse reads it as bash does


@dataclass(frozen=True)
class Reread:
    """A stretch tree-sitter-bash cannot parse, read as same-length text that means the same to every rule."""

    start: int
    end: int
    shape: str  # what it is: one of READINGS
    statement: tuple[int, int]  # the statement it is in, as the final parse reads it: no fix edits it


# What `_rereads` reads another way, and how (for notes and docs/parsing.md).
READINGS = {
    "expansion": "an expansion tree-sitter-bash cannot parse, read as a computed word",
    "read-write": "`<>` read as `<` on the same descriptor",
    "here-string": "a here-string on a descriptor read as that descriptor's input from a computed word",
}


@dataclass
class GuardedParse:
    """The parse the rules walk, and what the checker must not trust in it."""

    source: bytes
    text: bytes  # what was parsed: the source with the repairs (same length)
    tree: Tree
    documents: HereDocuments
    joined: list[JoinedStretch]
    misread: list[HereDocumentMisread]
    repaired: list[int]  # offsets whose byte the repair changed: no fix may touch them
    rounds: int = 0  # parses after the first
    rereads: list[Reread] = field(default_factory=list)  # ERROR stretches read another way (`_rereads`)
    # Where no finding is reported: what could not be repaired (here-document data is asked of `documents`).
    untrusted: list[tuple[int, int]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self._refresh()

    def _refresh(self) -> None:
        # Asked for every command and finding the checker sees: indexed once, each question a bisection
        # (a scan per question was quadratic on a large script with many here-documents).
        self.untrusted = [r for stretch in self.joined for r in stretch.unchecked]
        self.untrusted += [(m.operator, m.end) for m in self.misread if not m.repaired]
        self._untrusted = _Ranges(self.untrusted)
        self._repaired = sorted(self.repaired)
        self._frozen = _Ranges([reread.statement for reread in self.rereads])

    @property
    def unchecked(self) -> list[tuple[int, int]]:
        """Code that was not linted because its parse could not be repaired (reported like a parse failure)."""
        return self.untrusted

    def trusts(self, start: int, end: int) -> bool:
        """A finding at [start, end) is read from code the final parse reads as bash does.

        Not in what could not be repaired, and not in here-document data; a
        command substitution in an unquoted body is code (bash runs it), and
        tree-sitter parses it as such once the body's ends are right.
        """
        if self._untrusted.overlaps(start, end) or self._untrusted.starts_at(start):
            return False
        # A finding on `cat <<EOF | grep x` may span the body it feeds; one
        # that starts in a body is about data.
        if self.documents.containing(start) is not None:
            return _inside_substitution_in_body(self.tree.root_node, start, end)
        return True

    def distrust_swallowed(self, root: Node) -> None:
        """Statements of a re-parse (the checker's salvage of ERROR nodes) that tree-sitter joined: not trusted.

        Not repaired: they sit in a file that already did not parse, and are
        reported with it.
        """
        for swallowed in swallowed_boundaries(self.text, root, self.documents):
            span = (swallowed.statement.start_byte, swallowed.statement.end_byte)
            self.joined.append(JoinedStretch(*span, swallowed.issue, [swallowed.newline], [span]))
        self._refresh()

    def allows_edit(self, start: int, end: int) -> bool:
        """An edit of [start, end) keeps off here-document bodies and repaired bytes, and out of a statement
        with a stretch read another way (a fix there might copy the reading, `${___#}`, into the script)."""
        if self.documents.overlapping(start, end):
            return False
        if self._frozen.overlaps(start - 1, end + 1):  # an insertion at either end changes the statement too
            return False
        # An insertion at a repaired byte lands before it, on the original's side: allowed.
        first = bisect_left(self._repaired, start)
        return first == len(self._repaired) or self._repaired[first] >= end

    def notes(self) -> list[Note]:
        """What the guards did, in order: each joined statement and each misread here-document."""
        notes = [Note(NoteCause.JOINED, s.start, s.end, not s.unchecked, s.issue) for s in self.joined]
        notes += [Note(NoteCause.HEREDOC_END, m.operator, m.end, m.repaired) for m in self.misread]
        notes += [Note(NoteCause.REREAD, r.start, r.end, True) for r in self.rereads]
        return sorted(notes, key=lambda note: note.start)


def _point(position) -> tuple[int, int]:
    return position.line, position.column


def _advance(point: tuple[int, int], written: bytes) -> tuple[int, int]:
    """The point after these bytes written at point."""
    row, column = point
    newlines = written.count(b"\n")
    if not newlines:
        return row, column + len(written)
    return row + newlines, len(written) - written.rfind(b"\n") - 1


def _runs(offsets: list[int]) -> list[tuple[int, int]]:
    """Sorted offsets as [start, end) runs of consecutive ones."""
    runs: list[tuple[int, int]] = []
    for offset in offsets:
        if runs and runs[-1][1] == offset:
            runs[-1] = (runs[-1][0], offset + 1)
        else:
            runs.append((offset, offset + 1))
    return runs


class _Ranges:
    """Byte ranges [a, b), possibly overlapping, asked whether any overlaps [start, end): a bisection each."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        ordered = sorted(ranges)
        self._starts = [a for a, _ in ordered]
        self._furthest: list[int] = []  # the furthest end among ranges[:i + 1]
        for _, b in ordered:
            self._furthest.append(max(b, self._furthest[-1]) if self._furthest else b)

    def overlaps(self, start: int, end: int) -> bool:
        before_end = bisect_left(self._starts, end)  # the ranges with a < end
        return before_end > 0 and self._furthest[before_end - 1] > start

    def starts_at(self, offset: int) -> bool:
        index = bisect_left(self._starts, offset)
        return index < len(self._starts) and self._starts[index] == offset


def _inside_substitution_in_body(root: Node, start: int, end: int) -> bool:
    node = root.descendant_for_byte_range(start, end)
    in_substitution = False
    while node is not None:
        if node.type in ("command_substitution", "process_substitution"):
            in_substitution = True
        elif node.type == "heredoc_body":
            return in_substitution
        node = node.parent
    return False


def guard(source: bytes, dialect: Dialect = Dialect.BASH, parsed: Tree | None = None) -> GuardedParse:
    """Parse source; where tree-sitter-bash misreads it without an ERROR, parse a repaired copy.

    parsed: tree-sitter's parse of source, if the caller has it (the language server's incremental one).
    """
    repair = _Repair(source, dialect)
    # The first parse is not held here while the rounds run: a large script's
    # rounds, each a whole parse, held three trees at once (a 5 MB script's
    # check took 2.7x its parse's memory). Where the repair is given up, the
    # source is parsed again.
    repaired_tree, documents = repair.run(parsed if parsed is not None else syntax.parse(source))
    if repair.rounds and len(syntax.error_ranges(repaired_tree.root_node)) > repair.errors_before:
        # The repaired copy fails where the source did not: keep the source's
        # parse, and trust none of what tree-sitter misread in it.
        return repair.give_up(parsed if parsed is not None else syntax.parse(source))
    return repair.result(repaired_tree, documents)


class _Repair:
    """Rounds of repair: find what tree-sitter misread, change those bytes, parse again."""

    def __init__(self, source: bytes, dialect: Dialect) -> None:
        self.source = source
        self.dialect = dialect
        self.text = bytearray(source)
        self.joined: list[JoinedStretch] = []
        self.misread: set[int] = set()  # operators of misread here-documents
        self.rounds = 0
        self.touched: set[int] = set()  # offsets some round changed (comparing every byte costs more)
        self.last_found: tuple[Node, list[Swallowed]] | None = None  # the last round's tree and its boundaries
        self.errors_before = 0  # ERROR and MISSING nodes in the parse of the source
        self.rereads: dict[int, tuple[int, str]] = {}  # start → (end, shape) of what `_rereads` read another way

    def run(self, tree: Tree) -> tuple[Tree, HereDocuments]:
        """The last parse, and the here-documents as bash reads them with that parse's operators."""
        self.errors_before = len(syntax.error_ranges(tree.root_node))
        documents = heredocs.find(self.source, tree.root_node, self.dialect)
        for _ in range(MAX_ROUNDS):
            changes = self._changes(tree.root_node, documents)
            changes = {offset: byte for offset, byte in changes.items() if self.text[offset] != byte}
            if not changes:
                break
            tree = self._reparse(tree, changes)
            self.rounds += 1
            documents = heredocs.find(self.source, tree.root_node, self.dialect)
        return tree, documents

    def _reparse(self, tree: Tree, changes: dict[int, int]) -> Tree:
        """The text with these bytes changed, parsed again from the last tree (tree-sitter's incremental parse).

        A round changes a few bytes; tree-sitter re-reads only what they
        touch. In a large script it often saves nothing: after a line like
        `x="`a | b | c`"` tree-sitter-bash reuses no node to the end of the file
        (tests/benchmarks/bench_reuse_after_backticks.py). The tree is the one a
        fresh parse gives (tests/test_parse_guards.py): where an error remains,
        `syntax.parse` parses afresh. The edits go from the last offset back,
        so each one's row and column, read in the text before the round, are
        not moved by the edits after it; a run of changed bytes is one edit (a
        stretch read another way changes a dozen: 32,000 of them were 400,000
        edits).
        """
        tree = tree.copy()  # the earlier rounds' trees (and nodes) stay as they were read
        index = LineIndex(bytes(self.text))
        for start, end in reversed(_runs(sorted(changes))):
            begin = _point(index.position(start, Encoding.UTF8))
            old_end = _point(index.position(end, Encoding.UTF8))
            written = bytes(changes[offset] for offset in range(start, end))
            tree.edit(start, end, end, begin, old_end, _advance(begin, written))
        for offset, byte in changes.items():
            self.text[offset] = byte
        self.touched.update(changes)
        return syntax.parse(bytes(self.text), tree)

    def _changes(self, root: Node, documents: HereDocuments) -> dict[int, int]:
        changes: dict[int, int] = {}
        for document, masks in _heredoc_repairs(self.source, bytes(self.text), root, documents):
            self.misread.add(document.operator)
            changes.update(masks)
        found = swallowed_boundaries(self.source, root, documents)
        self.last_found = (root, found)
        for swallowed in found:
            offset = _semicolon_place(self.source, swallowed)
            if offset is not None:
                changes[offset] = 0x3B  # ";"
        if found:
            self.joined = _merge(self.joined, found)
        if root.has_error:  # what tree-sitter cannot parse at all: only there (a clean script pays nothing)
            for start, end, shape, masks in _rereads(self.source, root, self.dialect):
                if start not in self.rereads and not any(offset in self.touched for offset in masks):
                    self.rereads[start] = (end, shape)
                    changes.update(masks)
        return changes

    def result(self, tree: Tree, documents: HereDocuments) -> GuardedParse:
        if self.joined:
            root = tree.root_node
            # The last round asked the final tree already (unless the rounds ran out): not walked again.
            seen, found = self.last_found if self.last_found is not None else (None, None)
            remaining = found if seen == root else swallowed_boundaries(self.source, root, documents)
            _mark_unchecked(self.joined, [s.newline for s in remaining], root)
        changed = sorted(offset for offset in self.touched if self.text[offset] != self.source[offset])
        misread = self._misreads(tree.root_node, documents)
        rereads = _read_rereads(tree.root_node, self.rereads)
        return GuardedParse(
            self.source, bytes(self.text), tree, documents, self.joined, misread, changed, self.rounds, rereads
        )

    def give_up(self, tree: Tree) -> GuardedParse:
        self.text = bytearray(self.source)
        documents = heredocs.find(self.source, tree.root_node, self.dialect)
        for stretch in self.joined:
            stretch.unchecked = [(stretch.start, stretch.end)]
        misread = self._misreads(None, documents)
        return GuardedParse(self.source, self.source, tree, documents, self.joined, misread, [], self.rounds)

    def _misreads(self, root: Node | None, documents: HereDocuments) -> list[HereDocumentMisread]:
        """How the final parse reads each here-document a round found misread.

        One whose operator the final parse no longer holds was body text of
        another, seen as code only while that body was misread: not listed.
        """
        by_operator = {document.operator: document for document in documents}
        return [self._misread(by_operator[op], root) for op in sorted(self.misread) if op in by_operator]

    def _misread(self, document: HereDocument, root: Node | None) -> HereDocumentMisread:
        operator = document.operator
        seen = heredocs.tree_sitter_ends(root, operator) if root is not None else None
        if seen is not None and _agrees(self.text, document, seen):
            return HereDocumentMisread(operator, document.body_end, document.end, repaired=True)
        # What tree-sitter still reads wrong: the operator to the furthest of
        # both ends, and the rest of the statement when the operator's line
        # goes on after the body (`cat <<EOF |` … `EOF` / `tr a-z A-Z`).
        end = max(document.end + 1, seen[1] if seen is not None else 0)
        if root is not None and _continues_after_body(self.source, document):
            end = max(end, _statement_end_after(root, self.source, document.end + 1))
        return HereDocumentMisread(operator, document.body_end, end, repaired=False)


# Swallowed statement boundaries.


def swallowed_boundaries(source: bytes, root: Node, documents: HereDocuments) -> list[Swallowed]:
    """Every newline bash ends a statement at that tree-sitter put inside a line-bound node: one walk.

    The walk carries down what the checks need from above (the statement, a
    `[ … ]` test or a pipeline around), so nothing climbs back up: linear in
    the nodes that span lines, and one-line nodes are not entered at all.
    Subtrees with an ERROR are left to the checker's handling of parse
    failures (`distrust_swallowed` looks at what it salvages from them);
    newlines inside here-document bodies, or that start one, are data.
    """
    found: list[Swallowed] = []
    body_starts = {document.body_start for document in documents}
    # A node's context is None when it is a statement of its own (as most nodes that span lines
    # are): no tuple is made for them.
    stack: list[tuple[Node, _Above | None]] = [(root, _Above(None, False, False, False))] if _spans_lines(root) else []
    while stack:
        node, above = stack.pop()
        children = node.children
        in_bracket_test = above is not None and above.in_bracket_test
        allowed_after = None if node.has_error else _continuation_tokens(node, in_bracket_test)
        if allowed_after is not None and len(children) > 1:
            for newline, last_token in _swallowed_gaps(source, children, allowed_after):
                if newline + 1 not in body_starts and documents.containing(newline) is None:
                    context = above if above is not None else _Above(node, False, False, False)
                    issue = _issue(node, last_token, context)
                    found.append(Swallowed(newline, node, last_token, context.statement or node, issue))
        # Only children that span lines are entered (most nodes are on one
        # line: 94,000 of the corpus's nodes were, against 15,000 that span lines),
        # and only those with children: a token holds no gap (asked first, it is cheaper).
        # `_spans_lines`, inlined: this test runs for every child of every node
        # entered, and the call was a third of the walk.
        spanning = [
            child
            for child in children
            if child.child_count and child.start_point[0] != child.end_point[0] and not child.is_error
        ]
        if spanning:
            below = _below(above, node)
            stack.extend([(child, below) for child in spanning])
    return sorted(found, key=lambda swallowed: swallowed.newline)


def _spans_lines(node: Node) -> bool:
    """A node over several lines of the text parsed (a repaired newline is one no more), not an ERROR.

    An ERROR is left to the parse failure handling.
    """
    return node.start_point.row != node.end_point.row and not node.is_error


class _Above(NamedTuple):
    """What lies above a node, up to its statement."""

    statement: Node | None  # None above the script's top-level statements
    in_test: bool  # a single-bracket test
    in_pipeline: bool
    in_bracket_test: bool  # the parents up to a single-bracket test are all test expressions


def _below(above: _Above | None, node: Node) -> _Above | None:
    """The context of node's children (above: node's, None when node is a statement of its own);
    None when each child is a statement of its own."""
    kind = node.type
    if kind in _STATEMENT_PARENTS:
        return None
    if above is None:
        statement, in_test, in_pipeline, in_bracket_test = node, False, False, False
    elif above.statement is None:
        return None
    else:
        statement, in_test, in_pipeline, in_bracket_test = above
    single = _is_single_bracket_test(node)
    return _Above(
        statement,
        in_test or single,
        in_pipeline or kind == "pipeline",
        single or (in_bracket_test and kind in _TEST_EXPRESSIONS),
    )


def _is_single_bracket_test(node: Node) -> bool:
    return node.type == "test_command" and node.children[0].type == "["


def _continuation_tokens(node: Node, in_bracket_test: bool) -> frozenset[str] | None:
    """None when newlines may sit anywhere between the children; else the tokens a newline may follow."""
    kind = node.type
    if kind in _STATEMENT_PARENTS:  # most nodes the walk enters, asked first
        return None
    if kind in _LINE_BOUND:
        return frozenset()
    if kind in _CONTINUED_AFTER:
        return _CONTINUED_AFTER[kind]
    if kind == "test_command":
        return frozenset() if _is_single_bracket_test(node) else None
    if kind in _TEST_EXPRESSIONS and in_bracket_test:
        return frozenset()
    return None


def _swallowed_gaps(source: bytes, children: list[Node], allowed_after: frozenset[str]) -> Iterator[tuple[int, Node]]:
    """In each gap between two children that no continuation token precedes: the first unescaped newline, and that token.

    One boundary per token: the newline after a comment on a line of its own
    follows the boundary already found after the code before it.
    """
    last_token = children[0]
    reported: Node | None = None
    for before, after in zip(children, children[1:]):
        if before.type != "comment":
            last_token = before
        if last_token.type in allowed_after or last_token == reported:
            continue
        newline = source.find(b"\n", before.end_byte, after.start_byte)
        while newline != -1:
            if not syntax.is_line_continuation(source, newline):
                yield newline, last_token
                reported = last_token
                break
            newline = source.find(b"\n", newline + 1, after.start_byte)


def _issue(node: Node, last_token: Node, above: _Above) -> str | None:
    """The upstream issue a swallowed boundary is an instance of, if it is a known one."""
    if above.in_test or _is_single_bracket_test(node):
        return ISSUE_TEST
    if last_token.type == "variable_assignment":
        return ISSUE_ASSIGNMENTS
    if above.in_pipeline:
        return ISSUE_PIPELINE
    return None


def statement_of(node: Node) -> Node:
    """The outermost node holding node whose parent holds statements."""
    while node.parent is not None and node.parent.type not in _STATEMENT_PARENTS:
        node = node.parent
    return node


def _merge(joined: list[JoinedStretch], found: list[Swallowed]) -> list[JoinedStretch]:
    """The stretches with this round's boundaries added: one stretch per statement, overlapping ones merged.

    A later round may see a statement that covers stretches of earlier
    rounds, or lies inside one. Sorting and one sweep keep it O(n log n).
    """
    fresh = []
    for swallowed in found:
        statement = swallowed.statement
        fresh.append(JoinedStretch(statement.start_byte, statement.end_byte, swallowed.issue, [swallowed.newline]))
    merged: list[JoinedStretch] = []
    for stretch in sorted(joined + fresh, key=lambda s: s.start):
        if merged and stretch.start < merged[-1].end:
            last = merged[-1]
            last.end = max(last.end, stretch.end)
            last.boundaries = sorted(set(last.boundaries) | set(stretch.boundaries))
            last.issue = last.issue or stretch.issue
        else:
            merged.append(stretch)
    return merged


def _semicolon_place(source: bytes, swallowed: Swallowed) -> int | None:
    """Where a `;` ends the statement as the newline does for bash, or None if it cannot (yet).

    On the blank right after the line's last word, so that a comment after it
    stays a comment and lines stay lines; else on the newline itself. Not
    after a word that may be a keyword waiting for more (`then;` is a syntax
    error): such a boundary stays unrepaired and its piece unchecked.
    """
    token = swallowed.last_token
    if syntax.text(token).strip() in _NO_SEMICOLON_AFTER:
        return None
    after = token.end_byte
    if after < swallowed.newline and source[after] in b" \t\r":
        return after
    return swallowed.newline


def _mark_unchecked(joined: list[JoinedStretch], remaining: list[int], root: Node) -> None:
    """Pieces that still hold a swallowed boundary (remaining: their newlines, in order) or an error
    after the last round are not trusted."""
    errors = syntax.error_ranges(root)  # sorted, and disjoint: their ends are sorted too
    error_starts = [start for start, _ in errors]
    for stretch in joined:
        for start, end in stretch.pieces():
            before = bisect_left(remaining, end)
            broken = before > 0 and remaining[before - 1] >= start
            last_error = bisect_left(error_starts, end) - 1
            broken = broken or (last_error >= 0 and errors[last_error][1] > start)
            if broken:
                stretch.unchecked.append((start, end))


# Here-documents tree-sitter-bash reads differently.


def _heredoc_repairs(source: bytes, text: bytes, root: Node, documents: HereDocuments):
    """For each here-document tree-sitter misreads in text (root's): the byte changes that make it read it as bash does."""
    for document in documents:
        seen = heredocs.tree_sitter_ends(root, document.operator)
        if seen is not None and _agrees(text, document, seen):
            continue
        yield document, _heredoc_masks(source, document, seen)


def _continues_after_body(source: bytes, document: HereDocument) -> bool:
    """The operator's line ends with `|`, `|&`, `&&` or `||`: bash's statement goes on after the body."""
    line = source[document.word_end : max(document.body_start - 1, document.word_end)].rstrip()
    return line.endswith((b"|", b"&&"))


def _statement_end_after(root: Node, source: bytes, offset: int) -> int:
    while offset < len(source) and source[offset] in b" \t\r\n":
        offset += 1
    if offset >= len(source):
        return offset
    node = root.descendant_for_byte_range(offset, offset)
    return statement_of(node).end_byte if node is not None else offset


def _agrees(text: bytes, document: HereDocument, seen: tuple[int, int]) -> bool:
    """tree-sitter's body (in the text it parsed) starts and ends on bash's lines."""
    body_start, end = seen
    if text[document.body_start : body_start].strip():
        return False  # tree-sitter read body text as part of the operator's line
    if not document.terminated:
        return not text[end:].strip()  # both run to the end of the file
    return text.rfind(b"\n", 0, end) + 1 == document.body_end


def _heredoc_masks(source: bytes, document: HereDocument, seen: tuple[int, int] | None) -> dict[int, int]:
    masks: dict[int, int] = {}
    if seen is not None:
        body_start, end = seen
        if source[document.body_start : document.body_start + 1] == b"\\" and body_start > document.body_start:
            masks[document.body_start] = _other_letter(0x5C)  # a body line tree-sitter lexed as words
        end_line = source.rfind(b"\n", 0, end) + 1
        if document.body_start <= end_line < document.body_end:
            fake = _first_visible(source, end_line, end)
            masks[fake] = _other_letter(source[fake])  # a line tree-sitter took for the delimiter
        if masks:
            return masks
    masks = _rewrite_delimiter(source, document)
    if masks or seen is not None:
        return masks
    # tree-sitter has no here-document there at all (`<<''`): at least keep it
    # from reading the body as commands.
    return {offset: 0x20 for offset in range(document.body_start, document.end) if source[offset] not in b"\r\n"}


def _first_visible(source: bytes, start: int, end: int) -> int:
    while start < end - 1 and source[start] in b" \t":
        start += 1
    return start


def _other_letter(byte: int) -> int:
    return 0x79 if byte == 0x78 else 0x78  # "y" for an "x", else "x"


def _rewrite_delimiter(source: bytes, document: HereDocument) -> dict[int, int]:
    """A delimiter tree-sitter cannot read (`<<=cut`, `<<E"O"F`, `<<$'EOF'`), rewritten in letters on both its lines.

    The word keeps its length and whether it is quoted: unquoted letters, `\\`
    and letters, or letters in single quotes padded with blanks (tree-sitter
    reads no other quoting reliably). An empty delimiter (`<<''`) has no
    letters to give.
    """
    word_length = document.word_end - document.word_start
    letters = bytes(byte if chr(byte).isalnum() and byte < 0x80 else 0x78 for byte in document.delimiter)
    extra = word_length - len(letters)
    if not letters or not document.terminated or extra < 0 or (extra == 0 and document.quoted):
        return {}
    if extra == 0:
        word = letters
    elif extra == 1:
        word = b"\\" + letters
    else:
        word = b"'" + letters + b"'" + b" " * (extra - 2)
    delimiter_at = document.end - len(letters)
    if source[delimiter_at : document.end] != document.delimiter:
        return {}  # a delimiter line joined from several by backslash-newlines
    masks = {document.word_start + index: byte for index, byte in enumerate(word)}
    masks.update({delimiter_at + index: byte for index, byte in enumerate(letters)})
    return masks


# Stretches tree-sitter-bash cannot parse at all (an ERROR), read another way.

_EXPANSIONS = frozenset({"expansion", "arithmetic_expansion"})
# What an opaque reading must not hide: a command run (`$( )`, backquotes); a variable set by an expansion
# (`${x:=v}`, `${x=v}`) or in arithmetic (`$((i++))`, `$((n+=1))`, `$((a=1))`); a default or alternative
# that may begin with `-` (`${f:--}`: cat reads it as stdin).
_RUNS = re.compile(rb"\$\((?!\()|`")
_PARAMETER = rb"\$\{[#!]?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!_-])(?:\[[^]]*\])?"
_SETS_OR_DASH = re.compile(_PARAMETER + rb"(?::?=|:?[-+=?]-)")
_ARITHMETIC_SETS = re.compile(rb"\+\+|--|<<=|>>=|(?<![=!<>])=(?!=)")


def _rereads(source: bytes, root: Node, dialect: Dialect) -> Iterator[tuple[int, int, str, dict[int, int]]]:
    """For each ERROR (or MISSING token) of root over a shape bash accepts: (start, end, shape, byte changes).

    The changes give the stretch a reading of the same length that tree-sitter
    parses and every rule reads as bash does (READINGS). Candidates come from
    the parse around the error; their extent from bash's own rules
    (`heredocs.skip_bracketed`, `heredocs.word_end`); anything that may set a
    variable or run a command is left unread. One walk down the nodes that
    hold an error, carrying the outermost expansion above (asking a node for
    its parent walks down from the root: quadratic on a long flat script).
    """
    seen: set[int] = set()
    for broken, before, expansion in _errors_in_context(root):
        found = _read_write(source, broken, before) or _descriptor_here_string(source, broken, before, dialect)
        found = found or _opaque_expansion(source, broken, before, expansion)
        if found is not None and found[0] not in seen:
            seen.add(found[0])
            yield found


def _errors_in_context(root: Node) -> Iterator[tuple[Node, Node | None, Node | None]]:
    """Each ERROR node and MISSING token, with the sibling before it and the outermost `${ }`/`$(( ))` around it
    (below its statement)."""
    stack: list[tuple[Node, Node | None]] = [(root, None)]
    while stack:
        node, expansion = stack.pop()
        children = node.children
        for index, child in enumerate(children):
            if child.is_error or child.is_missing:
                yield child, children[index - 1] if index else None, expansion
            elif child.has_error:
                if node.type in _STATEMENT_PARENTS:
                    outer = None  # a statement of its own: what is above it is not its expansion
                else:
                    outer = expansion
                if outer is None and child.type in _EXPANSIONS:
                    outer = child
                stack.append((child, outer))


def _read_write(source: bytes, broken: Node, before: Node | None) -> tuple[int, int, str, dict[int, int]] | None:
    """`3<> f`: tree-sitter-bash 0.25 lexes `<` and stops at `>`. Read as `3<  f`: the same descriptor, the same
    file, opened for reading (a rule asks which descriptor a redirect replaces and what it names)."""
    start = broken.start_byte
    if source[start : start + 2] == b"<>" and broken.child_count and broken.children[0].type == "<":
        return start, start + 2, "read-write", {start + 1: 0x20}  # `0<> f`: `0` dropped, `<` the ERROR, `> f` a redirect
    if source[start - 1 : start + 1] == b"<>" and before is not None and before.type == "<":
        return start - 1, start + 1, "read-write", {start: 0x20}
    return None  # not a redirect operator tree-sitter lexed (quoted, or in a comment)


def _descriptor_here_string(
    source: bytes, broken: Node, before: Node | None, dialect: Dialect
) -> tuple[int, int, str, dict[int, int]] | None:
    """`b 3<<<"$PW"`: after a command, tree-sitter-bash 0.25 takes `3` for a file redirect's and cannot go on.

    Read as `3< ${__#}`: descriptor 3 given input from a computed word (the
    command's stdin stays what it was). Not in sh, where dash rejects the
    here-string: that stays a parse error.
    """
    start = broken.start_byte
    if dialect is Dialect.SH or source[start : start + 3] != b"<<<":
        return None
    if before is None or before.type != "file_descriptor":
        return None
    word = start + 3
    while source[word : word + 1] in (b" ", b"\t"):
        word += 1
    end = heredocs.word_end(source, word)
    text = source[word:end]
    if not text or b"\n" in text or _changes_state(text, arithmetic=False):
        return None
    length = end - start
    reading = b"< " + _opaque(length - 2) if length - 2 >= 5 else b"<" + b" " * (length - 3) + b"$_"
    return start, end, "here-string", _masks(source, start, reading)


def _opaque_expansion(
    source: bytes, broken: Node, before: Node | None, expansion: Node | None
) -> tuple[int, int, str, dict[int, int]] | None:
    """`${b:$len:$max}`, `$((0x${c}%4294967295))`, `"${T:+t = ${T}\\n}"`: the outermost `${…}` or `$((…))`
    around the error (or the one right before it, cut short), to its end as bash finds it, read as `${___#}` of
    the same length."""
    start = broken.start_byte
    if expansion is None and before is not None and before.type in _EXPANSIONS:
        expansion = before
    if expansion is None:
        return None
    begin = expansion.start_byte
    if source[begin : begin + 3] == b"$((":
        inner, closing = begin + 3, b"))"
    elif source[begin : begin + 2] == b"${":
        inner, closing = begin + 2, b"}"
    else:
        return None
    end = heredocs.skip_bracketed(source, begin + 1)
    text = source[inner:end]
    if not begin <= start < end or not text.endswith(closing) or b"\n" in text:
        return None
    if _changes_state(source[begin:end], arithmetic=closing == b"))"):
        return None
    if b"@" in text or b"[*]" in text or text.startswith(b"!") or end - begin < 5:
        return None  # `"${a[@]:1}"`, `"${!p}"`: several words, or a name's value, quoted or not
    return begin, end, "expansion", _masks(source, begin, _opaque(end - begin))


def _changes_state(text: bytes, arithmetic: bool) -> bool:
    """Whether text (a word, an expansion) may run a command or set a variable, or hides a `-` default."""
    if _RUNS.search(text) or _SETS_OR_DASH.search(text):
        return True
    return (arithmetic or b"$((" in text) and _ARITHMETIC_SETS.search(text) is not None


def _opaque(length: int) -> bytes:
    """`${___#}`: an expansion of a variable nobody sets, through an operator (length >= 5).

    A computed word to every rule, and one no rule sees through: `${f}`
    unquoted counts as one variable's value (PL001 reads `cat ${f}` as `cat $f`),
    `${f#}` as what it is, a word the shell computes. Quoted it is one word,
    unquoted it may be several or none, as the expansion it stands for.
    """
    return b"${" + b"_" * (length - 4) + b"#}"


def _masks(source: bytes, start: int, reading: bytes) -> dict[int, int]:
    return {start + index: byte for index, byte in enumerate(reading) if source[start + index] != byte}


def _read_rereads(root: Node, found: dict[int, tuple[int, str]]) -> list[Reread]:
    """The stretches read another way whose statement the final parse reads without an error."""
    if not found:
        return []
    errors = _Ranges(syntax.error_ranges(root))
    rereads = []
    statements = _statements_at(root, sorted(found))
    for start, (end, shape) in sorted(found.items()):
        statement = statements.get(start)
        if statement is not None and not errors.overlaps(*statement):
            rereads.append(Reread(start, end, shape, statement))
    return rereads


def _statements_at(root: Node, offsets: list[int]) -> dict[int, tuple[int, int]]:
    """The span of the statement holding each offset (`statement_of`, found from the root down).

    Each node's children are read once and bisected, so that many offsets in
    a long flat script cost linear time.
    """
    kids: dict[int, tuple[list[Node], list[int]]] = {}
    spans: dict[int, tuple[int, int]] = {}
    for offset in offsets:
        node, statement = root, None
        while True:
            if node.id not in kids:
                children = node.children
                kids[node.id] = (children, [child.start_byte for child in children])
            children, starts = kids[node.id]
            index = bisect_left(starts, offset + 1) - 1
            if index < 0 or children[index].end_byte <= offset:
                break
            if node.type in _STATEMENT_PARENTS:
                statement = children[index]
            node = children[index]
        if statement is not None:
            spans[offset] = (statement.start_byte, statement.end_byte)
    return spans
