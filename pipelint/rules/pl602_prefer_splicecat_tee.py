"""PL602 prefer-splicecat-tee: `… | tee [-a] FILE… | …` → `… | splicecat --tee FILE… [--append] | …` (off by default)."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.programs import tee_command
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline
from pipelint.rule import Context, Rule

APPEND_OPTIONS = frozenset({b"-a", b"--append"})


class PreferSplicecatTeeRule(Rule):
    code = "PL602"
    name = "prefer-splicecat-tee"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS
    enabled_by_default = False  # the fix makes the script depend on splicecat

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        stages = pipeline.stages
        for index in range(1, len(stages) - 1):  # a pipe on both sides: tee(2) needs two pipes
            stage = stages[index]
            operator = stage.operator_after
            if operator is None or operator.type != "|" or context.defines(b"tee"):
                continue
            tee = tee_command.parse(stage)
            if tee is None or not tee.files or any(syntax.literal_value(o.node) not in APPEND_OPTIONS for o in tee.options):
                continue  # only `-a`/`--append`, each a word of its own, has a splicecat spelling
            if any(not syntax.is_single_word(f) or syntax.has_unquoted_expansion(f) for f in tee.files):
                continue  # `tee $logs`: only its first word would follow --tee
            if any(syntax.redirects_stdin(r) or syntax.redirects_stdout(r) for r in stage.all_redirects):
                continue
            if any(value == b"/dev/null" for value in tee.file_values):
                continue  # PL101 removes that copy altogether
            arguments = stage.arguments
            name = stage.command.child_by_field_name("name")
            edits = [Edit(name.start_byte, name.end_byte, b"splicecat")]
            for argument in arguments:
                value = syntax.literal_value(argument)
                if argument in tee.files:
                    edits.append(Edit.insert(argument.start_byte, b"--tee "))
                elif value in APPEND_OPTIONS:
                    edits.append(Edit(argument.start_byte, argument.end_byte, b"--append"))
                elif value == b"--":
                    edits.append(Edit.delete(argument.start_byte, _next_word_start(context.source, argument.end_byte)))
            files = ", ".join(syntax.text(f).decode("utf-8", "replace") for f in tee.files)
            yield self.finding(
                f"`tee` copies the stream through user space to reach {files}: {evidence.SPLICECAT_TEE}",
                stage.start,
                stage.command.end_byte,
                self.fix("Tee with `splicecat --tee`", Applicability.UNSAFE, *edits),
            )


def _next_word_start(source: bytes, offset: int) -> int:
    """Past the blanks after a word, so deleting `--` leaves one space, not two."""
    while offset < len(source) and source[offset : offset + 1] in (b" ", b"\t"):
        offset += 1
    return offset
