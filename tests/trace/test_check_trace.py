"""`pipelint check --trace FILE`: the findings of a traced script carry what its pipeline cost."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import run_cli
from trace_helpers import data_file, trace, write_script

MIB = 1024 * 1024
SCRIPT = "cat small.txt | wc -l\ncat big.txt | wc -l\necho done\n"


def traced_folder(tmp_path: Path) -> Path:
    data_file(tmp_path / "big.txt", 16 * MIB)
    data_file(tmp_path / "small.txt", 1024)
    write_script(tmp_path, "job.sh", SCRIPT)
    trace(["bash", "job.sh"], tmp_path, name="trace.json")
    return tmp_path / "trace.json"


def test_json_findings_carry_their_pipeline_s_measured_cost(tmp_path: Path):
    trace_file = traced_folder(tmp_path)
    pipelines = {p["location"]["row"]: p for p in json.loads(trace_file.read_text())["pipelines"]}
    completed = run_cli("check", "--trace", "trace.json", "--output-format", "json", "job.sh", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    records = json.loads(completed.stdout)
    assert [(r["code"], r["location"]["row"]) for r in records] == [("PL001", 1), ("PL001", 2)]
    for record in records:
        assert record["measured"] == pipelines[record["location"]["row"]]["measured"]
    assert records[1]["measured"]["bytes"] >= 16 * MIB
    assert "[traced: 1 run, " in records[1]["message"] and "16.0 MiB through cat]" in records[1]["message"]


def test_concise_messages_say_what_was_measured(tmp_path: Path):
    traced_folder(tmp_path)
    completed = run_cli("check", "--trace", "trace.json", "--output-format", "concise", "job.sh", cwd=tmp_path)
    first = completed.stdout.decode().splitlines()[1]
    assert first.startswith("job.sh:2:1: PL001 [*] `cat` only feeds big.txt into wc: read it with a redirect [traced: 1 run, ")


def test_a_script_changed_since_the_trace_gets_no_measured_cost(tmp_path: Path):
    traced_folder(tmp_path)
    (tmp_path / "job.sh").write_text("# changed\n" + SCRIPT)
    completed = run_cli("check", "--trace", "trace.json", "--output-format", "json", "job.sh", cwd=tmp_path)
    assert all("measured" not in record for record in json.loads(completed.stdout))
    assert completed.stderr == b"pipelint: note: job.sh: changed since it was traced: no measured costs for it\n"


def test_without_trace_no_measured_key(tmp_path: Path):
    traced_folder(tmp_path)
    completed = run_cli("check", "--output-format", "json", "job.sh", cwd=tmp_path)
    assert all("measured" not in record for record in json.loads(completed.stdout))


def test_a_file_that_is_no_trace_is_one_line_of_error(tmp_path: Path):
    write_script(tmp_path, "job.sh", SCRIPT)
    (tmp_path / "bad.json").write_text("[1, 2]")
    for name, reason in (("missing.json", "No such file or directory"), ("bad.json", "not a trace file")):
        completed = run_cli("check", "--trace", name, "job.sh", cwd=tmp_path)
        assert completed.returncode == 2 and completed.stdout == b""
        (line,) = completed.stderr.decode().splitlines()
        assert line.startswith(f"pipelint: error: {name}: {reason}")
