"""Which shell a script is written for, so fixes never add what it cannot run."""

from __future__ import annotations

import re
from enum import Enum

from pipelint import syntax


class Dialect(Enum):
    BASH = "bash"
    SH = "sh"  # POSIX sh, dash, busybox ash
    KSH = "ksh"

    @property
    def has_herestrings(self) -> bool:
        return self is not Dialect.SH

    @property
    def pipe_ampersand_is_stderr_pipe(self) -> bool:
        """`|&` pipes stderr too in bash; in ksh it starts a co-process."""
        return self is Dialect.BASH


_SHELLS = {
    "bash": Dialect.BASH,
    "sh": Dialect.SH,
    "dash": Dialect.SH,
    "ash": Dialect.SH,
    "busybox": Dialect.SH,
    "posix": Dialect.SH,
    "ksh": Dialect.KSH,
    "mksh": Dialect.KSH,
    "ksh93": Dialect.KSH,
    "zsh": Dialect.BASH,  # close enough for what fixes add: herestrings and |&
}
_EXTENSIONS = {".bash": Dialect.BASH, ".ksh": Dialect.KSH, ".sh": Dialect.SH, ".dash": Dialect.SH}
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(?:shellcheck|pipelint:?)[ \t]+shell=([A-Za-z0-9_]+)", re.MULTILINE)
_SHEBANG = re.compile(rb"^#![ \t]*(\S+)(?:[ \t]+(\S+))?")


def shebang_shell(source: bytes) -> str | None:
    """The shell named by a `#!` line, looking through `/usr/bin/env [-S]`."""
    match = _SHEBANG.match(source)
    if not match:
        return None
    program = syntax.basename(match.group(1))
    if program == b"env":
        rest = source[match.start(2) if match.group(2) else match.end() :].split(b"\n", 1)[0].split()
        words = [w for w in rest if not w.startswith(b"-") and b"=" not in w]
        if not words:
            return None
        program = syntax.basename(words[0])
    return program.decode("ascii", "replace")


def shebang_dialect(source: bytes) -> Dialect | None:
    shell = shebang_shell(source)
    return None if shell is None else _SHELLS.get(shell)


def detect(source: bytes, path: str | None) -> Dialect:
    """Directive, then shebang, then extension; POSIX sh when nothing says more.

    Defaulting to sh is the cautious choice: a fix that is valid sh is valid bash.
    """
    head = source[:4096]
    directive = _DIRECTIVE.search(head)
    if directive:
        shell = directive.group(1).decode("ascii").lower()
        if shell in _SHELLS:
            return _SHELLS[shell]
    from_shebang = shebang_dialect(source)
    if from_shebang is not None:
        return from_shebang
    if path:
        for extension, dialect in _EXTENSIONS.items():
            if path.endswith(extension):
                return dialect
    return Dialect.SH
