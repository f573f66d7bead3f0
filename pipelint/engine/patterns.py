"""Gitignore-style patterns (`.gitignore`, `exclude`, `per-file-ignores`), compiled by pathspec.

git accepts some lines pathspec rejects: `!` and `\\` alone, a trailing
backslash (`a\\`), a reversed range (`[z-a]`). git reads the first three as
patterns that match nothing; compile() leaves such lines out and names
them, so the caller decides: a `.gitignore` line is skipped with a warning
(git accepts the file), a line of pipelint's own config is a config error.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec


@dataclass(frozen=True)
class Compiled:
    spec: pathspec.GitIgnoreSpec
    rejected: tuple[tuple[int, str], ...] = ()  # (1-based line number, line) pathspec cannot read


def _readable(line: str) -> bool:
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([line])
    except Exception:  # pathspec raises its own errors, re.error and ValueError, depending on the line
        return False
    return True


@functools.lru_cache(maxsize=256)
def compile_patterns(lines: tuple[str, ...]) -> Compiled:
    # Imported here: a run over the files it is given, with no config file, matches no pattern
    # and need not pay pathspec's import (~30 M instructions).
    import pathspec

    try:
        return Compiled(pathspec.GitIgnoreSpec.from_lines(lines))
    except Exception:
        pass  # find the lines at fault, one at a time; only on this rare path
    kept = [line if _readable(line) else "" for line in lines]
    rejected = tuple((number, line) for number, (line, keep) in enumerate(zip(lines, kept), 1) if line and not keep)
    return Compiled(pathspec.GitIgnoreSpec.from_lines(kept), rejected)
