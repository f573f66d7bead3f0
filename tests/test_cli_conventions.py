"""The command-line conventions users bring from ruff and ShellCheck (issue 27), each on the real command line.

Colour and paging depend on a terminal: those tests run pipelint on a
pseudo-terminal (`cli_helpers.run_on_terminal`); the others on pipes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli, run_on_terminal, text

from pipelint.cli.terminal import wants_colour

ESCAPE = "\x1b["
# `set -e`: every status is seen, so PL001's fix is unsafe; the second line's PL004 likewise.
UNSAFE_ONLY = "#!/bin/sh\nset -e\ncat access.log | grep 500\ncat dump.sql | mysql shop\n"
SAFE_AND_UNSAFE = "#!/bin/sh\ncat access.log | grep 500\necho done\ncat dump.sql | mysql shop\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "job.sh").write_text(UNSAFE_ONLY)
    (tmp_path / "mixed.sh").write_text(SAFE_AND_UNSAFE)
    return tmp_path


# Colour: `--color`, NO_COLOR, FORCE_COLOR, as ruff 0.17 decides (measured on a pty and a pipe).


class _Stream:
    def __init__(self, terminal: bool) -> None:
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


@pytest.mark.parametrize(
    ("choice", "environ", "on_terminal", "on_pipe"),
    [
        ("auto", {}, True, False),
        ("auto", {"NO_COLOR": "1"}, False, False),
        ("auto", {"NO_COLOR": ""}, True, False),  # empty: not set (no-color.org)
        ("auto", {"FORCE_COLOR": "1"}, True, True),
        ("auto", {"FORCE_COLOR": "0"}, True, True),  # any non-empty value (force-color.org), as ruff does
        ("auto", {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False, False),
        ("always", {"NO_COLOR": "1"}, True, True),
        ("never", {"FORCE_COLOR": "1"}, False, False),
    ],
)
def test_the_colour_decision(choice, environ, on_terminal, on_pipe):
    assert wants_colour(choice, _Stream(True), environ) is on_terminal
    assert wants_colour(choice, _Stream(False), environ) is on_pipe


def test_a_terminal_gets_colour_unless_no_color_or_never(project):
    _, shown = run_on_terminal("check", "--no-cache", "job.sh", cwd=project)
    assert ESCAPE in shown and "= help:" in shown  # full format, coloured
    for flags, env in ((("--color", "never"), {}), ((), {"NO_COLOR": "1"})):
        status, shown = run_on_terminal("check", "--no-cache", *flags, "job.sh", cwd=project, env=env)
        assert status == 1 and ESCAPE not in shown and "= help:" in shown


@pytest.mark.parametrize("output_format", ["full", "concise"])
def test_a_pipe_gets_colour_with_force_color_or_always(project, output_format):
    plain = run_cli("check", "--no-cache", "--output-format", output_format, "job.sh", cwd=project, env={"NO_COLOR": None})
    assert ESCAPE not in text(plain)[0]
    forced = run_cli("check", "--no-cache", "--output-format", output_format, "job.sh", cwd=project,
                     env={"NO_COLOR": None, "FORCE_COLOR": "1"})  # fmt: skip
    assert ESCAPE in text(forced)[0]
    always = run_cli("check", "--no-cache", "--output-format", output_format, "--color", "always", "job.sh", cwd=project)
    assert ESCAPE in text(always)[0]  # over NO_COLOR, which run_cli sets
    never = run_cli("check", "--no-cache", "--output-format", output_format, "--color", "never", "job.sh", cwd=project,
                    env={"NO_COLOR": None, "FORCE_COLOR": "1"})  # fmt: skip
    assert ESCAPE not in text(never)[0]


def test_an_unknown_colour_choice_is_a_one_line_error(project):
    result = run_cli("check", "--color", "sometimes", "job.sh", cwd=project)
    assert result.returncode == 2
    assert text(result)[1].count("\n") == 1 and "'sometimes' is not one of" in text(result)[1]


# -o / --output-file


def test_output_file_gets_the_report_and_stdout_nothing(project):
    result = run_cli("check", "--no-cache", "-o", "reports/lint.txt", "job.sh", cwd=project)
    assert result.returncode == 1 and result.stdout == b""
    written = (project / "reports" / "lint.txt").read_text()
    assert written.startswith("job.sh:3:1: PL001 ")  # concise: a file is no terminal
    assert "Found 2 problems." in written


def test_output_file_on_a_terminal_is_concise_and_plain(project):
    status, shown = run_on_terminal("check", "--no-cache", "--output-file", "out.txt", "job.sh", cwd=project)
    assert status == 1 and "job.sh" not in shown
    written = (project / "out.txt").read_text()
    assert ESCAPE not in written and written.startswith("job.sh:3:1: PL001")


def test_output_file_takes_machine_formats_and_statistics(project):
    run_cli("check", "--no-cache", "--output-format", "json", "-o", "out.json", "job.sh", cwd=project)
    assert [record["code"] for record in json.loads((project / "out.json").read_text())] == ["PL001", "PL004"]
    run_cli("check", "--no-cache", "--statistics", "-o", "stats.txt", "job.sh", cwd=project)
    assert "PL001" in (project / "stats.txt").read_text()


def test_output_file_leaves_a_diff_and_a_fixed_stdin_on_stdout(project):
    result = run_cli("check", "--no-cache", "--diff", "-o", "out.txt", "mixed.sh", cwd=project)
    assert result.stdout.startswith(b"--- a/mixed.sh") and result.stderr == b""
    result = run_cli("check", "--fix", "-o", "out.txt", "-", cwd=project, stdin=SAFE_AND_UNSAFE.encode())
    assert result.stdout == SAFE_AND_UNSAFE.replace("cat access.log | grep 500", "grep 500 < access.log").encode()
    assert "(1 fixed, 1 remaining)" in (project / "out.txt").read_text()


def test_an_output_file_that_cannot_be_written_stops_the_run_before_any_fix(project):
    (project / "taken").write_text("a file, not a folder")
    result = run_cli("check", "--fix", "-o", "taken/out.txt", "mixed.sh", cwd=project)
    out, err = text(result)
    assert result.returncode == 2 and out == ""
    assert err.startswith("pipelint: error: --output-file taken/out.txt: ") and err.count("\n") == 1
    assert (project / "mixed.sh").read_text() == SAFE_AND_UNSAFE


# --statistics in the machine formats


def test_statistics_as_json_and_json_lines(project):
    (project / "broken.sh").write_text("cat access.log | grep 500\nif then (\n")
    result = run_cli("check", "--no-cache", "--statistics", "--output-format", "json", ".", cwd=project)
    records = json.loads(result.stdout)
    assert records == [
        {"code": "PL001", "name": "useless-cat", "count": 3, "fixable": True, "fixable_count": 1},
        {"code": "PL004", "name": "piped-dump-import", "count": 2, "fixable": False, "fixable_count": 0},
        {"code": None, "name": "parse-error", "count": 1, "fixable": False, "fixable_count": 0},
    ]
    lines = run_cli("check", "--no-cache", "--statistics", "--output-format", "json-lines", ".", cwd=project)
    assert [json.loads(line) for line in lines.stdout.splitlines()] == records


@pytest.mark.parametrize("output_format", ["sarif", "github", "gitlab", "junit"])
def test_statistics_refuse_the_finding_formats_in_one_line(project, output_format):
    result = run_cli("check", "--fix", "--statistics", "--output-format", output_format, "mixed.sh", cwd=project)
    out, err = text(result)
    assert result.returncode == 2 and out == ""
    assert err == f"pipelint: error: --statistics cannot be printed as {output_format} (it prints as concise, full, json, json-lines)\n"
    assert (project / "mixed.sh").read_text() == SAFE_AND_UNSAFE  # refused before anything was fixed


# Fix wording: one way to say how a fix gets applied


def test_an_unsafe_fix_says_how_to_apply_it_and_its_reason_is_no_advice(project):
    out, _ = text(run_cli("check", "--no-cache", "--output-format", "full", "job.sh", cwd=project))
    assert "= help: Redirect access.log into grep (unsafe fix: apply with --unsafe-fixes)" in out
    assert "= help: The fix is unsafe:" in out
    assert "(apply by hand)" not in out
    out, _ = text(run_cli("check", "--no-cache", "--unsafe-fixes", "--output-format", "full", "job.sh", cwd=project))
    assert "= help: Redirect access.log into grep (unsafe fix)\n" in out


def test_summary_footers(project):
    out, _ = text(run_cli("check", "--no-cache", "job.sh", cwd=project))
    assert out.endswith("Found 2 problems.\n2 unsafe fixes available with `--fix --unsafe-fixes`.\n")
    out, _ = text(run_cli("check", "--no-cache", "mixed.sh", cwd=project))
    assert out.endswith("[*] 1 fixable with the `--fix` option (1 unsafe fix available with `--fix --unsafe-fixes`).\n")
    out, _ = text(run_cli("check", "--no-cache", "--fix", "mixed.sh", cwd=project))
    assert out.endswith("Found 2 problems (1 fixed, 1 remaining).\n1 unsafe fix available with `--fix --unsafe-fixes`.\n")
    assert "No fixes available" not in out


# --shell and the `shell` setting; shells that are not sh


ECHO_PIPE = "#!/bin/sh\necho \"$1\" | grep -q x\necho done\n"


def test_shell_overrides_the_shebang(tmp_path):
    (tmp_path / "a.sh").write_text(ECHO_PIPE)
    as_sh = run_cli("check", "--no-cache", "--select", "PL503", "--unsafe-fixes", "--diff", "a.sh", cwd=tmp_path)
    assert as_sh.stdout == b""  # a here-string is bash's: no fix in sh
    as_bash = run_cli("check", "--no-cache", "--select", "PL503", "--unsafe-fixes", "--diff", "--shell", "bash", "a.sh", cwd=tmp_path)
    assert b'+grep -q x <<< "$1"' in as_bash.stdout
    (tmp_path / ".pipelint.toml").write_text('shell = "bash"\n')
    from_config = run_cli("check", "--no-cache", "--select", "PL503", "--unsafe-fixes", "--diff", "a.sh", cwd=tmp_path)
    assert from_config.stdout == as_bash.stdout


def test_shell_names_a_shell_pipelint_reads(tmp_path):
    (tmp_path / "a.sh").write_text(ECHO_PIPE)
    assert run_cli("check", "--shell", "zsh", "a.sh", cwd=tmp_path).returncode == 2
    (tmp_path / ".pipelint.toml").write_text('shell = "fish"\n')
    result = run_cli("check", "a.sh", cwd=tmp_path)
    assert result.returncode == 2 and "shell: must be one of" in text(result)[1]


@pytest.mark.parametrize(
    ("name", "source", "shell"),
    [
        ("prompt.zsh", "cat access.log | grep 500\n", "zsh"),
        ("setup", "#!/usr/bin/env zsh\nprint -l ${(U)names} | cat f | grep x\n", "zsh"),
        ("config.fish", "cat access.log | grep 500\n", "fish"),
        ("login", "#!/bin/csh\nsetenv X 1\n", "csh"),
    ],
)
def test_scripts_of_other_shells_are_skipped_with_one_note(tmp_path, name, source, shell):
    (tmp_path / name).write_text(source)
    result = run_cli("check", "--no-cache", name, cwd=tmp_path)
    out, err = text(result)
    assert result.returncode == 0 and "PL001" not in out and "parse-error" not in out
    assert err == (
        f"pipelint: note: {name}: not linted: a {shell} script (pipelint reads sh, bash, dash and ksh; "
        "`--shell bash` reads it as bash)\n"
    )
    assert text(run_cli("check", "-q", name, cwd=tmp_path))[1] == ""
    as_bash = run_cli("check", "--no-cache", "--shell", "bash", name, cwd=tmp_path)
    # Read as bash it is linted: a finding, or (zsh's `${(U)x}`, which bash -n accepts) a note on what was not read.
    assert "not linted" not in text(as_bash)[1]
    assert as_bash.returncode != 0 or shell == "csh" or "not checked: tree-sitter-bash cannot parse" in text(as_bash)[1]


def test_a_zsh_script_on_stdin_passes_through_fix_unchanged(tmp_path):
    source = b"cat access.log | grep 500\n"
    result = run_cli("check", "--fix", "--stdin-filename", "x.zsh", "-", cwd=tmp_path, stdin=source)
    assert result.returncode == 0 and result.stdout == source
    assert "x.zsh: not linted: a zsh script" in text(result)[1]


# .shellcheckrc


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "home"
    folder.mkdir()
    return {"HOME": str(folder), "XDG_CONFIG_HOME": None}


def test_shellcheckrc_disable_silences_the_rules_that_answer_to_its_codes(tmp_path, home):
    project = tmp_path / "project"
    (project / "deep" / "er").mkdir(parents=True)
    script = "cat access.log | grep 500\ncat dump.sql | mysql shop\ngrep x f | wc -l\necho a | tee /dev/null | wc\n"
    (project / "deep" / "er" / "a.sh").write_text(script)
    lint = ["check", "--no-cache", "--extend-select", "PL501", "--output-format", "json", "deep/er/a.sh"]

    def found() -> list[str]:
        return sorted({record["code"] for record in json.loads(run_cli(*lint, cwd=project, env=home).stdout)})

    assert found() == ["PL001", "PL004", "PL101", "PL501"]
    (project / ".shellcheckrc").write_text("# from the project\nsource-path=SCRIPTDIR disable=SC2002 # useless cat\n")
    assert found() == ["PL101", "PL501"]  # PL001 and PL004 answer to SC2002
    (project / ".shellcheckrc").write_text("disable='SC2100-SC2200'\n")
    assert found() == ["PL001", "PL004", "PL101"]  # SC2126 is PL501's
    (project / ".shellcheckrc").write_text("disable=all\n")
    assert found() == ["PL101"]  # every rule ShellCheck has a code for, and no other
    (project / "deep" / "shellcheckrc").write_text("disable=SC2086\n")
    assert found() == ["PL001", "PL004", "PL101", "PL501"]  # the closest file is the only one read
    (project / ".pipelint.toml").write_text("respect-shellcheckrc = false\n")
    (project / "deep" / "shellcheckrc").write_text("disable=SC2002\n")
    assert found() == ["PL001", "PL004", "PL101", "PL501"]


def test_shellcheckrc_in_the_home_folder_and_the_xdg_one(tmp_path, home):
    (tmp_path / "a.sh").write_text("cat access.log | grep 500\n")
    config = tmp_path / "config"
    config.mkdir()
    (config / "shellcheckrc").write_text("disable=SC2002\n")
    assert run_cli("check", "--no-cache", "a.sh", cwd=tmp_path, env=home).returncode == 1
    assert run_cli("check", "--no-cache", "a.sh", cwd=tmp_path, env={**home, "XDG_CONFIG_HOME": str(config)}).returncode == 0
    (Path(home["HOME"]) / ".shellcheckrc").write_text("disable=SC2086\n")  # ~/.shellcheckrc comes first
    assert run_cli("check", "--no-cache", "a.sh", cwd=tmp_path, env={**home, "XDG_CONFIG_HOME": str(config)}).returncode == 1


def test_a_cached_result_follows_the_shellcheckrc(tmp_path, home):
    (tmp_path / "a.sh").write_text("cat access.log | grep 500\n")
    assert run_cli("check", "a.sh", cwd=tmp_path, env=home).returncode == 1
    (tmp_path / ".shellcheckrc").write_text("disable=SC2002\n")
    assert run_cli("check", "a.sh", cwd=tmp_path, env=home).returncode == 0


# `[tool.pipelint]` in .pipelint.toml


def test_a_pipelint_toml_with_the_pyproject_table_says_how_to_write_it(tmp_path):
    (tmp_path / ".pipelint.toml").write_text('[tool.pipelint]\nselect = ["PL001"]\n')
    (tmp_path / "a.sh").write_text("cat access.log | grep 500\n")
    result = run_cli("check", "a.sh", cwd=tmp_path)
    _, err = text(result)
    assert result.returncode == 2
    assert "[tool.pipelint] is pyproject.toml's table; in .pipelint.toml write its keys at the top" in err
    assert "unknown key" not in err


# `pipelint rule`: rendered on a terminal, Markdown elsewhere


def test_rule_is_markdown_on_a_pipe_with_absolute_links():
    out, _ = text(run_cli("rule", "PL001"))
    assert out.startswith("# PL001 useless-cat\n")
    assert "](https://github.com/pipelint/pipelint/blob/main/rules/PL004-piped-dump-import.md)" in out
    assert "](https://github.com/pipelint/pipelint/blob/main/docs/references.md)" in out
    assert "](PL004-" not in out and "](../" not in out


def test_rule_is_rendered_on_a_terminal(tmp_path):
    status, shown = run_on_terminal("rule", "PL001", "--color", "never", env={"PAGER": "cat"}, rows=500)
    assert status == 0 and ESCAPE not in shown
    assert "\n## " not in shown and "What it does" in shown
    assert "(https://github.com/pipelint/pipelint/blob/main/rules/PL004-piped-dump-import.md)" in shown.replace("\r\n", "")
    status, shown = run_on_terminal("rule", "PL001", env={"PAGER": "cat"}, rows=500)
    assert ESCAPE in shown


def test_rule_output_format_markdown_on_a_terminal(tmp_path):
    status, shown = run_on_terminal("rule", "PL001", "--output-format", "markdown", env={"PAGER": "cat"})
    assert shown.startswith("# PL001 useless-cat")


def test_a_long_document_goes_through_the_pager_on_a_terminal(tmp_path):
    paged = tmp_path / "paged.txt"
    pager = {"PAGER": f"sh -c 'echo \"LESS=$LESS\" > {tmp_path}/env; cat > {paged}'"}
    status, shown = run_on_terminal("rule", "PL001", env=pager, rows=24)
    assert status == 0 and "What it does" in paged.read_text() and "What it does" not in shown
    assert (tmp_path / "env").read_text() == "LESS=FRX\n"
    paged.unlink()
    status, shown = run_on_terminal("rule", "PL001", env=pager, rows=1000)  # it fits: no pager
    assert "What it does" in shown and not paged.exists()


def test_rule_all_as_a_markdown_table():
    out, _ = text(run_cli("rule", "--all", "--output-format", "markdown"))
    assert out.startswith("| code | name | severity | fix | default |\n")
    assert "| [PL900](https://github.com/pipelint/pipelint/blob/main/rules/PL900-unused-directive.md) |" in out
