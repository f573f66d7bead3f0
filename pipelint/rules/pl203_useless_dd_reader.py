"""PL203 useless-dd-reader: `dd if=FILE [bs=…] | cmd` → `cmd < FILE`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.rules import evidence
from pipelint.programs.consumers import dump_consumer
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline
from pipelint.rule import Context, Rule
from pipelint.rewrites.useless_readers import find_useless_dd


class UselessDdReaderRule(Rule):
    code = "PL203"
    name = "useless-dd-reader"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        found = find_useless_dd(pipeline, context)
        if found is None:
            return
        tool = dump_consumer(pipeline.stages[1].command_model)
        if tool is not None:
            message = f"{tool} reads {found.file_label} through a `dd` pipe: {evidence.PIPED_DUMP}"
        else:
            message = f"`dd` only reads {found.file_label} into {found.consumer}: read it with a redirect"
        yield self.finding(message, *found.span, found.redirect_fix(tool), help=found.help(tool))
