"""PL103 stray-tee: `a | tee debug.log | b` where nothing ever mentions debug.log again."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.shell import syntax
from pipelint.programs import tee_command
from pipelint.facts.outside import Outside
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline
from pipelint.rule import Context, Rule


def _mentioned_elsewhere(value: bytes, start: int, end: int, source: bytes) -> bool:
    """Whether the file's name appears anywhere else in the script, comments included.

    Matching the base name is deliberately generous: `tee /tmp/run.log` is taken
    as used when a later line reads "$TMPDIR/run.log" or mentions run.log at all.
    """
    name = syntax.basename(value.rstrip(b"/"))
    if not name:
        return True
    return syntax.mentioned_outside(name, source, [(start, end)])


# Names that say the file is data meant to stay, not a debugging copy: archives,
# dumps, images, backups (issue 10). Compared in lower case.
_KEPT_SUFFIXES = (".gz", ".tgz", ".bz2", ".xz", ".zst", ".lz4", ".tar", ".sql", ".dump", ".bak", ".img", ".iso")
_KEPT_WORDS = (b"backup", b"orig")
def _named_as_data(value: bytes) -> bool:
    name = (syntax.basename(value.rstrip(b"/")) or b"").lower()
    return name.decode("utf-8", "replace").endswith(_KEPT_SUFFIXES) or any(word in name for word in _KEPT_WORDS)


class StrayTeeRule(Rule):
    code = "PL103"
    name = "stray-tee"
    severity = Severity.INFO
    fix_availability = FixAvailability.SOMETIMES  # display-only: whether the copy is read is the author's call
    reads_outside = frozenset({Outside.SIBLING_SCRIPTS})

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        stages = pipeline.stages
        for index in range(1, len(stages) - 1):
            stage = stages[index]
            tee = tee_command.parse(stage)
            if tee is None or not tee.files:
                continue
            values = tee.file_values
            if any(value is None or value == b"-" or value.startswith(b"/dev/") for value in values):
                continue  # computed names, stdout again, devices: not a forgotten file
            if any(syntax.redirects_stdin(r) or syntax.redirects_stdout(r) for r in stage.all_redirects):
                continue
            if any(_mentioned_elsewhere(v, f.start_byte, f.end_byte, context.source) for v, f in zip(values, tee.files)):
                continue
            if any(_named_as_data(value) for value in values):
                continue  # `tee backup.sql.gz`: kept on purpose
            if context.outside.sibling_scripts().mention([syntax.basename(v.rstrip(b"/")) for v in values]):
                continue
            names = " ".join(syntax.text(f).decode("utf-8", "replace") for f in tee.files)
            fix = None
            if not context.has_comment(stage.end, stages[index + 1].start):
                fix = self.fix(
                    f"Remove the `tee {names}` stage if nothing reads the copy",
                    Applicability.DISPLAY_ONLY,
                    Edit.delete(stage.start, stages[index + 1].start),
                )
            yield self.finding(
                f"`tee` copies the pipeline into {names}, which the script never mentions again: "
                "a debugging copy left behind costs a process and a write of every byte",
                stage.start,
                stage.end,
                fix,
            )
