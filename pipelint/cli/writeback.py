"""Writing a fixed script back to its file, or leaving the file alone and saying why.

The rules `--fix` follows (docs/ci.md, "How --fix writes"):

- Only a regular file is written: a FIFO, a device or `<(…)` is not.
- Only a file the user may write: opening it for writing must succeed. A
  folder writable by the user does not make a read-only file in it fixable.
- Only a file unchanged since it was read: same device, inode, size and
  modification time, and the same bytes, checked again just before the new
  text lands. An edit made meanwhile (an editor saving, a log appender) is
  kept, and the fix is not written.
- Nothing lands between that check and the write (issue 25 class 10), as far
  as the kernel lets a process ensure it. First a lease (fcntl F_SETLEASE):
  a write lease where no other process has the file open, a read lease where
  others only read it (a running script, `less`); any other process's open
  for writing (and, under a write lease, for reading) then waits until the
  write is done, and starting to open it breaks the lease, which is checked
  after the new text is in place. A file another process holds open for
  writing is not written at all: its next write would go to the replaced
  copy. Leases need the file to be yours (or CAP_LEASE, which root has) and
  a filesystem that has them (local ones; not NFS or FUSE): elsewhere the
  write goes on without one. Then the exchange: the new file and the old
  swap names in one call (renameat2 RENAME_EXCHANGE), the old one is checked
  once more, and swapped back if it changed after the first check. What
  remains is said in docs/ci.md ("How --fix writes").
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

import contextlib
import ctypes
import errno
import fcntl
import functools
import os
import signal
import stat
import tempfile
from collections.abc import Callable, Iterator
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


def _ensure_unchanged(descriptor: int, original: bytes, read_status: os.stat_result) -> None:
    """The open file still holds what was read: the same inode, size, time and bytes.

    Through the descriptor the lease is on: opening the file again would break it.
    """
    changed = NotWritten("changed since pipelint read it; run pipelint again")
    try:
        if ContentIdentity.of(os.fstat(descriptor)) != ContentIdentity.of(read_status):
            raise changed
        # Timestamps are as coarse as the kernel tick (4 ms here): compare the bytes too.
        if os.pread(descriptor, len(original) + 1, 0) != original:
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
        with _opened(path, os.O_RDONLY) as old, _lease(old, read_only=True) as lease:
            _ensure_unchanged(old, original, read_status)
            between_check_and_write()
            if not _exchange(temp_name, path):
                lease.ensure_held()
                os.replace(temp_name, path)  # no exchange on this filesystem: the checks above are the last
                return
            # The old file is at temp_name now. An edit that landed since the check, or an open that broke
            # the lease (its writer waits to write into the old file), puts it back.
            try:
                lease.ensure_held()
                _ensure_unchanged(old, original, read_status)
            except NotWritten:
                _exchange(temp_name, path)
                raise
        os.unlink(temp_name)
    except BaseException as error:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        if isinstance(error, OSError):
            raise NotWritten(error.strerror or str(error)) from None
        raise


def between_check_and_write() -> None:
    """Where an edit by someone else would be lost without the lease and the exchange (the tests' seam)."""


@contextlib.contextmanager
def _opened(path: Path, flags: int) -> Iterator[int]:
    try:
        descriptor = os.open(path, flags | os.O_NOCTTY)
    except OSError as error:
        raise NotWritten(error.strerror or str(error)) from None
    try:
        yield descriptor
    finally:
        os.close(descriptor)


class _Lease:
    """A lease on an open file, or none (`kind` None) where the kernel would not give one."""

    def __init__(self, descriptor: int, kind: int | None):
        self.descriptor = descriptor
        self.kind = kind

    def ensure_held(self) -> None:
        """No other process has started to open the file since the lease was taken (it would be waiting)."""
        if self.kind is not None and fcntl.fcntl(self.descriptor, fcntl.F_GETLEASE) != self.kind:
            # A break in progress reads as the lease it is being broken to.
            raise NotWritten("opened by another process while pipelint wrote it; run pipelint again")


_OPEN_FOR_WRITING = NotWritten("open for writing in another process (its next write would be lost)")


@contextlib.contextmanager
def _lease(descriptor: int, read_only: bool) -> Iterator[_Lease]:
    """Hold a lease on the open file while the block runs; refuse a file another process holds open for writing.

    A write lease needs no other process to have the file open; a read lease
    (only on a read-only descriptor), none to have it open for writing.
    Another process's open that conflicts waits until the lease is given
    back, and starts a break, which `_Lease.ensure_held` reads. The break
    also sends this process SIGIO, whose default is to end it: ignored here.
    No lease where the kernel refuses one (not the file's owner, a
    filesystem without leases, a thread that may not set signal handlers).
    """
    previous = _ignore_sigio()
    if previous is None:
        yield _Lease(descriptor, None)
        return
    held = None
    try:
        for kind in (fcntl.F_WRLCK, fcntl.F_RDLCK) if read_only else (fcntl.F_WRLCK,):
            try:
                fcntl.fcntl(descriptor, fcntl.F_SETLEASE, kind)
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EBUSY):
                    break  # EACCES (not ours), EINVAL (no leases here), ENOLCK…: write without one
                if kind == fcntl.F_RDLCK:
                    raise _OPEN_FOR_WRITING from None
                continue  # others have it open: are they only reading?
            held = kind
            break
        yield _Lease(descriptor, held)
    finally:
        if held is not None:
            fcntl.fcntl(descriptor, fcntl.F_SETLEASE, fcntl.F_UNLCK)  # an opener waiting on it goes on
        signal.signal(signal.SIGIO, previous)


def _refuse_if_open_for_writing(path: Path) -> None:
    """A read lease, taken and given back at once: refused (EAGAIN) while another process has path open for writing.

    For the in-place write, whose own read-write descriptor cannot hold a read lease.
    """
    with _opened(path, os.O_RDONLY) as probe, _lease(probe, read_only=True):
        pass


def _ignore_sigio() -> signal.Handlers | Callable | int | None:
    """SIGIO ignored (the lease-break notice); None where this thread may not set handlers."""
    try:
        return signal.signal(signal.SIGIO, signal.SIG_IGN)
    except ValueError:  # not the main thread
        return None


_RENAME_EXCHANGE = 2  # <linux/fs.h>
_AT_FDCWD = -100


def _exchange(first: str | Path, second: str | Path) -> bool:
    """Swap two names in one step (renameat2 RENAME_EXCHANGE); False where the filesystem or libc has none."""
    renameat2 = getattr(_libc(), "renameat2", None)
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code))


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


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
    """Overwrite the file's own inode, so its other hard links see the new text too.

    Under the lease, another process's open waits until the new text is whole; it then opens the
    fixed file, so its edit lands on the fix and is not lost.
    """
    _refuse_if_open_for_writing(path)
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_NOCTTY)
    except OSError as error:
        raise NotWritten(error.strerror or str(error)) from None
    try:
        with _lease(descriptor, read_only=False) as lease:
            _ensure_unchanged(descriptor, original, read_status)
            between_check_and_write()
            lease.ensure_held()  # before the first byte changes; a later opener waits for the whole fix
            _overwrite(descriptor, content)
    except OSError as error:
        raise NotWritten(error.strerror or str(error)) from None
    finally:
        os.close(descriptor)


def _overwrite(descriptor: int, content: bytes) -> None:
    try:
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
