"""One open document: its text, how to lint it in a worker, and the result (a Snapshot).

The editor holds text (str); the engine works on bytes.  The text is encoded
with "surrogateescape", so bytes that are not UTF-8 and that the client kept as
lone surrogates come back exactly; every offset the engine reports is mapped
back through `LineIndex`.
"""

from __future__ import annotations

import pickle
import threading
import time
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from pygls.uris import to_fs_path
from tree_sitter import Tree

from pipelint.engine import config
from pipelint.shell import parse_guards, syntax
from pipelint.engine.config import CONFIG_FILES, ConfigError, Settings, SettingsResolver
from pipelint.shell.dialect import LANGUAGE_IDS, detect, is_shell_text
from pipelint.finding import RuleCrash
from pipelint.engine.linter import FileReport, host_kind, process
from pipelint.finding import Finding
from pipelint.lsp import provisional
from pipelint.lsp.diagnostics import diagnostics_json, moved_findings_json
from pipelint.lsp.reparse import LastParses, reparse
from pipelint.shell.positions import Encoding, LineBreaks, LineIndex

MIB = 1024 * 1024
# Documents bigger than this are not linted as you type.  A 5,000-line script
# (128 KB) takes 0.35-0.6 s to lint on the 2-core VM of docs/editors.md, so
# 1 MiB is 3-5 s per lint in the worker, the most worth repeating after each
# pause in typing.  Not the CLI's max-file-size (8 MiB by default): that
# bounds what `pipelint check` reads at all; 8 MiB would be 25-40 s a pause.
LIVE_LINT_BYTES = 1 * MIB


def to_bytes(text: str) -> bytes:
    """The document's bytes; raw bytes the client kept as lone surrogates come back exactly."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        # A lone surrogate outside U+DC80..U+DCFF (sent as a JSON escape):
        # "?" keeps it one character and one UTF-16 unit wide, so positions hold.
        return text.encode("utf-8", "replace")


def document_path(uri: str) -> Path | None:
    """The file behind a file: URI; None for untitled buffers and other schemes."""
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return Path(path) if path else None


def is_config_file(path: Path | None) -> bool:
    return path is not None and path.name in CONFIG_FILES


def is_shell_document(language_id: str | None, path: Path | None, source: bytes) -> bool:
    """What the editor calls shell, or what `pipelint check` would pick in a folder."""
    if is_config_file(path):
        return False
    if language_id and language_id.lower() in LANGUAGE_IDS:
        return True
    return is_shell_text(path.name if path is not None else None, source)


@dataclass(frozen=True)
class SettingsLookup:
    settings: Settings
    error: str | None = None  # a config file that could not be used; defaults apply meanwhile


def settings_for(path: Path | None, folder: Path) -> SettingsLookup:
    """The CLI's settings for the document: the closest config file of its folder.

    An untitled buffer takes the settings of the workspace folder.  A broken
    config file does not stop linting: the defaults apply and the error is
    returned for the editor to show.
    """
    target = path if path is not None else folder / "untitled"
    # Read the config files and real paths afresh: a worker process does not see the
    # editor's file events, and the lookup costs 0.1-0.3 ms (tests/benchmarks/bench_lsp.py).
    config.read_afresh()
    try:
        return SettingsLookup(SettingsResolver().for_path(target))
    except ConfigError as error:
        return SettingsLookup(Settings(root=folder), f"{error}; using the default settings until it is fixed")


@dataclass(eq=False)
class DocumentText:
    """One version of an open document, and the facts that cost a pass over it.

    `index` and `tree` are computed on first use and kept for this version.
    """

    uri: str
    version: int | None
    text: str  # as the editor sent it
    language_id: str | None = None
    # An earlier version's source and tree-sitter parse, to start this one's from (reparse.py); dropped once used.
    base: tuple[bytes, Tree] | None = field(default=None, repr=False)

    @cached_property
    def source(self) -> bytes:
        return to_bytes(self.text)

    @cached_property
    def path(self) -> Path | None:
        return document_path(self.uri)

    @cached_property
    def index(self) -> LineIndex:
        # The client's lines: a lone "\r" ends one too (bash disagrees; the CLI follows bash).
        return LineIndex(self.source, LineBreaks.LSP)

    @cached_property
    def parse(self) -> Tree:
        """tree-sitter's own parse of the source: incremental from the base when there is one."""
        base, self.base = self.base, None
        return syntax.parse(self.source) if base is None else reparse(*base, self.source)

    def handover(self) -> tuple[bytes, Tree] | None:
        """What the next version's parse can start from: this one's if made, else this one's base."""
        parsed = self.__dict__.get("parse")
        return (self.source, parsed) if parsed is not None else self.base

    @cached_property
    def tree(self) -> Tree:
        """The parse the engine lints: tree-sitter-bash's misreads repaired (`parse_guards`)."""
        # The dialect as the linter detects it (`linter.lint` names the file by its path).
        dialect = detect(self.source, str(self.path) if self.path is not None else None)
        return parse_guards.guard(self.source, dialect, self.parse).tree

    def is_text_of(self, version: int | None, text: str) -> bool:
        return self.version == version and self.text == text


