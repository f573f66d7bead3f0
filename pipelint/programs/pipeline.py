"""A pipeline as the shell runs it, rebuilt from tree-sitter-bash's nesting.

tree-sitter-bash attaches a redirect written after a middle stage to a
`redirected_statement` wrapping every stage before it
(`a | b 2>/dev/null | c` parses as `(a | b) 2>/dev/null | c`), and puts the
stages after a here-document operator inside the `heredoc_redirect` node.
Rules must not care: they get a flat list of stages, each with the redirects
the shell applies to it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from tree_sitter import Node

from pipelint.programs import command
from pipelint.shell import syntax
from pipelint.shell.properties import cached_property
from pipelint.shell.syntax import REDIRECT_TYPES

# How a stage's command node becomes a Command: `command.read`, or the
# checker's per-file cache of it (`rule.CommandModels`).
ReadCommand = Callable[[Node, Sequence[Node]], command.Command]
Shared = TypeVar("Shared")


@dataclass
class Stage:
    """One command of a pipeline, with the redirects that apply to it."""

    command: Node
    redirects: list[Node] = field(default_factory=list)
    operator_after: Node | None = None  # the `|` or `|&` token that follows
    reader: ReadCommand = field(default=command.read, repr=False, compare=False)

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
        """The basename of the program the stage names: its literal name, or what the reader found a
        variable name runs (`rule.CommandModels.program_name`)."""
        program_name = getattr(self.reader, "program_name", None)
        if program_name is not None:
            return program_name(self.command)
        return syntax.basename(syntax.command_name(self.command))

    @cached_property
    def arguments(self) -> list[Node]:
        return syntax.arguments(self.command, redirects=self.all_redirects) if self.is_simple else []

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
    _shared: dict[Callable[..., object], object] = field(default_factory=dict, repr=False, compare=False)

    def shared(self, compute: Callable[..., Shared], *arguments: object) -> Shared:
        """compute(self, *arguments), once per pipeline whichever rule asks first.

        What several rules ask of one pipeline (PL001 and PL004 both ask "is the
        first stage a useless cat?"). The function is the key: the arguments are
        the file's context, the same for every rule of one lint.
        """
        if compute not in self._shared:
            self._shared[compute] = compute(self, *arguments)
        return self._shared[compute]  # type: ignore[return-value]

    def release(self) -> None:
        """Forget what was shared: it refers back to the pipeline, and would keep its models alive until a
        cyclic collection (paused while a file is linted)."""
        self._shared.clear()


def redirect_operator_end(redirect: Node) -> int:
    """Where a redirect ends on its line: a here-document stops after its delimiter word."""
    if redirect.type == "heredoc_redirect":
        for child in redirect.children:
            if child.type == "heredoc_start":
                return child.end_byte
    return redirect.end_byte


# What to capture to find pipelines (`roots` takes the captures): every
# `pipeline`, every redirected statement holding one (`(a | b) 2>e | c`,
# `cat <<EOF | x`), and the stages tree-sitter files under a here-document operator.
# What `Pieces` reads: pipelines and redirected statements, captured as plain nodes (their children
# are read in Python: candidates.py says why), and the stages tree-sitter files under a
# here-document operator (`cat <<EOF | grep x`), which only the pipelines' roots need.
PIECES = "(pipeline) @pipeline\n(redirected_statement) @redirected"
CONTINUATIONS = "(heredoc_redirect (pipeline) @pipeline_continuation)"
QUERY = PIECES + "\n" + CONTINUATIONS


def roots(captured: dict[str, list[Node]]) -> list[Node]:
    """The outermost node of each logical pipeline, from the captures of QUERY (`Pieces.roots`)."""
    pieces = Pieces(captured.get("pipeline", []), captured.get("redirected", []))
    return pieces.roots(captured.get("pipeline_continuation", []))


class Pieces:
    """A script's pipelines and redirected statements (captured by `candidates`), read once for what
    several questions need: the commands that are a stage or a redirected body (`wrapped`, which
    `syntax.arguments` would otherwise ask `Node.parent` about), and the outermost node of each
    logical pipeline (`roots`).

    Decided top-down from the captures: asking a node for its parent costs
    tree-sitter the node's depth, which made pipelines nested in `$(…)`
    quadratic (issue 14).
    """

    def __init__(self, pipelines: list[Node], redirected: list[Node]) -> None:
        self.pipelines = pipelines
        self.wrapped: set[int] = set()  # ids of the commands that are a stage or a redirected statement's body
        self.inner: set[int] = set()  # ids of the nodes that are a piece of an enclosing pipeline
        self.piped: list[Node] = []  # the redirected statements whose body is a pipeline
        for node in pipelines:
            for child in node.named_children:
                self.inner.add(child.id)
                if child.type == "command":
                    self.wrapped.add(child.id)
        for node in redirected:
            body = node.child_by_field_name("body")
            if body is None:
                continue
            kind = body.type
            if kind == "command":
                self.wrapped.add(body.id)
            elif kind == "pipeline":
                self.piped.append(node)
                self.inner.add(body.id)

    def roots(self, continuations: list[Node]) -> list[Node]:
        """The outermost node of each logical pipeline, in document order: a pipeline, or a redirected
        statement around one (`a | b > f`) or around a here-document that stages follow."""
        nodes = {node.id: node for node in self.pipelines}
        nodes.update((node.id, node) for node in self.piped)
        inner = self.inner | {node.id for node in continuations}
        for continuation in continuations:  # few: a `<<EOF |` in a script, so the parents are cheap
            redirect = continuation.parent
            statement = None if redirect is None else redirect.parent
            if statement is not None and statement.type == "redirected_statement":
                nodes.setdefault(statement.id, statement)
        return sorted((node for key, node in nodes.items() if key not in inner), key=_START)


_START = operator.attrgetter("start_byte")


def _heredoc_continuation(redirect: Node) -> Node | None:
    """The `| more stages` that tree-sitter files under a here-document operator."""
    if redirect.type != "heredoc_redirect":
        return None
    for child in redirect.children:
        if child.type == "pipeline":
            return child
    return None


def build(root: Node, reader: ReadCommand = command.read) -> Pipeline | None:
    """Flatten the pipeline rooted at root, or None if it has fewer than two stages."""
    stages: list[Stage] = []
    _flatten(root, stages, reader)
    if len(stages) < 2 or any(stage.command.type in REDIRECT_TYPES for stage in stages):
        return None
    # `a || b | c 2>/dev/null` wraps the list: the redirect is c's (#345).
    stages[-1].redirects += syntax.applied_redirects(root)
    return Pipeline(root=root, stages=stages)


def _flatten(root: Node, stages: list[Stage], reader: ReadCommand) -> None:
    """Stages in the shell's order; iterative, since `a 2>e | b 2>e | …` nests one level per stage."""
    pending: list[Node | _Redirects] = [root]
    while pending:
        item = pending.pop()
        if isinstance(item, _Redirects):
            if stages:
                stages[-1].redirects.extend(item.nodes)
            continue
        node = item
        if node.type == "pipeline":
            parts = [child for child in node.children if child.type in ("|", "|&") or _is_stage_node(child)]
            pending.extend(reversed(parts))
        elif node.type in ("|", "|&"):
            if stages:
                stages[-1].operator_after = node
        elif node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            redirects = [child for child in node.children if child.type in REDIRECT_TYPES]
            continuations = [c for c in map(_heredoc_continuation, redirects) if c is not None]
            # The body's stages, then the redirects (they belong to its last stage), then what follows a here-document.
            pending.extend(reversed([*([body] if body is not None else []), _Redirects(redirects), *continuations]))
        else:
            stages.append(Stage(command=node, reader=reader))


def _is_stage_node(child: Node) -> bool:
    return child.is_named and child.type != "comment"


@dataclass(frozen=True)
class _Redirects:
    """A redirected statement's redirects, to append to the last stage flattened so far."""

    nodes: list[Node]
