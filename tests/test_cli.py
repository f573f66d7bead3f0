"""The command line as users meet it: real subprocesses, exit codes, one-line errors."""

from __future__ import annotations

import base64
import json
import os
import stat

import pytest
from cli_helpers import run_cli, text

BAD = "#!/bin/bash\ncat access.log | grep 500\ncat dump.sql | mysql shop\necho done\n"
CLEAN = "#!/bin/bash\ngrep 500 < access.log\n"


@pytest.fixture
def project(tmp_path):
    (tmp_path / "bad.sh").write_text(BAD)
    (tmp_path / "clean.sh").write_text(CLEAN)
    return tmp_path


def test_clean_file_exits_zero(project):
    out, _ = text(result := run_cli("check", "clean.sh", cwd=project))
    assert result.returncode == 0
    assert out.strip() == "All checks passed!"


def test_findings_exit_one_in_concise_format(project):
    result = run_cli("check", "bad.sh", cwd=project)
    out, _ = text(result)
    assert result.returncode == 1
    lines = out.splitlines()
    assert lines[0] == "bad.sh:2:1: PL001 [*] `cat` only feeds access.log into grep: read it with a redirect"
    assert lines[1].startswith("bad.sh:3:1: PL004 [*] mysql reads dump.sql through a `cat` pipe")
    assert "Found 2 problems." in out and "[*] 2 fixable with the `--fix` option." in out


def test_full_format_underlines_the_span_and_shows_help(project):
    out, _ = text(run_cli("check", "--output-format", "full", "bad.sh", cwd=project))
    assert "2 | cat access.log | grep 500" in out
    assert "  | ^^^^^^^^^^^^^^ PL001" in out
    assert "= help: Redirect access.log into grep" in out


def test_json_format(project):
    (project / "uni.sh").write_text("#!/bin/bash\necho 'é😀' ; cat f | wc -l\necho\n")
    result = run_cli("check", "--output-format", "json", "uni.sh", cwd=project)
    (record,) = json.loads(result.stdout)
    assert record["code"] == "PL001" and record["name"] == "useless-cat"
    assert record["severity"] == "warning" and record["filename"] == "uni.sh"
    # Columns count characters: 'é' and '😀' are one each.
    assert record["location"] == {"row": 2, "column": 13}
    assert record["end_location"] == {"row": 2, "column": 18}
    assert record["fix"]["applicability"] == "safe"
    assert record["fix"]["message"] == "Redirect f into wc"
    assert [e["content"] for e in record["fix"]["edits"]] == ["", " < f"]


def test_fix_rewrites_in_place_keeping_mode(project):
    script = project / "bad.sh"
    script.chmod(0o754)
    result = run_cli("check", "--fix", "bad.sh", cwd=project)
    out, _ = text(result)
    assert result.returncode == 0
    assert script.read_text() == "#!/bin/bash\ngrep 500 < access.log\nmysql shop < dump.sql\necho done\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o754
    assert "Found 2 problems (2 fixed, 0 remaining)." in out
    assert not [p for p in project.iterdir() if p.name.endswith(".pipelint")], "temp file left behind"


def test_fix_follows_symlinks(project):
    link = project / "link.sh"
    link.symlink_to("bad.sh")
    assert run_cli("check", "--fix", "link.sh", cwd=project).returncode == 0
    assert link.is_symlink()
    assert (project / "bad.sh").read_text().endswith("mysql shop < dump.sql\necho done\n")


def test_unsafe_fixes_need_the_flag(project):
    script = project / "loop.sh"
    original = "#!/bin/bash\ncat access.log | while read -r l; do n=1; done\n"
    script.write_text(original)
    result = run_cli("check", "--fix", "loop.sh", cwd=project)
    assert result.returncode == 1 and script.read_text() == original
    assert "1 more with `--unsafe-fixes`" in text(run_cli("check", "loop.sh", cwd=project))[0] or "--unsafe-fixes" in text(result)[0]
    assert run_cli("check", "--fix", "--unsafe-fixes", "loop.sh", cwd=project).returncode == 0
    assert script.read_text() == "#!/bin/bash\nwhile read -r l; do n=1; done < access.log\n"


def test_diff_changes_nothing(project):
    result = run_cli("check", "--diff", "bad.sh", cwd=project)
    out, _ = text(result)
    assert result.returncode == 1
    assert "--- a/bad.sh\n+++ b/bad.sh\n" in out
    assert "-cat access.log | grep 500\n-cat dump.sql | mysql shop\n+grep 500 < access.log\n" in out
    assert (project / "bad.sh").read_text() == BAD
    assert run_cli("check", "--diff", "clean.sh", cwd=project).returncode == 0


