"""What a provisional lint carries from the last exact lint instead of computing it over the whole script again.

A provisional lint (provisional.py) lints the statements an edit touched, but
the engine's script-wide steps ran over all 5,000 lines on every keystroke
(bench_lsp.py: the variable facts' query 18 ms of a 63 ms lint). What those
steps found outside the touched statements is what the last exact lint found
there, moved by the edit's length: provisional.py proves that every statement
outside is the same subtree, and that the touched text makes the same
assignments and variable uses before and after the edit (`_summary`,
`_same_facts`). Each piece here is rebuilt from the exact lint's and the
touched statements' own, and equals what the whole script's step computes;
where it cannot be rebuilt so, the step runs as before (never a wrong fact).

The variable facts (`facts.VariableFacts`, what `ScriptFacts.literal_variables`
and `may_hold_dash_word` read):

- assignments outside the touched statements: the exact lint's, found again
  in the new tree by their moved span (nodes of the new tree, so that
  offsets, values and ids are the new text's); inside: the query on the
  touched statements alone (its patterns never reach above a statement);
- the variable names used otherwise than assigned or expanded: the exact
  lint's set; `_same_facts` proved the touched text's the same before and
  after (with the facts' own query);
- the words: the exact lint's set. They are read only for assigned names
  (`_literal_variables`), and `_same_facts` proved that no word the edit
  added or removed is one: the answer is the same for every name asked.

The parse guards and the candidates' query are not carried (see
docs/editors.md, "How fast").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node, Tree

from pipelint.facts import script as facts
from pipelint.shell import syntax

Span = tuple[int, int, bool]  # an assignment's start and end, and whether it prefixes a command (`LOG=x cmd`)


@dataclass(frozen=True)
class Variables:
    """The exact lint's variable facts (`facts.VariableFacts`) without its nodes (they die with its tree)."""

    assignments: tuple[Span, ...]  # in document order
    other_uses: frozenset[bytes]
    words: frozenset[bytes]

    @classmethod
    def of(cls, found: facts.VariableFacts) -> Variables:
        prefixes = found.command_prefixes
        spans = sorted((n.start_byte, n.end_byte, n.id in prefixes) for nodes in found.assignments.values() for n in nodes)
        return cls(tuple(spans), frozenset(found.other_uses), frozenset(found.words))


class Kept:
    """The exact lint's way to its variable facts (`linter.process`'s variables): the query, its answer kept.

    Kept, not computed again for the baseline: the query costs 17 ms on the
    5,000-line script; a lint whose rules never ask keeps nothing (a later
    provisional lint then runs the query if its rules ask).
    """

    def __init__(self) -> None:
        self._found: tuple[Node, facts.VariableFacts] | None = None

    def __call__(self, root: Node) -> facts.VariableFacts:
        found = facts.VariableFacts.of(root)
        self._found = (root, found)
        return found

    def of(self, tree: Tree) -> Variables | None:
        """What was kept, when the script facts asked of this tree's root (not of a parse the guards repaired)."""
        if self._found is None or self._found[0] != tree.root_node:
            return None
        return Variables.of(self._found[1])


def variables_after(
    carried: Variables, start: int, end: int, old_end: int, tree: Tree
) -> Callable[[Node], facts.VariableFacts]:
    """How the script facts of an edited text find its variable facts (`ScriptFacts`'s variables), lazily.

    carried: the exact lint's; [start, end) the touched statements in the new
    text, [start, old_end) in the old one; tree: the new text's parse. Asked of
    another tree (the parse guards repaired the touched text: the lint is
    thrown away) or where a span is not found again, the query runs as before.
    """

    def of(root: Node) -> facts.VariableFacts:
        found = _rebuilt(carried, start, end, old_end, root) if root == tree.root_node else None
        return found if found is not None else facts.VariableFacts.of(root)

    return of


def _rebuilt(carried: Variables, start: int, end: int, old_end: int, root: Node) -> facts.VariableFacts | None:
    delta = end - old_end
    outside: list[Span] = []
    for first, last, prefix in carried.assignments:
        if last <= start:
            outside.append((first, last, prefix))
        elif first >= old_end:
            outside.append((first + delta, last + delta, prefix))
        elif first < start or last > old_end:
            return None  # across the touched text's edge: not a whole statement's
    statements = root.named_children
    touched = [statement for statement in statements if start <= statement.start_byte and statement.end_byte <= end]
    found = facts.VariableFacts(other_uses=set(carried.other_uses), words=set(carried.words))
    nodes: list[Node] = []
    index = 0
    for first, last, prefix in outside:
        while index < len(statements) and statements[index].end_byte < last:
            index += 1
        if index == len(statements) or statements[index].start_byte > first:
            return None
        node = statements[index].descendant_for_byte_range(first, last)
        if node is None or node.type != "variable_assignment" or (node.start_byte, node.end_byte) != (first, last):
            return None
        if node.child_by_field_name("name") is None:
            return None  # the query's own would not list it
        nodes.append(node)
        if prefix:
            found.command_prefixes.add(node.id)
    for statement in touched:
        inside = facts.VariableFacts.of(statement)
        nodes.extend(node for assigned in inside.assignments.values() for node in assigned)
        found.command_prefixes |= inside.command_prefixes
    for node in sorted(nodes, key=lambda node: (node.start_byte, -node.end_byte)):
        found.assignments.setdefault(syntax.text(node.child_by_field_name("name")), []).append(node)  # type: ignore[arg-type]
    return found
