"""PL601 prefer-splicecat-concat: `cat A B … | cmd` → `splicecat A B … | cmd` (off by default)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.programs.consumers import dump_consumer
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rewrites.stdin_redirect import stopped_reader_observed
from pipelint.rewrites.useless_readers import find_useless_cat
from pipelint.rule import Context, Rule

SPLICECAT = b"splicecat"


def concatenated_files(stage: Stage) -> list[Node] | None:
    """The operands of `cat A B …` (no options), when there are several or may be several."""
    if stage.name != b"cat":
        return None
    operands = stage.arguments
    if operands and syntax.literal_value(operands[0]) == b"--":
        operands = operands[1:]
    elif any(syntax.text(node).lstrip(b"\"'").startswith(b"-") and syntax.literal_value(node) != b"-" for node in operands):
        return None  # `cat -n a b`, `cat "-$flags" a`: options splicecat does not have
    if any(node.type == "process_substitution" for node in operands):
        return None  # `cat <(…) <(…)`: pipes already; nothing to splice from a file
    if not operands or (len(operands) == 1 and syntax.is_single_word(operands[0])):
        return None  # stdin only; one file is PL001's `cmd < FILE`
    return operands


class PreferSplicecatConcatRule(Rule):
    code = "PL601"
    name = "prefer-splicecat-concat"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS
    enabled_by_default = False  # the fix makes the script depend on splicecat

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        for index, stage in enumerate(pipeline.stages[:-1]):
            operator = stage.operator_after
            if operator is None or operator.type != "|":
                continue  # `|&` would also send cat's error messages, worded differently
            files = concatenated_files(stage)
            if files is None or context.defines(b"cat"):
                continue
            if any(syntax.redirects_stdout(r) for r in stage.all_redirects):
                continue  # the pipe gets nothing
            if index == 0 and _reported_as_useless(pipeline, context):
                continue  # `cat $1 | sort` may be one file: PL001 (or PL004) rewrites it to a redirect
            name = stage.command.child_by_field_name("name")
            fix = self.fix("Concatenate with `splicecat`", Applicability.UNSAFE, Edit(name.start_byte, name.end_byte, SPLICECAT))
            status = stopped_reader_observed(pipeline, context, index)
            yield self.finding(
                f"`cat` copies {len(files) if len(files) > 1 else 'its'} files through user space into the pipe: "
                + evidence.SPLICECAT_CONCAT,
                stage.start,
                stage.command.end_byte,
                fix,
                help=None if status is None else f"The fix may also change the exit status: {status}; "
                "`splicecat` raises its pipe to 1 MiB, so it is killed only past that, `cat` past 64 KiB.",
            )


def _reported_as_useless(pipeline: Pipeline, context: Context) -> bool:
    """PL001 or PL004, when enabled, reports the first stage as one file copied for nothing."""
    if find_useless_cat(pipeline, context) is None:
        return False
    return ("PL004" if dump_consumer(pipeline.stages[1].command_model) else "PL001") in context.enabled_codes
