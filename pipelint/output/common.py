"""What every output format shares: locations, fix hints, advice, parse failures, text escaping.

A format module decides layout only; what a fix hint says, how a parse
failure reads and how a name that is not valid UTF-8 is written are decided
here, once, so the formats cannot drift apart.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from pipelint import __version__
from pipelint.finding import Applicability, Finding, Note, NoteCause, ParseFailure
from pipelint.engine.report import FileReport
from pipelint.shell.positions import Encoding, LineIndex

# The installed package's folder: in a checkout (or an editable install) it
# sits beside pyproject.toml, in a wheel's install beside its dist-info.
_PACKAGE_PARENT = Path(__file__).resolve().parents[2]

# What every format calls a part of a script tree-sitter could not parse (`parse_failure_text` says it).
PARSE_FAILURE_KIND = "parse-error"
NOTE_KIND = "note"


@dataclass(frozen=True)
class RenderOptions:
    unsafe_fixes: bool = False  # whether unsafe fixes count as applicable
    fix_mode: bool = False  # --fix ran
    show_fixes: bool = False
    color: bool | None = None  # None: decide from the terminal
    verbose: bool = False  # also the notes on repairs that lost nothing


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


@functools.cache
def project_urls() -> dict[str, str]:
    """`[project.urls]` of pyproject.toml, the one home of the project's addresses (Homepage, Rules, …).

    Read from pyproject.toml itself in a checkout, else from the installed
    wheel's METADATA (`Project-URL: Label, URL` lines); both sit beside the
    package, so no distribution search is needed (importlib.metadata costs
    ~100 ms, issue 11), and a run that prints no address reads neither.
    """
    source = _PACKAGE_PARENT / "pyproject.toml"
    if source.is_file():
        import tomllib  # only when an address is printed

        with source.open("rb") as stream:
            project = tomllib.load(stream).get("project", {})
        if project.get("name") == "pipelint":
            return dict(project["urls"])
    installed = _PACKAGE_PARENT / f"pipelint-{__version__}.dist-info" / "METADATA"
    if installed.is_file():
        lines = installed.read_text(encoding="utf-8").split("\n\n", 1)[0].splitlines()
        return dict(line.removeprefix("Project-URL: ").split(", ", 1) for line in lines if line.startswith("Project-URL: "))
    from importlib.metadata import metadata  # installed some other way (a zip, --target): ask the slow way

    return dict(entry.split(", ", 1) for entry in metadata("pipelint").get_all("Project-URL") or [])


def rule_url(finding: Finding) -> str:
    return page_url(finding.code, finding.name)


def page_url(code: str, name: str) -> str:
    """The web page of a rule's document: `[project.urls] Rules` and the document's file name."""
    return project_urls()["Rules"] + f"{code}-{name}.md"


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 problem`, `2 problems`; many: the plural where it is not word + s (`unsafe fixes`)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


# Fixes and advice.


def is_fixable(finding: Finding, unsafe_fixes: bool) -> bool:
    fix = finding.fix
    if fix is None or not fix.edits:
        return False
    return fix.applicability is Applicability.SAFE or (unsafe_fixes and fix.applicability is Applicability.UNSAFE)


def marker(finding: Finding, options: RenderOptions) -> str:
    return "[*] " if is_fixable(finding, options.unsafe_fixes) else ""


# Advice is applied by a person, like a display-only fix: both say so alike.
BY_HAND = " (apply by hand)"
# An unsafe fix the run does not apply: how to apply it, in every format alike.
UNSAFE_NOT_ENABLED = " (unsafe fix: apply with --unsafe-fixes)"
UNSAFE_ENABLED = " (unsafe fix)"


def fix_label(finding: Finding, options: RenderOptions) -> str:
    """How the fix gets applied, where it is not by `--fix` alone: unsafe (and whether this run applies
    such fixes), or by hand; "" for a safe fix."""
    fix = finding.fix
    if fix is None or fix.applicability is Applicability.SAFE:
        return ""
    if fix.applicability is Applicability.UNSAFE:
        return UNSAFE_ENABLED if options.unsafe_fixes else UNSAFE_NOT_ENABLED
    return BY_HAND


def fix_hint(finding: Finding, options: RenderOptions) -> str | None:
    """One line saying what the fix does and how to apply it, for messages read in CI."""
    fix = finding.fix
    if fix is None:
        return None
    if is_fixable(finding, options.unsafe_fixes):
        return f"[*] {fix.title} (pipelint check --fix{' --unsafe-fixes' if fix.applicability is Applicability.UNSAFE else ''})"
    return f"help: {fix.title}{fix_label(finding, options)}"


def advice_hint(finding: Finding) -> str | None:
    """`Finding.help` as one line: advice to apply by hand, or, beside an unsafe fix, why it is unsafe."""
    if not finding.help:
        return None
    return f"help: {finding.help}{help_label(finding)}"


def help_label(finding: Finding) -> str:
    """" (apply by hand)" after advice; nothing after the reason an unsafe fix gives (rules word it so)."""
    fix = finding.fix
    return "" if fix is not None and fix.applicability is Applicability.UNSAFE else BY_HAND


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


# Parse failures.


def parse_failures(reports: list[FileReport]) -> list[tuple[FileReport, ParseFailure]]:
    return [(report, failure) for report in reports for failure in report.parse_failures]


# Text: names and contents that are not valid UTF-8, control characters.

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

# What a terminal would act on instead of showing: C0 controls, DEL, C1 controls,
# line and paragraph separators, bidirectional overrides ("trojan source").
_CONTROL = "\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_UNPRINTABLE = re.compile(f"[{_CONTROL}]")
_UNPRINTABLE_OR_BACKSLASH = re.compile(f"[{_CONTROL}\\\\]")
_C_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\\": "\\\\"}


def escape_character(match: re.Match) -> str:
    """The C-style escape of one matched character (a byte that was not UTF-8 as `\\xNN`)."""
    char = match.group()
    if char in _C_ESCAPES:
        return _C_ESCAPES[char]
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}"


def printable(name: str) -> str:
    """A file name as a terminal shows it safely, escaped as `ls -b` does.

    Control characters become C escapes (`\\n`, `\\t`, `\\x1b`), a byte that
    is not UTF-8 becomes `\\xNN`, a backslash `\\\\`: one name, one line, and
    no two names print alike.
    """
    return _UNPRINTABLE_OR_BACKSLASH.sub(escape_character, name)


def one_line(text: str) -> str:
    """A message on one line: control characters escaped as in printable(), backslashes kept."""
    return _UNPRINTABLE.sub(escape_character, text)


def lossy(value: str) -> str:
    """Text strict UTF-8 readers accept: each byte that was not UTF-8 becomes U+FFFD.

    Script text and names are decoded with surrogateescape, so such a byte is
    a lone surrogate, which Rust's serde_json rejects and Go replaces.
    """
    return _LONE_SURROGATE.sub("\ufffd", value)


def exact_bytes(value: str) -> str | None:
    """The exact bytes behind value as base64, when lossy(value) lost some; else None."""
    if not _LONE_SURROGATE.search(value):
        return None
    import base64  # only for a name that is not valid UTF-8

    return base64.b64encode(value.encode("utf-8", "surrogateescape")).decode("ascii")


# What was not parsed, and how parts were read: said alike in every format.


def parse_failure_text(index: LineIndex, failure: ParseFailure) -> str:
    """What a parse failure says, true of what was checked: its lines were not (but for complete
    statements inside them), the rest of the file was."""
    first, last = _lines_of(index, failure.start, failure.end)
    text = index.source.rstrip()
    if first != last and last >= _lines_of(index, len(text) - 1, len(text))[1]:
        return f"could not parse from line {first} to the end of the file; lines before it were checked"
    where = f"line {first}" if first == last else f"lines {first}–{last}"
    return f"could not parse {where}; the rest of the file was checked"


@dataclass(frozen=True)
class NoteGroup:
    """The notes of one file with one cause and outcome, said once (`pipelint: note: …`)."""

    notes: tuple[Note, ...]
    text: str

    @property
    def start(self) -> int:
        return self.notes[0].start

    @property
    def end(self) -> int:
        return self.notes[-1].end


def note_groups(report: FileReport, verbose: bool) -> list[NoteGroup]:
    """One group per cause and outcome, in order of the first place; without verbose only what was not checked
    and no finding says: a repair that lost nothing, or a stretch that is also a parse failure, is verbose only."""
    key = lambda note: (note.cause.value, note.checked)  # noqa: E731
    groups = []
    for (_, checked), members in groupby(sorted(report.notes, key=key), key=key):
        notes = tuple(sorted(members, key=lambda note: note.start))
        shown = notes[0].cause is NoteCause.UNREADABLE and not checked
        if shown or verbose:
            groups.append(NoteGroup(notes, _note_text(report, notes)))
    return sorted(groups, key=lambda group: group.start)


def _note_text(report: FileReport, notes: tuple[Note, ...]) -> str:
    lines, several = _line_list(report, notes)
    cause, checked = notes[0].cause, notes[0].checked
    them = "them" if several else "it"
    if cause is NoteCause.UNREADABLE:
        return (
            f"{lines} not checked: tree-sitter-bash cannot parse {them}, but the shell accepts the script "
            f"(`--strict-parse` reports {'them as parse errors' if several else 'it as a parse error'})"
        )
    if cause is NoteCause.JOINED:
        issues = sorted({note.issue for note in notes if note.issue})
        known = f" (tree-sitter-bash {', '.join(issues)})" if issues else ""
        done = "each piece was checked" if checked else "what could not be split was not checked"
        each = " each" if len(notes) > 1 else ""
        return (
            f"tree-sitter-bash joined {lines} into one statement{each}{known}; "
            f"pipelint split them where bash does, and {done}"
        )
    if cause is NoteCause.REREAD:
        return (
            f"tree-sitter-bash cannot parse {lines}; pipelint read {them} as bash does (`<>` as `<` on its "
            f"descriptor, an expansion as a computed word), checked {them}, and offers no fix there"
        )
    done = "read as bash reads it" if checked else "not checked, the statement or its body"
    return f"tree-sitter-bash misreads where the here-document at {lines} ends; {done}"


def _lines_of(index: LineIndex, start: int, end: int) -> tuple[int, int]:
    """The 1-based first and last lines of [start, end); an end right after a newline is on the line before."""
    first = index.line_of(start) + 1
    last = index.line_of(max(end - 1, start)) + 1
    return first, last


def _line_list(report: FileReport, notes: tuple[Note, ...]) -> tuple[str, bool]:
    """`line 3`, `lines 3–5`, `lines 3, 7–9`: the lines the notes cover, merged where they overlap; and
    whether that is more than one line."""
    merged: list[list[int]] = []
    for note in notes:
        first, last = _lines_of(report.index, note.start, note.end)
        if merged and first <= merged[-1][1]:  # overlapping; touching stretches stay apart (two statements)
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    pieces = [f"{first}" if first == last else f"{first}–{last}" for first, last in merged]
    single = len(merged) == 1 and merged[0][0] == merged[0][1]
    return ("line " if single else "lines ") + ", ".join(pieces), not single
