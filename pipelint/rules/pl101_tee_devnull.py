"""PL101 tee-devnull: `a | tee /dev/null | b` → `a | b`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.rewrites import stage_removal
from pipelint.shell import syntax
from pipelint.programs import tee_command
from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rule import Context, Rule

DEV_NULL = b"/dev/null"


def _only_stderr_redirects(stage: Stage) -> bool:
    """Redirects that leave the stage's stdin and stdout to the pipe (`2>/dev/null`)."""
    for redirect in stage.all_redirects:
        if redirect.type != "file_redirect" or syntax.redirects_stdin(redirect) or syntax.redirects_stdout(redirect):
            return False
        descriptor, operator, _ = syntax.redirect_parts(redirect)
        if descriptor != 2 or operator in ("<", "<>", "<&"):
            return False
    return True


class TeeDevNullRule(Rule):
    code = "PL101"
    name = "tee-devnull"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        if context.defines(b"tee"):
            return  # the script's own `tee` function or alias is no pass-through
        stages = pipeline.stages
        for index, stage in enumerate(stages):
            tee = tee_command.parse(stage)
            if tee is None or any(value != DEV_NULL for value in tee.file_values):
                continue
            if any(syntax.redirects_stdin(r) for r in stage.all_redirects):
                continue  # `tee /dev/null < f` reads a file, not the pipe
            if context.carriage_return_after(stage.end):
                continue  # CRLF: bash runs `tee '/dev/null\r'`, or `tee\r`
            label = "tee /dev/null" if tee.files else "tee"
            unsafe_because = None
            if index == len(stages) - 1:
                fix = self._last(pipeline, stages[index - 1], stage, label, context)
            elif not _only_stderr_redirects(stage):
                continue  # `tee /dev/null > f | b`: the copy goes somewhere
            elif index == 0:
                fix = self._first(pipeline, stage, stages[1], label, context)
            else:
                fix, unsafe_because = self._middle(pipeline, index, tee, label, context)
            what = "copies every byte and throws the copy away" if tee.files else "with no file only copies its input to its output"
            message = f"`{label}` {what}: the stage costs a process and a copy for nothing"
            help_text = f"The fix is unsafe: {unsafe_because}." if unsafe_because else None
            yield self.finding(message, stage.start, stage.end, fix, help=help_text)

    def _middle(
        self, pipeline: Pipeline, index: int, tee: tee_command.Tee, label: str, context: Context
    ) -> tuple[Fix | None, str | None]:
        """The fix that removes a middle stage, and why it is unsafe (None: safe)."""
        stage, following = pipeline.stages[index], pipeline.stages[index + 1]
        if context.has_comment(stage.end, following.start):
            return None, None  # a comment between the stages would go with it
        reason = stage_removal.unsafe_reason(pipeline, index, context)
        if reason is None and tee.ignores_sigpipe:
            reason = "`tee -p` keeps reading after the next stage exits"
        if reason is None and context.redefines(b"tee"):
            reason = "a file the script sources may define `tee`"
        safety = Applicability.SAFE if reason is None else Applicability.UNSAFE
        return self.fix(f"Remove the `{label}` stage", safety, Edit.delete(stage.start, following.start)), reason

    def _first(self, pipeline: Pipeline, stage: Stage, following: Stage, label: str, context: Context) -> Fix | None:
        if context.has_comment(stage.end, following.start) or stage.all_redirects:
            return None
        # The next command now reads the script's stdin itself: a terminal stays a terminal.
        return self.fix(f"Remove the `{label}` stage", Applicability.UNSAFE, Edit.delete(stage.start, following.start))

    def _last(self, pipeline: Pipeline, previous: Stage, stage: Stage, label: str, context: Context) -> Fix | None:
        """`a | tee /dev/null [> f]` → `a [> f]`: unsafe, the exit status becomes a's."""
        if previous.operator_after is None or previous.operator_after.type != "|":
            return None  # `a |& tee /dev/null`: a's stderr went to stdout through tee
        if any(syntax.redirects_stdout(r) for r in previous.all_redirects):
            return None
        if context.has_comment(previous.end, stage.start):
            return None
        redirects = stage.all_redirects
        if not redirects:
            return self.fix(f"Remove the `{label}` stage", Applicability.UNSAFE, Edit.delete(previous.end, stage.end))
        if len(redirects) != 1 or not syntax.redirects_stdout(redirects[0]):
            return None
        _, operator, _ = syntax.redirect_parts(redirects[0])
        if operator not in (">", ">>", ">|"):
            return None
        if redirects[0].start_byte < stage.command.end_byte:
            return None  # `> f tee /dev/null`: the redirect is written before the name
        target = syntax.text(redirects[0]).decode("utf-8", "replace")
        return self.fix(
            f"Remove the `{label}` stage and redirect straight to the file ({target})",
            Applicability.UNSAFE,
            Edit(previous.end, redirects[0].start_byte, b" "),
        )
