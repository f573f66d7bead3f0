"""PL103 stray-tee: `a | tee debug.log | b` where nothing ever mentions debug.log again."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from pipelint.shell import syntax
from pipelint.programs import tee_command
from pipelint.shell.dialect import is_shell_script
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
# Reading the folder is only for a finding about to be reported; a cap keeps it
# cheap in a folder of thousands of files (a script is rarely over 1 MiB).
_MAX_SIBLINGS = 500
_MAX_SIBLING_BYTES = 1 << 20
_MAX_KEPT_BYTES = 16 << 20  # what one file's lint keeps of its siblings between findings


def _named_as_data(value: bytes) -> bool:
    name = (syntax.basename(value.rstrip(b"/")) or b"").lower()
    return name.decode("utf-8", "replace").endswith(_KEPT_SUFFIXES) or any(word in name for word in _KEPT_WORDS)


class _Siblings:
    """The other scripts in the script's folder, read once per file for every finding's question.

    Read again for each finding, a script with 4,000 stray tees beside 80 large
    scripts took 17 s. The texts read are kept, in order, up to _MAX_KEPT_BYTES
    in all; past that the rest is read again per question, as before.
    """

    def __init__(self, path: str | None) -> None:
        self._path = path
        self._entries: list[os.DirEntry] | None = None
        self._kept: list[bytes | None] = []  # the first entries' texts (None: not a script, unreadable)
        self._kept_bytes = 0

    def mention(self, names: list[bytes]) -> bool:
        """Whether one of them mentions one of the names (it may read the copy)."""
        for index in range(len(self._listing())):
            text = self._text(index)
            if text is not None and any(name in text for name in names):
                return True
        return False

    def _listing(self) -> list[os.DirEntry]:
        if self._entries is None:
            self._entries = []
            if self._path is not None:
                try:
                    folder = Path(self._path).parent or "."
                    self._entries = sorted(os.scandir(folder), key=lambda entry: entry.name)[:_MAX_SIBLINGS]
                except OSError:
                    pass
        return self._entries

    def _text(self, index: int) -> bytes | None:
        if index < len(self._kept):
            return self._kept[index]
        entry = self._listing()[index]
        text = None
        try:
            if entry.name != Path(self._path or "").name and entry.is_file() and is_shell_script(Path(entry.path)):
                with open(entry.path, "rb") as handle:
                    text = handle.read(_MAX_SIBLING_BYTES)
        except OSError:
            pass
        if index == len(self._kept) and self._kept_bytes + len(text or b"") <= _MAX_KEPT_BYTES:
            self._kept.append(text)
            self._kept_bytes += len(text or b"")
        return text


class StrayTeeRule(Rule):
    code = "PL103"
    name = "stray-tee"
    severity = Severity.INFO
    fix_availability = FixAvailability.SOMETIMES  # display-only: whether the copy is read is the author's call

    def _siblings(self, context: Context) -> _Siblings:
        """The script's siblings, read once for all its findings (a rule object checks one file)."""
        kept = getattr(self, "_siblings_of", None)
        if kept is None or kept[0] != context.path:
            kept = self._siblings_of = (context.path, _Siblings(context.path))
        return kept[1]

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
            if self._siblings(context).mention([syntax.basename(v.rstrip(b"/")) for v in values]):
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
