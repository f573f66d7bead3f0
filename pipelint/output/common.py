"""What every output format needs: locations in characters, fix labels, counts."""

from __future__ import annotations

from dataclasses import dataclass

from pipelint.finding import Applicability, Finding
from pipelint.linter import FileReport
from pipelint.positions import Encoding

RULES_URL = "https://github.com/pipelint/pipelint/blob/main/rules/{code}-{name}.md"


@dataclass(frozen=True)
class RenderOptions:
    unsafe_fixes: bool = False  # whether unsafe fixes count as applicable
    fix_mode: bool = False  # --fix ran
    show_fixes: bool = False
    color: bool | None = None  # None: decide from the terminal


@dataclass(frozen=True)
class Span:
    """1-based rows and columns (in characters), end exclusive."""

    row: int
    column: int
    end_row: int
    end_column: int


def span(report: FileReport, start: int, end: int, encoding: Encoding = Encoding.CHARACTERS) -> Span:
    begin = report.index.position(start, encoding)
    finish = report.index.position(end, encoding)
    return Span(begin.line + 1, begin.column + 1, finish.line + 1, finish.column + 1)


def rule_url(finding: Finding) -> str:
    return RULES_URL.format(code=finding.code, name=finding.name)


def is_fixable(finding: Finding, unsafe_fixes: bool) -> bool:
    fix = finding.fix
    if fix is None or not fix.edits:
        return False
    return fix.applicability is Applicability.SAFE or (unsafe_fixes and fix.applicability is Applicability.UNSAFE)


def fix_counts(reports: list[FileReport], unsafe_fixes: bool) -> tuple[int, int]:
    """(fixable with the current flags, fixable only with --unsafe-fixes)."""
    fixable = hidden_unsafe = 0
    for report in reports:
        for finding in report.findings:
            if is_fixable(finding, unsafe_fixes):
                fixable += 1
            elif finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE:
                hidden_unsafe += 1
    return fixable, hidden_unsafe


def printable(name: str) -> str:
    """A file name as text every terminal can show: undecodable bytes as \\xNN."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(reports: list[FileReport], options: RenderOptions) -> str:
    remaining = sum(len(r.findings) for r in reports)
    fixed = sum(len(r.fixed) for r in reports)
    if remaining == 0 and fixed == 0:
        return "All checks passed!"
    if options.fix_mode and fixed:
        if remaining == 0:
            return f"Found {plural(fixed, 'problem')} ({fixed} fixed, 0 remaining)."
        line = f"Found {plural(fixed + remaining, 'problem')} ({fixed} fixed, {remaining} remaining)."
    else:
        line = f"Found {plural(remaining, 'problem')}."
    fixable, hidden_unsafe = fix_counts(reports, options.unsafe_fixes)
    if fixable:
        line += f"\n[*] {fixable} fixable with the `--fix` option"
        if hidden_unsafe:
            line += f" ({hidden_unsafe} more with `--unsafe-fixes`)"
        line += "."
    elif hidden_unsafe:
        line += f"\nNo fixes available ({hidden_unsafe} hidden fix{'es' if hidden_unsafe != 1 else ''} can be enabled with the `--unsafe-fixes` option)."
    return line


def marker(finding: Finding, options: RenderOptions) -> str:
    return "[*] " if is_fixable(finding, options.unsafe_fixes) else ""
