"""The rule API: the base every rule derives from, and the context it reads.

A rule reads facts and builds findings; it never sees the engine's caches.
What it may read is `Context` (the file, its parse, its dialect, the
settings a rule needs, `context.facts` and `context.command(node)`), and
what it returns is `finding.Finding`s built with `Rule.finding` and
`Rule.fix`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from tree_sitter import Node

from pipelint.embedded.regions import Region
from pipelint.facts.outside import Outside, OutsideReads
from pipelint.facts.script import Meaning, ScriptFacts
from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.programs import command
from pipelint.programs.command import Command
from pipelint.shell import syntax
from pipelint.shell.dialect import Dialect
from pipelint.shell.directives import UnusedCodes
from pipelint.programs.pipeline import Pipeline
from pipelint.shell.positions import LineIndex
from pipelint.shell.properties import cached_property

# The hooks a rule may override; the checker calls only those a rule overrides.
HOOKS = ("check_pipeline", "check_command", "check_node", "check_directive")


class CommandModels:
    """Each simple command's model (`programs.command.Command`), read once per file whoever asks first.

    An object of its own rather than a method of Context: the script facts and
    each pipeline stage keep the reader, and a bound method would close a cycle
    (Context → facts → method → Context) that holds all of a file's models until
    a cyclic collection, which is paused while a file is linted (`linter.process`).
    """

    __slots__ = ("_models", "_names", "_wrapped")

    def __init__(self, names: dict[int, bytes | None] | None = None, wrapped: frozenset[int] | None = None) -> None:
        self._models: dict[int, Command] = {}
        # Each command's program basename by node id, when a query read them all (the checker's).
        self._names = names if names is not None else {}
        # Ids of the commands that are a redirected statement's body or a pipeline stage, when
        # a query found them all: the others need no `Node.parent` (syntax.arguments).
        self._wrapped = wrapped

    def __call__(self, node: Node, redirects: Sequence[Node] | None = None) -> Command:
        model = self._models.get(node.id)
        if model is None:
            wrapped = None if self._wrapped is None else node.id in self._wrapped
            # A name the checker resolved (`$command` set once to `cat`), or None: the literal name.
            model = self._models[node.id] = command.read(node, redirects, wrapped, self._names.get(node.id))
        return model

    def name_program(self, node: Node, name: bytes) -> None:
        """Let the command's computed name run the program name (`ScriptFacts.program_named_by`),
        before any model of it is read."""
        self._names[node.id] = name

    def program_name(self, node: Node) -> bytes | None:
        """The basename of a command's literal name (`syntax.command_name`), or of the program a variable
        name was found to run (`name_program`): no model is read."""
        names = self._names
        if node.id in names:
            return names[node.id]
        return syntax.basename(syntax.command_name(node))


@dataclass
class Context:
    """What a rule may know about the file it checks."""

    source: bytes
    root: Node
    dialect: Dialect
    facts: ScriptFacts  # what depends on the whole script, each computed on first use
    command: CommandModels  # `context.command(node)`: the model of a simple command node
    path: str | None = None
    slow_mounts: tuple[str, ...] = ()  # path prefixes the settings call slow (PL102)
    # What the file's lint reads from outside it (the mount table, the scripts beside it): only through here.
    outside: OutsideReads = field(default_factory=OutsideReads)
    # Codes of the rules checking this file, for rules that defer to another.
    enabled_codes: frozenset[str] = frozenset()
    # When the script is the inner text of another (`sh -c '…'`, a Dockerfile RUN):
    # that region, with what the text alone cannot say (errexit from the start, output over ssh).
    region: Region | None = None

    def defines(self, name: bytes | None) -> bool:
        """The script defines a function or alias by this name: the name does not run the program."""
        return name is not None and self.facts.meaning(name) is Meaning.DEFINED

    def redefines(self, name: bytes | None) -> bool:
        """The script may run something else under this command name: a function or alias it defines (before
        or after the use), or code it runs without showing it (`. FILE`, `eval`). No safe fix may rely on it."""
        return name is not None and self.facts.meaning(name) is not Meaning.PROGRAM

    def program_name(self, node: Node) -> bytes | None:
        """`syntax.basename(syntax.command_name(node))`, read once per file for the commands the checker found."""
        return self.command.program_name(node)

    @cached_property
    def lines(self) -> LineIndex:
        """Line numbers of byte offsets, for messages that point at another line."""
        return LineIndex(self.source)

    def carriage_return_after(self, offset: int) -> bool:
        """A `\r` follows offset on its line (after blanks at most): in a CRLF script bash reads it as part
        of the last word (`uniq\r` is no uniq), or as a word of its own, where tree-sitter sees a blank."""
        rest = self.source[offset : offset + 64].lstrip(b" \t")
        return rest.startswith(b"\r")

    def has_comment(self, start: int, end: int) -> bool:
        """A comment begins between the two byte offsets (an edit there would delete it)."""
        return self.facts.has_comment(start, end)


class Rule:
    """A check with a stable code and name.

    A subclass sets the class attributes and overrides the hooks it needs
    (docs/architecture.md, "Adding a rule"); the checker calls only those:
    - `check_pipeline(pipeline, context)`: every pipeline of two or more
      stages, flattened (`shell.pipeline.Pipeline`);
    - `check_command(command, context)`: every simple command whose program
      (`Command.program`, seen through wrappers) is in `programs`, as the
      model `programs.command.Command`; every simple command when `programs` is None;
    - `check_node(node, context)`: every tree-sitter node whose type is in
      `node_types`;
    - `check_directive(unused, source)`: once the script is linted, every
      `# pipelint: disable=` comment with codes that disabled nothing
      (`shell.directives.UnusedCodes`; the engine decides which, as only it
      saw every finding).
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
    # Its findings read statements other than the one they are in (a step after it, a line number in
    # the message): the language server's provisional lint runs it on the whole script.
    reads_other_statements: ClassVar[bool] = False
    # What it may read from outside the file (`facts/outside.py`), through `context.outside` only: the
    # results cache fingerprints these before the lint and keeps the fingerprint of each one read.
    reads_outside: ClassVar[frozenset[Outside]] = frozenset()

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterable[Finding]:
        return ()

    def check_command(self, command: Command, context: Context) -> Iterable[Finding]:
        return ()

    def check_node(self, node: Node, context: Context) -> Iterable[Finding]:
        return ()

    def check_directive(self, unused: UnusedCodes, source: bytes) -> Iterable[Finding]:
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
