"""What `pipelint check` found in a file last time, so an unchanged file is not linted again.

As ruff's cache: one entry per file, keyed by everything its findings depend
on, and a second run over an unchanged tree costs reading and hashing. The
key hashes
- the file's bytes;
- the engine: pipelint's version and its modules (size and mtime, so a
  checkout being edited never answers from stale code), tree-sitter-bash's
  library, and the `PIPELINT_*` environment variables;
- the path as named (the dialect follows the extension) and the file's
  effective settings, all of them (`Settings` repr: a new setting counts
  without anyone remembering to add it here).

What a lint reads from outside the file (`facts/outside.py`: the mount table
PL102 reads, the scripts beside the file PL103 reads, the shell that judges a
script tree-sitter-bash cannot parse) is not in the key: the
entry keeps a fingerprint of each such input the lint read, taken before the
lint, and a lookup whose fingerprints no longer match is a miss. A file
whose lint read none of them (most files: PL103 reads the folder only for a
finding it is about to report) stays cached whatever happens beside it.

Entries live in one JSON file, `.pipelint_cache/lint-cache.json` (config
`cache-dir`), read at the start and written at the end of a run with only the
entries that run used: the cache is pruned as it is written. JSON, not
pickle: a cache folder may come with a checked-out repository, and reading it
must not run code. A corrupt or unreadable cache is an empty one and is
rewritten; one that cannot be written is skipped. The write is atomic
(rename of a complete temporary file), so two concurrent runs both succeed;
the last to finish leaves its entries.

A result with an internal error is not kept (the next run tries again). A
`--fix` run uses an entry only when none of its findings has a fix the run
may apply: then the run's output is the lint's, as without the cache.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.util
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pipelint
from pipelint import __version__
from pipelint.finding import ParseFailure
from pipelint.engine.config import Settings
from pipelint.shell.dialect import Dialect
from pipelint.finding import Applicability, Edit, Finding, Fix, Note, NoteCause, Severity

# What a lint read from outside the file is fingerprinted by facts/outside.py, imported for a file
# linted or an entry whose lint read something: a run answered from the cache mostly needs neither.
if TYPE_CHECKING:
    from pipelint.facts.outside import Outside

DEFAULT_DIR = ".pipelint_cache"
FILE_NAME = "lint-cache.json"
# Bumped when the layout of an entry changes (2: the parse guards' notes, 3: host, 4: notes by cause, 5: outside).
FORMAT = 5


@dataclass(frozen=True)
class Entry:
    """A file's lint result: what `linter.process` reports without fixes."""

    findings: list[Finding]
    parse_failures: list[ParseFailure]
    dialect: Dialect
    notes: list[Note]  # how parts of the file were read: said again on a cached run
    host: str | None  # the kind of file holding scripts (a Dockerfile), None for a script
    # The fingerprint of each outside input the lint read, by `Outside` name, as it was before the lint.
    outside_read: dict[str, str] = field(default_factory=dict)


@functools.cache
def engine_fingerprint() -> str:
    """What the code that lints is: a change anywhere in it makes every entry stale."""
    digest = hashlib.blake2b(f"{FORMAT} {__version__}".encode(), digest_size=16)
    files = _files_ending(os.path.dirname(pipelint.__file__), ".py")
    grammar = importlib.util.find_spec("tree_sitter_bash")  # found, not imported: a cached run parses nothing
    if grammar is not None and grammar.origin is not None:
        files += _files_ending(os.path.dirname(grammar.origin), ".so", recurse=False)
    for path, status in sorted(files):
        digest.update(f"{path} {status.st_size} {status.st_mtime_ns}\n".encode())
    for name, value in sorted(os.environ.items()):
        if name.startswith("PIPELINT_"):
            digest.update(f"{name}={value}\n".encode())
    return digest.hexdigest()


def _files_ending(folder: str, suffix: str, recurse: bool = True) -> list[tuple[str, os.stat_result]]:
    """(path, status) of the files below folder whose names end with suffix; one scandir per folder
    (Path.rglob and a stat per file cost 8 ms of a one-file run's start)."""
    found: list[tuple[str, os.stat_result]] = []
    folders = [folder]
    while folders:
        try:
            with os.scandir(folders.pop()) as entries:
                for entry in entries:
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            if recurse and entry.name != "__pycache__":
                                folders.append(entry.path)
                        elif entry.name.endswith(suffix):
                            found.append((entry.path, entry.stat()))
                    except OSError:
                        continue
        except OSError:
            continue
    return found


