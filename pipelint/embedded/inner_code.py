"""Where an inner script stops being text pipelint can read as code (issue 25, classes 2 and 3).

- **An expansion of the outer shell is code to the inner one.** In
  `sh -c "cat f | sort $OPTS cat -n"` the inner shell reads the VALUE of
  `$OPTS` as code: with `OPTS='-r | head -n 1 |'`, `sort $OPTS cat -n < f`
  gives `< f` to `cat -n`. The same holds for an unquoted here-document fed to
  a shell (`bash <<EOF` with `$x` in the body), `ssh host "…$x…"`, GitHub's
  `${{ … }}` and Compose's `$VAR` (`Region.outer_code`). Such a value may
  also open a quote or a here-document that turns the lines after it into
  data, so from the top-level statement that holds it to the end no fix is
  safe. A `$name` the outer script assigned once, before, to one plain word
  (`DIR=/srv/app`) is no unknown code (`find.known_words`).
- **A script read from stdin shares stdin with its commands.** In
  `bash -s <<'EOF'` (`ssh host bash -s <<EOF`, `sh <<EOF`, `docker exec -i C
  sh <<EOF`), a command that reads stdin reads the rest of the script: bash,
  ksh93, mksh and zsh read their script a line at a time, so after `head -n 1
  > line.txt` the next line is in line.txt and never runs. dash and busybox sh
  read ahead, so there the lines run as code. From the top-level statement
  that holds the first command that may read stdin (`Command.may_read_stdin`:
  any program not known never to, a `read`, a function of the script) to the
  end no fix is safe: it would change what that command reads.

Findings there stay, since the text may well run as code (dash, a value that
is one word); their fixes are unsafe (`engine/checker.py` applies this).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.embedded.regions import Region
from pipelint.programs.command import Command
from pipelint.shell import syntax

OUTER_CODE = "the inner script holds `{written}`, which the outer shell expands first: its value is code no one can read here"
STDIN_READER = (
    "the shell reads this script from standard input, and `{reader}` (line {line} of it) may read the rest of it as data"
)


@dataclass(frozen=True)
class Unreadable:
    """From offset on, the inner text may not run as it reads: why, for a fix's help."""

    offset: int
    reason: str


def unreadable_from(root: Node, region: Region, read: Callable[[Node], Command]) -> Unreadable | None:
    """Where the first top-level statement starts from which the region's text may not be code as written."""
    statements = [node for node in root.named_children if node.type != "comment"]
    found: list[Unreadable] = []
    if region.outer_code:
        at, written = region.outer_code[0]
        holder = _holding(statements, at)
        start = holder.start_byte if holder is not None else at
        found.append(Unreadable(start, OUTER_CODE.format(written=written.decode("utf-8", "replace"))))
    if region.script_on_stdin:
        for statement in statements:
            reader = _first_reader(statement, read)
            if reader is not None:
                line = region.text.count(b"\n", 0, reader.start_byte) + 1
                name = syntax.text(reader).split(b"\n", 1)[0][:40].decode("utf-8", "replace")
                found.append(Unreadable(statement.start_byte, STDIN_READER.format(reader=name, line=line)))
                break
    return min(found, key=lambda unreadable: unreadable.offset, default=None)


def _holding(statements: list[Node], offset: int) -> Node | None:
    """The top-level statement around offset, or the first one after it."""
    for statement in statements:
        if offset < statement.end_byte:
            return statement
    return None


def _first_reader(statement: Node, read: Callable[[Node], Command]) -> Node | None:
    """The first command of statement that may read the shell's own stdin."""
    for node in syntax.walk(statement):
        if node.type == "command" and _stdin_is_the_shells(node, statement) and read(node).may_read_stdin:
            return node
    return None


def _stdin_is_the_shells(command: Node, statement: Node) -> bool:
    """The command's stdin is the shell's: no `<`, here-document or here-string of its own or of a compound
    around it, not a stage after a `|`, not in a function's body (defined here, run where it is called)."""
    if any(syntax.redirects_stdin(redirect) for redirect in syntax.applied_redirects(command)):
        return False
    node = command
    while node != statement and node.parent is not None:
        parent = node.parent
        if parent.type in ("pipeline", "heredoc_redirect"):
            previous = node.prev_sibling
            if previous is not None and previous.type in ("|", "|&"):
                return False
        if parent.type == "redirected_statement" and node == parent.child_by_field_name("body"):
            if node.type not in ("command", "pipeline") and any(
                syntax.redirects_stdin(redirect) for redirect in parent.children_by_field_name("redirect")
            ):
                return False  # `while read l; do …; done < f`
        if parent.type == "function_definition":
            return False
        node = parent
    return True