def test_statistics_and_show_fixes(project):
    out, _ = text(run_cli("check", "--statistics", "bad.sh", cwd=project))
    assert "    1  PL001  [*] useless-cat" in out and "    1  PL004  [*] piped-dump-import" in out
    out, _ = text(run_cli("check", "--fix", "--show-fixes", "bad.sh", cwd=project))
    assert "Fixed 2 problems:" in out and "1 × PL004 (piped-dump-import)" in out


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--select", "PL004"], {"PL004"}),
        (["--select", "useless-cat"], {"PL001"}),
        (["--ignore", "PL001"], {"PL004"}),
        (["--select", "PL00", "--ignore", "piped-dump-import"], {"PL001"}),
        (["--select", "PL001", "--extend-select", "PL004"], {"PL001", "PL004"}),
    ],
)
def test_selection(project, args, expected):
    result = run_cli("check", "--output-format", "json", *args, "bad.sh", cwd=project)
    assert {r["code"] for r in json.loads(result.stdout)} == expected


def test_exit_zero(project):
    assert run_cli("check", "--exit-zero", "bad.sh", cwd=project).returncode == 0


def test_quiet_prints_findings_only(project):
    out, _ = text(run_cli("check", "--quiet", "bad.sh", cwd=project))
    assert "Found" not in out and out.count("\n") == 2


def test_stdin_with_filename(project):
    result = run_cli("check", "--stdin-filename", "x.sh", "-", cwd=project, stdin=BAD.encode())
    out, _ = text(result)
    assert result.returncode == 1 and out.startswith("x.sh:2:1: PL001")


def test_stdin_fix_prints_the_fixed_script(project):
    result = run_cli("check", "--fix", "-", cwd=project, stdin=BAD.encode())
    assert result.stdout == b"#!/bin/bash\ngrep 500 < access.log\nmysql shop < dump.sql\necho done\n"
    assert b"2 fixed" in result.stderr


