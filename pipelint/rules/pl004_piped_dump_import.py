"""PL004 piped-dump-import: `cat dump.sql | mysql` → `mysql < dump.sql`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.consumers import dump_consumer
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.pipeline import Pipeline
from pipelint.rule import Context, Rule
from pipelint.rules.pl001_useless_cat import find_useless_cat

# Measured in seed 000 (tests/benchmarks/bench_redirect.py reruns the shape):
# a 419 MB dump, page-cached, 0.596 s through `cat |` against 0.151 s by redirect.
MEASURED_COST = "a 419 MB dump imported about 3× faster by redirect than through `cat |`"


class PipedDumpImportRule(Rule):
    code = "PL004"
    name = "piped-dump-import"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS
    shellcheck_codes = ("SC2002",)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        found = find_useless_cat(pipeline, context)
        if found is None:
            return
        tool = dump_consumer(pipeline.stages[1].command_model)
        if tool is None:
            return
        fix = None
        if found.rewrite is not None:
            fix = self.fix(f"Redirect {found.file_label} into {tool}", found.rewrite.applicability, *found.rewrite.edits)
        yield self.finding(
            f"{tool} reads {found.file_label} through a `cat` pipe: {MEASURED_COST}",
            *found.span,
            fix,
        )
