"""PL401 bulk-load-order: `LOAD DATA INFILE` / `mysqlimport` → advice on key order and indexes."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from tree_sitter import Node

from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline
from pipelint.programs.table import Trait, has, named
from pipelint.rule import Context, Rule

# MySQL's grammar: LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE.  Any
# case, any whitespace, and a backslash-newline inside a double-quoted string.
LOAD_DATA = re.compile(
    rb"\bLOAD(?:\s|\\\n)+DATA(?:\s|\\\n)+(?:(?:LOW_PRIORITY|CONCURRENT)(?:\s|\\\n)+)?(?:LOCAL(?:\s|\\\n)+)?INFILE\b",
    re.IGNORECASE,
)

ADVICE = "Sort the file on the primary key before loading, and add secondary indexes after the load"


def carries_load_data(command: Node, redirects: Sequence[Node]) -> bool:
    """The command's arguments, here-document or here-string hold a LOAD DATA INFILE statement."""
    texts = [syntax.text(arg) for arg in syntax.arguments(command)]
    texts += [syntax.fed_text(redirect) for redirect in redirects]
    return any(LOAD_DATA.search(text) for text in texts)


def _program(model: Command | None) -> str | None:
    """The program a simple command runs, looking through `sudo`, `env`, `nice` and the like."""
    if model is None or model.program is None:
        return None
    return model.program.decode("utf-8", "replace")


class BulkLoadOrderRule(Rule):
    code = "PL401"
    name = "bulk-load-order"
    severity = Severity.INFO
    fix_availability = FixAvailability.NEVER  # advice only (Finding.help)
    programs = named(Trait.MYSQL_CLIENT) | named(Trait.BULK_IMPORTER)

    def check_command(self, command: Command, context: Context) -> Iterator[Finding]:
        program = _program(command)
        if has(command.program, Trait.BULK_IMPORTER):
            yield self._finding(f"`{program}` bulk-loads rows", command.node)
        elif has(command.program, Trait.MYSQL_CLIENT) and carries_load_data(command.node, command.redirects):
            yield self._finding(f"`LOAD DATA INFILE` sent to {program}", command.node)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        """`echo "LOAD DATA …" | mysql`, `cat <<EOF | mysql`: the SQL is written by the stage before."""
        for feeder, client in zip(pipeline.stages, pipeline.stages[1:]):
            # `echo "LOAD DATA …"`, `printf …`, `cat <<EOF`: they only hand on the text the script wrote.
            if not (has(feeder.name, Trait.PRINTS_ARGUMENTS) or feeder.name == b"cat") or not feeder.is_simple:
                continue  # asked first: the client's model is built only after a feeder
            model = client.command_model
            if model is None or not has(model.program, Trait.MYSQL_CLIENT):
                continue
            program = _program(model)
            if carries_load_data(client.command, client.all_redirects):
                continue  # check_command reports it already
            if carries_load_data(feeder.command, feeder.all_redirects):
                yield self._finding(f"`LOAD DATA INFILE` piped to {program}", client.command)

    def _finding(self, what: str, command: Node) -> Finding:
        return self.finding(f"{what}: {evidence.UNSORTED_BULK_LOAD}", command.start_byte, command.end_byte, help=ADVICE)
