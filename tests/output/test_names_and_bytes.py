"""File names and script bytes that are not plain text: escaped for terminals, valid UTF-8 (and exact) for JSON."""

from __future__ import annotations

import base64

import pytest
from output_helpers import BAD, NOT_UTF8_NAME, lint_files, made_up_report, render, run_cli, strict_json

from pipelint.output.common import lossy, one_line, printable

ODD_NAMES = {
    "new\nline.sh": "new\\nline.sh",
    "tab\there.sh": "tab\\there.sh",
    "esc\x1b[31mred.sh": "esc\\x1b[31mred.sh",
    "back\\slash.sh": "back\\\\slash.sh",
    "bidi\u202eevil.sh": "bidi\\u202eevil.sh",
    NOT_UTF8_NAME: "caf\\xe9.sh",
    "café😀.sh": "café😀.sh",
}


@pytest.mark.parametrize(("name", "shown"), ODD_NAMES.items(), ids=range(len(ODD_NAMES)))
def test_printable_escapes_as_ls_b_does(name, shown):
    assert printable(name) == shown


def test_every_odd_name_prints_distinctly():
    assert len({printable(name) for name in ODD_NAMES}) == len(ODD_NAMES)


def test_a_message_stays_on_one_line_and_keeps_its_backslashes():
    assert one_line('feeds "a\nb" into wc: \\n') == 'feeds "a\\nb" into wc: \\n'


def test_a_newline_in_a_file_name_cannot_fake_a_finding(tmp_path):
    name = "x.sh\nfake.sh:1:1: PL999 injected"
    (tmp_path / name).write_bytes(BAD)
    completed = run_cli("check", "--output-format", "concise", ".", cwd=tmp_path)
    lines = completed.stdout.decode().splitlines()
    findings = [line for line in lines if ": PL" in line]
    assert findings and all(line.startswith("x.sh\\nfake.sh:1:1: PL999 injected:") for line in findings)
    assert not any(line.startswith("fake.sh") for line in lines)


@pytest.mark.parametrize("format_name", ["concise", "full", "github"])
def test_stdin_filename_with_control_characters_is_escaped(tmp_path, format_name):
    completed = run_cli(
        "check", "--output-format", format_name, "--stdin-filename", "a\nb\x07.sh", "-", cwd=tmp_path, stdin=BAD
    )
    out = completed.stdout.decode()
    assert completed.returncode == 1
    assert "a\\nb\\x07.sh" in out
    assert "\x07" not in out and "a\nb" not in out


@pytest.mark.parametrize("format_name", ["json", "json-lines"])
def test_json_is_strict_utf8_and_carries_the_exact_name(tmp_path, format_name):
    reports = lint_files({NOT_UTF8_NAME: BAD}, tmp_path)
    text = render(format_name, reports)
    records = strict_json(text) if format_name == "json" else [strict_json(line) for line in text.splitlines()]
    assert records
    for record in records:
        assert record["filename"] == "caf\ufffd.sh"
        assert base64.b64decode(record["filename_bytes"]) == b"caf\xe9.sh"


def test_json_keys_for_exact_bytes_appear_only_when_needed(tmp_path):
    (record, *_) = strict_json(render("json", lint_files({"plain.sh": BAD}, tmp_path)))
    assert "filename_bytes" not in record
    assert all("content_bytes" not in edit for edit in record["fix"]["edits"])


def test_json_fix_content_that_is_not_utf8_travels_exactly(tmp_path):
    source = b"#!/bin/bash\ncat caf\xe9.txt | wc -c\n"
    (record,) = strict_json(render("json", lint_files({"latin.sh": source}, tmp_path)))
    edits = record["fix"]["edits"]
    inserted = [edit for edit in edits if edit["content"]]
    assert inserted and inserted[0]["content"] == " < caf\ufffd.txt"
    assert base64.b64decode(inserted[0]["content_bytes"]) == b" < caf\xe9.txt"


def test_the_cli_writes_json_a_strict_reader_accepts(tmp_path):
    (tmp_path / NOT_UTF8_NAME).write_bytes(b"#!/bin/bash\ncat caf\xe9.txt | wc -c\n")
    completed = run_cli("check", "--output-format", "json", NOT_UTF8_NAME, cwd=tmp_path)
    (record,) = strict_json(completed.stdout)
    assert record["filename"] == lossy(NOT_UTF8_NAME)


def test_messages_with_undecodable_bytes_are_lossy_everywhere():
    report = made_up_report(message="feeds caf\udce9.txt")
    for format_name in ("json", "json-lines", "sarif", "gitlab", "github", "junit", "concise", "full"):
        render(format_name, [report])  # render() writes through a strict UTF-8 stream: it raises otherwise


def test_diff_headers_quote_odd_names_as_git_does_and_git_applies_them(tmp_path):
    import subprocess

    names = ["plain.sh", "new\nline.sh", NOT_UTF8_NAME, 'quote".sh']
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    for name in names:
        (tmp_path / name).write_bytes(BAD)
    completed = run_cli("check", "--diff", ".", cwd=tmp_path)
    assert completed.returncode == 1
    headers = [line for line in completed.stdout.split(b"\n") if line.startswith((b"--- ", b"+++ "))]
    assert b'--- "a/new\\nline.sh"' in headers and b'--- "a/caf\\351.sh"' in headers
    assert b'--- "a/quote\\".sh"' in headers and b"--- a/plain.sh" in headers
    patch = tmp_path / "fixes.diff"
    patch.write_bytes(completed.stdout)
    subprocess.run(["git", "apply", "fixes.diff"], cwd=tmp_path, check=True)
    for name in names:
        assert (tmp_path / name).read_bytes() != BAD


DIFF_NAMES = ["plain.sh", "sp ace.sh", "two  blanks.sh", "end .sh", "new\nline.sh", NOT_UTF8_NAME, 'quote".sh', "tab\tname.sh"]


def _diff_of(tmp_path, names):
    import subprocess

    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    for name in names:
        (tmp_path / name).write_bytes(BAD)
    completed = run_cli("check", "--diff", ".", cwd=tmp_path)
    assert completed.returncode == 1
    return completed.stdout


def test_diff_headers_end_a_name_with_a_blank_by_a_tab_as_git_does(tmp_path):
    headers = [line for line in _diff_of(tmp_path, DIFF_NAMES).split(b"\n") if line.startswith((b"--- ", b"+++ "))]
    assert b"--- a/sp ace.sh\t" in headers and b"+++ b/sp ace.sh\t" in headers
    assert b"--- a/plain.sh" in headers and b'--- "a/tab\\tname.sh"' in headers


@pytest.mark.parametrize("tool", [["patch", "-p1", "-i", "fixes.diff"], ["git", "apply", "fixes.diff"]])
def test_diff_applies_with_gnu_patch_and_git_apply(tool, tmp_path):
    """Issue 25 class 9: GNU patch read `--- a/sp ace.sh` as the file `sp` and failed."""
    import subprocess

    patched, fixed = tmp_path / "patched", tmp_path / "fixed"
    patched.mkdir(), fixed.mkdir()
    (patched / "fixes.diff").write_bytes(_diff_of(patched, DIFF_NAMES))
    applied = subprocess.run(tool, cwd=patched, capture_output=True)
    assert applied.returncode == 0, applied
    _diff_of(fixed, DIFF_NAMES)
    run_cli("check", "--fix", ".", cwd=fixed)
    for name in DIFF_NAMES:
        assert (patched / name).read_bytes() == (fixed / name).read_bytes() != BAD, name