def too_large(document: DocumentText) -> bool:
    return len(document.source) > LIVE_LINT_BYTES


def too_large_message(document: DocumentText, what: str = "lint") -> str:
    size = len(document.source) / MIB
    return (
        f"too large to {what} live: {size:.1f} MiB > {LIVE_LINT_BYTES / MIB:g} MiB; "
        f"run pipelint check{' --fix' if what == 'fix' else ''} on the file"
    )


# In a worker: each document's last parse, for the next lint's to start from (reparse.py).
LAST_PARSES = LastParses()


@dataclass(frozen=True)
class LintJob:
    """What a worker needs to lint a document: plain data, so it can cross to a process."""

    uri: str
    source: bytes
    language_id: str | None
    folder: Path
    encoding: Encoding = Encoding.UTF16  # the client's positions, for the diagnostics' JSON

    @classmethod
    def of(cls, document: DocumentText, folder: Path, encoding: Encoding = Encoding.UTF16) -> LintJob:
        return cls(document.uri, document.source, document.language_id, folder, encoding)


@dataclass(frozen=True)
class PackedReport:
    """A FileReport pickled in the worker process, unpickled in the server only when something reads it."""

    pickled: bytes

    def unpack(self) -> FileReport | None:
        return pickle.loads(self.pickled)


@dataclass
class LintResult:
    settings: Settings
    # None: not linted (not a shell script, or excluded); packed once it has crossed from a worker process.
    report: FileReport | PackedReport | None
    config_error: str | None = None
    diagnostics: str = "[]"  # the report's diagnostics as JSON, written in the worker (diagnostics.py)
    crashes: list[RuleCrash] = field(default_factory=list)  # the report's, logged when the result arrives
    # What a provisional lint of a later text starts from (provisional.py); None: none may.
    baseline: provisional.Baseline | None = None

    def __getstate__(self) -> dict:
        # The diagnostics go out before anything reads the report: ~1,000 findings
        # cost 7-15 ms to unpickle (bench_lsp.py, "pickle"), off the loop's path
        # this way (code actions read it, after the diagnostics are out).
        state = dict(self.__dict__)
        if isinstance(self.report, FileReport):
            state["report"] = PackedReport(pickle.dumps(self.report, pickle.HIGHEST_PROTOCOL))
        return state


def _lintable(job: LintJob, settings: Settings) -> bool:
    """A shell document, or one that holds scripts (a Dockerfile, a workflow: by name, or `dockerfile` by language id)."""
    path = document_path(job.uri)
    if path is not None and settings.is_excluded(path):
        return False
    return host_kind(settings, path, job.language_id) is not None or is_shell_document(job.language_id, path, job.source)


def lint_document(job: LintJob) -> LintResult:
    """Lint one document's text with the settings of its folder (runs in the worker)."""
    path = document_path(job.uri)
    lookup = settings_for(path, job.folder)
    report = None
    baseline = None
    if _lintable(job, lookup.settings):
        script = host_kind(lookup.settings, path, job.language_id) is None
        tree = LAST_PARSES.parse(job.uri, job.source) if script else None
        if tree is None:
            report = process(job.source, job.uri, lookup.settings, path, language_id=job.language_id)
        else:
            report, baseline = provisional.exact_lint(job.source, job.uri, lookup.settings, path, tree, job.language_id)
            baseline = baseline if lookup.error is None else None
            if baseline is not None:
                LAST_BASES.keep(job.uri, job.source, report.findings)
    found = diagnostics_json(report, LineIndex(job.source, LineBreaks.LSP), job.encoding)
    crashes = report.crashes if report is not None else []
    return LintResult(lookup.settings, report, lookup.error, found, crashes, baseline)