def key(source: bytes, path: Path, settings: Settings, codes: frozenset[str]) -> str:
    """The entry's key: every input the findings of path depend on but those outside it (`Entry.outside`).

    codes: the rules that check it.
    """
    digest = hashlib.blake2b(digest_size=20)
    digest.update(_run_part(engine_fingerprint(), settings, codes))
    digest.update(b"%r\0" % os.fsencode(path))
    digest.update(source)
    return digest.hexdigest()


@functools.lru_cache(maxsize=64)
def _run_part(engine: str, settings: Settings, codes: frozenset[str]) -> bytes:
    """What the files of one config share: formatted once, not per file (the repr of Settings is not cheap)."""
    return f"{engine}\0{settings!r}\0{sorted(codes)}\0".encode()


def usable(entry: Entry, fix: bool, unsafe_fixes: bool) -> bool:
    """Whether the entry is what this run would report: a --fix run that would apply a fix must lint."""
    if not fix:
        return True
    from pipelint.engine.fixer import applicable  # the fixer's own test, so the two cannot disagree

    return not any(applicable(finding.fix, unsafe_fixes) for finding in entry.findings)


def current(entry: Entry, now: dict[str, str]) -> bool:
    """The outside inputs the entry's lint read are as they were: the entry still answers for the file."""
    return all(now.get(name) == was for name, was in entry.outside_read.items())


def entry_of(findings: list[Finding], parse_failures: list[ParseFailure], dialect: Dialect, notes: list[Note],
             host: str | None, read: frozenset[Outside], now: dict[str, str]) -> Entry | None:  # fmt: skip
    """An entry for a lint that read `read` from outside, with those inputs' fingerprints from `now`.

    None (not cached) when it read an input no rule checking it declared: there is no fingerprint of
    it from before the lint.
    """
    if any(kind.name not in now for kind in read):
        return None
    return Entry(findings, parse_failures, dialect, notes, host, {kind.name: now[kind.name] for kind in read})


@dataclass
class Cache:
    """One cache folder's entries: those read at the start, and those this run used."""

    folder: Path
    _known: dict[str, dict] = field(default_factory=dict)
    _used: dict[str, dict] = field(default_factory=dict)
    _changed: bool = False

    @classmethod
    def open(cls, folder: Path) -> Cache:
        cache = cls(folder)
        try:
            with open(folder / FILE_NAME, "rb") as handle:
                data = json.loads(handle.read())
            if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("entries"), dict):
                cache._known = data["entries"]
        except (OSError, ValueError):  # none yet, unreadable, or corrupt: start empty and rewrite it
            cache._changed = True
        return cache

    def get(self, key: str) -> Entry | None:
        raw = self._used.get(key) or self._known.get(key)
        if raw is None:
            return None
        try:
            entry = _decode(raw)
        except (KeyError, TypeError, ValueError):  # a damaged entry: lint the file again
            return None
        self._used[key] = raw
        return entry

    def put(self, key: str, entry: Entry) -> None:
        self._used[key] = _encode(entry)
        self._changed = True

    def save(self) -> None:
        """Write the entries this run used, and only those; silently skipped when the folder is not writable."""
        if not self._changed and self._used.keys() == self._known.keys():
            return
        import tempfile

        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            _write_marker_files(self.folder)
            data = json.dumps({"format": FORMAT, "entries": self._used}, separators=(",", ":")).encode()
            descriptor, temporary = tempfile.mkstemp(prefix=".lint-cache-", dir=self.folder)
            try:
                os.fchmod(descriptor, 0o666 & ~_umask())  # mkstemp's 0600 would lock other users out
                with os.fdopen(descriptor, "wb") as handle:
                    handle.write(data)
                os.replace(temporary, self.folder / FILE_NAME)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            pass  # a read-only checkout: the run's results stand, the next run lints again


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_marker_files(folder: Path) -> None:
    """As ruff does: the cache keeps itself out of git, and backup tools may skip it (CACHEDIR.TAG)."""
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# Automatically created by pipelint.\n*\n")
    tag = folder / "CACHEDIR.TAG"
    if not tag.exists():
        tag.write_text("Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by pipelint.\n")


