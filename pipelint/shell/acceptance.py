"""Whether the shell that runs a script reads it without a syntax error: `bash -n`, `dash -n`.

tree-sitter-bash rejects some scripts bash runs (`exec 3<> "$f"`,
`a=${b:$len:$max}`, docs/architecture.md "Parsing"). Where the real shell
accepts the text, what pipelint could not parse is pipelint's limit, not the
user's error: the engine says so in a note instead of a parse-error finding
(`--strict-parse` keeps the finding). `-n` reads every command and runs none.
"""

from __future__ import annotations

import functools
import os

from pipelint.shell.dialect import Dialect

# The programs that judge each dialect, the first one installed wins. A ksh script is judged by a
# ksh only: bash accepts `print -r`, but not ksh's `${ printf x; }`, and rejects what ksh reads.
JUDGES = {Dialect.BASH: ("bash",), Dialect.SH: ("dash", "sh"), Dialect.KSH: ("ksh93", "ksh", "mksh")}
# A syntax check of a multi-megabyte script takes well under a second; a shell that hangs is no judge.
TIMEOUT = 30.0


@functools.cache
def judge(dialect: Dialect) -> str | None:
    """The path of the shell that judges scripts of this dialect; None: none is installed."""
    import shutil  # here and below: asked only of a script tree-sitter-bash could not parse

    for name in JUDGES[dialect]:
        found = shutil.which(name)
        if found is not None:
            return found
    return None


def shell_accepts(source: bytes, dialect: Dialect) -> bool | None:
    """True: the dialect's shell reads source without a syntax error; False: it rejects it; None: no shell to ask.

    The text goes on stdin (nothing is written to disk), with an environment
    that names no startup file (`BASH_ENV`, `ENV`), so that nothing but the
    syntax check runs.
    """
    shell = judge(dialect)
    if shell is None:
        return None
    import subprocess

    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    try:
        checked = subprocess.run(
            [shell, "-n"], input=source, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=TIMEOUT, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    return checked.returncode == 0
