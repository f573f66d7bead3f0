"""`--output-format json-lines`: one JSON record per line, the same records as `json`."""

from __future__ import annotations

import base64
import json

from output_helpers import BAD, NOT_UTF8_NAME, lint_files, render, run_cli, strict_json


def test_each_line_is_the_json_formats_record(project):
    lines = run_cli("check", "--output-format", "json-lines", "bad.sh", "clean.sh", cwd=project)
    whole = run_cli("check", "--output-format", "json", "bad.sh", "clean.sh", cwd=project)
    assert lines.returncode == whole.returncode == 1
    text = lines.stdout.decode("utf-8")
    assert text.endswith("\n")
    records = [json.loads(line) for line in text.splitlines()]
    assert records == json.loads(whole.stdout)
    assert len(records) == 3


def test_a_clean_run_prints_nothing(project):
    completed = run_cli("check", "--output-format", "json-lines", "clean.sh", cwd=project)
    assert completed.returncode == 0
    assert completed.stdout == b""


def test_records_with_undecodable_bytes_are_valid_utf8_and_lossless(tmp_path):
    reports = lint_files({NOT_UTF8_NAME: BAD}, tmp_path)
    for line in render("json-lines", reports).splitlines():
        record = strict_json(line)
        assert record["filename"] == "caf\ufffd.sh"
        assert base64.b64decode(record["filename_bytes"]) == b"caf\xe9.sh"
