"""What `pipelint check` says about statements tree-sitter-bash misread: a note, not a problem.

The file parsed and every piece was checked, so the note alone never makes
the exit status 1; what could not be repaired is a parse failure like any
other (tests/test_parse_guards.py).
"""

from __future__ import annotations

import json

from cli_helpers import run_cli, text

JOINED = "[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r > k\n[ 1 ]\n"
JOINED_CLEAN = "[ 1 -eq 0 ]\ntrue\necho r > k\n[ 1 ]\n"
NOTE = "tree-sitter-bash joined lines 1–4 into one statement (tree-sitter-bash #316); they were checked one by one"


def test_the_note_goes_to_stderr_and_the_finding_is_reported(tmp_path):
    (tmp_path / "joined.sh").write_text(JOINED)
    completed = run_cli("check", "joined.sh", cwd=tmp_path)
    out, err = text(completed)
    assert out.splitlines()[0] == "joined.sh:2:1: PL001 [*] `cat` only feeds words.txt into wc: read it with a redirect"
    assert err == f"pipelint: note: joined.sh:1:1: {NOTE}\n"
    assert completed.returncode == 1  # for the finding


def test_a_note_alone_passes(tmp_path):
    (tmp_path / "clean.sh").write_text(JOINED_CLEAN)
    completed = run_cli("check", "clean.sh", cwd=tmp_path)
    out, err = text(completed)
    assert out == "All checks passed!\n" and err == f"pipelint: note: clean.sh:1:1: {NOTE}\n"
    assert completed.returncode == 0


def test_machine_formats_and_quiet_carry_no_note(tmp_path):
    (tmp_path / "clean.sh").write_text(JOINED_CLEAN)
    for args in (["--output-format", "json"], ["--quiet"]):
        completed = run_cli("check", *args, "clean.sh", cwd=tmp_path)
        assert completed.returncode == 0 and "note" not in text(completed)[1]
    assert json.loads(run_cli("check", "--output-format", "json", "clean.sh", cwd=tmp_path).stdout) == []


def test_diff_and_fix_say_it_too(tmp_path):
    (tmp_path / "joined.sh").write_text(JOINED)
    out, err = text(run_cli("check", "--diff", "joined.sh", cwd=tmp_path))
    assert "+wc -l < words.txt" in out and NOTE in err
    completed = run_cli("check", "--fix", "joined.sh", cwd=tmp_path)
    assert completed.returncode == 0 and NOTE in text(completed)[1]
    assert (tmp_path / "joined.sh").read_text() == "[ 1 -eq 0 ]\nwc -l < words.txt\necho r > k\n[ 1 ]\n"


def test_a_note_about_a_script_inside_a_string_names_the_host_files_lines(tmp_path):
    """`sh -c '…'` and `ssh h '…'` scripts are guarded too: the note says where, in the file the user has open."""
    inner = "[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r > k\n[ 1 ]"
    (tmp_path / "host.sh").write_text(f"echo start\nsh -c '{inner}'\nssh db '{inner}'\necho done\n")
    out, err = text(run_cli("check", "host.sh", cwd=tmp_path))
    assert err.splitlines() == [
        "pipelint: note: host.sh:2:8: in the script `sh -c` runs: tree-sitter-bash joined lines 2–5 into one "
        "statement (tree-sitter-bash #316); they were checked one by one",
        "pipelint: note: host.sh:6:9: in the command `ssh` runs remotely: tree-sitter-bash joined lines 6–9 into one "
        "statement (tree-sitter-bash #316); they were checked one by one",
    ]
    assert [line.split(" ")[0] for line in out.splitlines()[:2]] == ["host.sh:3:1:", "host.sh:7:1:"]
