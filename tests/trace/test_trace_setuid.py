"""A set-user-ID program keeps its privileges under the tracer (`sudo` works in a traced script).

The kernel ignores the set-user-ID bit for a traced process; pipelint-tracer
restarts such a program untraced. Shown with a set-user-ID-root copy of
`id`, run by the user nobody: `id -u` prints 0 untraced, and must traced.
Needs root to make the copy (CI runs the suite as root).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_helpers import AS_NOBODY
from pipelint.trace import record as records
from pipelint.trace import report
from pipelint.trace.runner import tracer_path

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="making a set-user-ID-root program needs root")

SCRIPT = "./id -u\n./id -u | cat\necho after\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    where = tmp_path / "suid"
    where.mkdir()
    shutil.copy(shutil.which("id"), where / "id")
    os.chmod(where / "id", 0o4755)
    shutil.copy(tracer_path(), where / "pipelint-tracer")  # where nobody may run it
    (where / "job.sh").write_text(SCRIPT)
    (where / "record").write_bytes(b"")
    os.chmod(where / "record", 0o666)
    tmp_path.chmod(0o755)
    where.chmod(0o755)
    return where


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_set_user_id_program_runs_with_its_privileges(folder: Path, shell: str):
    plain = subprocess.run([*AS_NOBODY, shell, "job.sh"], cwd=folder, capture_output=True, timeout=60)
    assert plain.stdout == b"0\n0\nafter\n"
    with open(folder / "record", "r+b") as record:
        number = str(record.fileno())
        command = [*AS_NOBODY, "./pipelint-tracer", "--record", number, "--shell", shell, "--", shell, "job.sh"]
        traced = subprocess.run(command, cwd=folder, capture_output=True, timeout=60, pass_fds=(record.fileno(),))
    assert (traced.stdout, traced.stderr, traced.returncode) == (plain.stdout, plain.stderr, plain.returncode)
    read = records.read((folder / "record").read_bytes().splitlines(keepends=True))
    restarted = [p for p in read.processes if p.untraced == "setuid"]
    assert [p.execs[0].argv for p in restarted] == [(b"./id", b"-u")] * 2
    assert all(p.died_at is None for p in restarted)  # let go: their deaths are their parents' to see
    cat = next(p for p in read.processes if p.execs and p.execs[0].argv == (b"cat",))
    assert cat.died_at is not None  # the rest stays traced
    built = report.build([shell, "job.sh"], 0, read, folder)
    assert "./id ran untraced from its exec on, to keep its set-user-ID privileges: its cost is not measured" in built.notes
    assert [u.unit.text for u in built.ranked if u.unit.line == 1] == ["./id -u"]
