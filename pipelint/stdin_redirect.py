"""The rewrite behind every "useless reader" rule: `reader | consumer …` → `consumer … < FILE`.

PL001 (cat FILE), PL002 (cat <<EOF), PL004 (dump imports), PL203 (dd if=FILE)
and PL503 (echo "$x") find different readers (`useless_readers` finds the
file readers); they all hand the consumer its input the same way, and decide
the fix's safety the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipelint import syntax
from pipelint.finding import Applicability, Edit, Fix
from pipelint.pipeline import Pipeline, Stage
from pipelint.rule import Context
from pipelint.subshell import leaves_subshell


@dataclass(frozen=True)
class StdinRewrite:
    """Edits that remove the first stage and give its input to the second."""

    edits: tuple[Edit, ...]
    applicability: Applicability
    consumer: str  # how the consumer is named in messages

    def as_fix(self, title: str) -> Fix:
        return Fix(title, self.applicability, tuple(sorted(self.edits)))


def consumer_label(stage: Stage) -> str:
    name = syntax.command_name(stage.command)
    if name is not None:
        return name.decode("utf-8", "replace")
    return {"while_statement": "the while loop", "for_statement": "the for loop"}.get(
        stage.command.type, "the next command"
    )


def can_take_stdin(pipeline: Pipeline, context: Context) -> bool:
    """The consumer reads the reader's output and nothing else claims its stdin."""
    if len(pipeline.stages) < 2:
        return False
    operator = pipeline.stages[0].operator_after
    if operator is not None and operator.type == "|&" and not context.dialect.pipe_ampersand_is_stderr_pipe:
        return False  # ksh: `|&` starts a co-process, not a pipe
    consumer = pipeline.stages[1]
    return not any(syntax.redirects_stdin(r) for r in consumer.all_redirects)


def rewrite(pipeline: Pipeline, context: Context, redirect: bytes, *, unsafe: bool) -> StdinRewrite | None:
    """Delete the first stage and append `redirect` (e.g. b'< "a b"') to the consumer.

    `unsafe` carries what the caller knows about the reader (its own redirects,
    an unquoted operand); this adds what the pipeline shape implies.
    """
    reader, consumer = pipeline.stages[0], pipeline.stages[1]
    if context.has_comment(reader.end, consumer.start):
        return None  # a comment between the stages would be lost
    operator = reader.operator_after
    stderr_too = operator is not None and operator.type == "|&"
    if leaves_subshell(pipeline, consumer, context) or stderr_too:
        unsafe = True
    edits = (
        Edit.delete(reader.start, consumer.start),
        Edit.insert(consumer.command.end_byte, b" " + redirect),
    )
    return StdinRewrite(edits, Applicability.UNSAFE if unsafe else Applicability.SAFE, consumer_label(consumer))
