"""The nodes a file's rules can start from, found by one compiled tree-sitter query run in C.

Walking every node in Python and offering each to every rule cost more than
parsing (issue 11: 2.1 M walk calls and 15.5 M dispatch calls on 2,079
scripts). Instead, each rule set gets one query, compiled once per process,
that captures only what the rules start from: pipelines (`check_pipeline`),
simple commands (`check_command`, and the regions `embedded` finds), the node
types of `check_node`, and comments (suppressions). Python then touches the
captures only, and reads a command's model only when its literal name is one
a rule declared in `Rule.programs`, a wrapper that may run one
(`sudo dd`, `nice gzip`), or a lead of `embedded` (`sh -c`).

Matching command names in the query (`#match?`) was measured slower than
capturing every command and comparing its name in Python: on 545 Debian
scripts, 0.19 s against 0.12 s (tests/benchmarks/bench_lint.py corpus).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tree_sitter import Node, Query

from pipelint.embedded import find as embedded
from pipelint.facts import script as facts
from pipelint.shell import syntax
from pipelint.programs import pipeline as pipelines
from pipelint.programs.table import WRAPPERS
from pipelint.rule import Rule


_KEPT_IN_ERRORS = frozenset({"comment_anywhere", "function_name"})


@dataclass(frozen=True)
class Plan:
    """What one rule set starts from, and the query that finds it."""

    query: Query
    # Literal command names (basenames) worth reading a model for; None: every command.
    programs: frozenset[bytes] | None
    regions: frozenset[bytes]  # names that may lead to a region (`embedded.LEADS`)
    pipelines: bool = True  # some rule checks pipelines: find their roots


@dataclass
class Found:
    """One file's captures, outside ERROR subtrees, in document order."""

    commands: list[Node]  # simple commands some hook or region finder may want
    pipelines: list[Node]  # the root of each logical pipeline
    comments: list[Node]
    nodes: list[Node]  # nodes of the types some rule's `node_types` names
    wrapped: frozenset[int] = frozenset()  # ids of commands in a redirected statement or a pipeline
    names: dict[int, bytes | None] = field(default_factory=dict)  # every command's program basename, by id
    # Commands named by one variable (`$command "$1"`): the checker asks the script facts what they run.
    named_by_variable: list[Node] = field(default_factory=list)
    captured: dict[str, list[Node]] | None = None  # every capture by name (`command`: all of them)


def plan(rules: Iterable[Rule]) -> Plan:
    return _plan(tuple(sorted({type(rule) for rule in rules}, key=lambda rule: rule.code)))


@functools.cache
def _plan(rules: tuple[type[Rule], ...]) -> Plan:
    # Patterns of one node each, where Python can tell the rest from their children: tree-sitter
    # compiles a query in a fixed ~26 M instructions plus, for each node type a pattern looks
    # inside, a walk of that type's parse states. Looking inside `redirected_statement` (its
    # body; a here-document's pipeline) cost 20 M more, once per process: more than asking the
    # 4,339 redirected statements of the bench corpus for their body (8 ms for all of them).
    patterns = [
        "(comment) @comment",
        "(command) @command",
        pipelines.PIECES,
        # What script facts and the context would otherwise query the whole tree again for
        # (one traversal of a 2 MB script costs a quarter of its parse):
        facts.STATEMENT_PATTERNS,
        "(comment) @comment_anywhere",  # also inside ERROR subtrees, as `syntax.comment_starts`
        "(function_definition name: (word) @function_name)",  # also inside ERROR subtrees
    ]
    checks_pipelines = any(rule.uses("check_pipeline") for rule in rules)
    if checks_pipelines:
        patterns.append(pipelines.CONTINUATIONS)
    kinds = sorted({kind for rule in rules for kind in rule.node_types})
    if kinds:
        patterns.append("[" + " ".join(f"({kind})" for kind in kinds) + "] @node")
    on_command = [rule for rule in rules if rule.uses("check_command")]
    programs: frozenset[bytes] | None = embedded.LEADS | frozenset(WRAPPERS)
    for rule in on_command:
        programs = None if rule.programs is None or programs is None else programs | rule.programs
    return Plan(Query(syntax.language(), "\n".join(patterns)), programs, embedded.LEADS, checks_pipelines)


def find(plan: Plan, root: Node) -> Found:
    captured = syntax.captures(plan.query, root, kept_in_errors=_KEPT_IN_ERRORS)
    commands = captured.get("command", [])
    # Read once here, asked of every command again by the script facts (sourcing, mounts, options).
    names = {node.id: _literal_basename(node) for node in commands}
    by_variable = [node for node in commands if names[node.id] is None and _named_by_variable(node)]
    if plan.programs is not None:
        commands = [node for node in commands if names[node.id] in plan.programs]
    pieces = pipelines.Pieces(captured.get("pipeline", []), captured.get("redirected", []))
    roots = pieces.roots(captured.get("pipeline_continuation", [])) if plan.pipelines else []
    comments, nodes = captured.get("comment", []), captured.get("node", [])
    return Found(commands, roots, comments, nodes, frozenset(pieces.wrapped), captured=captured, names=names,
                 named_by_variable=by_variable)  # fmt: skip


def name_programs(plan: Plan, found: Found, program_named_by: Callable[[Node], bytes | None]) -> list[Node]:
    """Give each command named by a variable the program the script facts say it runs (`$command` set once
    to `cat`: `ScriptFacts.program_named_by`), in `found.names`, and add those a rule wants to the
    commands. Returns the commands so named."""
    named = []
    for node in found.named_by_variable:
        program = program_named_by(node)
        if program is None:
            continue
        found.names[node.id] = program
        named.append(node)
        if plan.programs is not None and program in plan.programs:
            found.commands.append(node)
    if named and plan.programs is not None:
        found.commands.sort(key=lambda node: node.start_byte)
    return named


def _named_by_variable(command: Node) -> bool:
    """The command's name is one expansion (`$cmd`, `"${cmd}"`): checked on the node types, before any text."""
    name = command.child_by_field_name("name")
    return name is not None and name.named_child_count == 1 and name.named_children[0].type in ("simple_expansion", "expansion", "string")


def _literal_basename(command: Node) -> bytes | None:
    """`syntax.basename(syntax.command_name(command))`, inlined: the last path component of the
    command's name when it is a plain word, else None.
    Cheaper than it on the 34k commands of the bench corpus (0.13 s against 0.16 s with the query).

    A name that is no plain word (`$(…)`) is not read: its text may be the rest of the script
    (50,000 nested `$(` copied 50,000 times took 2 s)."""
    name = command.child_by_field_name("name")
    if name is None or name.named_child_count != 1 or name.named_children[0].type != "word":
        return None
    return name.named_children[0].text.rsplit(b"/", 1)[-1]  # type: ignore[union-attr]
