"""Run a command under `pipelint-tracer` as it would run without it, and read back the record.

The command gets pipelint's own standard input, output, error and
environment; the record travels through a temporary file on a descriptor
only the tracer holds. While it runs, pipelint blocks the signals a user
or a supervisor sends (INT, TERM, HUP, QUIT, USR1, USR2) and waits for them
with sigwaitinfo: one sent by another process (`kill`, a CI runner's
timeout) goes on to the tracer, which hands it to the command; one the
terminal sent (Ctrl-C: si_code SI_KERNEL) reached the command's process
group already and is not sent twice. The command ends how it ends, and
pipelint reports what was recorded up to then, then ends the same way
(`end_like`): with the command's exit code, or killed by its signal.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pipelint.shell.dialect import SHELLS
from pipelint.trace import record as records

TRACER = "pipelint-tracer"
WAITED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)
SI_KERNEL = 0x80  # si_code of a signal the kernel sent: the terminal's Ctrl-C and Ctrl-\


# The executables whose script pipelint reads: the tracer notes their working directory (a script's path is
# relative to it) and looks for bash's line_number in them. busybox runs sh as an applet of itself.
SHELL_EXECUTABLES = tuple(name for name, shell in SHELLS.items() if shell.dialect is not None and shell.program) + ("busybox",)


class TracerMissing(Exception):
    """No pipelint-tracer executable: the installation is incomplete."""


def tracer_path() -> Path:
    """The tracer installed with pipelint (beside its entry point), else the first on PATH."""
    for folder in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        candidate = Path(folder) / TRACER
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(TRACER)
    if found is None:
        raise TracerMissing(f"{TRACER} is not installed (it is built with pipelint: reinstall it with pip)")
    return Path(found)


@dataclass
class Outcome:
    record: records.Record
    status: int  # the command's status as a shell reports it (128+N: killed by signal N)
    killed_by: int | None = None  # the signal that killed it: not the same as `exit 143`


def run(command: list[str]) -> Outcome:
    """Run command traced; its exit status, and the record of everything it started."""
    tracer = tracer_path()
    with tempfile.TemporaryFile(prefix="pipelint-trace-") as handle:
        original = signal.pthread_sigmask(signal.SIG_BLOCK, (*WAITED_SIGNALS, signal.SIGCHLD))
        try:
            mask = sum(1 << (number - 1) for number in original if 0 < number <= 64)
            shells = [word for name in SHELL_EXECUTABLES for word in ("--shell", name)]
            argv = [str(tracer), "--record", str(handle.fileno()), "--mask", f"{mask:x}", *shells, "--", *command]
            child = subprocess.Popen(argv, pass_fds=(handle.fileno(),), close_fds=True)
            returned = _wait(child)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, original)
        handle.seek(0)
        record = records.read(handle)
    # The tracer ends as the command did: killed by its signal, or with its code.
    killed_by = -returned if returned < 0 else None
    status = record.status if record.status is not None else (128 + killed_by if killed_by else returned)
    return Outcome(record, status, killed_by)


def _wait(child: subprocess.Popen) -> int:
    """Wait for the tracer, passing on what other processes send us; its return code (-N: killed by signal N)."""
    waited = {*WAITED_SIGNALS, signal.SIGCHLD}
    while True:
        returned = child.poll()
        if returned is not None:
            return returned
        info = signal.sigwaitinfo(waited)
        if info.si_signo != signal.SIGCHLD and info.si_code != SI_KERNEL:
            try:
                os.kill(child.pid, info.si_signo)
            except ProcessLookupError:
                pass


def end_like(outcome: Outcome) -> None:
    """Exit as the command did: with its code, or killed by the same signal, so that the shell above sees what
    it would have seen (bash prints "Terminated" and reacts to a SIGINT death). No core file of pipelint's own."""
    sys.stdout.flush()
    sys.stderr.flush()
    if outcome.killed_by is not None:
        number = outcome.killed_by
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if number != signal.SIGKILL:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, (number,))
        os.kill(os.getpid(), number)
    sys.exit(outcome.status)
