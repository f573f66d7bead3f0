"""A tree-sitter tree as plain data, to compare an incremental parse with a fresh one."""

from __future__ import annotations


def shape(tree) -> list[tuple]:
    """Every node of the tree, with its type and where it starts and ends (bytes and points)."""
    found, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        found.append((node.type, node.start_byte, node.end_byte, tuple(node.start_point), tuple(node.end_point)))
        stack.extend(reversed(node.children))
    return found
