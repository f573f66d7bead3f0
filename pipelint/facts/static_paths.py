"""What can be known of a path operand before the script runs.

`/mnt/nfs/logs/$job.log` is known to lie in /mnt/nfs/logs; `"$LOG"` is known
when the script sets LOG once to a literal (`facts.ScriptFacts.literal_variables`);
`$dir/x`, `~/x` and `*.log` are not known at all.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.shell import syntax

_GLOB = frozenset(b"*?[{")

# Variables the script sets once to a literal: name → (offset where it is set, value).
LiteralVariables = Mapping[bytes, tuple[int, bytes]]


@dataclass(frozen=True)
class StaticPath:
    value: bytes  # the whole path, or only the directory it starts in
    complete: bool


def static_path(node: Node, variables: LiteralVariables) -> StaticPath | None:
    """What can be known of a path operand before the script runs, or None.

    `/mnt/nfs/logs/$job.log` is known to lie in /mnt/nfs/logs; `$dir/x`, `~/x`
    and `*.log` are not known at all.
    """
    prefix, complete = _static_prefix(node, variables)
    if not prefix or prefix.startswith(b"~"):
        return None  # nothing known, or a home directory only known at run time
    if complete:
        return StaticPath(posixpath.normpath(prefix), True)
    directory, slash, _ = prefix.rpartition(b"/")
    if not slash:
        return None
    return StaticPath(posixpath.normpath(directory) if directory else b"/", False)


def _static_prefix(node: Node, variables: LiteralVariables) -> tuple[bytes, bool]:
    """(literal text up to the first thing only known at run time, whether that is all of it)."""
    parts = node.named_children if node.type == "concatenation" else [node]
    known = b""
    for part in parts:
        value, complete = _static_part(part, variables)
        known += value
        if not complete:
            return known, False
    return known, True


def _static_part(node: Node, variables: LiteralVariables) -> tuple[bytes, bool]:
    """(the part's known text, whether that is all of it)."""
    kind = node.type
    if kind in ("word", "number") and not node.named_child_count:
        return _unescape_word(syntax.text(node))
    if kind == "raw_string":
        return syntax.text(node)[1:-1], True
    if kind == "string_content":
        return _unescape_quoted(syntax.text(node)), True
    if kind == "string":
        known = b""
        for child in node.named_children:
            value, complete = _static_part(child, variables)
            known += value
            if not complete:
                return known, False
        return known, True
    if kind in ("simple_expansion", "expansion"):
        name = _plain_variable(node)
        if name is not None and name in variables and variables[name][0] < node.start_byte:
            return variables[name][1], True
    return b"", False


def _unescape_word(text: bytes) -> tuple[bytes, bool]:
    out = bytearray()
    index = 0
    while index < len(text):
        char = text[index]
        if char == 0x5C:  # backslash
            if index + 1 < len(text):
                out.append(text[index + 1])
            index += 2
            continue
        if char in _GLOB:
            return bytes(out), False
        out.append(char)
        index += 1
    return bytes(out), True


def _unescape_quoted(text: bytes) -> bytes:
    for escaped in (b"$", b"`", b'"', b"\\"):
        text = text.replace(b"\\" + escaped, escaped)
    return text


def _plain_variable(node: Node) -> bytes | None:
    """`$name` or `${name}`, nothing fancier."""
    names = [c for c in node.named_children if c.type == "variable_name"]
    if len(names) != 1 or len(node.named_children) != 1:
        return None
    name = syntax.text(names[0])
    return name if syntax.text(node) in (b"$" + name, b"${" + name + b"}") else None
