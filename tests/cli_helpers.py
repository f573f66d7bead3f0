"""Run the real `pipelint` command line in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
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
) -> subprocess.CompletedProcess:
    """unprivileged: root without the capabilities that bypass file permissions; as_nobody: the user nobody."""
    command = [sys.executable, "-m", "pipelint", *args]
    if unprivileged:
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
    if as_nobody:
        command = [*AS_NOBODY, *command]
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1", COLUMNS="120")
    return subprocess.run(
        command, cwd=cwd, input=stdin if stdin is not None else b"", capture_output=True, env=env, timeout=timeout
    )


def text(completed: subprocess.CompletedProcess) -> tuple[str, str]:
    return completed.stdout.decode("utf-8", "replace"), completed.stderr.decode("utf-8", "replace")
