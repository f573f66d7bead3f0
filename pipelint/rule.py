"""The base every rule derives from, and the context it reads."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar

from tree_sitter import Node

from pipelint import command, syntax
from pipelint.command import Command
from pipelint.dialect import Dialect
from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.pipeline import Pipeline

if TYPE_CHECKING:  # config imports the registry, which imports every rule
    from pipelint.config import Settings


@dataclass
class Context:
    """What a rule may know about the file it checks."""

    source: bytes
    root: Node
    dialect: Dialect
    path: str | None = None
    settings: Settings | None = None
    mountinfo: str | None = None  # a mountinfo-format file to read instead of /proc/self/mountinfo
    # Codes of the rules checking this file, for rules that defer to another.
    enabled_codes: frozenset[str] = frozenset()
    # Per-file facts a rule computes once and reuses for every node, by rule code.
    memo: dict = field(default_factory=dict)

    _commands: dict[int, Command] = field(default_factory=dict, init=False, repr=False)

    @cached_property
    def functions(self) -> frozenset[bytes]:
        return syntax.defined_functions(self.root)

    def command(self, node: Node, redirects: Sequence[Node] | None = None) -> Command:
        """The model of a simple command node, read once per file whoever asks first."""
        model = self._commands.get(node.id)
        if model is None:
            model = self._commands[node.id] = command.read(node, redirects)
        return model

    @cached_property
    def _comment_starts(self) -> list[int]:
        return syntax.comment_starts(self.root)

    def has_comment(self, start: int, end: int) -> bool:
        """A comment begins between the two byte offsets (an edit there would delete it)."""
        starts = self._comment_starts
        index = bisect.bisect_left(starts, start)
        return index < len(starts) and starts[index] < end


class Rule:
    """A check with a stable code and name.

    Subclasses set the class attributes and implement the hooks for the node
    kinds they declare in `subjects`: "pipeline" (a flattened Pipeline),
    "command" (every simple command node), "program" (the root, once).
    Rules that need other nodes list their tree-sitter types in `node_types`
    and get them in `check_node`, from the checker's one walk; `finish` runs
    after the walk, for rules that gather script-wide facts first.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    fix_availability: ClassVar[FixAvailability] = FixAvailability.NEVER
    subjects: ClassVar[tuple[str, ...]] = ("pipeline",)
    node_types: ClassVar[frozenset[str]] = frozenset()
    enabled_by_default: ClassVar[bool] = True
    # ShellCheck codes whose `# shellcheck disable=` comments also silence this rule.
    shellcheck_codes: ClassVar[tuple[str, ...]] = ()

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterable[Finding]:
        return ()

    def check_command(self, command: Node, context: Context) -> Iterable[Finding]:
        return ()

    def check_program(self, root: Node, context: Context) -> Iterable[Finding]:
        return ()

    def check_node(self, node: Node, context: Context) -> Iterable[Finding]:
        return ()

    def finish(self, context: Context) -> Iterable[Finding]:
        return ()

    # Helpers for building findings, so every rule fills them in the same way.
    @classmethod
    def finding(cls, message: str, start: int, end: int, fix: Fix | None = None) -> Finding:
        return Finding(cls.code, cls.name, cls.severity, message, start, end, fix)

    @staticmethod
    def fix(title: str, applicability: Applicability, *edits: Edit) -> Fix:
        return Fix(title, applicability, tuple(sorted(edits)))
