"""What `pipelint check` says about how it read a script: notes, never findings, said once per file and cause.

- A repair of tree-sitter-bash's misreads that lost nothing (every piece
  was checked) is said only with `--verbose`.
- What tree-sitter-bash cannot parse in a script the shell accepts (`bash -n`,
  `dash -n`) is pipelint's limit, not the user's error: a note naming the
  lines, after the summary, and the exit status is not affected;
  `--strict-parse` reports it as a parse error. A script the shell rejects
  keeps its parse-error finding.
- Every message says truly what was checked.
"""

from __future__ import annotations

import json
import subprocess
import sys

from cli_helpers import cli_env, run_cli, text

JOINED = "[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r > k\n[ 1 ]\n"
JOINED_CLEAN = "[ 1 -eq 0 ]\ntrue\necho r > k\n[ 1 ]\n"
JOINED_NOTE = (
    "pipelint: note: {name}:1:1: tree-sitter-bash joined lines 1–4 into one statement (tree-sitter-bash #316); "
    "pipelint split them where bash does, and each piece was checked"
)
# Valid bash tree-sitter-bash 0.25.1 cannot parse (seen in scripts Debian installs), each then a useless cat.
# (What the guards can read another way, `<>` or `${b:$len:$max}`, is read: tests/test_rereads.py.)
UNREADABLE = {
    "an assignment with a redirect": 'n=$(($1 + 0)) 2>/dev/null && echo "$n"\n',
    "a for loop without `in` and `;`": 'for i do echo "$i"; done\n',
    "an expansion that sets a variable, as a substring bound": "x=${y:$z:${w:=1}}\n",
    "arithmetic that sets a variable, with hexadecimal digits from an expansion": "echo $((i++ + 0x${c}))\n",
    "a here-string on a descriptor that runs a command": 'b() { :; }\nb 3<<<"$(cat pw)"\n',
}
UNREADABLE_LINE = 'for i do echo "$i"; done\n'  # line 2 of the scripts below; the note's column 1


def test_a_repair_that_lost_nothing_is_not_said_by_default(tmp_path):
    (tmp_path / "joined.sh").write_text(JOINED)
    completed = run_cli("check", "joined.sh", cwd=tmp_path)
    out, err = text(completed)
    assert out.splitlines()[0] == "joined.sh:2:1: PL001 [*] `cat` only feeds words.txt into wc: read it with a redirect"
    assert err == "" and completed.returncode == 1  # for the finding


def test_verbose_says_it_once_per_file_and_cause_after_the_summary(tmp_path):
    (tmp_path / "joined.sh").write_text(JOINED_CLEAN * 40)  # 40 joined statements: one note
    completed = run_cli("check", "--verbose", "joined.sh", cwd=tmp_path)
    out, err = text(completed)
    assert out == "All checks passed!\n" and completed.returncode == 0
    (note,) = err.splitlines()
    lines = ", ".join(f"{n}–{n + 3}" for n in range(1, 160, 4))
    assert note == (
        f"pipelint: note: joined.sh:1:1: tree-sitter-bash joined lines {lines} into one statement each "
        "(tree-sitter-bash #316); pipelint split them where bash does, and each piece was checked"
    )


def test_the_notes_come_after_the_summary(tmp_path):
    (tmp_path / "unreadable.sh").write_text(f"#!/bin/bash\n{UNREADABLE_LINE}cat words.txt | wc -l\n")
    out, err = text(run_cli("check", "unreadable.sh", cwd=tmp_path))
    command = [sys.executable, "-m", "pipelint", "check", "unreadable.sh"]
    both = subprocess.run(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=cli_env(None))
    assert both.stdout.decode().splitlines() == out.splitlines() + err.splitlines()
    assert "Found 1 problem." in out and err.startswith("pipelint: note: ")


def test_what_the_shell_accepts_but_tree_sitter_cannot_parse_is_a_note_not_an_error(tmp_path):
    for name, script in UNREADABLE.items():
        (tmp_path / "u.sh").write_text(f"#!/bin/bash\n{script}cat words.txt | wc -l\n")
        lines = script.count("\n")
        completed = run_cli("check", "u.sh", cwd=tmp_path)
        out, err = text(completed)
        assert "parse-error" not in out, name
        assert "u.sh:" + str(lines + 2) + ":1: PL001" in out, f"{name}: the rest of the file is checked"
        assert err.startswith("pipelint: note: u.sh:"), name
        assert f"line {lines + 1} not checked" in err, name
        assert "not checked: tree-sitter-bash cannot parse" in err and "but the shell accepts the script" in err
        assert completed.returncode == 1, "for the finding, not the note"


def test_a_script_with_nothing_else_passes_and_says_it_was_not_checked_in_full(tmp_path):
    (tmp_path / "u.sh").write_text(f"#!/bin/bash\n{UNREADABLE_LINE}echo hi\n")
    completed = run_cli("check", "u.sh", cwd=tmp_path)
    out, err = text(completed)
    assert completed.returncode == 0
    assert out == "All checks passed! 1 file not checked in full: see the notes below.\n"
    assert err == (
        "pipelint: note: u.sh:2:1: line 2 not checked: tree-sitter-bash cannot parse it, but the shell accepts "
        "the script (`--strict-parse` reports it as a parse error)\n"
    )


def test_strict_parse_keeps_the_parse_error(tmp_path):
    (tmp_path / "u.sh").write_text(f"#!/bin/bash\n{UNREADABLE_LINE}echo hi\n")
    completed = run_cli("check", "--strict-parse", "u.sh", cwd=tmp_path)
    out, err = text(completed)
    assert completed.returncode == 1 and err == ""
    assert out.splitlines()[0] == "u.sh:2:1: parse-error could not parse line 2; the rest of the file was checked"
    (tmp_path / ".pipelint.toml").write_text("strict-parse = true\n")
    assert run_cli("check", "u.sh", cwd=tmp_path).returncode == 1


