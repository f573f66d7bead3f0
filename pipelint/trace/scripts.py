"""What a traced script holds, statically: its pipelines, their stages, and the words of every command.

A *unit* is what the report ranks: a pipeline (`programs.pipeline`, stages
as the shell runs them) or a simple command that is no stage of one (a
command is a pipeline of one stage in the shell's grammar). Each simple
command keeps its words as patterns, so that a process's argv can be
matched to the command that started it: a static word must be that exact
argument, a word the shell computes (`"$f"`) any one argument, and an
unquoted expansion or a glob any number of them (`syntax.is_single_word`).
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from pipelint.facts.script import STATEMENT_PATTERNS
from pipelint.programs import command as commands
from pipelint.programs import pipeline as pipelines
from pipelint.shell import parse_guards, syntax
from pipelint.shell.dialect import Dialect, detect
from pipelint.shell.positions import LineIndex

# A pattern for one word: its exact bytes, ONE (any one argument) or MANY (any number).
ONE = "one"
MANY = "many"
Pattern = bytes | str


@dataclass(eq=False)
class Stage:
    """One stage of a unit: a simple command (`command` set) or a compound one (`while …`, `{ …; }`)."""

    unit: Unit
    index: int
    start: int
    end: int
    text: str
    command: StaticCommand | None = None

    @property
    def label(self) -> str:
        """The program it runs (through wrappers: `sudo cat` is cat), else its first word."""
        if self.command is not None and self.command.program:
            return self.command.program.decode("utf-8", "replace")
        return self.text.split(None, 1)[0] if self.text.strip() else "?"


@dataclass(eq=False)
class Unit:
    """A pipeline, or a command that is no stage of one: what the report ranks."""

    script: Script
    start: int
    end: int
    stages: list[Stage] = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.script.index.position(self.start).line + 1

    @property
    def end_line(self) -> int:
        return self.script.index.position(max(self.start, self.end - 1)).line + 1

    @property
    def text(self) -> str:
        return " ".join(self.script.source[self.start : self.end].decode("utf-8", "replace").split())

    @property
    def is_pipeline(self) -> bool:
        return len(self.stages) > 1


@dataclass(eq=False)
class StaticCommand:
    node: Node
    words: tuple[Pattern, ...]  # the command name, then its arguments, as patterns
    program: bytes | None  # what finally runs, through wrappers (`command.Command.program`)
    line: int
    end_line: int
    stage: Stage | None = None  # None for a command in no unit (cannot happen: each is a unit or a stage)

    @property
    def start(self) -> int:
        return self.node.start_byte


@dataclass(eq=False)
class Script:
    """One script file as pipelint reads it."""

    path: Path
    source: bytes
    dialect: Dialect
    commands: list[StaticCommand]
    units: list[Unit]
    index: LineIndex

    # What may run next after each command (`flow`): the order the shell runs them in, roughly.
    successors: dict[StaticCommand, list[StaticCommand]] = field(default_factory=dict)
    entry: StaticCommand | None = None  # the first command of the script's own body
    _distances: dict[StaticCommand | None, dict[StaticCommand, int]] = field(default_factory=dict)

    def distances(self, after: StaticCommand | None) -> dict[StaticCommand, int]:
        """How many steps of `successors` lead from a command (None: the start) to each command it can reach;
        a command reaches itself only round a loop."""
        if after not in self._distances:
            found: dict[StaticCommand, int] = {}
            queue = deque([(self.entry, 1)] if after is None and self.entry else [(n, 1) for n in self.successors.get(after, [])])
            while queue:
                node, steps = queue.popleft()
                if node is None or node in found:
                    continue
                found[node] = steps
                queue.extend((following, steps + 1) for following in self.successors.get(node, []))
            self._distances[after] = found
        return self._distances[after]

    def unit_at(self, offset: int) -> Unit | None:
        """The innermost unit whose text holds the offset."""
        best = None
        for unit in self.units:
            if unit.start <= offset < unit.end and (best is None or unit.end - unit.start <= best.end - best.start):
                best = unit
        return best


def pattern(word: Node) -> Pattern:
    value = syntax.literal_value(word)
    if value is not None:
        return value
    return ONE if syntax.is_single_word(word) else MANY


def matches(patterns: tuple[Pattern, ...], argv: tuple[bytes, ...]) -> bool:
    """Whether argv is what the shell can make of these words (argv[0] against the name, by basename too)."""
    if not patterns or not argv:
        return False
    name = patterns[0]
    if isinstance(name, bytes) and name != argv[0] and syntax.basename(name) != syntax.basename(argv[0]):
        return False
    if name == MANY:
        return True  # `$cmd "$@"`: anything
    return _rest_matches(patterns[1:], argv[1:])


def _rest_matches(patterns: tuple[Pattern, ...], argv: tuple[bytes, ...]) -> bool:
    """Word patterns against arguments: backtracking over MANY only, which scripts use little."""
    if not patterns:
        return not argv
    head, rest = patterns[0], patterns[1:]
    if head == MANY:
        return any(_rest_matches(rest, argv[skip:]) for skip in range(len(argv) + 1))
    if not argv:
        return False
    if head != ONE and head != argv[0]:
        return False
    return _rest_matches(rest, argv[1:])


_STATEMENTS = syntax.query("(command) @command\n" + STATEMENT_PATTERNS)


def read(path: Path, source: bytes) -> Script:
    """The script's units and commands, from the same guarded parse the linter reads."""
    dialect = detect(source, str(path))
    guarded = parse_guards.guard(source, dialect)
    root = guarded.tree.root_node
    index = LineIndex(source)
    script = Script(path, source, dialect, [], [], index)
    statements = syntax.captures(_STATEMENTS, root)
    found = statements.get("command", [])
    piped = syntax.captures(syntax.query(pipelines.QUERY), root)
    stage_of: dict[int, Stage] = {}
    for pipeline_root in pipelines.roots(piped):
        built = pipelines.build(pipeline_root)
        if built is None:
            continue
        unit = Unit(script, built.stages[0].start, max(stage.end for stage in built.stages))
        for number, stage in enumerate(built.stages):
            text = source[stage.start : stage.end].decode("utf-8", "replace")
            unit.stages.append(Stage(unit, number, stage.start, stage.end, " ".join(text.split())))
            stage_of[stage.command.id] = unit.stages[-1]
        script.units.append(unit)
    for node in found:
        model = commands.read(node)
        name = node.child_by_field_name("name")
        # The name's word (`command_name` holds it); a name of several parts is computed: any word.
        name_words = name.named_children if name is not None and name.named_child_count == 1 else []
        words = name_words + syntax.arguments(node)
        start, end = index.position(node.start_byte).line + 1, index.position(max(node.start_byte, node.end_byte - 1)).line + 1
        patterns = tuple(pattern(word) for word in words) if name_words else (MANY,)
        static = StaticCommand(node, patterns, model.program, start, end)
        stage = stage_of.get(node.id)
        if stage is None:  # a unit of its own, with the redirects the shell applies to it (`gzip -c f > f.gz`)
            redirects = syntax.applied_redirects(node)
            start = min([node.start_byte, *(r.start_byte for r in redirects)])
            end = max([node.end_byte, *(pipelines.redirect_operator_end(r) for r in redirects)])
            unit = Unit(script, start, end)
            text = " ".join(source[start:end].decode("utf-8", "replace").split())
            stage = Stage(unit, 0, start, end, text)
            unit.stages.append(stage)
            script.units.append(unit)
        stage.command = static
        static.stage = stage
        script.commands.append(static)
    script.units.sort(key=lambda unit: (unit.start, -unit.end))
    script.commands.sort(key=lambda found: found.start)
    _flow(script, statements.get("function", []), statements.get("loop", []))
    return script


