"""PL001 useless-cat: `cat FILE | cmd` → `cmd < FILE`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint import syntax
from pipelint.consumers import dump_consumer
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.pipeline import Pipeline
from pipelint.rule import Context, Rule
from pipelint.stdin_redirect import UselessReader, can_take_stdin, rewrite


def find_useless_cat(pipeline: Pipeline, context: Context) -> UselessReader | None:
    """Shared by PL001 and PL004: the first stage only copies one file into the second."""
    if "useless_cat" not in pipeline.memo:
        pipeline.memo["useless_cat"] = _find_useless_cat(pipeline, context)
    return pipeline.memo["useless_cat"]


def _find_useless_cat(pipeline: Pipeline, context: Context) -> UselessReader | None:
    reader = pipeline.stages[0]
    if reader.name != b"cat" or syntax.has_assignments(reader.command):
        return None
    operands = reader.arguments
    if operands and syntax.literal_value(operands[0]) == b"--":
        operands = operands[1:]
    if len(operands) != 1:
        return None
    operand = operands[0]
    value = syntax.literal_value(operand)
    if value == b"-" or (value is not None and value.startswith(b"-") and operand is reader.arguments[0]):
        return None  # `cat -` reads stdin; `cat -n f` is not a plain copy
    if operand.type == "word" and syntax.text(operand).startswith(b"-"):
        return None
    if not syntax.is_single_word(operand) or operand.type == "process_substitution":
        return None
    if any(syntax.redirects_stdin(r) or syntax.redirects_stdout(r) for r in reader.all_redirects):
        return None  # `cat f 2>&1 >/dev/null | …` feeds the pipe its errors, not the file
    if not can_take_stdin(pipeline, context):
        return None
    unsafe = bool(reader.all_redirects) or syntax.has_unquoted_expansion(operand)
    operand_text = syntax.text(operand)
    return UselessReader(pipeline, operand_text, rewrite(pipeline, context, b"< " + operand_text, unsafe=unsafe))


class UselessCatRule(Rule):
    code = "PL001"
    name = "useless-cat"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS
    shellcheck_codes = ("SC2002",)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        found = find_useless_cat(pipeline, context)
        if found is None or dump_consumer(pipeline.stages[1].command_model) is not None:
            return  # PL004 reports dump imports
        consumer = found.rewrite.consumer if found.rewrite else "the next command"
        fix = None
        if found.rewrite is not None:
            fix = self.fix(f"Redirect {found.file_label} into {consumer}", found.rewrite.applicability, *found.rewrite.edits)
        yield self.finding(
            f"`cat` only feeds {found.file_label} into {consumer}: read it with a redirect",
            *found.span,
            fix,
        )
