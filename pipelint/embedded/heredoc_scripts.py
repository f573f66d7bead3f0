"""A here-document fed to a shell, as the script that shell reads: `bash <<EOF`, `ssh host <<'EOF'`.

`heredoc_region(redirect, …)` builds the `regions.Region` of a body:
- quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\\EOF`): the body is the script,
  byte for byte; an edit may write anything but a line that ends the body;
- unquoted delimiter (`<<EOF`): the OUTER shell expands `$x`, `${…}`, `$(…)`,
  `$((…))` and `` `…` `` in the body first and removes the backslash of
  `\\$ \\` \\\\` and every `\\newline`; quotes mean nothing to it. Expansions
  become opaque words that map nowhere (`RegionBuilder.expansion`), the
  escaped character a piece no edit may touch, and an edit may add no
  `$ \\` \\\\` (`Quoting.HEREDOC`);
- `<<-` strips the TABs that begin each line (not those after a
  `\\newline`): the pieces skip them, one piece per line, and an edit may
  not add a line break (a new line's TABs would be stripped too).

tree-sitter-bash's own reading of a body is partial (it leaves `$1`, `$?`
and backquotes as plain text, and some stretches in no child at all), so
the body is scanned here; the expansions tree-sitter did find are trusted
for where they end (`$(case … esac)` defeats counting parentheses).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.shell.dialect import Dialect
from pipelint.shell.heredocs import skip_backquoted, skip_bracketed
from pipelint.embedded.regions import Quoting, Region, RegionBuilder

_NAME_START = re.compile(rb"[A-Za-z_]")
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL_PARAMETERS = frozenset(b"0123456789@*#?$!-")
_FOUND_EXPANSIONS = frozenset({"command_substitution", "expansion", "arithmetic_expansion", "simple_expansion"})


def _child(redirect: Node, kind: str) -> Node | None:
    return next((child for child in redirect.children if child.type == kind), None)


def _body_span(redirect: Node, body: Node, strip_tabs: bool) -> tuple[int, int]:
    """Where the body's lines start and end in the host (tree-sitter's body node skips the first TABs of `<<-`)."""
    written = syntax.text(redirect)
    start = body.start_byte
    while strip_tabs and start > redirect.start_byte and written[start - 1 - redirect.start_byte] == 0x09:
        start -= 1
    end_node = _child(redirect, "heredoc_end")
    end = body.end_byte if end_node is None else end_node.start_byte
    while strip_tabs and end > start and written[end - 1 - redirect.start_byte] == 0x09:
        end -= 1
    return start, end


def delimiter(redirect: Node) -> tuple[bytes, bool]:
    """The word that ends the body, and whether it was quoted (`'EOF'`, `"EOF"`, `\\EOF`, `E"O"F`)."""
    start = _child(redirect, "heredoc_start")
    written = b"" if start is None else syntax.text(start)
    quoted = any(ch in written for ch in b"'\"\\")
    return written.replace(b"'", b"").replace(b'"', b"").replace(b"\\", b""), quoted


def heredoc_region(redirect: Node, dialect: Dialect, origin: str, **facts: object) -> Region | None:
    """The script a here-document holds, mapped to the host; None for an empty body."""
    body = _child(redirect, "heredoc_body")
    if body is None:
        return None
    strip_tabs = any(child.type == "<<-" for child in redirect.children)
    start, end = _body_span(redirect, body, strip_tabs)
    offset = start - redirect.start_byte
    data = syntax.text(redirect)[offset : offset + end - start]
    word, quoted = delimiter(redirect)
    builder = RegionBuilder()
    if quoted:
        _add_verbatim(builder, data, start, strip_tabs)
    else:
        found = {
            child.start_byte - start: child.end_byte - start
            for child in body.children
            if child.type in _FOUND_EXPANSIONS
        }
        _add_expanded(builder, data, start, strip_tabs, found)
    return builder.region(dialect, origin, anchor=start, terminators=(word,), **facts)


def _add_verbatim(builder: RegionBuilder, data: bytes, outer: int, strip_tabs: bool) -> None:
    if not strip_tabs:
        builder.copy(data, outer, Quoting.RAW)
        return
    position = 0
    for line in data.splitlines(keepends=True):
        content = line.rstrip(b"\n")
        indent = len(content) - len(content.lstrip(b"\t"))
        builder.copy(content[indent:], outer + position + indent, Quoting.LINE)
        builder.invent(line[len(content) :])
        position += len(line)


class _Scan:
    """The unquoted body read left to right: runs copied as they are, escapes and expansions between them."""

    def __init__(self, builder: RegionBuilder, data: bytes, outer: int, strip_tabs: bool) -> None:
        self.builder, self.data, self.outer = builder, data, outer
        self.quotings = (Quoting.HEREDOC, Quoting.LINE) if strip_tabs else (Quoting.HEREDOC,)
        self.run = 0  # where the text not yet copied begins

    def flush(self, upto: int) -> None:
        if upto > self.run:
            self.builder.copy(self.data[self.run : upto], self.outer + self.run, self.quotings)
        self.run = upto

    def line_break(self, at: int) -> None:
        """A line break the shell keeps; with `<<-` it is a join between per-line pieces."""
        self.flush(at)
        self.builder.invent(b"\n")
        self.run = at + 1


def _add_expanded(builder: RegionBuilder, data: bytes, outer: int, strip_tabs: bool, found: dict[int, int]) -> None:
    scan = _Scan(builder, data, outer, strip_tabs)
    index = 0
    line_start = True
    while index < len(data):
        if line_start and strip_tabs:
            scan.flush(index)
            while index < len(data) and data[index] == 0x09:
                index += 1
            scan.run = index
        line_start = False
        byte = data[index]
        if byte == 0x5C and index + 1 < len(data):  # backslash
            index = _escape(scan, index)
        elif byte in (0x24, 0x60):  # $ and `
            end = found.get(index) or expansion_end(data, index)
            if end is None:
                index += 1
                continue
            scan.flush(index)
            builder.expansion(data[index:end])
            index = scan.run = end
        elif byte == 0x0A:
            if strip_tabs:
                scan.line_break(index)
            index += 1
            line_start = True
        else:
            index += 1
    scan.flush(len(data))


def _escape(scan: _Scan, index: int) -> int:
    """A backslash in the body: `\\$ \\` \\\\` keep the character, `\\newline` vanishes, others stay as written."""
    following = scan.data[index + 1]
    if following == 0x0A:
        scan.flush(index)
        scan.run = index + 2  # the next line's TABs are not stripped: it continues this one
        return index + 2
    if following in b"$`\\":
        scan.flush(index)
        scan.builder.copy(scan.data[index + 1 : index + 2], scan.outer + index + 1, Quoting.ESCAPED)
        scan.run = index + 2
    return index + 2


def expansion_end(data: bytes, index: int) -> int | None:
    """Where the expansion starting at data[index] (`$…` or `` `…` ``) ends; None for a plain `$`."""
    if data[index] == 0x60:
        return skip_backquoted(data, index + 1)
    following = data[index + 1 : index + 2]
    if following in (b"(", b"{", b"["):
        return skip_bracketed(data, index + 1)
    if following and _NAME_START.match(following):
        match = _NAME.match(data, index + 1)
        return match.end() if match else None
    if following and following[0] in _SPECIAL_PARAMETERS:
        return index + 2
    return None
