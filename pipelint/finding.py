"""What a check reports: findings and the fixes they carry, where the parse failed, and rules that crashed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Applicability(Enum):
    """Who may apply a fix: --fix (safe), --unsafe-fixes (unsafe), nobody (display-only)."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


class FixAvailability(Enum):
    """What a rule promises about fixes, for `pipelint rule --all` and the docs."""

    NEVER = "never"
    SOMETIMES = "sometimes"
    ALWAYS = "always"


@dataclass(frozen=True, order=True)
class Edit:
    """Replace source[start:end] (byte offsets) with content."""

    start: int
    end: int
    content: bytes = b""

    @classmethod
    def insert(cls, at: int, content: bytes) -> "Edit":
        return cls(at, at, content)

    @classmethod
    def delete(cls, start: int, end: int) -> "Edit":
        return cls(start, end, b"")


def apply_edits(source: bytes, edits: Sequence[Edit]) -> bytes:
    """Apply non-overlapping byte edits; every byte outside them survives."""
    pieces = []
    cursor = 0
    for edit in sorted(edits):
        pieces.append(source[cursor : edit.start])
        pieces.append(edit.content)
        cursor = edit.end
    pieces.append(source[cursor:])
    return b"".join(pieces)


@dataclass(frozen=True)
class Fix:
    title: str  # imperative: "Redirect dump.sql into mysql"
    applicability: Applicability
    edits: tuple[Edit, ...] = ()

    @property
    def span(self) -> tuple[int, int]:
        return (min(e.start for e in self.edits), max(e.end for e in self.edits))


@dataclass(frozen=True)
class Measured:
    """What `pipelint trace` measured of the pipeline a finding sits in (`pipelint check --trace`)."""

    wall_s: float  # the time its processes ran, all runs together
    cpu_s: float  # user + system CPU of its processes
    bytes: int  # the most bytes one of its stages read or wrote

    def as_json(self) -> dict:
        return {"wall_s": round(self.wall_s, 6), "cpu_s": round(self.cpu_s, 6), "bytes": self.bytes}


@dataclass(frozen=True)
class Finding:
    code: str
    name: str
    severity: Severity
    message: str
    start: int  # byte offsets into the source
    end: int
    fix: Fix | None = None
    # Advice that is not an edit ("sort the file on the primary key first"):
    # shown beside the finding, never applied, and not counted as a fix.
    help: str | None = None
    measured: Measured | None = None  # set from a trace file (`pipelint check --trace`), never by a rule

    def with_fix(self, fix: Fix | None) -> "Finding":
        return replace(self, fix=fix)


@dataclass(frozen=True)
class RuleCrash:
    """A rule raised on one file: reported as an internal error, the other rules still ran."""

    code: str
    summary: str  # `ExceptionType: message`, one line
    traceback: str  # the formatted traceback, shown with --verbose


@dataclass(frozen=True)
class ParseFailure:
    """Where tree-sitter could not parse; the rest of the file is still checked."""

    start: int
    end: int


class NoteCause(Enum):
    """Why pipelint read part of a script otherwise than tree-sitter-bash's parse: the kinds of note."""

    JOINED = "joined"  # tree-sitter-bash joined lines into one statement; split where bash ends them
    HEREDOC_END = "heredoc-end"  # tree-sitter-bash ends a here-document elsewhere than bash
    UNREADABLE = "unreadable"  # tree-sitter-bash cannot parse it, yet the shell accepts the script: not checked
    REREAD = "reread"  # tree-sitter-bash cannot parse it; read as text of the same length that means it to every rule


@dataclass(frozen=True)
class Note:
    """Something the user should know about how a stretch of a script was read; never a finding.

    checked: the stretch was linted as bash reads it (the repair lost nothing);
    False: pipelint could not check it. issue: tree-sitter-bash's issue, if one is known.
    """

    cause: NoteCause
    start: int
    end: int
    checked: bool
    issue: str | None = None

    def moved(self, start: int, end: int) -> "Note":
        return replace(self, start=start, end=end)
