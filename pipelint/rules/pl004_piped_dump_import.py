"""PL004 piped-dump-import: `cat dump.sql | mysql` → `mysql < dump.sql`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.rules import evidence
from pipelint.programs.consumers import dump_consumer
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline
from pipelint.rule import Context, Rule
from pipelint.rewrites.useless_readers import find_useless_cat


class PipedDumpImportRule(Rule):
    code = "PL004"
    name = "piped-dump-import"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES  # none when a comment stands between the stages
    shellcheck_codes = ("SC2002",)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        found = find_useless_cat(pipeline, context)
        if found is None:
            return
        tool = dump_consumer(pipeline.stages[1].command_model)
        if tool is None:
            return
        message = f"{tool} reads {found.file_label} through a `cat` pipe: {evidence.PIPED_DUMP}"
        yield self.finding(message, *found.span, found.redirect_fix(tool), help=found.help(tool))