def _flow(script: Script, functions: list[Node], loops: list[Node]) -> None:
    """`Script.successors`: a command leads to the next one of its body (the script's, or a function's);
    the last of a loop's body to its first; a call of a function the script defines to the function's
    first command, and the function's last command back to what follows each call.

    Textual order stands in for branches (`if`, `case`, `&&`): it adds paths that may not run, which only
    makes a distance shorter. Enough to tell, without bash's line, a function's `cat "$1"` called in a
    loop from a later `cat small` (`attribute`).
    """
    ordered = script.commands
    starts = [found.start for found in ordered]

    def within(node: Node) -> list[StaticCommand]:
        low, high = bisect.bisect_left(starts, node.start_byte), bisect.bisect_left(starts, node.end_byte)
        return ordered[low:high]

    def body_of(found: StaticCommand) -> Node | None:
        """The innermost function definition holding the command, or None for the script's body."""
        holding = [f for f in functions if f.start_byte <= found.start < f.end_byte]
        return min(holding, key=lambda f: f.end_byte - f.start_byte) if holding else None

    bodies = {found: body_of(found) for found in ordered}
    members: dict[int | None, list[StaticCommand]] = {}
    for found in ordered:
        body = bodies[found]
        members.setdefault(None if body is None else body.id, []).append(found)
    for listed in members.values():
        for current, after in zip(listed, [*listed[1:], None]):
            script.successors[current] = [after] if after is not None else []
    script.entry = members.get(None, [None])[0]
    for loop in loops:
        body = [found for found in within(loop) if bodies[found] is body_of_node(loop, functions)]
        if len(body) > 0:
            script.successors[body[-1]].append(body[0])
    by_name = {}
    for function in functions:
        name = function.child_by_field_name("name")
        own = members.get(function.id, [])
        if name is not None and own:
            by_name[syntax.text(name)] = own
    calls = [(found, by_name[found.words[0]]) for found in ordered if isinstance(found.words[0], bytes) and found.words[0] in by_name]
    returns = [(own[-1], list(script.successors[found])) for found, own in calls]  # where the shell goes on after each call
    for found, own in calls:
        script.successors[found].append(own[0])
    for last, after in returns:
        script.successors[last].extend(after)


def body_of_node(node: Node, functions: list[Node]) -> Node | None:
    """The innermost function definition holding node (itself excluded), or None."""
    holding = [f for f in functions if f.start_byte <= node.start_byte and node.end_byte <= f.end_byte and f.id != node.id]
    return min(holding, key=lambda f: f.end_byte - f.start_byte) if holding else None
