"""Writing a fixed script back to its file, or leaving the file alone and saying why.

The rules `--fix` follows (docs/ci.md, "How --fix writes"):

- Only a regular file is written: a FIFO, a device or `<(…)` is not.
- Only a file the user may write: opening it for writing must succeed. A
  folder writable by the user does not make a read-only file in it fixable.
- Only a file unchanged since it was read: same device, inode, size and
  modification time, and the same bytes, checked again just before the new
  text lands. An edit made meanwhile (an editor saving, a log appender) is
  kept, and the fix is not written.
- The file keeps its owner, group and mode: the new text goes to a temporary
  file in the same folder, which gets the owner and group (fchown) and then
  the mode (chmod after chown, which clears set-user-ID bits), is synced,
  and replaces the file in one rename. If the owner or group cannot be
  given (a user fixing a file of a group they are not in), nothing is
  written.
- A file with more than one hard link is rewritten in place, so every name
  sees the fix: the space is reserved first (posix_fallocate), so a full
  disk stops the write before the first byte changes.
- A symbolic link stays a link: its target is written.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path


class NotWritten(Exception):
    """Why a fixed file was left as it was, in a few words (the file name is added by the caller)."""


@dataclass(frozen=True)
class ContentIdentity:
    """What identifies a file's content without reading it: compared before writing."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, status: os.stat_result) -> ContentIdentity:
        return cls(status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


def write_fixed(path: Path, original: bytes, read_status: os.stat_result, content: bytes) -> None:
    """Replace original (read with read_status) by content, following the rules above."""
    if not stat.S_ISREG(read_status.st_mode):  # what was read: a pipe's /dev/fd/N resolves to nothing
        raise NotWritten("not a regular file")
    real = Path(os.path.realpath(path))
    status = _status(real)
    if not stat.S_ISREG(status.st_mode):
        raise NotWritten("not a regular file")
    _ensure_writable(real)
    if status.st_nlink > 1:
        _write_in_place(real, original, read_status, content)
    else:
        _replace(real, original, read_status, status, content)


def _status(path: Path) -> os.stat_result:
    try:
        return os.stat(path)
    except OSError as error:
        raise NotWritten(error.strerror or str(error)) from None


def _ensure_writable(path: Path) -> None:
    """The user may write the file itself; a writable folder is not enough."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_NOCTTY)
    except OSError as error:
        if error.errno == errno.ETXTBSY:  # being executed: the rename below replaces it safely
            return
        if error.errno in (errno.EACCES, errno.EPERM):
            raise NotWritten("permission denied (the file is not writable by you)") from None
        raise NotWritten(error.strerror or str(error)) from None
    os.close(descriptor)


def _ensure_unchanged(path: Path, original: bytes, read_status: os.stat_result) -> None:
    """The file still holds what was read: the same inode, size, time and bytes."""
    changed = NotWritten("changed since pipelint read it; run pipelint again")
    try:
        with open(path, "rb") as handle:
            if ContentIdentity.of(os.fstat(handle.fileno())) != ContentIdentity.of(read_status):
                raise changed
            # Timestamps are as coarse as the kernel tick (4 ms here): compare the bytes too.
            if handle.read(len(original) + 1) != original:
                raise changed
    except OSError as error:
        raise NotWritten(error.strerror or str(error)) from None


def _replace(path: Path, original: bytes, read_status: os.stat_result, status: os.stat_result, content: bytes) -> None:
    try:
        # The name's head only: a 250-byte name plus the temp file's suffixes would pass NAME_MAX (255).
        prefix = f".{os.fsdecode(os.fsencode(path.name)[:64])}."
        descriptor, temp_name = tempfile.mkstemp(prefix=prefix, suffix=".pipelint", dir=path.parent)
    except OSError as error:
        raise NotWritten(f"cannot create a file beside it: {error.strerror or error}") from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
            handle.flush()
            _keep_owner(handle.fileno(), status)
            os.fchmod(handle.fileno(), stat.S_IMODE(status.st_mode))  # after fchown, which clears set-id bits
            os.fsync(handle.fileno())
        _ensure_unchanged(path, original, read_status)
        os.replace(temp_name, path)
    except BaseException as error:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        if isinstance(error, OSError):
            raise NotWritten(error.strerror or str(error)) from None
        raise


def _keep_owner(descriptor: int, status: os.stat_result) -> None:
    mine = os.fstat(descriptor)
    if (mine.st_uid, mine.st_gid) == (status.st_uid, status.st_gid):
        return
    try:
        os.fchown(descriptor, status.st_uid, status.st_gid)
    except PermissionError:
        raise NotWritten(
            f"cannot keep its owner and group ({status.st_uid}:{status.st_gid}) in a rewritten copy"
        ) from None


def _write_in_place(path: Path, original: bytes, read_status: os.stat_result, content: bytes) -> None:
    """Overwrite the file's own inode, so its other hard links see the new text too."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_NOCTTY)
    except OSError as error:
        raise NotWritten(error.strerror or str(error)) from None
    try:
        _ensure_unchanged(path, original, read_status)
        try:
            os.posix_fallocate(descriptor, 0, len(content))
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EINVAL):  # EINVAL: an empty fix
                raise
        written = 0
        while written < len(content):
            written += os.pwrite(descriptor, content[written:], written)
        os.ftruncate(descriptor, len(content))
        os.fsync(descriptor)
    except OSError as error:
        raise NotWritten(error.strerror or str(error)) from None
    finally:
        os.close(descriptor)
