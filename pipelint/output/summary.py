"""What the formats for people print after the findings: the summary line, fixes, notes.

The summary line and the exit status are decided from the same counts, so
they cannot disagree: "All checks passed!" only when there is nothing to
report (no finding, no parse failure, no error), which is exactly exit 0
without `--exit-zero`.
"""

from __future__ import annotations

from collections import Counter

from pipelint.finding import NoteCause

from pipelint.engine.report import FileReport
from pipelint.output.common import (
    RenderOptions,
    note_groups,
    parse_failure_text,
    fix_counts,
    parse_failures,
    plural,
    printable,
    span,
)


def summary(reports: list[FileReport], options: RenderOptions, errors: int = 0) -> str:
    """The closing line(s): what was found and fixed, what could be fixed, and errors."""
    remaining = sum(len(r.findings) for r in reports)
    fixed = sum(len(r.fixed) for r in reports)
    failures = len(parse_failures(reports))
    if not (remaining or fixed or failures or errors):
        return "All checks passed!" + _unchecked_part(reports)
    found = []
    if options.fix_mode and fixed:
        found.append(f"{plural(fixed + remaining, 'problem')} ({fixed} fixed, {remaining} remaining)")
    elif remaining:
        found.append(plural(remaining, "problem"))
    if failures:
        found.append(plural(failures, "parse error"))
    line = f"Found {' and '.join(found)}" if found else "No problems found"
    if errors:
        line += f"; {plural(errors, 'error')} (see `pipelint: error:` above)"
    return line + "." + _unchecked_part(reports) + _fix_footer(reports, options)


def _unchecked_part(reports: list[FileReport]) -> str:
    """What the summary adds where parts of files the shell accepts were not checked (said in notes)."""
    files = sum(1 for report in reports if any(group.notes[0].cause is NoteCause.UNREADABLE for group in note_groups(report, False)))
    return f" {plural(files, 'file')} not checked in full: see the notes below." if files else ""


def _fix_footer(reports: list[FileReport], options: RenderOptions) -> str:
    """What more fixing could do, in ruff 0.17's words.

    After `--fix`, a fix still marked `[*]` is one the fixer would not write
    (the file would no longer parse, or no longer be the same Dockerfile or
    workflow): saying "fixable with `--fix`" there would be wrong.
    """
    fixable, hidden_unsafe = fix_counts(reports, options.unsafe_fixes)
    unsafe = f"{plural(hidden_unsafe, 'unsafe fix', 'unsafe fixes')} available with `--fix --unsafe-fixes`"
    if fixable and options.fix_mode:
        left = f"[*] {plural(fixable, 'fixable finding')} left: pipelint could not apply their fixes safely."
        return "\n" + left + (f"\n{unsafe}." if hidden_unsafe else "")
    if fixable:
        more = f" ({unsafe})" if hidden_unsafe else ""
        return f"\n[*] {fixable} fixable with the `--fix` option{more}."
    return f"\n{unsafe}." if hidden_unsafe else ""


def fixes_applied(reports: list[FileReport]) -> list[str]:
    """`--show-fixes`: what --fix wrote, per file and rule."""
    fixed = [r for r in reports if r.fixed]
    if not fixed:
        return []
    total = sum(len(r.fixed) for r in fixed)
    lines = [f"Fixed {plural(total, 'problem')}:"]
    for report in fixed:
        lines.append(f"- {printable(report.display_name)}:")
        for (code, name), count in Counter((f.code, f.name) for f in report.fixed).most_common():
            lines.append(f"    {count} × {code} ({name})")
    return lines


def notes(reports: list[FileReport], options: RenderOptions) -> list[str]:
    """After the summary: one note per file and cause (`common.note_groups`), never a finding."""
    return [_note(report, group.start, group.text) for report in reports for group in note_groups(report, options.verbose)]


def _note(report: FileReport, offset: int, text: str) -> str:
    where = span(report, offset, offset)
    return f"pipelint: note: {printable(report.display_name)}:{where.row}:{where.column}: {text}"


def parse_failure_notes(reports: list[FileReport]) -> list[str]:
    """One note per file that did not parse completely, for runs that print no findings (`--diff`)."""
    notes = []
    for report in reports:
        if not report.parse_failures:
            continue
        more = len(report.parse_failures) - 1
        extra = f" ({plural(more, 'more place')} did not parse)" if more else ""
        text = parse_failure_text(report.index, report.parse_failures[0])
        notes.append(_note(report, report.parse_failures[0].start, text + extra))
    return notes
