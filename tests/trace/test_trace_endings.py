"""A script that fails, is killed, or is interrupted still gets its report, up to where it stopped.

The tests wait on events: the script writes to a FIFO once its first
pipeline is done, then blocks opening another; nothing sleeps.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import subprocess
import sys
import termios
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import cli_env, read_terminal
from trace_helpers import VALIDATOR, data_file, trace, write_script

SHELLS = ["bash", "dash"]
STOPS_THEN_WAITS = """\
cat data.txt | wc -l
echo ready > ready
read go < go
echo never
"""


def fifos(folder: Path) -> None:
    os.mkfifo(folder / "ready")
    os.mkfifo(folder / "go")


def wait_until_ready(folder: Path) -> None:
    with open(folder / "ready", encoding="utf-8") as ready:  # blocks until the script opens it to write
        assert ready.read() == "ready\n"


def report_of(folder: Path) -> dict:
    data = json.loads((folder / "trace.json").read_text(encoding="utf-8"))
    VALIDATOR.validate(data)
    return data


@pytest.mark.parametrize("shell", SHELLS)
def test_a_failing_script_gets_the_report_of_what_ran(tmp_path: Path, shell: str):
    data_file(tmp_path / "data.txt", 50_000)
    write_script(tmp_path, "fail.sh", "set -e\ncat data.txt | wc -l\nfalse\ncat data.txt | tr 0 1 > copy\n")
    traced = trace([shell, "fail.sh"], tmp_path)
    assert traced.status == 1 and traced.report["exit_status"] == 1
    assert traced.lines("fail.sh") == {2: "cat data.txt | wc -l"}


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_sent_to_pipelint_reaches_the_script_and_the_report_stays(tmp_path: Path, shell: str, number: int):
    data_file(tmp_path / "data.txt", 50_000)
    write_script(tmp_path, "wait.sh", STOPS_THEN_WAITS)
    fifos(tmp_path)
    # The signal's default action, as in a terminal's session: under `nohup` (or a CI runner that ignores
    # SIGHUP) the script would inherit the ignored disposition and rightly live on.
    with started_traced(shell, tmp_path, disposition=(number, signal.SIG_DFL)) as child:
        wait_until_ready(tmp_path)
        child.send_signal(number)
        stdout, stderr = child.communicate(timeout=120)
    assert child.returncode == -number  # pipelint ends as the script did: killed by the signal
    assert stdout.split() == [b"1315"] and stderr == b""
    report = report_of(tmp_path)
    assert (report["exit_status"], report["signal"]) == (128 + number, number)
    assert [p["text"] for p in report["pipelines"]] == ["cat data.txt | wc -l"]


@pytest.mark.parametrize("shell", SHELLS)
def test_a_signal_the_script_ignores_is_ignored_as_without_pipelint(tmp_path: Path, shell: str):
    """Under `nohup`, SIGHUP is ignored: pipelint passes it on, and the script, ignoring it too, runs to its end."""
    data_file(tmp_path / "data.txt", 50_000)
    write_script(tmp_path, "wait.sh", STOPS_THEN_WAITS)
    fifos(tmp_path)
    with started_traced(shell, tmp_path, disposition=(signal.SIGHUP, signal.SIG_IGN)) as child:
        wait_until_ready(tmp_path)
        child.send_signal(signal.SIGHUP)
        (tmp_path / "go").write_text("go\n", encoding="utf-8")  # blocks until the script opens it to read
        stdout, stderr = child.communicate(timeout=120)
    assert (child.returncode, stdout.split(), stderr) == (0, [b"1315", b"never"], b"")
    assert report_of(tmp_path)["exit_status"] == 0


@contextlib.contextmanager
def started_traced(shell: str, folder: Path, disposition: tuple[int, signal.Handlers]) -> Iterator[subprocess.Popen]:
    """`pipelint trace -- SHELL wait.sh` with one signal's disposition set, in a session of its own, which ends
    with the test: one that fails leaves no script blocked on its FIFO."""
    number, action = disposition
    command = [sys.executable, "-m", "pipelint", "trace", "--output-format", "json", "-o", "trace.json", "--", shell, "wait.sh"]
    child = subprocess.Popen(
        command, cwd=folder, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=lambda: signal.signal(number, action),
    )  # fmt: skip
    try:
        yield child
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()


@pytest.mark.parametrize("shell", SHELLS)
def test_a_script_killed_outright_gets_its_report(tmp_path: Path, shell: str):
    data_file(tmp_path / "data.txt", 50_000)
    write_script(tmp_path, "die.sh", "cat data.txt | wc -l\nkill -KILL $$\necho never\n")
    traced = trace([shell, "die.sh"], tmp_path)
    assert traced.status == 137 and (traced.report["exit_status"], traced.report["signal"]) == (137, 9)
    assert traced.lines("die.sh")[1] == "cat data.txt | wc -l"
    assert traced.report["measured"]["cpu_s"] > 0


def run_on_a_terminal(command: list[str], cwd: Path) -> tuple[subprocess.Popen, int]:
    """command in a session of its own whose controlling terminal is a new pseudo-terminal: Ctrl-C reaches its
    foreground process group as it does in a terminal."""
    primary, secondary = os.openpty()

    def take_terminal() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        # A terminal's session starts with Ctrl-C's default action. A job started in the background of a
        # script (a CI runner's) inherits SIGINT ignored, which a shell can then neither trap nor reset.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    child = subprocess.Popen(
        command, cwd=cwd, env=cli_env(), stdin=secondary, stdout=secondary, stderr=secondary,
        start_new_session=True, preexec_fn=take_terminal,
    )  # fmt: skip
    os.close(secondary)
    return child, primary


@pytest.mark.parametrize("shell", SHELLS)
def test_ctrl_c_reaches_the_script_once_as_without_pipelint(tmp_path: Path, shell: str):
    data_file(tmp_path / "data.txt", 50_000)
    # It waits reading the terminal: Ctrl-C interrupts it there or before, and the output is the same either way.
    waits = STOPS_THEN_WAITS.replace("read go < go", "read go")
    write_script(tmp_path, "int.sh", "trap 'echo got INT; exit 5' INT\n" + waits)
    seen = {}
    for name, command in {
        "untraced": [shell, "int.sh"],
        "traced": [sys.executable, "-m", "pipelint", "trace", "--output-format", "json", "-o", "trace.json", "--", shell, "int.sh"],
    }.items():
        fifos(tmp_path)
        child, primary = run_on_a_terminal(command, tmp_path)
        wait_until_ready(tmp_path)
        os.write(primary, b"\x03")  # the terminal's Ctrl-C: SIGINT to the foreground process group
        shown = read_terminal(primary)
        seen[name] = (child.wait(timeout=120), shown.replace(b"^C", b"").split())
        for fifo in ("ready", "go"):
            (tmp_path / fifo).unlink()
    assert seen["traced"] == seen["untraced"] == (5, [b"1315", b"got", b"INT"])
    assert report_of(tmp_path)["exit_status"] == 5


@pytest.mark.parametrize("shell", SHELLS)
def test_a_job_left_running_runs_on_untraced_and_pipelint_does_not_wait(tmp_path: Path, shell: str):
    # The script ends once the job runs sleep (its /proc comm), read with builtins only: a job let go before
    # its exec has no program yet, and dash gives no line to tell its command by.
    wait_for_exec = 'until read -r comm < /proc/$!/comm && [ "$comm" = sleep ]; do :; done\n'
    write_script(tmp_path, "leave.sh", "sleep 1000 > /dev/null 2>&1 &\n" + wait_for_exec + "echo $! > left.pid\necho bye\n")
    traced = trace([shell, "leave.sh"], tmp_path)
    left = int((tmp_path / "left.pid").read_text())
    try:
        status = Path(f"/proc/{left}/status").read_text()
        assert "\nTracerPid:\t0\n" in status  # alive, and let go
    finally:
        os.kill(left, signal.SIGKILL)
    assert traced.status == 0 and traced.completed.stdout == b"bye\n"
    sleep = traced.at("leave.sh", 1)
    assert sleep["runs"] == 1 and sleep["stages"][0]["processes"] == 1
