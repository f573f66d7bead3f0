"""Which files `pipelint check PATH…` reads."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from pipelint.dialect import DISCOVERED_SHELLS, EXTENSIONS, shebang_shell

# What a folder walk picks, from the one table in dialect.py.
SHELL_EXTENSIONS = tuple(EXTENSIONS)
SHELL_INTERPRETERS = DISCOVERED_SHELLS


def is_shell_script(path: Path) -> bool:
    """By extension, or by a sh/bash/dash/ksh shebang (directly, or through env or busybox)."""
    if path.name.endswith(SHELL_EXTENSIONS):
        return True
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
    except OSError:
        return False
    return shebang_shell(head) in SHELL_INTERPRETERS


@dataclass(frozen=True)
class _IgnoreFile:
    folder: Path
    spec: pathspec.PathSpec

    def ignores(self, path: Path, is_dir: bool) -> bool:
        relative = path.relative_to(self.folder).as_posix()
        return self.spec.match_file(relative + "/" if is_dir else relative)


def _gitignore(folder: Path) -> _IgnoreFile | None:
    candidate = folder / ".gitignore"
    try:
        lines = candidate.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return _IgnoreFile(folder, pathspec.GitIgnoreSpec.from_lines(lines))


def _repository_root(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def _inherited_ignores(folder: Path) -> list[_IgnoreFile]:
    """.gitignore files of the folders between the repository root and folder."""
    root = _repository_root(folder)
    if root is None:
        return []
    chain = [root, *reversed([p for p in folder.parents if root in p.parents])]
    if folder != root:
        chain.append(folder)
    found = []
    for ancestor in chain[:-1]:
        ignore = _gitignore(ancestor)
        if ignore is not None:
            found.append(ignore)
    return found


def walk_scripts(folder: Path, excluded: Callable[[Path], bool]) -> Iterator[Path]:
    """Shell scripts under folder, honouring .gitignore files and the exclude setting."""
    folder = folder.resolve()
    ignores_at: dict[Path, list[_IgnoreFile]] = {folder: _inherited_ignores(folder)}
    for current, dirs, files in os.walk(folder):
        here = Path(current)
        active = list(ignores_at.pop(here, []))
        own = _gitignore(here)
        if own is not None:
            active.append(own)
        kept_dirs = []
        for name in sorted(dirs):
            child = here / name
            if name == ".git" or excluded(child) or any(i.ignores(child, True) for i in active):
                continue
            kept_dirs.append(name)
            ignores_at[child] = active
        dirs[:] = kept_dirs
        for name in sorted(files):
            child = here / name
            if excluded(child) or any(i.ignores(child, False) for i in active):
                continue
            if child.is_file() and is_shell_script(child):
                yield child