def test_folders_recurse_respecting_gitignore_and_shebangs(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("ignored/\n*.gen.sh\n")
    for name, content in {
        "a.sh": BAD,
        "tool": "#!/usr/bin/env bash\ncat f | wc -l\n",
        "dash-tool": "#!/bin/dash\ncat f | wc -l\n",
        "notes.txt": "cat f | wc -l\n",
        "script.py": "#!/usr/bin/env python3\n",
        "ignored/b.sh": BAD,
        "x.gen.sh": BAD,
        "sub/c.bash": BAD,
    }.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    result = run_cli("check", "--output-format", "json", cwd=tmp_path)
    assert sorted({r["filename"] for r in json.loads(result.stdout)}) == ["a.sh", "dash-tool", "sub/c.bash", "tool"]


def test_parse_failure_is_reported_among_the_findings_and_the_rest_is_linted(tmp_path):
    (tmp_path / "broken.sh").write_text("cat a | grep x\nif true; then\n  echo (\n")
    result = run_cli("check", "broken.sh", cwd=tmp_path)
    out, err = text(result)
    assert result.returncode == 1 and err == ""
    assert out.splitlines()[:2] == [
        "broken.sh:1:1: PL001 [*] `cat` only feeds a into grep: read it with a redirect",
        "broken.sh:2:1: parse-error could not parse from line 2 to the end of the file; lines before it were checked",
    ]
    assert "Found 1 problem and 1 parse error." in out
    quiet, _ = text(run_cli("check", "--quiet", "broken.sh", cwd=tmp_path))
    assert "broken.sh:2:1: parse-error" in quiet, "--quiet must not hide why the exit status is 1"


def test_diff_notes_a_parse_failure_on_stderr(tmp_path):
    (tmp_path / "broken.sh").write_text("cat a | grep x\nif true; then\n  echo (\n")
    out, err = text(run_cli("check", "--diff", "broken.sh", cwd=tmp_path))
    assert "+grep x < a" in out
    assert err == (
        "pipelint: note: broken.sh:2:1: could not parse from line 2 to the end of the file; lines before it were checked\n"
    )


def test_version_and_rule_listing():
    from pipelint import __version__

    assert text(run_cli("--version"))[0].strip() == f"pipelint {__version__}"
    out, _ = text(run_cli("rule", "--all"))
    assert "PL001  useless-cat" in out and "PL004  piped-dump-import" in out


def test_the_installed_metadata_has_the_version_the_package_says():
    """pyproject.toml reads the version from pipelint/__init__.py: one place, and the installed copy agrees."""
    from importlib import metadata

    from pipelint import __version__

    assert metadata.version("pipelint") == __version__


# Bad input: one clear line on stderr, the right exit code, never a traceback.


def assert_one_error_line(result, *needles: str, code: int = 2):
    out, err = text(result)
    assert result.returncode == code, (out, err)
    assert "Traceback" not in err
    error_lines = [line for line in err.splitlines() if line.startswith("pipelint: error:")]
    assert len(error_lines) == 1, err
    for needle in needles:
        assert needle in error_lines[0]


def test_missing_path(tmp_path):
    assert_one_error_line(run_cli("check", "nope.sh", cwd=tmp_path), "nope.sh", "no such file")


def test_folder_without_scripts(tmp_path):
    (tmp_path / "readme.txt").write_text("hello\n")
    result = run_cli("check", ".", cwd=tmp_path)
    assert_one_error_line(result, "no shell scripts found")
    assert text(result)[1].count("\n") == 1


def test_empty_folder_beside_scripts_is_a_warning(project):
    (project / "docs").mkdir()
    result = run_cli("check", "docs", "bad.sh", cwd=project)
    assert result.returncode == 1
    assert text(result)[1] == "pipelint: warning: no shell scripts found in docs\n"


def test_binary_file(tmp_path):
    (tmp_path / "blob.sh").write_bytes(b"\x7fELF\x00\x01\x02" * 100)
    assert_one_error_line(run_cli("check", "blob.sh", cwd=tmp_path), "blob.sh", "binary")


def test_unreadable_file(tmp_path):
    script = tmp_path / "secret.sh"
    script.write_text(BAD)
    script.chmod(0o000)
    # As root, drop the capabilities that bypass file permissions.
    result = run_cli("check", "secret.sh", cwd=tmp_path, unprivileged=os.geteuid() == 0)
    assert_one_error_line(result, "secret.sh", "permission denied")


def test_one_bad_file_does_not_stop_the_others(project):
    (project / "blob.sh").write_bytes(b"\x00\x01")
    result = run_cli("check", "blob.sh", "bad.sh", "missing.sh", cwd=project)
    out, err = text(result)
    assert result.returncode == 2
    assert "bad.sh:2:1: PL001" in out
    assert err.count("pipelint: error:") == 2


def test_empty_file(tmp_path):
    (tmp_path / "empty.sh").write_bytes(b"")
    assert run_cli("check", "empty.sh", cwd=tmp_path).returncode == 0


def test_ten_megabyte_script_is_over_the_default_limit(tmp_path):
    """10 MB of finding-dense script took minutes to lint (tests/benchmarks/bench_file_size.py): refused in one line."""
    line = b'cat "data.txt" | grep -v foo | sort > out.txt\nif [ -f x ]; then echo "hi" | tr a b; fi\n'
    (tmp_path / "big.sh").write_bytes(line * (10_000_000 // len(line)))
    result = run_cli("check", "--statistics", "big.sh", cwd=tmp_path)
    assert_one_error_line(result, "big.sh: larger than the 8 MiB limit")


def test_unknown_rule_code(project):
    assert_one_error_line(run_cli("check", "--select", "PL999", "bad.sh", cwd=project), "PL999")
    assert_one_error_line(run_cli("rule", "PL999"), "PL999")


def test_bad_option(project):
    assert_one_error_line(run_cli("check", "--no-such-option", cwd=project), "--no-such-option")
    assert_one_error_line(run_cli("check", "--output-format", "xml", cwd=project), "xml")


@pytest.mark.parametrize(
    ("content", "needles"),
    [
        ("[tool.pipelint]\nselect = 'PL001'\n", ["pyproject.toml", "tool.pipelint.select", "list of strings"]),
        ("[tool.pipelint]\nselct = ['PL001']\n", ["pyproject.toml", "tool.pipelint.selct", "unknown key"]),
        ("[tool.pipelint]\nignore = ['PL777']\n", ["tool.pipelint.ignore", "PL777"]),
        ("[tool.pipelint\n", ["pyproject.toml", "invalid TOML"]),
        ("[tool.pipelint]\nunsafe-fixes = 'yes'\n", ["tool.pipelint.unsafe-fixes", "true or false"]),
    ],
)
def test_invalid_config(project, content, needles):
    (project / "pyproject.toml").write_text(content)
    assert_one_error_line(run_cli("check", "bad.sh", cwd=project), *needles)


def test_file_names_that_are_not_utf8(tmp_path):
    name = b"caf\xe9.sh"
    (tmp_path / name.decode("utf-8", "surrogateescape")).write_text(BAD)
    result = run_cli("check", cwd=tmp_path)
    out, err = text(result)
    assert result.returncode == 1 and "Traceback" not in err
    assert out.startswith("caf\\xe9.sh:2:1: PL001")
    output = run_cli("check", "--output-format", "json", cwd=tmp_path).stdout
    records = json.loads(output.decode("utf-8", "strict"))
    assert records[0]["filename"] == "caf\ufffd.sh"
    assert base64.b64decode(records[0]["filename_bytes"]) == name


def test_unsafe_fixes_from_config_count_as_fixable(tmp_path):
    (tmp_path / ".pipelint.toml").write_text("unsafe-fixes = true\n")
    (tmp_path / "loop.sh").write_text("cat access.log | while read -r l; do :; done\n")
    out, _ = text(run_cli("check", "loop.sh", cwd=tmp_path))
    assert "PL001 [*]" in out and "[*] 1 fixable with the `--fix` option." in out
