"""`pipelint trace`: what the report measures, how it ranks, and what it says a fix saves."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_cli
from trace_helpers import data_file, trace, write_script

MIB = 1024 * 1024


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_the_256_mib_cat_ranks_first_with_its_fix(tmp_path: Path, shell: str):
    data_file(tmp_path / "big.txt", 256 * MIB)
    data_file(tmp_path / "small.txt", 1024)
    write_script(tmp_path, "job.sh", "cat small.txt | wc -l\ncat big.txt | wc -l\necho done\n")
    traced = trace([shell, "job.sh"], tmp_path)
    assert traced.status == 0, traced.completed.stderr
    first, second = traced.pipelines()[:2]
    assert (first["location"]["row"], first["text"]) == (2, "cat big.txt | wc -l")
    assert (second["location"]["row"], second["text"]) == (1, "cat small.txt | wc -l")
    cat = first["stages"][0]
    assert cat["program"] == "cat" and cat["processes"] == 1
    assert cat["bytes_read"] >= 256 * MIB and cat["bytes_written"] == 256 * MIB
    assert first["stages"][1]["bytes_read"] >= 256 * MIB
    assert first["measured"]["bytes"] >= 256 * MIB
    assert first["measured"]["wall_s"] > second["measured"]["wall_s"]
    (finding,) = first["findings"]
    assert finding["code"] == "PL001" and finding["location"]["row"] == 2
    assert finding["fix"] == {"applicability": "safe", "message": "Redirect big.txt into wc"}
    assert finding["saves"]["removed"] == ["cat"] and finding["saves"]["bytes"] == 256 * MIB
    assert finding["saves"]["cpu_s"] == cat["cpu_s"]
    assert second["stages"][0]["bytes_written"] == 1024


def test_the_terminal_report_names_the_fix_and_how_to_apply_it(tmp_path: Path):
    data_file(tmp_path / "big.txt", 64 * MIB)
    write_script(tmp_path, "job.sh", "#!/bin/sh\ncat big.txt | wc -l\necho done\n")
    completed = run_cli("trace", "--", "./job.sh", cwd=tmp_path)
    assert completed.returncode == 0
    count, done = completed.stdout.decode().splitlines()
    assert int(count) == (64 * MIB) // 38 and done == "done"  # the script's output, untouched
    report = completed.stderr.decode()
    lines = report.splitlines()
    assert lines[0].startswith("pipelint trace: ./job.sh exited 0 after ")
    assert "  1  job.sh:2  cat big.txt | wc -l  (1 run)" in lines
    assert any(line.strip().startswith("cat ") and "read 64.0 MiB · wrote 64.0 MiB" in line for line in lines), report
    assert "PL001 useless-cat (line 2) `cat` only feeds big.txt into wc: read it with a redirect" in report
    assert "the fix removes cat: " in report and "64.0 MiB copied" in report
    assert "[*] Redirect big.txt into wc (pipelint check --fix)" in report


def test_a_command_outside_any_pipeline_is_ranked_too(tmp_path: Path):
    data_file(tmp_path / "big.txt", 32 * MIB)
    write_script(tmp_path, "job.sh", "gzip -1 -c big.txt > big.gz\necho hi\ncat big.gz | wc -c > /dev/null\n")
    traced = trace(["bash", "job.sh"], tmp_path)
    gzip = traced.at("job.sh", 1)
    assert gzip["stages"][0]["program"] == "gzip" and gzip["runs"] == 1
    assert gzip["stages"][0]["bytes_read"] >= 32 * MIB and gzip["measured"]["cpu_s"] > 0
    assert traced.pipelines()[0]["text"] == "gzip -1 -c big.txt > big.gz"  # the most time, first
    assert 2 not in traced.lines("job.sh")  # echo is a builtin: no process


def test_what_a_program_starts_is_its_stage_s_cost(tmp_path: Path):
    for number in range(40):
        (tmp_path / f"f{number}.log").write_text("x\n")
    write_script(tmp_path, "job.sh", "ls *.log | xargs -I arg basename arg > /dev/null\n")
    traced = trace(["bash", "job.sh"], tmp_path)
    pipeline = traced.at("job.sh", 1)
    ls, xargs = pipeline["stages"]
    assert (ls["processes"], ls["started"]) == (1, 0)
    assert (xargs["program"], xargs["processes"], xargs["started"]) == ("xargs", 1, 40)
    assert traced.report["unattributed"]["processes"] == 0


def test_a_fix_that_changes_a_stage_in_place_saves_no_stage(tmp_path: Path):
    data_file(tmp_path / "big.txt", MIB)
    write_script(tmp_path, "job.sh", "dd if=big.txt of=copy.txt bs=512 2>/dev/null\necho done\n")
    traced = trace(["bash", "job.sh"], tmp_path)
    dd = traced.at("job.sh", 1)
    (finding,) = dd["findings"]
    assert finding["code"] == "PL201" and finding["fix"] is not None
    assert finding["saves"] == {"removed": [], "cpu_s": 0.0, "bytes": 0}
    assert dd["stages"][0]["bytes_written"] >= MIB  # what is at stake (and dd's summary on stderr)


def test_findings_on_lines_that_did_not_run_are_counted_apart(tmp_path: Path):
    write_script(tmp_path, "job.sh", 'if [ -n "$NEVER" ]; then\n  cat x.txt | grep y\nfi\necho ok | tr a-z A-Z\n')
    traced = trace(["bash", "job.sh"], tmp_path)
    (script,) = traced.report["scripts"]
    assert [f["code"] for f in script["findings_not_run"]] == ["PL001"]
    assert 2 not in traced.lines("job.sh")


def test_the_report_file_is_opened_before_the_script_runs(tmp_path: Path):
    write_script(tmp_path, "job.sh", "touch ran\n")
    (tmp_path / "taken").write_text("")
    completed = run_cli("trace", "-o", "taken/report.json", "--", "bash", "job.sh", cwd=tmp_path)
    assert completed.returncode == 2
    assert completed.stderr.decode().startswith("pipelint: error: --output-file taken/report.json: ")
    assert len(completed.stderr.decode().splitlines()) == 1
    assert not (tmp_path / "ran").exists()


def test_a_command_that_cannot_run_says_so_as_a_shell_would(tmp_path: Path):
    completed = run_cli("trace", "-o", "r.json", "--", "./missing.sh", cwd=tmp_path)
    assert completed.returncode == 127
    assert completed.stderr == b"pipelint: ./missing.sh: No such file or directory\n"
    write_script(tmp_path, "plain.sh", "echo hi\n").chmod(0o644)
    completed = run_cli("trace", "-o", "r.json", "--", "./plain.sh", cwd=tmp_path)
    assert completed.returncode == 126
    assert completed.stderr == b"pipelint: ./plain.sh: Permission denied\n"


def test_no_command_is_a_usage_error(tmp_path: Path):
    completed = run_cli("trace", cwd=tmp_path)
    assert completed.returncode == 2
    assert completed.stderr.decode().startswith("pipelint: error: Missing argument 'COMMAND...'")
