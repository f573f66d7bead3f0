"""The progress bar: on a terminal for long runs, never on a pipe or with --quiet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import REPO, read_terminal

from pipelint.cli.progress import SHOW_FILES


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("many")
    for index in range(SHOW_FILES + 20):
        (root / f"s{index:03d}.sh").write_text(f"echo {index}\n")
    return root


def run_on_terminal(folder: Path, *flags: str) -> tuple[int, bytes, bytes]:
    """`pipelint check` with stderr on a pseudo-terminal: (exit status, stdout, what the terminal showed)."""
    primary, secondary = os.openpty()
    env = dict(os.environ, PYTHONPATH=str(REPO), TERM="xterm", COLUMNS="100")
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-m", "pipelint", "check", "--no-cache", "--jobs", "1", *flags, str(folder)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=secondary, stdin=subprocess.DEVNULL, env=env)
    os.close(secondary)
    shown = read_terminal(primary)
    stdout = child.stdout.read() if child.stdout else b""
    return child.wait(timeout=120), stdout, shown


def test_a_long_run_on_a_terminal_shows_progress(many):
    status, stdout, shown = run_on_terminal(many)
    assert status == 0
    assert b"Checking" in shown and f"/{SHOW_FILES + 20}".encode() in shown
    assert b"lines/s" in shown
    assert b"All checks passed!" in stdout


def test_quiet_shows_no_progress(many):
    _, _, shown = run_on_terminal(many, "--quiet")
    assert b"Checking" not in shown


def test_a_few_files_show_no_progress(many, tmp_path):
    (tmp_path / "one.sh").write_text("echo one\n")
    _, _, shown = run_on_terminal(tmp_path)
    assert shown == b""


def test_no_progress_on_a_pipe(many):
    result = subprocess.run(
        [sys.executable, "-m", "pipelint", "check", "--no-cache", str(many)],
        capture_output=True,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        timeout=300,
    )
    assert result.returncode == 0
    assert result.stderr == b""
