"""Whether a script can see a pipeline's exit status, or the status of one of its stages.

A fix that merges or removes a stage can change the pipeline's status
(`sort f | uniq` exits with uniq's 0 when f is missing, `sort -u f` with
sort's 2) or the list of stage statuses (`PIPESTATUS`, and what
`set -o pipefail` makes of it). Issue 13's contract lets such a fix be safe
only where the script does not observe the difference: no `set -e` (or ERR
trap) in force, no `if`/`while`/`&&`/`||`/`!` on it, no `$?` or `PIPESTATUS`
read right after, and not the last command of the script, a function, or a
`$( )` whose status counts, each of which hands the status on.

Script-wide switches (`set -e`, `set -o pipefail`, a read of `PIPESTATUS`)
are `facts.ScriptFacts` facts; this module reads the tree around one
statement.
"""

from __future__ import annotations

from tree_sitter import Node

from pipelint.programs.table import Trait, has
from pipelint.shell import syntax
from pipelint.facts.script import ScriptFacts
from pipelint.facts.shell_options import BLOCKS_WITH_FIELDS, NOT_STATEMENTS

# Blocks whose statements run in order: the status of the block is its last statement's.
_SEQUENCES = frozenset({"compound_statement", "do_group", "subshell", "if_statement", "elif_clause", "else_clause", "case_item"})
# Children of a block that are no statement of its own sequence (elif/else run instead of it).
_NOT_IN_SEQUENCE = ("comment", "elif_clause", "else_clause")
# Compound commands whose status is that of the block they hold.
_HOLDERS = frozenset({"for_statement", "c_style_for_statement", "while_statement", "case_statement", "redirected_statement"})
# Nodes a command substitution's value passes through on its way to a command.
_VALUE_CARRIERS = frozenset({"string", "concatenation", "binary_expression", "unary_expression", "parenthesized_expression"})


# How a script uses a status: not at all, only whether it is zero, or its value.
IGNORED, TESTED, VALUE = "ignored", "tested", "value"


def status_observed(statement: Node, facts: ScriptFacts) -> bool:
    """Whether anything can see the exit status of statement (a pipeline's outermost node).

    Conservative: a context not understood counts as observing.
    """
    return status_use(statement, facts) != IGNORED


def status_use(statement: Node, facts: ScriptFacts) -> str:
    """IGNORED, TESTED (only zero or not: `if`, `while`, `&&`, `||`, `!`) or VALUE (`$?`, errexit, handed on).

    A fix that turns one non-zero status into another (`grep x` on empty input
    exits 1, `grep x < missing` 1 or 2) is invisible where the status is only tested.
    """
    node = statement
    if _negated(node):
        return TESTED  # `! a | b`
    while True:
        parent = node.parent
        if parent is None:
            return VALUE
        kind = parent.type
        if kind == "program":
            return VALUE if facts.errexit_at(node.start_byte) or _status_handed_on(node, parent, facts) else IGNORED
        if kind == "list":
            if node != _last_named(parent):
                return TESTED  # `a && b`, `a || b`
            node = parent
        elif kind == "negated_command":
            return TESTED
        elif kind == "test_command":
            return VALUE
        elif kind in _SEQUENCES:
            if _is_condition(parent, node):
                return TESTED
            if facts.errexit_at(node.start_byte) or _reads_status_next(node):
                return VALUE
            if not _is_last_statement(parent, node):
                return IGNORED
            node = parent  # the block's status is this statement's
        elif kind in _HOLDERS:
            if parent.child_by_field_name("condition") == node:
                return TESTED
            node = parent
        elif kind == "function_definition":
            return VALUE  # the function's return status: its callers may read it
        elif kind == "process_substitution":
            return IGNORED  # `<(a | b)`: the shell does not wait for its status
        elif kind == "command_substitution":
            if substitution_status_discarded(node):
                return IGNORED
            assignment = parent.parent
            if assignment is None or assignment.type != "variable_assignment" or _last_named(parent) != node:
                return VALUE
            node = assignment  # `n=$(…)` as a statement has the substitution's status
        else:
            return VALUE


