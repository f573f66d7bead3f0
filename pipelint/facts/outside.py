"""Everything a rule may read from outside the file it checks: declared here, read through here.

The results cache (`cli/cache.py`) answers for a file from its bytes, its
settings and the engine. A finding that also depends on something else would
be answered stale from it (issue 25: PL103 read the scripts beside the file,
and after one of them started naming the file, the cached run still reported
it). So each such input is an `Outside`, a rule that may read one declares it
(`Rule.reads_outside`), reads it only through the lint's `OutsideReads`
(`context.outside`), which records the read, and the cache keeps a
`fingerprint` of every input the lint read beside the entry: when one
differs, the file is linted again.

The inputs:
- the machine's mount table (`/proc/self/mountinfo`, or `--mounts FILE`):
  PL102 asks which paths lie on NFS, CIFS, sshfs…;
- the scripts in the file's folder: PL103 asks whether one of them names
  the file a `tee` writes;
- the shells installed (found on PATH): where tree-sitter-bash cannot parse
  a script, the engine asks the script's shell (`bash -n`) whether it reads
  it, and reports a note instead of a parse error if so
  (`shell/acceptance.py`); a rule declares nothing for it, the engine may
  read it for every file (`ENGINE_READS`).

What is read before the lint — the config file and `.shellcheckrc` (into
`Settings`), `PIPELINT_*` variables and the code (the engine's fingerprint) —
is in the cache key itself. No other module of the lint opens a file or
lists a folder (`tests/test_architecture.py`).
"""

from __future__ import annotations

import hashlib
import os
from enum import Enum
from pathlib import Path

from pipelint.facts import mounts
from pipelint.shell import acceptance
from pipelint.shell.dialect import Dialect, is_shell_script


class Outside(Enum):
    """An input of a lint that is not the file's bytes nor its settings."""

    MOUNT_TABLE = "the machine's mount table"
    SIBLING_SCRIPTS = "the other scripts in the file's folder"
    INSTALLED_SHELLS = "the shells that judge a script tree-sitter-bash cannot parse"


# What the engine itself may read for any file, whatever the rules (`Rule.reads_outside` holds the rules').
ENGINE_READS = frozenset({Outside.INSTALLED_SHELLS})


# PL103 reads the folder only for a finding about to be reported; caps keep it cheap in a folder of
# thousands of files (a script is rarely over 1 MiB).
MAX_SIBLINGS = 500
MAX_SIBLING_BYTES = 1 << 20
_MAX_KEPT_BYTES = 16 << 20  # what one file's lint keeps of its siblings between findings


class OutsideReads:
    """The outside inputs of one file's lint (the scripts inside it included), and which were read."""

    def __init__(self, path: str | None = None, mountinfo: str | None = None):
        self.path = path
        self.mountinfo = mountinfo
        self.read: set[Outside] = set()
        self._siblings: SiblingScripts | None = None

    def mount_table(self) -> mounts.MountTable:
        """The system's mounts (parsed once per process)."""
        self.read.add(Outside.MOUNT_TABLE)
        return mounts.load(self.mountinfo)

    def shell_accepts(self, source: bytes, dialect: Dialect) -> bool | None:
        """`acceptance.shell_accepts`: whether the dialect's installed shell reads source without a syntax error."""
        self.read.add(Outside.INSTALLED_SHELLS)
        return acceptance.shell_accepts(source, dialect)

    def sibling_scripts(self) -> SiblingScripts:
        """The scripts beside the file, read lazily and once per lint."""
        self.read.add(Outside.SIBLING_SCRIPTS)
        if self._siblings is None:
            self._siblings = SiblingScripts(self.path)
        return self._siblings


class SiblingScripts:
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
                    self._entries = _sorted_entries(folder_of(self._path))
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
                    text = handle.read(MAX_SIBLING_BYTES)
        except OSError:
            pass
        if index == len(self._kept) and self._kept_bytes + len(text or b"") <= _MAX_KEPT_BYTES:
            self._kept.append(text)
            self._kept_bytes += len(text or b"")
        return text


def folder_of(path: str) -> str:
    return os.path.dirname(path) or "."


def _sorted_entries(folder: str) -> list[os.DirEntry]:
    return sorted(os.scandir(folder), key=lambda entry: entry.name)[:MAX_SIBLINGS]


def fingerprint(kind: Outside, path: str | None, mountinfo: str | None) -> str:
    """What the input is now, for the cache: equal fingerprints, equal answers.

    The shells by which one judges each dialect and that file's size, time
and inode. The mount table by its bytes. The folder by what PL103 reads of it: the
    first MAX_SIBLINGS names and, for each, its type, size, modification time
    and inode (a script edited in place or replaced changes one of them).
    """
    digest = hashlib.blake2b(digest_size=16)
    if kind is Outside.INSTALLED_SHELLS:
        for dialect in acceptance.JUDGES:
            judge = acceptance.judge(dialect)
            try:
                status = os.stat(judge) if judge is not None else None
            except OSError:
                status = None
            described = "-" if status is None else f"{status.st_size} {status.st_mtime_ns} {status.st_ino}"
            digest.update(f"{dialect.value} {judge} {described}\n".encode())
        return digest.hexdigest()
    if kind is Outside.MOUNT_TABLE:
        try:
            with open(mountinfo or mounts.PROC_MOUNTINFO, "rb") as handle:
                digest.update(handle.read())
        except OSError:
            return "unreadable"
        return digest.hexdigest()
    if path is None:
        return "-"
    try:
        entries = _sorted_entries(folder_of(path))
    except OSError:
        return "unreadable"
    for entry in entries:
        try:
            status = entry.stat()  # followed, as is_file() follows it
            digest.update(b"%s\0%o %d %d %d\n" % (os.fsencode(entry.name), status.st_mode, status.st_size,
                                                   status.st_mtime_ns, status.st_ino))  # fmt: skip
        except OSError:
            digest.update(b"%s\0-\n" % os.fsencode(entry.name))
    return digest.hexdigest()
