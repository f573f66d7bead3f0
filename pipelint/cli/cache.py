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
  without anyone remembering to add it here);
- the mount table PL102 reads (`--mounts` or /proc/self/mountinfo), when
  PL102 checks the file: a new NFS mount changes its findings.

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
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import tree_sitter_bash

import pipelint
from pipelint import __version__
from pipelint.finding import ParseFailure
from pipelint.engine.config import Settings
from pipelint.shell.dialect import Dialect
from pipelint.finding import Applicability, Edit, Finding, Fix, Note, NoteCause, Severity
from pipelint.engine.fixer import applicable

DEFAULT_DIR = ".pipelint_cache"
FILE_NAME = "lint-cache.json"
FORMAT = 4  # bumped when the layout of an entry changes (2: the parse guards' notes, 3: host, 4: notes by cause)
MOUNT_RULE = "PL102"  # the one rule whose findings depend on the machine's mounts


@dataclass(frozen=True)
class Entry:
    """A file's lint result: what `linter.process` reports without fixes."""

    findings: list[Finding]
    parse_failures: list[ParseFailure]
    dialect: Dialect
    notes: list[Note]  # how parts of the file were read: said again on a cached run
    host: str | None  # the kind of file holding scripts (a Dockerfile), None for a script


@functools.cache
def engine_fingerprint() -> str:
    """What the code that lints is: a change anywhere in it makes every entry stale."""
    digest = hashlib.blake2b(f"{FORMAT} {__version__}".encode(), digest_size=16)
    package = Path(pipelint.__file__).parent
    for path in sorted([*package.rglob("*.py"), *Path(tree_sitter_bash.__file__).parent.glob("*.so")]):
        try:
            status = path.stat()
        except OSError:
            continue
        digest.update(f"{path} {status.st_size} {status.st_mtime_ns}\n".encode())
    for name, value in sorted(os.environ.items()):
        if name.startswith("PIPELINT_"):
            digest.update(f"{name}={value}\n".encode())
    return digest.hexdigest()


def mount_fingerprint(mountinfo: str | None) -> str:
    """The mount table's hash; read once per run (`Caches`), as PL102 reads it once per process."""
    try:
        with open(mountinfo or "/proc/self/mountinfo", "rb") as handle:
            return hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
    except OSError:
        return "unreadable"


def key(source: bytes, path: Path, settings: Settings, codes: frozenset[str], mounts: str) -> str:
    """The entry's key: every input the findings of path depend on.

    codes: the rules that check it; mounts: the mount table's fingerprint.
    """
    digest = hashlib.blake2b(digest_size=20)
    digest.update(_run_part(engine_fingerprint(), settings, codes, mounts if MOUNT_RULE in codes else "-"))
    digest.update(b"%r\0" % os.fsencode(path))
    digest.update(source)
    return digest.hexdigest()


@functools.lru_cache(maxsize=64)
def _run_part(engine: str, settings: Settings, codes: frozenset[str], mounts: str) -> bytes:
    """What the files of one config share: formatted once, not per file (the repr of Settings is not cheap)."""
    return f"{engine}\0{settings!r}\0{sorted(codes)}\0{mounts}\0".encode()


def usable(entry: Entry, fix: bool, unsafe_fixes: bool) -> bool:
    """Whether the entry is what this run would report: a --fix run that would apply a fix must lint."""
    if not fix:
        return True
    # The fixer's own test, so the two cannot disagree.
    return not any(applicable(finding.fix, unsafe_fixes) for finding in entry.findings)


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

    @functools.cached_property
    def _default_folder(self) -> Path:
        """`.pipelint_cache` in the working folder, which one run does not change (asked once, not per file)."""
        return Path.cwd() / DEFAULT_DIR

    @functools.cached_property
    def mounts(self) -> str:
        return mount_fingerprint(self.mountinfo)

    def key(self, source: bytes, path: Path, settings: Settings) -> str:
        codes = _codes(settings, path if settings.per_file_ignores else None)
        return key(source, path, settings, codes, self.mounts)

    def for_settings(self, settings: Settings) -> Cache | None:
        if not self.enabled:
            return None
        folder = settings.cache_dir if settings.cache_dir is not None else self._default_folder
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
    return frozenset(rule.code for rule in settings.enabled_rules(path))


# JSON for an entry: bytes as base64, enums by value.


def _encode(entry: Entry) -> dict:
    return {
        "dialect": entry.dialect.value,
        "parse_failures": [[failure.start, failure.end] for failure in entry.parse_failures],
        "findings": [_encode_finding(finding) for finding in entry.findings],
        "notes": [[note.cause.value, note.start, note.end, note.checked, note.issue] for note in entry.notes],
        "host": entry.host,
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
    )


def _decode_finding(item: list) -> Finding:
    code, name, severity, message, start, end, encoded_fix, help_text = item
    fix = None
    if encoded_fix is not None:
        title, applicability, edits = encoded_fix
        fix = Fix(title, Applicability(applicability),
                  tuple(Edit(int(s), int(e), base64.b64decode(content)) for s, e, content in edits))  # fmt: skip
    return Finding(code, name, Severity(severity), message, int(start), int(end), fix, help_text)
