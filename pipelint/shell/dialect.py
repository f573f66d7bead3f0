"""Which shell a script is written for, so fixes never add what it cannot run.

The one table of shells: what dialect each is, and whether `pipelint check DIR`
and the editors pick its scripts. Discovery (`discovery.py`) and the language
server (`lsp/documents.py`) read it from here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from pipelint.shell import syntax

if TYPE_CHECKING:
    from tree_sitter import Node

    from pipelint.finding import Edit


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


@dataclass(frozen=True)
class KnownShell:
    # None: a shell whose language is not sh's (zsh, fish, csh): pipelint does not lint its scripts,
    # and says so once for a script named on the command line (`unlinted_shell`).
    dialect: Dialect | None
    discovered: bool = True  # `pipelint check DIR` and editors pick scripts for it
    program: bool = True  # a program `NAME -c TEXT` runs (not ShellCheck's `shell=posix`, nor busybox's applet host)
    extensions: tuple[str, ...] = ()  # file names that say a script is for it


_NOT_SH = {"discovered": False, "program": False}

# Every shell pipelint knows, by the name a shebang or a `shell=` directive gives.
SHELLS = {
    "sh": KnownShell(Dialect.SH, extensions=(".sh",)),
    "dash": KnownShell(Dialect.SH, extensions=(".dash",)),
    "ash": KnownShell(Dialect.SH),
    "busybox": KnownShell(Dialect.SH, program=False),  # ShellCheck's `shell=busybox`; `#!/bin/busybox sh` is sh
    "posix": KnownShell(Dialect.SH, program=False),  # a `shell=posix` directive
    "bash": KnownShell(Dialect.BASH, extensions=(".bash",)),
    "ksh": KnownShell(Dialect.KSH, extensions=(".ksh",)),
    "mksh": KnownShell(Dialect.KSH),
    "ksh93": KnownShell(Dialect.KSH),
    # ShellCheck does not lint these (SC1071) and tree-sitter-bash does not parse
    # their own syntax (zsh's `${(U)x}`, fish's `set -l`, csh's `setenv`): their
    # scripts are never linted as sh. `--shell` (or `shell =`) lints one anyway.
    "zsh": KnownShell(None, **_NOT_SH, extensions=(".zsh",)),
    "fish": KnownShell(None, **_NOT_SH, extensions=(".fish",)),
    "csh": KnownShell(None, **_NOT_SH, extensions=(".csh",)),
    "tcsh": KnownShell(None, **_NOT_SH, extensions=(".tcsh",)),
}
# The shells pipelint reads the `-c TEXT` and stdin scripts of, by program name.
SHELL_PROGRAMS = tuple(name.encode() for name, shell in SHELLS.items() if shell.discovered and shell.program)
EXTENSIONS = {ext: shell.dialect for shell in SHELLS.values() if shell.dialect is not None for ext in shell.extensions}
_SCRIPT_SUFFIXES = tuple(EXTENSIONS)
# What `--shell` and the `shell` setting may name: the shells whose scripts pipelint lints.
LINTED_SHELLS = tuple(name for name, shell in SHELLS.items() if shell.dialect is not None)

# Interpreters whose scripts are discovered, and the languageId values editors
# send for them: VS Code "shellscript", Neovim/Emacs the filetype ("sh", "bash"), Helix "bash".
DISCOVERED_SHELLS = frozenset(name for name, shell in SHELLS.items() if shell.discovered)
LANGUAGE_IDS = frozenset({"shellscript"}) | DISCOVERED_SHELLS

_SHEBANG = re.compile(rb"^#![ \t]*(\S+)(?:[ \t]+(\S+))?")


def shebang_shell(source: bytes) -> str | None:
    """The shell named by a `#!` line, looking through `/usr/bin/env [-S]` and `busybox`."""
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
    elif program == b"busybox" and match.group(2):
        program = syntax.basename(match.group(2))  # `#!/bin/busybox sh`: the applet is the shell
    return program.decode("ascii", "replace")  # type: ignore[union-attr]


def shebang_dialect(source: bytes) -> Dialect | None:
    shell = SHELLS.get(shebang_shell(source) or "")
    return None if shell is None else shell.dialect


def script_shell(source: bytes, path: str | None) -> str | None:
    """The shell a script says it is for (a name of SHELLS): its `shell=` directive, else its `#!` line, else
    its file name's extension; None when none of them names a shell pipelint knows."""
    from pipelint.shell.directives import SHELL_DIRECTIVE  # not with this module: the command line reads SHELLS

    directive = SHELL_DIRECTIVE.search(source[:4096])
    if directive:
        named = directive.group(1).decode("ascii").lower()
        if named in SHELLS:
            return named
    from_shebang = shebang_shell(source)
    if from_shebang in SHELLS:
        return from_shebang
    if path:
        for name, shell in SHELLS.items():
            if shell.extensions and path.endswith(shell.extensions):
                return name
    return None


