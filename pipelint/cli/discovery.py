"""Which files `pipelint check PATH…` reads."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipelint.embedded import hosts
from pipelint.shell.dialect import has_script_extension, is_shell_script
from pipelint.engine.patterns import compile_patterns

if TYPE_CHECKING:
    import pathspec

# A .gitignore larger than this is not one (git's own limit is 100 MiB; the
# largest in the Linux kernel tree is under 4 KiB): it is read no further.
MAX_GITIGNORE_SIZE = 1 << 20

Report = Callable[[Path, str], None]  # (the path, what is wrong with it)

def is_lintable(path: Path, embedded: bool = True) -> bool:
    """A shell script, or (when embedded shell is linted) a file that holds scripts: a Dockerfile, a CI file."""
    if embedded and hosts.kind_of(path) is not None:
        return True
    return is_shell_script(path)


@dataclass(frozen=True)
class _IgnoreFile:
    folder: str  # the folder the .gitignore is in, a real path
    spec: pathspec.PathSpec

    def ignores(self, path: str, is_dir: bool) -> bool:
        """Whether a path below the folder (a string: the walk makes no Path per entry) is ignored."""
        relative = path[len(self.folder) :].lstrip("/")
        return self.spec.match_file(relative + "/" if is_dir else relative)


def _ignore(path: Path, message: str) -> None:
    pass


def _gitignore(folder: Path, warn: Report = _ignore) -> _IgnoreFile | None:
    """The folder's .gitignore, if it is a regular file; lines pathspec cannot read are skipped with a warning."""
    candidate = folder / ".gitignore"
    try:
        with open(candidate, "rb", opener=_open_regular) as handle:
            lines = handle.read(MAX_GITIGNORE_SIZE).decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    compiled = compile_patterns(tuple(lines))
    for number, line in compiled.rejected:
        warn(candidate, f"line {number}: pattern '{line}' cannot be read; the line is ignored")
    return _IgnoreFile(os.fspath(folder), compiled.spec)


def _open_regular(path: str, flags: int) -> int:
    """open() that refuses a FIFO or a device instead of blocking on it or reading it forever."""
    descriptor = os.open(path, flags | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OSError(errno.EINVAL, "not a regular file")
    return descriptor


def _repository_root(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        if os.path.exists(candidate / ".git"):  # False, not an error, in a folder that cannot be searched
            return candidate
    return None


def _inherited_ignores(folder: Path, warn: Report) -> list[_IgnoreFile]:
    """.gitignore files of the folders between the repository root and folder."""
    root = _repository_root(folder)
    if root is None:
        return []
    chain = [root, *reversed([p for p in folder.parents if root in p.parents])]
    if folder != root:
        chain.append(folder)
    found = []
    for ancestor in chain[:-1]:
        ignore = _gitignore(ancestor, warn)
        if ignore is not None:
            found.append(ignore)
    return found


def walk_scripts(
    folder: Path,
    excluded: Callable[[str], bool],
    on_problem: Report = _ignore,
    on_error: Report = _ignore,
    embedded: bool = True,
) -> Iterator[Path]:
    """Shell scripts under folder, honouring .gitignore files and the exclude setting.

    With embedded, also the files that hold scripts (hosts.kind_of: Dockerfiles, CI files).

    Only regular files are read (a FIFO or device found in a folder is
    not); symbolic links to directories are not followed. A folder that
    cannot be listed and a symbolic link loop in place of a script are
    reported through on_error (as `grep -r` does); an unreadable .gitignore
    line through on_problem.
    """

    def unlisted(error: OSError) -> None:
        on_error(Path(error.filename), error.strerror or str(error))

    # os.scandir on strings, as os.walk does, but the entries' types are read from the
    # listing (no stat per file) and no Path is made but for the scripts found.
    top = os.path.realpath(folder)
    ignores_at: dict[str, list[_IgnoreFile]] = {top: _inherited_ignores(Path(top), on_problem)}
    pending = [top]
    while pending:
        current = pending.pop()
        try:
            with os.scandir(current) as listing:
                entries = sorted(listing, key=_entry_name)
        except OSError as error:
            unlisted(error)
            continue
        active = list(ignores_at.pop(current, []))
        own = _gitignore(Path(current), on_problem)
        if own is not None:
            active.append(own)
        below = []
        for entry in entries:
            if _is_dir(entry):
                child = entry.path
                if entry.name == ".git" or excluded(child) or any(i.ignores(child, True) for i in active):
                    continue
                if not entry.is_symlink():  # a link to a folder is not followed (os.walk's default)
                    below.append(child)
                    ignores_at[child] = active
                continue
            script = _script(entry, excluded, active, on_error, embedded)
            if script is not None:
                yield script
        pending.extend(reversed(below))  # the first folder is walked first, as os.walk does


def _entry_name(entry: os.DirEntry) -> str:
    return entry.name


def _is_dir(entry: os.DirEntry) -> bool:
    """A folder, or a link to one (os.walk's test: a link that cannot be followed is no folder)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _script(
    entry: os.DirEntry, excluded: Callable[[str], bool], active: list[_IgnoreFile], on_error: Report, embedded: bool
) -> Path | None:
    """The entry, when it is a script (or a file holding scripts) to lint."""
    child = entry.path
    if excluded(child) or any(i.ignores(child, False) for i in active):
        return None
    if entry.is_symlink():
        try:
            regular = stat.S_ISREG(os.stat(child).st_mode)
        except OSError as error:
            # A dangling link is skipped quietly (it may name a file not built yet);
            # a loop never resolves: say so when the name says it is a script.
            if error.errno == errno.ELOOP and has_script_extension(entry.name):
                on_error(Path(child), error.strerror)
            return None
    else:
        regular = entry.is_file(follow_symlinks=False)  # from the listing: a FIFO or a device is not read
    path = Path(child)
    return path if regular and is_lintable(path, embedded) else None
