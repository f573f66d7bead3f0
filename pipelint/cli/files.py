"""Reading a file named on the command line or found in a folder: its bytes, if it is a text file within the size
limit; and opening the file a report goes to (`-o`)."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

import click

from pipelint.engine.sizes import format_size


class InputError(Exception):
    """A file pipelint cannot lint (binary, unreadable, …): one line, no traceback."""


@dataclass(frozen=True)
class FileRead:
    """A script as read from disk: its bytes and the file's status when they were read."""

    source: bytes
    status: os.stat_result


def ensure_text(source: bytes) -> None:
    if b"\0" in source[:8192]:
        raise InputError("binary file, not a shell script")


def read_limited(stream: BinaryIO, max_size: int | None, expected: int | None = None) -> bytes:
    """At most max_size + 1 bytes: one more than allowed is how a too-large input shows.

    expected: a regular file's size, read in one piece of that size (a file that grew
    since goes on in small pieces). Each read makes a buffer of the size asked for:
    1 MiB for a 2 KiB script was most of the cost of reading it.
    """
    if max_size is None:
        return stream.read()
    chunks = []
    wanted = max_size + 1
    piece = 1 << 20 if expected is None else expected + 1
    while wanted > 0:
        chunk = stream.read(min(wanted, piece))
        if not chunk:
            break
        chunks.append(chunk)
        wanted -= len(chunk)
        if expected is not None:
            piece = 1 << 16
    return b"".join(chunks)


def ensure_size(size: int, max_size: int | None) -> None:
    """InputError when an input of size bytes is over the limit (None: no limit)."""
    if max_size is not None and size > max_size:
        raise InputError(f"larger than the {format_size(max_size)} limit (raise it with --max-file-size or `max-file-size`)")


def read_script(path: Path, max_size: int | None = None) -> FileRead:
    """The file's bytes, if it is a text file within the size limit.

    A regular file larger than the limit is refused before it is read; a
    character device or FIFO named on the command line is read up to the
    limit (`/dev/zero` ends there).
    """
    try:
        with open(path, "rb", buffering=0) as handle:  # unbuffered: each read goes straight into its bytes
            status = os.fstat(handle.fileno())
            regular = stat.S_ISREG(status.st_mode)
            if regular:
                ensure_size(status.st_size, max_size)
            source = read_limited(handle, max_size, status.st_size if regular else None)
    except IsADirectoryError:
        raise InputError("is a directory") from None
    except PermissionError:
        raise InputError("permission denied") from None
    except FileNotFoundError:
        raise InputError("no such file or directory") from None
    except OSError as error:
        raise InputError(error.strerror or str(error)) from None
    ensure_size(len(source), max_size)
    ensure_text(source)
    return FileRead(source, status)


@contextlib.contextmanager
def report_file(path: Path) -> Iterator[TextIO]:
    """The `--output-file` a report goes to, its folders made. Opened before any work, so that a name that cannot
    be written stops the run with one line and nothing linted, written or run."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "w", encoding="utf-8", errors="surrogateescape")
    except OSError as error:
        from pipelint.output.common import printable  # not for every run: the report's module

        raise click.ClickException(f"--output-file {printable(str(path))}: {error.strerror or error}") from None
    with handle:
        yield handle
