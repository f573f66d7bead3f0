"""Here-document bodies as bash ends them, which is not always where tree-sitter-bash does.

Bash ends a body at the first line that is exactly the delimiter: after
removing leading tabs under `<<-`, and nothing else. tree-sitter-bash also
ends it at `EOF ` (a trailing blank), `  EOF` under `<<-`, `EOF\r` in a CRLF
file, or a tab-indented `EOF` under plain `<<EOF`, and parses the rest of the
body as commands (issue 13 class 11). It also reads an empty body
(`cat <<EOF |` then `EOF`) as a command named EOF. A finding inside a body,
or a fix that edits one, would change the text a command receives: the
checker drops both.
"""

from __future__ import annotations

from tree_sitter import Node

from pipelint import syntax

# (start, end) byte offsets: from the body's first line to the end of its delimiter line.
Span = tuple[int, int]


def _delimiter(start: Node) -> tuple[bytes, bool]:
    """The delimiter word as bash compares lines with it, and whether it was quoted (no `\\`-newline joins)."""
    raw = syntax.text(start)
    quoted = any(ch in raw for ch in b"'\"\\")
    return raw.replace(b"'", b"").replace(b'"', b"").replace(b"\\", b""), quoted


def _strips_tabs(start: Node) -> bool:
    operator = start.prev_sibling
    return operator is not None and syntax.text(operator) == b"<<-"


def _line_end(source: bytes, offset: int) -> int:
    end = source.find(b"\n", offset)
    return len(source) if end < 0 else end + 1


def _body_end(source: bytes, begin: int, delimiter: bytes, strip_tabs: bool, quoted: bool) -> int:
    """The offset after the delimiter line that ends a body starting at begin (the end of file if none)."""
    offset = begin
    joined = False  # the line before ended with `\`: bash joins it to this one (unquoted delimiter)
    while offset < len(source):
        end = _line_end(source, offset)
        line = source[offset:end].removesuffix(b"\n")
        candidate = line.lstrip(b"\t") if strip_tabs else line
        if candidate == delimiter and not joined:
            return end
        trailing = len(line) - len(line.rstrip(b"\\"))
        joined = not quoted and trailing % 2 == 1
        offset = end
    return len(source)


def _heredoc_starts(node: Node) -> list[Node]:
    """Every `heredoc_start`, inside ERROR nodes too: a body is text even where the script does not parse."""
    if node.type == "heredoc_start":
        return [node]
    return [start for child in node.children for start in _heredoc_starts(child)]


def true_bodies(root: Node, source: bytes) -> list[Span]:
    """Every here-document body of the script, as bash reads it, in order (root: the parse before any salvage)."""
    starts = sorted(_heredoc_starts(root), key=lambda n: n.start_byte)
    bodies: list[Span] = []
    next_body = 0  # where the next body on the same line begins
    for start in starts:
        if bodies and bodies[-1][0] <= start.start_byte < bodies[-1][1]:
            continue  # inside a body bash is still reading: text, not an operator
        begin = max(_line_end(source, start.end_byte), next_body)
        delimiter, quoted = _delimiter(start)
        end = _body_end(source, begin, delimiter, _strips_tabs(start), quoted)
        bodies.append((begin, end))
        next_body = end
    return bodies


def inside(bodies: list[Span], start: int, end: int) -> bool:
    """Whether the range [start, end) overlaps one of the bodies; an insertion (start == end) counts where it lands."""
    for body_start, body_end in bodies:
        if start == end and body_start <= start < body_end:
            return True
        if start < body_end and body_start < end:
            return True
    return False
