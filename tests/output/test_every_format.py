"""What every output format must do alike: show why the exit status is 1, and never claim a clean run that is not."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from output_helpers import BROKEN, CLEAN, lint_files, render, run_cli, strict_json

from pipelint.output import FORMATS, HUMAN_FORMATS, RenderOptions
from pipelint.output.common import plural
from pipelint.output.summary import summary

ONE_FAILURE = b"cat a | grep x\nif true; then\n  echo (\n"  # one finding, one place that does not parse


def parse_failures_shown(format_name: str, text: str) -> int:
    """How many parse failures the format's output carries, read as its consumer reads it."""
    if format_name in ("concise", "full"):
        return sum(1 for line in text.splitlines() if ": parse-error could not parse" in line)
    if format_name == "json":
        return sum(1 for r in strict_json(text) if r["kind"] == "parse-error" and r["code"] is None)
    if format_name == "json-lines":
        return sum(1 for line in text.splitlines() if strict_json(line)["kind"] == "parse-error")
    if format_name == "sarif":
        notes = json.loads(text)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        return sum(1 for n in notes if n["descriptor"]["id"] == "parse-error")
    if format_name == "github":
        return sum(1 for line in text.splitlines() if line.startswith("::error ") and "parse error" in line)
    if format_name == "gitlab":
        return sum(1 for issue in json.loads(text) if issue["check_name"] == "pipelint/parse-error")
    if format_name == "junit":
        root = ET.fromstring(text.encode("utf-8"))
        return sum(1 for failure in root.iter("failure") if failure.get("type") == "parse-error")
    raise AssertionError(f"no reader for {format_name}")


@pytest.mark.parametrize("format_name", sorted(FORMATS))
def test_a_parse_failure_is_in_every_format(project, format_name):
    completed = run_cli("check", "--output-format", format_name, "broken.sh", "clean.sh", cwd=project)
    assert completed.returncode == 1
    expected = len(lint_files({"broken.sh": BROKEN}, project)[0].parse_failures)
    assert expected >= 1
    assert parse_failures_shown(format_name, completed.stdout.decode("utf-8")) == expected


@pytest.mark.parametrize("format_name", sorted(HUMAN_FORMATS))
def test_the_summary_agrees_with_the_exit_status(project, format_name):
    failing = run_cli("check", "--output-format", format_name, "broken.sh", cwd=project)
    assert failing.returncode == 1
    assert "All checks passed!" not in failing.stdout.decode()
    failures = len(lint_files({"broken.sh": BROKEN}, project)[0].parse_failures)
    assert failing.stdout.decode().rstrip().endswith(f"Found {plural(failures, 'parse error')}.")
    clean = run_cli("check", "--output-format", format_name, "clean.sh", cwd=project)
    assert clean.returncode == 0 and clean.stdout.decode().rstrip().endswith("All checks passed!")


@pytest.mark.parametrize("format_name", sorted(HUMAN_FORMATS))
def test_an_error_beside_a_clean_file_is_not_all_checks_passed(project, format_name):
    completed = run_cli("check", "--output-format", format_name, "clean.sh", "missing.sh", cwd=project)
    assert completed.returncode == 2
    assert "All checks passed!" not in completed.stdout.decode()
    assert "No problems found; 1 error" in completed.stdout.decode()


def test_summary_lines(tmp_path):
    broken, clean = lint_files({"broken.sh": ONE_FAILURE, "clean.sh": CLEAN}, tmp_path)
    options = RenderOptions()
    assert summary([clean], options) == "All checks passed!"
    assert summary([clean], options, errors=2) == "No problems found; 2 errors (see `pipelint: error:` above)."
    assert summary([broken, clean], options).splitlines()[0] == "Found 1 problem and 1 parse error."
    assert summary([broken], options, errors=1).startswith("Found 1 problem and 1 parse error; 1 error")


def test_json_parse_failure_record_reads_like_a_ruff_syntax_error(tmp_path):
    (report,) = lint_files({"broken.sh": ONE_FAILURE}, tmp_path)
    finding, record = strict_json(render("json", [report]))
    assert finding["kind"] == "finding" and finding["code"] == "PL001"
    assert record["kind"] == "parse-error"
    assert record["code"] is None and record["fix"] is None and record["url"] is None
    assert record["filename"] == "broken.sh"
    assert record["location"] == {"row": 2, "column": 1}
    assert {"message", "end_location", "severity"} <= set(record)
