"""A pipeline as the shell runs it, rebuilt from tree-sitter-bash's nesting.

tree-sitter-bash attaches a redirect written after a middle stage to a
`redirected_statement` wrapping every stage before it
(`a | b 2>/dev/null | c` parses as `(a | b) 2>/dev/null | c`), and puts the
stages after a here-document operator inside the `heredoc_redirect` node.
Rules must not care: they get a flat list of stages, each with the redirects
the shell applies to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from tree_sitter import Node

from pipelint import command, syntax
from pipelint.syntax import REDIRECT_TYPES

# How a stage's command node becomes a Command: `command.read`, or the
# checker's per-file cache of it.
CommandReader = Callable[[Node, Sequence[Node]], command.Command]


@dataclass
class Stage:
    """One command of a pipeline, with the redirects that apply to it."""

    command: Node
    redirects: list[Node] = field(default_factory=list)
    operator_after: Node | None = None  # the `|` or `|&` token that follows
    reader: CommandReader = field(default=command.read, repr=False, compare=False)

    @property
    def start(self) -> int:
        return self.command.start_byte

    @property
    def end(self) -> int:
        """End of the stage's text on its own line (here-document bodies excluded)."""
        end = self.command.end_byte
        for redirect in self.redirects:
            end = max(end, redirect_operator_end(redirect))
        return end

    @property
    def is_simple(self) -> bool:
        return self.command.type == "command"

    @cached_property
    def name(self) -> bytes | None:
        return syntax.basename(syntax.command_name(self.command))

    @property
    def arguments(self) -> list[Node]:
        return syntax.arguments(self.command) if self.is_simple else []

    @cached_property
    def all_redirects(self) -> list[Node]:
        """Redirects outside and inside the command node, in source order."""
        inner = syntax.own_redirects(self.command) if self.is_simple else []
        return sorted(inner + self.redirects, key=lambda node: node.start_byte)

    @cached_property
    def command_model(self) -> command.Command | None:
        """The simple command as `command.Command`; None for `while …`, `{ …; }` and other compounds."""
        return self.reader(self.command, self.all_redirects) if self.is_simple else None


@dataclass
class Pipeline:
    """Two or more stages joined by `|` or `|&`."""

    root: Node
    stages: list[Stage]
    # Findings that several rules share (PL001 and PL004 both need "is the
    # first stage a useless cat?"), computed once per pipeline.
    memo: dict = field(default_factory=dict)


def redirect_operator_end(redirect: Node) -> int:
    """Where a redirect ends on its line: a here-document stops after its delimiter word."""
    if redirect.type == "heredoc_redirect":
        for child in redirect.children:
            if child.type == "heredoc_start":
                return child.end_byte
    return redirect.end_byte


def is_pipeline_root(node: Node) -> bool:
    """True for the outermost node of a logical pipeline."""
    if not _contains_pipeline(node):
        return False
    parent = node.parent
    if parent is not None and _heredoc_continuation(parent) == node:
        return False
    return parent is None or not (_contains_pipeline(parent) and _is_stage_container(parent, node))


def _contains_pipeline(node: Node) -> bool:
    if node.type == "pipeline":
        return True
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        if body is not None and body.type == "pipeline":
            return True
        return any(_heredoc_continuation(child) is not None for child in node.children)
    return False


def _is_stage_container(parent: Node, child: Node) -> bool:
    """Whether child is a piece of parent's pipeline rather than something nested in it."""
    if parent.type == "pipeline":
        return True
    if parent.type == "redirected_statement":
        return child == parent.child_by_field_name("body")
    return False


def _heredoc_continuation(redirect: Node) -> Node | None:
    """The `| more stages` that tree-sitter files under a here-document operator."""
    if redirect.type != "heredoc_redirect":
        return None
    for child in redirect.children:
        if child.type == "pipeline":
            return child
    return None


def build(root: Node, reader: CommandReader = command.read) -> Pipeline | None:
    """Flatten the pipeline rooted at root, or None if it has fewer than two stages."""
    stages: list[Stage] = []
    _flatten(root, stages, reader)
    if len(stages) < 2 or any(stage.command.type in REDIRECT_TYPES for stage in stages):
        return None
    # `a || b | c 2>/dev/null` wraps the list: the redirect is c's (#345).
    stages[-1].redirects += syntax.applied_redirects(root)
    return Pipeline(root=root, stages=stages)


def _flatten(node: Node, stages: list[Stage], reader: CommandReader) -> None:
    if node.type == "pipeline":
        for child in node.children:
            if child.type in ("|", "|&"):
                if stages:
                    stages[-1].operator_after = child
            elif child.is_named and child.type != "comment":
                _flatten(child, stages, reader)
        return
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        redirects = [child for child in node.children if child.type in REDIRECT_TYPES]
        if body is not None:
            _flatten(body, stages, reader)
        continuations = []
        for redirect in redirects:
            if stages:
                stages[-1].redirects.append(redirect)
            continuation = _heredoc_continuation(redirect)
            if continuation is not None:
                continuations.append(continuation)
        for continuation in continuations:
            _flatten(continuation, stages, reader)
        return
    stages.append(Stage(command=node, reader=reader))
