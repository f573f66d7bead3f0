"""PL003 pass-through-cat: `a | cat | b` → `a | b`; `a | cat > f` → `a > f`."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from pipelint.rewrites import stage_removal
from pipelint.shell import syntax
from pipelint.facts.exit_status import status_observed
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rule import Context, Rule
from pipelint.rewrites.subshell import escape_reason, expansion_may_fail


def _is_bare_cat(stage: Stage, context: Context) -> bool:
    """`cat` or `cat -` with nothing else: it copies stdin to stdout and does nothing more."""
    if stage.name != b"cat" or syntax.has_assignments(stage.command) or context.defines(b"cat"):
        return False  # the script's own `cat` function or alias is not the program
    return all(syntax.literal_value(word) == b"-" for word in stage.arguments) and len(stage.arguments) <= 1


# Where an edit would delete a comment between the stages, the finding says what to do by hand.
_BY_HAND = "{} by hand: a comment stands between the stages, where the fix would delete it"


class PassThroughCatRule(Rule):
    code = "PL003"
    name = "pass-through-cat"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES  # none when a comment stands between the stages
    shellcheck_codes = ("SC2002",)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        stages = pipeline.stages
        for index in range(1, len(stages)):
            stage = stages[index]
            if not _is_bare_cat(stage, context) or context.carriage_return_after(stage.command.end_byte):
                continue  # `cat\r` in a CRLF script is no cat
            if index < len(stages) - 1:
                finding = self._middle(pipeline, index, context)
            else:
                finding = self._before_file(pipeline, stages[index - 1], stage, context)
            if finding is not None:
                yield finding

    def _middle(self, pipeline: Pipeline, index: int, context: Context) -> Finding | None:
        cat, following = pipeline.stages[index], pipeline.stages[index + 1]
        if cat.all_redirects:
            return None
        message = "`cat` in the middle of a pipeline copies every byte for nothing"
        if context.has_comment(cat.end, following.start):
            return self.finding(message, cat.start, cat.end, help=_BY_HAND.format("Remove the `cat` stage"))
        reason = stage_removal.unsafe_reason(pipeline, index, context)
        if reason is None and context.redefines(b"cat"):
            reason = "a sourced file could define `cat`"
        applicability = Applicability.UNSAFE if reason else Applicability.SAFE
        fix = self.fix("Remove the `cat` stage", applicability, Edit.delete(cat.start, following.start))
        return self.finding(message, cat.start, cat.end, fix, help=_help(reason))

    def _before_file(self, pipeline: Pipeline, previous: Stage, cat: Stage, context: Context) -> Finding | None:
        redirects = cat.all_redirects
        if len(redirects) != 1 or not syntax.redirects_stdout(redirects[0]):
            return None  # a bare trailing `| cat` disables pagers and tty detection: leave it
        _, operator, _ = syntax.redirect_parts(redirects[0])
        if operator not in (">", ">>", ">|"):
            return None
        if previous.operator_after is None or previous.operator_after.type != "|":
            return None
        if any(syntax.redirects_stdout(r) for r in previous.all_redirects):
            return None
        message = "`cat` only copies the pipeline's output into a file: redirect the previous command instead"
        target = syntax.text(redirects[0])
        if context.has_comment(previous.end, cat.start):
            title = f"Redirect straight to the file ({target.decode('utf-8', 'replace')})"
            return self.finding(message, cat.start, cat.end, help=_BY_HAND.format(title))
        reason = self._before_file_unsafe(pipeline, previous, context)
        fix = self.fix(
            f"Redirect straight to the file ({target.decode('utf-8', 'replace')})",
            Applicability.UNSAFE if reason else Applicability.SAFE,
            *_move_redirect(previous, redirects[0], target),
        )
        return self.finding(message, cat.start, cat.end, fix, help=_help(reason))

    @staticmethod
    def _before_file_unsafe(pipeline: Pipeline, previous: Stage, context: Context) -> str | None:
        escape = escape_reason(pipeline, previous, context, becomes_last=True)
        if escape is not None:
            return escape
        if context.facts.reads_pipestatus or status_observed(pipeline.root, context.facts):
            return "the pipeline's status would be the previous command's instead of `cat`'s, and the script sees it"
        if _exit_trap_may_outlive(previous, context):
            return "an EXIT trap the previous command sets runs after its own redirect ends, where `cat` still got its output"
        if expansion_may_fail(previous, context):
            return "if the previous command's words fail to expand, the file would not be created"
        if context.redefines(b"cat"):
            return "a sourced file could define `cat`"
        return None


def _exit_trap_may_outlive(previous: Stage, context: Context) -> bool:
    """The previous stage may set an EXIT trap: `… | trap 'echo bye' EXIT | cat > out`.

    The trap runs when the stage's subshell ends: its output went down the
    pipe into `cat > out`, but `trap … EXIT > out` redirects only the `trap`
    builtin itself. A function of the script or sourced code may set one too.
    """
    if b"trap" not in context.source:
        return False
    return b"trap" in syntax.text(previous.command) or context.defines(previous.name) or context.facts.runs_unseen_code


def _move_redirect(previous: Stage, redirect: Node, target: bytes) -> tuple[Edit, ...]:
    """Delete `| cat > f` and give `> f` to the previous command, before its own redirects.

    `ls a 2>&1 | cat > out` sends both streams to out: `ls a > out 2>&1` keeps
    that, `ls a 2>&1 > out` would not (redirects apply left to right).
    """
    own = [r for r in previous.all_redirects if r.type == "file_redirect"]
    if not own:
        return (Edit(previous.end, redirect.start_byte, b" "),)
    return (Edit.insert(own[0].start_byte, target + b" "), Edit.delete(previous.end, redirect.end_byte))


def _help(reason: str | None) -> str | None:
    return None if reason is None else f"The fix is unsafe: {reason}."