def command_status_observed(command: Node, facts: ScriptFacts) -> bool:
    """Whether anything can see the exit status of one command node, a stage of a pipeline or a statement."""
    node, parent = command, command.parent  # Node.parent walks down from the root: once per level
    while parent is not None and parent.type in ("redirected_statement", "pipeline"):
        if parent.type == "pipeline" and node != _last_named(parent):
            return stage_status_observed(parent, facts)  # a stage before the last
        node, parent = parent, parent.parent
    return status_observed(node, facts)


def stage_status_observed(statement: Node, facts: ScriptFacts) -> bool:
    """Whether the status of a stage that is not the last can be seen: `PIPESTATUS`, or pipefail with the status observed."""
    if facts.reads_pipestatus:
        return True
    return facts.pipefail_at(statement.start_byte) and status_observed(statement, facts)


def substitution_status_discarded(statement: Node) -> bool:
    """statement is all of a `$(…)` whose exit status nobody sees.

    True in `echo "$(…)"`, `[ "$(…)" -gt 0 ]`, `local n=$(…)`: the status of
    the command around it replaces the substitution's. False for a bare
    `n=$(…)`, whose status is the substitution's, and for statements.
    """
    substitution = statement.parent
    if substitution is None or substitution.type != "command_substitution":
        return False
    statements = [child for child in substitution.named_children if child.type != "comment"]
    if statements != [statement]:
        return False
    node = substitution.parent
    while node is not None and node.type in _VALUE_CARRIERS:
        node = node.parent
    if node is None:
        return False
    if node.type == "variable_assignment":
        return node.parent is not None and node.parent.type in ("command", "declaration_command")
    return node.type in ("command", "test_command")


def _negated(statement: Node) -> bool:
    """`! a | b`: tree-sitter-bash puts the `!` on the first stage."""
    node = statement
    while node is not None and node.type in ("pipeline", "redirected_statement"):
        node = node.child_by_field_name("body") if node.type == "redirected_statement" else node.named_child(0)
    return node is not None and node.type == "negated_command"


def _is_condition(block: Node, node: Node) -> bool:
    """node is (part of) the condition of an `if`/`elif`: the statements before `then`."""
    if block.type not in ("if_statement", "elif_clause"):
        return False
    # A cursor, not `block.children`: an `if` with thousands of `elif` made every question list them all.
    cursor = block.walk()
    found = cursor.goto_first_child()
    while found:
        if cursor.node.type == "then":
            return node.start_byte < cursor.node.start_byte
        found = cursor.goto_next_sibling()
    return True


def _is_last_statement(block: Node, node: Node) -> bool:
    """node is the last of the block's statements that run in order (conditions and elif/else branches left out).

    Read from the block's end: listing every statement of a script's top level
    per pipeline made 8,000 `v=…` / `cat $v | wc -l` pairs take 100 s.
    """
    if node.type in _NOT_IN_SEQUENCE:
        return False  # no statement of the block's: asked first, an `if` with 4,000 `elif` is not walked
    skipped = set()
    if block.type in BLOCKS_WITH_FIELDS:  # asked of a script's top level, it walks every statement per child
        skipped = {child.id for field in NOT_STATEMENTS for child in block.children_by_field_name(field)}
    last = block.named_child(block.named_child_count - 1) if block.named_child_count else None
    while last is not None and (last.type in _NOT_IN_SEQUENCE or last.id in skipped):
        last = last.prev_named_sibling
    return last is not None and last == node


def _last_named(node: Node) -> Node | None:
    named = [child for child in node.named_children if child.type != "comment"]
    return named[-1] if named else None


def _reads_status_next(node: Node) -> bool:
    """The statement after node reads `$?` or `PIPESTATUS`, or is a bare `exit`/`return`, which passes `$?` on."""
    following = node.next_named_sibling
    while following is not None and following.type == "comment":
        following = following.next_named_sibling
    if following is None:
        return False
    text = syntax.text(following)
    if b"$?" in text or b"${?" in text or b"PIPESTATUS" in text:
        return True
    return following.type == "command" and has(text.strip(), Trait.PASSES_STATUS_ON)


def _status_handed_on(node: Node, program: Node, facts: ScriptFacts) -> bool:
    """At the top level: the script's own exit status is its last command's, and `$?` may be read next."""
    return (facts.status_handed_on and _is_last_statement(program, node)) or _reads_status_next(node)
