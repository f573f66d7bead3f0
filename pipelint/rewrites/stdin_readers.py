"""Who reads a stage's standard input: one command, or several that split it between them.

`( head -n 1; wc -l )` and `{ read -r first; cat; }` share what arrives: each
reads what is there when it asks. A `cat` moved into a redirect (PL001) or a
pass-through stage removed (PL003, PL101) changes where the pieces fall.
"""

from __future__ import annotations

from tree_sitter import Node

from pipelint.programs.table import Trait, has
from pipelint.shell import syntax

def several_readers(command: Node) -> bool:
    """A compound consumer in which more than one command may read the input (`(head -n 1; wc -l)`)."""
    return command.type != "command" and len(readers(command)) > 1


def readers(command: Node) -> list[Node]:
    """The simple commands in command (itself, or those inside a compound) that may read its stdin."""
    if command.type == "command":
        return [command]
    return [
        node
        for node in syntax.walk(command)
        if node.type == "command" and not has(syntax.command_name(node), Trait.NEVER_READS_STDIN) and not _own_stdin(node)
    ]


def _own_stdin(command: Node) -> bool:
    """The command reads its stdin from its own `<`, here-document or here-string."""
    parent = command.parent
    return parent is not None and parent.type == "redirected_statement" and any(
        syntax.redirects_stdin(r) for r in parent.children_by_field_name("redirect")
    )
