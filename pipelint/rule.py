"""The base every rule derives from, and the context it reads."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from tree_sitter import Node

from pipelint.programs import command
from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.shell.dialect import Dialect
from pipelint.facts.script import ScriptFacts, VariableFacts
from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.shell.pipeline import Pipeline
from pipelint.shell.positions import LineIndex
from pipelint.shell.properties import cached_property
from pipelint.embedded.regions import Region

# The hooks a rule may override; the checker calls only those a rule overrides.
HOOKS = ("check_pipeline", "check_command", "check_node")


class CommandReader:
    """Each simple command's model, read once per file whoever asks first.

    An object of its own rather than a method of Context: the script facts and
    each pipeline stage keep the reader, and a bound method would close a cycle
    (Context → facts → method → Context) that holds all of a file's models until
    a cyclic collection, which is paused while a file is linted (`linter.process`).
    """

    __slots__ = ("_models", "wrapped")

    def __init__(self) -> None:
        self._models: dict[int, Command] = {}
        # Ids of the commands that are a redirected statement's body or a pipeline stage, when
        # a query found them all (the checker's): the others need no `Node.parent` (syntax.arguments).
        self.wrapped: frozenset[int] | None = None

    def __call__(self, node: Node, redirects: Sequence[Node] | None = None) -> Command:
        model = self._models.get(node.id)
        if model is None:
            wrapped = None if self.wrapped is None else node.id in self.wrapped
            model = self._models[node.id] = command.read(node, redirects, wrapped)
        return model


@dataclass
class Context:
    """What a rule may know about the file it checks."""

    source: bytes
    root: Node
    dialect: Dialect
    path: str | None = None
    slow_mounts: tuple[str, ...] = ()  # path prefixes the settings call slow (PL102)
    mountinfo: str | None = None  # a mountinfo-format file to read instead of /proc/self/mountinfo
    # Codes of the rules checking this file, for rules that defer to another.
    enabled_codes: frozenset[str] = frozenset()
    # When the script is the inner text of another (`sh -c '…'`, a Dockerfile RUN):
    # that region, with what the text alone cannot say (errexit from the start, output over ssh).
    region: Region | None = None
    # The checker's captures (candidates.Found.captured): what script facts would otherwise query again.
    captured: dict[str, list[Node]] | None = None
    # Each captured command's program basename, by node id (candidates.Found.names).
    command_names: dict[int, bytes | None] | None = None
    # How the script facts find the variable facts, when the caller knows better than the query (`ScriptFacts`).
    variables: Callable[[Node], VariableFacts] | None = None
    # The model of a simple command node, read once per file whoever asks first: `context.command(node)`.
    command: CommandReader = field(default_factory=CommandReader, init=False, repr=False, compare=False)

    @cached_property
    def functions(self) -> frozenset[bytes]:
        """Names of the functions the script defines (they run in the current shell)."""
        names = None if self.captured is None else self.captured.get("function_name", [])
        return syntax.defined_functions(self.root, names)

    def redefines(self, name: bytes | None) -> bool:
        """Whether the script may run something else under this command name (issue 13's class 4).

        A function or alias the script defines (before or after the use), or any
        sourced file, which could define one: no safe fix may rely on the name.
        """
        return name is not None and self.facts.redefines(name, self.functions)

    @cached_property
    def facts(self) -> ScriptFacts:
        """Script-wide facts (literal variables, mounts made, statement sequences), each computed on first use."""
        region = self.region
        names = self.command_names
        if region is None:
            return ScriptFacts(self.root, self.command, statements=self.captured, names=names, variables=self.variables)
        return ScriptFacts(
            self.root, self.command, region.errexit, region.pipefail, region.status_handed_on, self.captured, names,
            self.variables,
        )  # fmt: skip

    def program_name(self, node: Node) -> bytes | None:
        """`syntax.basename(syntax.command_name(node))`, read once per file for the captured commands."""
        names = self.command_names
        if names is not None and node.id in names:
            return names[node.id]
        return syntax.basename(syntax.command_name(node))

    @cached_property
    def lines(self) -> LineIndex:
        """Line numbers of byte offsets, for messages that point at another line."""
        return LineIndex(self.source)

    def defines(self, name: bytes | None) -> bool:
        """The script itself defines a function or alias by this name: the name does not run the program."""
        return name is not None and (name in self.functions or name in self.facts.aliases)

    def carriage_return_after(self, offset: int) -> bool:
        """A `\r` follows offset on its line (after blanks at most): in a CRLF script bash reads it as part
        of the last word (`uniq\r` is no uniq), or as a word of its own, where tree-sitter sees a blank."""
        rest = self.source[offset : offset + 64].lstrip(b" \t")
        return rest.startswith(b"\r")

    @cached_property
    def _comment_starts(self) -> list[int]:
        comments = None if self.captured is None else self.captured.get("comment_anywhere", [])
        return syntax.comment_starts(self.root, comments)

    def has_comment(self, start: int, end: int) -> bool:
        """A comment begins between the two byte offsets (an edit there would delete it)."""
        starts = self._comment_starts
        index = bisect.bisect_left(starts, start)
        return index < len(starts) and starts[index] < end


class Rule:
    """A check with a stable code and name.

    A subclass sets the class attributes and overrides the hooks it needs
    (docs/architecture.md, "Adding a rule"); the checker calls only those:
    - `check_pipeline(pipeline, context)`: every pipeline of two or more
      stages, flattened (`pipeline.Pipeline`);
    - `check_command(command, context)`: every simple command whose program
      (`Command.program`, seen through wrappers) is in `programs`, as the
      model `command.Command`; every simple command when `programs` is None;
    - `check_node(node, context)`: every tree-sitter node whose type is in
      `node_types`.
    What depends on the whole script is asked of `context.facts`.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    fix_availability: ClassVar[FixAvailability] = FixAvailability.NEVER
    node_types: ClassVar[frozenset[str]] = frozenset()  # for check_node
    # The programs check_command can find something in (`{b"dd"}`): the checker
    # reads no other command for the rule (candidates.py). None: every command.
    programs: ClassVar[frozenset[bytes] | None] = None
    enabled_by_default: ClassVar[bool] = True
    # Out of the default set except inside loop bodies, where a per-call cost adds
    # up (PL503); selected by name or prefix, it reports everywhere.
    default_in_loops: ClassVar[bool] = False
    # ShellCheck codes whose `# shellcheck disable=` comments also silence this rule.
    shellcheck_codes: ClassVar[tuple[str, ...]] = ()

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterable[Finding]:
        return ()

    def check_command(self, command: Command, context: Context) -> Iterable[Finding]:
        return ()

    def check_node(self, node: Node, context: Context) -> Iterable[Finding]:
        return ()

    @classmethod
    def uses(cls, hook: str) -> bool:
        """Whether the rule overrides hook (one of HOOKS)."""
        return getattr(cls, hook) is not getattr(Rule, hook)

    # Helpers for building findings, so every rule fills them in the same way.
    @classmethod
    def finding(cls, message: str, start: int, end: int, fix: Fix | None = None, help: str | None = None) -> Finding:
        return Finding(cls.code, cls.name, cls.severity, message, start, end, fix, help)

    @staticmethod
    def fix(title: str, applicability: Applicability, *edits: Edit) -> Fix:
        return Fix(title, applicability, tuple(sorted(edits)))
