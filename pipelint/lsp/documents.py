"""One open document, linted: the text as bytes, its settings, and the report.

The editor holds text (str); the engine works on bytes.  The text is encoded
with "surrogateescape", so bytes that are not UTF-8 and that the client kept as
lone surrogates come back exactly; every offset the engine reports is mapped
back through `LineIndex`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from pygls.uris import to_fs_path
from tree_sitter import Tree

from pipelint import parse_guards
from pipelint.config import CONFIG_FILES, ConfigError, Settings, SettingsResolver
from pipelint.dialect import LANGUAGE_IDS, Dialect, shebang_shell
from pipelint.discovery import SHELL_EXTENSIONS, SHELL_INTERPRETERS
from pipelint.linter import FileReport, process
from pipelint.positions import LineIndex


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
    if path is not None and path.name.endswith(SHELL_EXTENSIONS):
        return True
    return shebang_shell(source[:256]) in SHELL_INTERPRETERS


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
    try:
        return SettingsLookup(SettingsResolver().for_path(target))
    except ConfigError as error:
        return SettingsLookup(Settings(root=folder), f"{error}; using the default settings until it is fixed")


@dataclass
class Snapshot:
    """A document at one version, with what the engine said about it."""

    uri: str
    version: int | None
    source: bytes
    path: Path | None
    settings: Settings
    report: FileReport | None  # None: not linted (not a shell script, or excluded)
    config_error: str | None = None
    text: str = ""  # as the editor sent it, to tell whether a later request sees the same text
    _fixed: dict = field(default_factory=dict, repr=False)

    @cached_property
    def index(self) -> LineIndex:
        return LineIndex(self.source)

    @cached_property
    def tree(self) -> Tree:
        """The parse the engine lints: tree-sitter-bash's misreads repaired (`parse_guards`)."""
        dialect = self.report.dialect if self.report is not None else Dialect.BASH
        return parse_guards.guard(self.source, dialect).tree

    @property
    def findings(self) -> list:
        return self.report.findings if self.report is not None else []

    def fixed_source(self) -> bytes | None:
        """The text after every fix `pipelint check --fix` would apply, or None if none applies.

        Computed once per snapshot: the same fixer, passes and safety as the CLI.
        """
        if "source" not in self._fixed:
            fixed = None
            if self.report is not None:
                result = process(self.source, self.uri, self.settings, self.path, fix=True)
                fixed = result.fixed_source
            self._fixed["source"] = fixed
        return self._fixed["source"]


def take_snapshot(uri: str, version: int | None, text: str, language_id: str | None, folder: Path) -> Snapshot:
    """Lint one document's current text with the settings of its folder."""
    source = to_bytes(text)
    path = document_path(uri)
    lookup = settings_for(path, folder)
    report = None
    excluded = path is not None and lookup.settings.is_excluded(path)
    if not excluded and is_shell_document(language_id, path, source):
        report = process(source, uri, lookup.settings, path)
    return Snapshot(uri, version, source, path, lookup.settings, report, lookup.error, text)
