"""PL001 useless-cat: `cat FILE | cmd` → `cmd < FILE`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.programs.consumers import dump_consumer
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline
from pipelint.rule import Context, Rule
from pipelint.rewrites.useless_readers import find_useless_cat


class UselessCatRule(Rule):
    code = "PL001"
    name = "useless-cat"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES  # none when a comment stands between the stages
    shellcheck_codes = ("SC2002",)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        found = find_useless_cat(pipeline, context)
        if found is None or dump_consumer(pipeline.stages[1].command_model) is not None:
            return  # PL004 reports dump imports
        message = f"`cat` only feeds {found.file_label} into {found.consumer}: read it with a redirect"
        yield self.finding(message, *found.span, found.redirect_fix(), help=found.help())