class Caches:
    """The cache folders of one run (files under different config files may name different ones)."""

    def __init__(self, enabled: bool, mountinfo: str | None = None):
        self.enabled = enabled
        self.mountinfo = mountinfo
        self._open: dict[Path, Cache] = {}
        self._fingerprints: dict[tuple[Outside, str], str] = {}

    @functools.cached_property
    def _default_folder(self) -> Path:
        """`.pipelint_cache` in the working folder, which one run does not change (asked once, not per file)."""
        return Path.cwd() / DEFAULT_DIR

    def key(self, source: bytes, path: Path, settings: Settings) -> str:
        return key(source, path, settings, _codes(settings, path if settings.per_file_ignores else None))

    def outside_read_by(self, entry: Entry, path: Path) -> dict[str, str]:
        """The fingerprint, taken now, of each outside input the entry's lint read (`current` compares them):
        a lookup fingerprints only those, and so imports no rule to learn what the rules may read."""
        if not entry.outside_read:  # most entries: the lint read nothing from outside the file
            return {}
        from pipelint.facts.outside import Outside

        kinds = [Outside[name] for name in entry.outside_read if name in Outside.__members__]
        return {kind.name: self._fingerprint(kind, os.fspath(path)) for kind in kinds}

    def outside_now(self, path: Path, settings: Settings) -> dict[str, str]:
        """The fingerprint of every outside input the rules checking path may read, taken now (before its lint).

        Once per run for the mount table and once per folder for the scripts in it: a run does not
        see its own writes (a --fix of a sibling) as a change, the next run does.
        """
        kinds = _outside_kinds(settings, path if settings.per_file_ignores else None)
        return {kind.name: self._fingerprint(kind, os.fspath(path)) for kind in kinds}

    def _fingerprint(self, kind: Outside, path: str) -> str:
        from pipelint.facts.outside import Outside, fingerprint, folder_of

        place = folder_of(path) if kind is Outside.SIBLING_SCRIPTS else ""
        known = self._fingerprints.get((kind, place))
        if known is None:
            known = self._fingerprints[(kind, place)] = fingerprint(kind, path, self.mountinfo)
        return known

    def may_answer(self, settings: Settings) -> bool:
        """Whether files under these settings may be answered from the cache: it is on and its file exists."""
        return self.enabled and (self._folder(settings) / FILE_NAME).is_file()

    def _folder(self, settings: Settings) -> Path:
        return settings.cache_dir if settings.cache_dir is not None else self._default_folder

    def for_settings(self, settings: Settings) -> Cache | None:
        if not self.enabled:
            return None
        folder = self._folder(settings)
        cache = self._open.get(folder)
        if cache is None:
            cache = self._open[folder] = Cache.open(folder)
        return cache

    def save(self) -> None:
        for cache in self._open.values():
            cache.save()


@functools.lru_cache(maxsize=256)
def _codes(settings: Settings, path: Path | None) -> frozenset[str]:
    """The rules that check path; path None where no per-file-ignores make them differ by file."""
    return settings.enabled_codes(path)


@functools.lru_cache(maxsize=256)
def _outside_kinds(settings: Settings, path: Path | None) -> frozenset[Outside]:
    """What the lint of path may read from outside it: the engine's inputs and its rules' (`Rule.reads_outside`)."""
    from pipelint.facts.outside import ENGINE_READS  # for a file linted: its rules are imported for it anyway

    return ENGINE_READS | {kind for rule in settings.enabled_rules(path) for kind in rule.reads_outside}


# JSON for an entry: bytes as base64, enums by value.


def _encode(entry: Entry) -> dict:
    return {
        "dialect": entry.dialect.value,
        "parse_failures": [[failure.start, failure.end] for failure in entry.parse_failures],
        "findings": [_encode_finding(finding) for finding in entry.findings],
        "notes": [[note.cause.value, note.start, note.end, note.checked, note.issue] for note in entry.notes],
        "host": entry.host,
        "outside": entry.outside_read,
    }


def _encode_finding(finding: Finding) -> list:
    fix = finding.fix
    encoded_fix = None
    if fix is not None:
        edits = [[edit.start, edit.end, base64.b64encode(edit.content).decode()] for edit in fix.edits]
        encoded_fix = [fix.title, fix.applicability.value, edits]
    return [finding.code, finding.name, finding.severity.value, finding.message, finding.start, finding.end,
            encoded_fix, finding.help]  # fmt: skip


def _decode(raw: dict) -> Entry:
    return Entry(
        findings=[_decode_finding(item) for item in raw["findings"]],
        parse_failures=[ParseFailure(int(start), int(end)) for start, end in raw["parse_failures"]],
        dialect=Dialect(raw["dialect"]),
        notes=[
            Note(NoteCause(cause), int(start), int(end), bool(checked), None if issue is None else str(issue))
            for cause, start, end, checked, issue in raw["notes"]
        ],
        host=None if raw["host"] is None else str(raw["host"]),
        outside_read={str(name): str(value) for name, value in raw["outside"].items()},
    )


def _decode_finding(item: list) -> Finding:
    code, name, severity, message, start, end, encoded_fix, help_text = item
    fix = None
    if encoded_fix is not None:
        title, applicability, edits = encoded_fix
        fix = Fix(title, Applicability(applicability),
                  tuple(Edit(int(s), int(e), base64.b64decode(content)) for s, e, content in edits))  # fmt: skip
    return Finding(code, name, Severity(severity), message, int(start), int(end), fix, help_text)