class LastBases:
    """In a worker: the findings of each document's last exact lint seen here, for provisional lints to start from.

    A provisional lint's job carries the exact lint's report pickled (the
    server keeps it so); unpickling ~1,000 findings costs 7-15 ms
    (bench_lsp.py, "unpack"), paid once per exact lint and worker, or never
    in the worker that made it.
    """

    KEPT = 8

    def __init__(self) -> None:
        self._kept: dict[str, tuple[bytes, list[Finding]]] = {}
        self._lock = threading.Lock()

    def keep(self, uri: str, source: bytes, findings: list[Finding]) -> None:
        with self._lock:
            self._kept.pop(uri, None)
            self._kept[uri] = (source, findings)
            while len(self._kept) > self.KEPT:
                del self._kept[next(iter(self._kept))]

    def findings(self, uri: str, source: bytes, report: FileReport | PackedReport) -> list[Finding]:
        with self._lock:
            kept = self._kept.get(uri)
        if kept is not None and kept[0] == source:
            return kept[1]
        unpacked = report.unpack() if isinstance(report, PackedReport) else report
        findings = unpacked.findings if unpacked is not None else []
        self.keep(uri, source, findings)
        return findings


LAST_BASES = LastBases()


@dataclass(frozen=True)
class ProvisionalJob:
    """A provisional lint (provisional.py): the document's text, and its last exact lint to start from."""

    job: LintJob
    base_source: bytes
    base_report: FileReport | PackedReport
    baseline: provisional.Baseline
    base_settings: Settings

    @classmethod
    def of(cls, job: LintJob, base: Snapshot) -> ProvisionalJob:
        assert base.result.report is not None and base.result.baseline is not None
        return cls(job, base.source, base.result.report, base.result.baseline, base.settings)


@dataclass(frozen=True)
class ProvisionalResult:
    diagnostics: str | None  # the diagnostics' JSON; None: no provisional result (reason says why)
    reason: str = ""
    took: float = 0.0  # seconds in the worker


def provisional_document(job: ProvisionalJob) -> ProvisionalResult:
    """The provisional diagnostics of a document's text (runs in the worker)."""
    started = time.perf_counter()
    result = _provisional_document(job)
    return replace(result, took=time.perf_counter() - started)


def _provisional_document(job: ProvisionalJob) -> ProvisionalResult:
    lint = job.job
    path = document_path(lint.uri)
    lookup = settings_for(path, lint.folder)
    if lookup.error is not None or not _lintable(lint, lookup.settings):
        return ProvisionalResult(None, "not linted as a script with these settings")
    if host_kind(lookup.settings, path, lint.language_id) is not None:
        return ProvisionalResult(None, "not a script")
    findings = LAST_BASES.findings(lint.uri, job.base_source, job.base_report)
    base = provisional.Base(job.base_source, findings, job.baseline, job.base_settings)
    tree = LAST_PARSES.parse(lint.uri, lint.source)
    try:
        moved = provisional.lint_moved(base, lint.source, tree, lookup.settings, path)
    except provisional.Skipped as reason:
        return ProvisionalResult(None, str(reason))
    return ProvisionalResult(moved_findings_json(moved, LineIndex(lint.source, LineBreaks.LSP), lint.encoding))


def fix_document(job: LintJob) -> bytes | None:
    """The text after every fix `pipelint check --fix` would apply; None if none applies (runs in the worker).

    The same fixer, passes and safety as the CLI, with the settings of the document's folder.
    """
    path = document_path(job.uri)
    settings = settings_for(path, job.folder).settings
    if not _lintable(job, settings):
        return None
    return process(job.source, job.uri, settings, path, fix=True, language_id=job.language_id).fixed_source


@dataclass(eq=False)
class Snapshot:
    """A document at one version, with what the engine said about it."""

    document: DocumentText
    result: LintResult

    @classmethod
    def of(cls, document: DocumentText, result: LintResult) -> Snapshot:
        return cls(document, result)

    @cached_property
    def report(self) -> FileReport | None:
        """None: not linted (not a shell script, or excluded)."""
        report = self.result.report
        return report.unpack() if isinstance(report, PackedReport) else report

    @property
    def settings(self) -> Settings:
        return self.result.settings

    @property
    def config_error(self) -> str | None:
        return self.result.config_error

    @property
    def diagnostics(self) -> str:
        """As JSON, for publishDiagnostics."""
        return self.result.diagnostics

    @property
    def crashes(self) -> list[RuleCrash]:
        return self.result.crashes

    @property
    def uri(self) -> str:
        return self.document.uri

    @property
    def version(self) -> int | None:
        return self.document.version

    @property
    def source(self) -> bytes:
        return self.document.source

    @property
    def index(self) -> LineIndex:
        return self.document.index

    @property
    def tree(self) -> Tree:
        return self.document.tree

    @property
    def findings(self) -> list:
        return self.report.findings if self.report is not None else []
