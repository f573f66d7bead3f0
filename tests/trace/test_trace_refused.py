"""Where the kernel refuses ptrace (a seccomp profile, Yama), the script still runs, as it would, with one note."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cli_helpers import cli_env
from trace_helpers import IN_A_SHELL, VALIDATOR, data_file, write_script

NO_PTRACE = [sys.executable, str(Path(__file__).with_name("no_ptrace.py"))]


def test_refused_ptrace_runs_the_script_untraced_with_one_note(tmp_path: Path):
    data_file(tmp_path / "data.txt", 10_000)
    write_script(tmp_path, "job.sh", "cat data.txt | wc -l\necho oops >&2\nexit 4\n")
    pipelint = [sys.executable, "-m", "pipelint", "trace", "--output-format", "json", "-o", "trace.json", "--"]
    traced = subprocess.run([*NO_PTRACE, *IN_A_SHELL, *pipelint, "bash", "job.sh"], cwd=tmp_path, capture_output=True, env=cli_env())
    plain = subprocess.run([*NO_PTRACE, *IN_A_SHELL, "bash", "job.sh"], cwd=tmp_path, capture_output=True, env=cli_env())
    assert (traced.returncode, traced.stdout) == (plain.returncode, plain.stdout) == (4, b"263\n")
    note = (
        b"pipelint: note: cannot trace the command (ptrace: Operation not permitted): it ran untraced, "
        b"and only its total cost is measured\n"
    )
    assert traced.stderr == plain.stderr + note  # said once the script is done, after its own output
    report = json.loads((tmp_path / "trace.json").read_text(encoding="utf-8"))
    VALIDATOR.validate(report)
    assert report["traced"] is False and report["notes"] == ["ptrace: Operation not permitted"]
    assert report["exit_status"] == 4 and report["pipelines"] == []
    assert report["measured"]["wall_s"] > 0 and report["measured"]["cpu_s"] > 0
