"""Run the real `pipelint` command line in a subprocess."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def run_cli(
    *args: str,
    cwd: Path | None = None,
    stdin: bytes | None = None,
    unprivileged: bool = False,
    as_nobody: bool = False,
    timeout: float = 300,
    env: dict[str, str | None] | None = None,
) -> subprocess.CompletedProcess:
    """unprivileged: root without the capabilities that bypass file permissions; as_nobody: the user nobody.

    env: variables to set on top of the test run's (None: to unset one).
    """
    command = [sys.executable, "-m", "pipelint", *args]
    if unprivileged:
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
    if as_nobody:
        command = [*AS_NOBODY, *command]
    return subprocess.run(
        command, cwd=cwd, input=stdin if stdin is not None else b"", capture_output=True, env=cli_env(env), timeout=timeout
    )


def cli_env(extra: dict[str, str | None] | None = None) -> dict[str, str]:
    """The environment the command line runs in: this checkout first on the path, no colour, 120 columns."""
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1", COLUMNS="120")
    for name, value in (extra or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def run_on_terminal(
    *args: str, cwd: Path | None = None, env: dict[str, str | None] | None = None, rows: int = 24, columns: int = 100
) -> tuple[int, str]:
    """`pipelint ARGS` with stdout and stderr on a pseudo-terminal of this size: (exit status, what it showed).

    Read until the child closes the terminal, then waited for: no fixed sleep.
    """
    primary, secondary = os.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    command = [sys.executable, "-m", "pipelint", *args]
    # The terminal's own size, and neither colour variable unless the caller sets one.
    plain = {"TERM": "xterm-256color", "COLUMNS": None, "LINES": None, "NO_COLOR": None, "FORCE_COLOR": None}
    terminal_env = cli_env({**plain, **(env or {})})
    child = subprocess.Popen(command, cwd=cwd, stdout=secondary, stderr=secondary, stdin=subprocess.DEVNULL, env=terminal_env)
    os.close(secondary)
    shown = read_terminal(primary)
    return child.wait(timeout=120), shown.decode("utf-8", "replace")


def read_terminal(primary: int) -> bytes:
    """Everything written to a pseudo-terminal until the child closes it (or 120 s of silence); closes it."""
    shown = b""
    while True:
        ready, _, _ = select.select([primary], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    os.close(primary)
    return shown


def text(completed: subprocess.CompletedProcess) -> tuple[str, str]:
    return completed.stdout.decode("utf-8", "replace"), completed.stderr.decode("utf-8", "replace")
