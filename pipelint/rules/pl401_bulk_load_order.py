"""PL401 bulk-load-order: `LOAD DATA INFILE` / `mysqlimport` → advice on key order and indexes."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from pipelint import syntax
from pipelint.consumers import unwrap
from pipelint.finding import Applicability, Finding, FixAvailability, Severity
from pipelint.pipeline import REDIRECT_TYPES, Pipeline
from pipelint.rule import Context, Rule

# MySQL's grammar: LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE.  Any
# case, any whitespace, and a backslash-newline inside a double-quoted string.
LOAD_DATA = re.compile(
    rb"\bLOAD(?:\s|\\\n)+DATA(?:\s|\\\n)+(?:(?:LOW_PRIORITY|CONCURRENT)(?:\s|\\\n)+)?(?:LOCAL(?:\s|\\\n)+)?INFILE\b",
    re.IGNORECASE,
)

SQL_CLIENTS = frozenset({"mysql", "mariadb"})
BULK_IMPORTERS = frozenset({"mysqlimport", "mariadb-import"})
# Commands that only hand their arguments or here-document to the next stage.
FEEDERS = frozenset({b"echo", b"printf", b"cat"})

# Seed 002: 20M rows, two secondary indexes; 389.9 s in random key order with
# the indexes in place, 141.5 s in key order with them added after the load.
MESSAGE = (
    "{what}: a load in random primary-key order with secondary indexes in place "
    "took 2.8× as long as a sorted load with the indexes added afterwards"
)
ADVICE = "Sort the file on the primary key before loading, and add secondary indexes after the load"


def program_name(command: Node) -> str | None:
    """The program a simple command runs, looking through `sudo`, `env`, `nice` and the like."""
    if command.type != "command":
        return None
    name = syntax.command_name(command)
    words = [name] + [syntax.literal_value(arg) for arg in syntax.arguments(command)]
    strings = [None if w is None else w.decode("utf-8", "replace") for w in words]
    strings = unwrap(strings)
    if not strings or strings[0] is None:
        return None
    return strings[0].rsplit("/", 1)[-1]


def applied_redirects(command: Node) -> list[Node]:
    """The redirects the shell applies to command, wherever tree-sitter put them.

    A redirect after the last stage of a pipeline wraps the whole pipeline in
    a `redirected_statement`; it still belongs to that last stage.
    """
    found = syntax.own_redirects(command)
    node = command
    while node.parent is not None:
        parent = node.parent
        if parent.type == "redirected_statement" and parent.child_by_field_name("body") == node:
            found += [child for child in parent.children if child.type in REDIRECT_TYPES]
        elif parent.type == "pipeline":
            stages = [child for child in parent.named_children if child.type != "comment"]
            if not stages or stages[-1] != node:
                break
        else:
            break
        node = parent
    return found


def fed_text(redirect: Node) -> bytes:
    """What a here-document or here-string puts on standard input, as written."""
    if redirect.type == "heredoc_redirect":
        return b"".join(syntax.text(child) for child in redirect.children if child.type == "heredoc_body")
    if redirect.type == "herestring_redirect":
        return b"".join(syntax.text(child) for child in redirect.named_children)
    return b""


def carries_load_data(command: Node, redirects: list[Node]) -> bool:
    """The command's arguments, here-document or here-string hold a LOAD DATA INFILE statement."""
    texts = [syntax.text(arg) for arg in syntax.arguments(command)]
    texts += [fed_text(redirect) for redirect in redirects]
    return any(LOAD_DATA.search(text) for text in texts)


class BulkLoadOrderRule(Rule):
    code = "PL401"
    name = "bulk-load-order"
    severity = Severity.INFO
    fix_availability = FixAvailability.NEVER  # the advice is display-only
    subjects = ("command", "pipeline")

    def check_command(self, command: Node, context: Context) -> Iterator[Finding]:
        program = program_name(command)
        if program in BULK_IMPORTERS:
            yield self._finding(f"`{program}` bulk-loads rows", command)
        elif program in SQL_CLIENTS and carries_load_data(command, applied_redirects(command)):
            yield self._finding(f"`LOAD DATA INFILE` sent to {program}", command)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        """`echo "LOAD DATA …" | mysql`, `cat <<EOF | mysql`: the SQL is written by the stage before."""
        for feeder, client in zip(pipeline.stages, pipeline.stages[1:]):
            program = program_name(client.command)
            if program not in SQL_CLIENTS or feeder.name not in FEEDERS or not feeder.is_simple:
                continue
            if carries_load_data(client.command, applied_redirects(client.command)):
                continue  # check_command reports it already
            if carries_load_data(feeder.command, feeder.all_redirects):
                yield self._finding(f"`LOAD DATA INFILE` piped to {program}", client.command)

    def _finding(self, what: str, command: Node) -> Finding:
        advice = self.fix(ADVICE, Applicability.DISPLAY_ONLY)
        return self.finding(MESSAGE.format(what=what), command.start_byte, command.end_byte, advice)