def test_a_script_the_shell_rejects_keeps_its_parse_error(tmp_path):
    (tmp_path / "broken.sh").write_text("#!/bin/bash\ncat a | grep x\nif true; then\n  echo (\n")
    completed = run_cli("check", "broken.sh", cwd=tmp_path)
    out, err = text(completed)
    assert completed.returncode == 1 and err == ""
    assert "broken.sh:3:1: parse-error could not parse from line 3 to the end of the file; lines before it were checked" in out


def test_sh_scripts_are_judged_by_dash(tmp_path):
    """`exec 3<> f` is POSIX; a here-string is not (dash rejects it).

    The first is read (`<>` as `<`), the second a parse error.
    """
    (tmp_path / "posix.sh").write_text('#!/bin/sh\nexec 3<> "$f"\n')
    (tmp_path / "bashism.sh").write_text('#!/bin/sh\nb() { :; }\nb 3<<<"$PW"\n')
    assert run_cli("check", "posix.sh", cwd=tmp_path).returncode == 0
    out, _ = text(run_cli("check", "bashism.sh", cwd=tmp_path))
    assert "bashism.sh:3:4: parse-error could not parse line 3" in out


def test_machine_formats_carry_the_notes_as_records(tmp_path):
    (tmp_path / "u.sh").write_text(f"#!/bin/bash\n{UNREADABLE_LINE}echo hi\n")
    (tmp_path / "clean.sh").write_text(JOINED_CLEAN)
    records = json.loads(run_cli("check", "--output-format", "json", "u.sh", "clean.sh", cwd=tmp_path).stdout)
    (record,) = records  # the repaired join of clean.sh lost nothing: only with --verbose
    assert (record["kind"], record["code"], record["severity"], record["filename"]) == ("note", None, "info", "u.sh")
    assert record["location"] == {"row": 2, "column": 1} and record["message"].startswith("line 2 not checked")
    verbose = json.loads(run_cli("check", "--output-format", "json", "--verbose", "clean.sh", cwd=tmp_path).stdout)
    assert [r["kind"] for r in verbose] == ["note"]
    lines = run_cli("check", "--output-format", "json-lines", "u.sh", cwd=tmp_path).stdout.splitlines()
    assert [json.loads(line)["kind"] for line in lines] == ["note"]
    github = text(run_cli("check", "--output-format", "github", "u.sh", cwd=tmp_path))[0]
    assert github.startswith("::notice file=u.sh,line=2,col=1,") and "title=pipelint%3A note::line 2 not checked" in github
    sarif = json.loads(run_cli("check", "--output-format", "sarif", "u.sh", cwd=tmp_path).stdout)
    (notice,) = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert (notice["level"], notice["descriptor"]["id"]) == ("note", "note")


def test_quiet_carries_no_note(tmp_path):
    (tmp_path / "u.sh").write_text(f"#!/bin/bash\n{UNREADABLE_LINE}echo hi\n")
    completed = run_cli("check", "--quiet", "u.sh", cwd=tmp_path)
    assert completed.returncode == 0 and text(completed) == ("", "")


def test_diff_and_fix_say_it_too(tmp_path):
    (tmp_path / "u.sh").write_text(f"#!/bin/bash\n{UNREADABLE_LINE}cat words.txt | wc -l > count.txt\necho done\n")
    out, err = text(run_cli("check", "--diff", "u.sh", cwd=tmp_path))
    assert "+wc -l > count.txt < words.txt" in out and "line 2 not checked" in err
    completed = run_cli("check", "--fix", "u.sh", cwd=tmp_path)
    assert completed.returncode == 0 and "line 2 not checked" in text(completed)[1]
    assert (tmp_path / "u.sh").read_text() == f"#!/bin/bash\n{UNREADABLE_LINE}wc -l > count.txt < words.txt\necho done\n"


def test_the_rest_of_a_file_after_a_here_string_on_a_descriptor_is_checked(tmp_path):
    """The old message said "the rest of the file was checked" while the rest was taken for a here-document.

    In sh (dash rejects the here-string) it stays a parse error; in bash it is read (tests/test_rereads.py).
    """
    (tmp_path / "pw.sh").write_text('#!/bin/sh\nb() { :; }\nb 3<<<"$PW"\ncat a | grep x\necho done\n')
    out, _ = text(run_cli("check", "--strict-parse", "pw.sh", cwd=tmp_path))
    assert out.splitlines()[:2] == [
        "pw.sh:3:4: parse-error could not parse line 3; the rest of the file was checked",
        "pw.sh:4:1: PL001 [*] `cat` only feeds a into grep: read it with a redirect",
    ]


def test_a_note_about_a_script_inside_a_string_names_the_host_files_lines(tmp_path):
    """`sh -c '…'` and `ssh h '…'` scripts are guarded too: the note says where, in the file the user has open."""
    inner = "[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r > k\n[ 1 ]"
    (tmp_path / "host.sh").write_text(f"echo start\nsh -c '{inner}'\nssh db '{inner}'\necho done\n")
    out, err = text(run_cli("check", "--verbose", "host.sh", cwd=tmp_path))
    assert err.splitlines() == [
        "pipelint: note: host.sh:2:8: tree-sitter-bash joined lines 2–5, 6–9 into one statement each "
        "(tree-sitter-bash #316); pipelint split them where bash does, and each piece was checked",
    ]
    assert [line.split(" ")[0] for line in out.splitlines()[:2]] == ["host.sh:3:1:", "host.sh:7:1:"]