def detect(source: bytes, path: str | None, forced: Dialect | None = None) -> Dialect:
    """forced (`--shell`), else the directive, then the shebang, then the extension; POSIX sh when nothing says more.

    Defaulting to sh is the cautious choice: a fix that is valid sh is valid bash.
    """
    if forced is not None:
        return forced
    shell = SHELLS.get(script_shell(source, path) or "")
    return shell.dialect if shell is not None and shell.dialect is not None else Dialect.SH


def unlinted_shell(source: bytes, path: str | None) -> str | None:
    """The shell a script says it is for, when pipelint does not lint that shell's scripts (zsh, fish, csh)."""
    name = script_shell(source, path)
    return name if name is not None and SHELLS[name].dialect is None else None


# Text that may start a bashism; a fix whose new text holds none adds none.
BASHISM_TEXT = (b"<<<", b"|&", b"&>", b"[[", b"<(", b">(", b"$'")
# What POSIX sh cannot run, as tree-sitter-bash parses it (anonymous tokens by their text).
_BASHISM_NODES = frozenset({"herestring_redirect", "process_substitution", "ansi_c_string", "|&", "&>", "&>>", "[["})


def bashism_starts(root: Node) -> list[int]:
    """Where each piece of bash-only syntax below root begins."""
    return [node.start_byte for node in syntax.walk(root) if node.type in _BASHISM_NODES]


@functools.lru_cache(maxsize=8)
def _bashisms_in(source: bytes) -> tuple[int, ...]:
    return tuple(bashism_starts(syntax.parse(source).root_node))


def _written_spans(edits: Sequence[Edit]) -> list[tuple[int, int]]:
    """Where each edit's new text lies in the edited source."""
    spans, shift = [], 0
    for edit in sorted(edits):
        start = edit.start + shift
        spans.append((start, start + len(edit.content)))
        shift += len(edit.content) - (edit.end - edit.start)
    return spans


def adds_bashism(source: bytes, edits: Sequence[Edit]) -> bool:
    """Whether applying edits writes bash-only syntax into the script.

    Judged on the parse of the fixed text, not on bytes: `cat "a[[b" | wc` →
    `wc < "a[[b"` writes a quoted `[[`, which sh runs fine. Bash syntax counts
    as written when it begins inside an edit's new text (moving a here-string
    writes it again) or when the fixed text simply has more of it. The
    substring test only spares the parse for the (usual) fixes that could not.
    """
    if not any(token in edit.content for edit in edits for token in BASHISM_TEXT):
        return False
    from pipelint.finding import apply_edits

    after = _bashisms_in(apply_edits(source, list(edits)))
    if len(after) > len(_bashisms_in(source)):
        return True
    return any(start <= at < end for at in after for start, end in _written_spans(edits))


def is_shell_script(path: Path) -> bool:
    """By extension, or by a sh/bash/dash/ksh shebang (directly, or through env or busybox).

    What `pipelint check DIR` picks (discovery.py), and how PL103 tells which
    files next to a script are scripts too.
    """
    if has_script_extension(path.name):
        return True
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
    except OSError:
        return False
    return shebang_shell(head) in DISCOVERED_SHELLS


def has_script_extension(name: str) -> bool:
    """`x.sh`, `x.bash`, `x.ksh`, `x.dash`: a script pipelint lints, by its name alone."""
    return name.endswith(_SCRIPT_SUFFIXES)


def is_shell_text(name: str | None, head: bytes) -> bool:
    """A script by its file name or by the `#!` line at the start of its text (`is_shell_script` for text in hand)."""
    return (name is not None and has_script_extension(name)) or shebang_shell(head[:256]) in DISCOVERED_SHELLS
