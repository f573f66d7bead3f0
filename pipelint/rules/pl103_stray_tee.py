"""PL103 stray-tee: `a | tee debug.log | b` where nothing ever mentions debug.log again."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from pipelint import syntax, tee_command
from pipelint.dialect import is_shell_script
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.pipeline import Pipeline
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
# Reading the folder is only for a finding about to be reported; a cap keeps it
# cheap in a folder of thousands of files (a script is rarely over 1 MiB).
_MAX_SIBLINGS = 500
_MAX_SIBLING_BYTES = 1 << 20


def _named_as_data(value: bytes) -> bool:
    name = (syntax.basename(value.rstrip(b"/")) or b"").lower()
    return name.decode("utf-8", "replace").endswith(_KEPT_SUFFIXES) or any(word in name for word in _KEPT_WORDS)


def _named_by_a_sibling(names: list[bytes], path: str | None) -> bool:
    """Whether another script in the script's folder mentions one of the names (it may read the copy)."""
    if path is None:
        return False
    script = Path(path)
    try:
        entries = sorted(os.scandir(script.parent or "."), key=lambda entry: entry.name)[:_MAX_SIBLINGS]
    except OSError:
        return False
    for entry in entries:
        sibling = Path(entry.path)
        try:
            if entry.name == script.name or not entry.is_file() or not is_shell_script(sibling):
                continue
            with open(sibling, "rb") as handle:
                text = handle.read(_MAX_SIBLING_BYTES)
        except OSError:
            continue
        if any(name in text for name in names):
            return True
    return False


class StrayTeeRule(Rule):
    code = "PL103"
    name = "stray-tee"
    severity = Severity.INFO
    fix_availability = FixAvailability.SOMETIMES  # display-only: whether the copy is read is the author's call

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
            if _named_by_a_sibling([syntax.basename(v.rstrip(b"/")) for v in values], context.path):
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
