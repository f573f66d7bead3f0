"""PL003 pass-through-cat: `a | cat | b` → `a | b`; `a | cat > f` → `a > f`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint import syntax
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.pipeline import Pipeline, Stage
from pipelint.rule import Context, Rule
from pipelint.subshell import leaves_subshell


def _is_bare_cat(stage: Stage) -> bool:
    return stage.name == b"cat" and not stage.arguments and not syntax.has_assignments(stage.command)


class PassThroughCatRule(Rule):
    code = "PL003"
    name = "pass-through-cat"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS
    shellcheck_codes = ("SC2002",)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        stages = pipeline.stages
        for index in range(1, len(stages)):
            stage = stages[index]
            if not _is_bare_cat(stage):
                continue
            if index < len(stages) - 1:
                finding = self._middle(stage, stages[index + 1], context)
            else:
                finding = self._before_file(pipeline, stages[index - 1], stage, context)
            if finding is not None:
                yield finding

    def _middle(self, cat: Stage, following: Stage, context: Context) -> Finding | None:
        if cat.all_redirects:
            return None
        if context.has_comment(cat.end, following.start):
            return None  # keep comments: no finding we could not fix cleanly
        fix = self.fix("Remove the `cat` stage", Applicability.SAFE, Edit.delete(cat.start, following.start))
        return self.finding("`cat` in the middle of a pipeline copies every byte for nothing", cat.start, cat.end, fix)

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
        if context.has_comment(previous.end, cat.start):
            return None
        target = syntax.text(redirects[0])
        unsafe = leaves_subshell(pipeline, previous, context)
        fix = self.fix(
            f"Redirect straight to the file ({target.decode('utf-8', 'replace')})",
            Applicability.UNSAFE if unsafe else Applicability.SAFE,
            Edit(previous.end, redirects[0].start_byte, b" "),
        )
        return self.finding(
            "`cat` only copies the pipeline's output into a file: redirect the previous command instead",
            cat.start,
            cat.end,
            fix,
        )
