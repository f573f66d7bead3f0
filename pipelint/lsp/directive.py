"""Where `# pipelint: disable=CODE` goes so that it silences one finding's command.

`shell/directives.py` decides what a directive covers: a comment on a line
of its own covers the statement that follows it among its siblings (the
whole file when that is the file's first command); one at the end of a line
covers that line only, so it is never merged into.  So the directive goes on
its own line right before the
innermost *statement* holding the finding — a child of the program, a `{ … }`
or `( … )` body, a `do … done` group, an if/elif/else body or a case item —
with that statement's indentation.  A statement that shares its line with
what comes before it (`a; cat f | grep x`, `then cat f | grep x; fi`) is moved
to a line of its own after the directive.  When a directive already sits on
the lines right above, the code is added to it instead.

Every edit is checked before it is offered: the edited text is parsed again
and `suppression.collect` must say the comment covers the finding (a comment
typed inside a here-document, for instance, would not be one). Both parses are
the engine's (`parse_guards`), so tree-sitter-bash's misreads do not move the
directive, and no edit lands inside a here-document body as bash reads it
(`heredocs.inside_body`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node, Tree

from pipelint.shell import directives, heredocs, parse_guards, syntax
from pipelint.engine import suppression
from pipelint.finding import Edit, apply_edits

# Nodes whose named children (other than the ones excluded below) are statements.
STATEMENT_LISTS = frozenset(
    {"program", "compound_statement", "subshell", "do_group", "if_statement", "elif_clause", "else_clause", "case_item"}
)
# In these, the statements before `then` are the condition, not the body.
CONDITION_FIRST = frozenset({"if_statement", "elif_clause"})


@dataclass(frozen=True)
class DisableEdit:
    edit: Edit
    file_wide: bool  # the statement is the file's first command, so the directive covers the file


def directive_text(code: str) -> bytes:
    return f"# pipelint: disable={code}".encode()


def _is_statement(node: Node) -> bool:
    parent = node.parent
    if parent is None or parent.type not in STATEMENT_LISTS or not node.is_named or node.type == "comment":
        return False
    if node.type in ("elif_clause", "else_clause") or node.is_error or node.is_missing:
        return False
    if parent.type == "case_item":
        return _field_of(node) != "value"
    if parent.type in CONDITION_FIRST:
        for child in parent.children:
            if child.type == "then":
                return True
            if child == node:
                return False
        return False
    return True


def _field_of(node: Node) -> str | None:
    parent = node.parent
    for index, child in enumerate(parent.children):
        if child == node:
            return parent.field_name_for_child(index)
    return None


def innermost_statement(root: Node, offset: int) -> Node | None:
    node = root.descendant_for_byte_range(offset, offset)
    while node is not None:
        if _is_statement(node):
            return node
        node = node.parent
    return None


def _line_start(source: bytes, offset: int) -> int:
    return source.rfind(b"\n", 0, offset) + 1


def _indentation(source: bytes, offset: int) -> bytes:
    start = _line_start(source, offset)
    end = start
    while end < len(source) and source[end] in b" \t":
        end += 1
    return source[start:end]


def _newline(source: bytes, offset: int) -> bytes:
    end = source.find(b"\n", offset)
    if end == -1:
        return b"\r\n" if b"\r\n" in source else b"\n"
    return b"\r\n" if end > 0 and source[end - 1 : end] == b"\r" else b"\n"


def _starts_its_line(source: bytes, node: Node) -> bool:
    start = _line_start(source, node.start_byte)
    if source[start : node.start_byte].strip(b" \t"):
        return False
    previous = source[: max(start - 1, 0)].rstrip(b"\r")
    return not previous.endswith(b"\\")  # not the tail of a continued line


def _merge_into_existing(source: bytes, statement: Node, code: str) -> Edit | None:
    """Add the code to a `# pipelint: disable=` comment in the run of comments right above."""
    comment = statement.prev_named_sibling
    while comment is not None and comment.type == "comment" and not directives.trails_code(source, comment):
        text = source[comment.start_byte : comment.end_byte]
        match = directives.PIPELINT_DIRECTIVE.search(text)
        if match:
            codes = match.group(1).rstrip(b" ")
            end = comment.start_byte + match.start(1) + len(codes)
            return Edit.insert(end, b"," + code.encode())
        comment = comment.prev_named_sibling
    return None


def _insertion(source: bytes, statement: Node, code: str) -> Edit:
    indent = _indentation(source, statement.start_byte)
    newline = _newline(source, statement.start_byte)
    directive = indent + directive_text(code)
    if _starts_its_line(source, statement):
        return Edit.insert(_line_start(source, statement.start_byte), directive + newline)
    # Split the line: the statement moves to its own line after the directive.
    gap = statement.start_byte
    while gap > 0 and source[gap - 1] in b" \t":
        gap -= 1
    return Edit(gap, statement.start_byte, newline + directive + newline + indent)


def _verify(source: bytes, tree: Tree, edit: Edit, code: str, offset: int) -> DisableEdit | None:
    """The edited text parses no worse, and the engine's suppression rules cover the finding."""
    edited = apply_edits(source, [edit])
    root = parse_guards.guard(edited).tree.root_node  # bash's statements, as the engine reads them
    if len(syntax.error_ranges(root)) > len(syntax.error_ranges(tree.root_node)):
        return None
    shift = len(edit.content) - (edit.end - edit.start)
    moved = offset + shift if offset >= edit.end else offset
    # The byte of the edited text that holds the code just written.
    written = edited.find(code.encode(), edit.start, edit.start + len(edit.content))
    if written == -1:
        return None
    comment = root.descendant_for_byte_range(written, written)
    if comment is None or comment.type != "comment":
        return None  # the text landed in a here-document, a string, …
    for covered in suppression.collect(directives.placed([comment], edited)):
        if covered.covers(code, moved):
            return DisableEdit(edit, file_wide=covered.start == 0 and covered.end == len(edited))
    return None


def disable_edit(source: bytes, tree: Tree, code: str, offset: int) -> DisableEdit | None:
    """The edit that disables `code` for the command holding `offset`, or None if none is safe."""
    statement = innermost_statement(tree.root_node, offset)
    if statement is None or statement.has_error:
        return None
    edit = _merge_into_existing(source, statement, code) or _insertion(source, statement, code)
    if heredocs.inside_body(source, tree.root_node, edit.start):
        return None  # the comment would become here-document data (what `cat > job.sh <<EOF` writes)
    return _verify(source, tree, edit, code, offset)
