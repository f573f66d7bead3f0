"""Shell inside strings: `sh -c '…'` is linted, positions point into the script, fixes are proven by running it."""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour
from harness import fix_all as fixed
from harness import lint_all as findings

from pipelint.engine.config import Settings
from pipelint.engine.linter import process
from pipelint.shell.positions import LineIndex


def test_finding_inside_sh_c_points_at_the_script_bytes():
    script = "#!/bin/sh\necho start\nsh -c 'cat access.log | grep 500'\n"
    (finding,) = findings(script)
    assert finding.code == "PL001"
    start = LineIndex(script.encode()).position(finding.start)
    assert (start.line, start.column) == (2, 7)
    assert script.encode()[finding.start : finding.end] == b"cat access.log"


def test_the_region_s_own_errexit_makes_the_fix_unsafe():
    """`bash -ec '…'`: a missing input stops the region at the redirect; wc would have printed 0."""
    script = "bash -ec 'cat access.log | wc -l; echo x'\n"
    assert fixed(script) == script.encode()
    assert fixed(script, unsafe=True) == b"bash -ec 'wc -l < access.log; echo x'\n"


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        # The pipeline is not the last command: the status a missing input changes is not seen (issue 13 class 10).
        ("sh -c 'cat access.log | grep 500; echo x'\n", "sh -c 'grep 500 < access.log; echo x'\n"),
        ("bash -c 'cat access.log | wc -l; echo x'\n", "bash -c 'wc -l < access.log; echo x'\n"),
        ("sudo sh -c 'cat dump.sql | mysql shop; echo x'\n", "sudo sh -c 'mysql shop < dump.sql; echo x'\n"),
        ('sh -c "cat access.log | grep 500; echo x"\n', 'sh -c "grep 500 < access.log; echo x"\n'),
        # nested: both quotings hold the edit
        ("sh -c \"sh -c 'cat access.log | wc -l; echo x'\"\n", "sh -c \"sh -c 'wc -l < access.log; echo x'\"\n"),
    ],
)
def test_fix_inside_the_string_keeps_behaviour(script, expected, tmp_path):
    result = fixed(script)
    assert result.decode() == expected
    assert_same_behaviour(script.encode(), result, tmp_path, "dash")


@pytest.mark.parametrize(
    "script",
    [
        'sh -c "cat \\"my file.txt\\" | wc -l"\n',  # the new text would need its own escapes
        'sh -c "cat access.log | grep -c \\"500\\""\n',  # the redirect would land after an escaped quote
    ],
)
def test_no_fix_where_the_quoting_cannot_take_the_edit(script):
    (finding,) = findings(script)
    assert finding.fix is None
    assert " < " in finding.message  # the rewrite is shown instead


def test_expansions_of_the_outer_shell_are_not_linted_twice():
    script = 'sh -c "echo $(cat access.log | wc -l)"\n'
    assert [f.code for f in findings(script)] == ["PL001"]  # the outer substitution, once


def test_a_directive_before_the_command_covers_the_inner_script():
    assert findings("# pipelint: disable=PL001\nsh -c 'cat access.log | wc -l'\n") == []


def test_a_directive_inside_the_inner_script_works_too():
    assert findings("sh -c '# pipelint: disable=PL001\ncat access.log | wc -l'\n") == []


def test_a_directive_inside_an_inner_script_covers_the_scripts_nested_in_it():
    script = """sh -c '# pipelint: disable=PL001
sh -c "cat access.log | wc -l"'
sh -c 'sh -c "cat access.log | wc -l"'
"""
    assert [(f.code, f.start) for f in findings(script)] == [("PL001", script.index("cat access.log", 60))]


def test_dialect_of_the_inner_script_is_the_shell_that_runs_it():
    # bash -c may get a here-string fix; sh -c may not
    pl5 = {"extend_select": ("PL5",)}
    assert [f.code for f in findings("bash -c 'echo \"$x\" | wc -c'\n", "outer.bash", **pl5)] == ["PL503"]
    assert [f.code for f in findings("sh -c 'echo \"$x\" | wc -c'\n", "outer.bash", **pl5)] == []


def test_zsh_and_unknown_shells_are_not_read():
    assert findings("zsh -c 'cat access.log | wc -l'\n") == []
    assert findings("python -c 'cat access.log | wc -l'\n") == []


def test_embedded_false_lints_the_script_alone(tmp_path):
    script = "sh -c 'cat access.log | wc -l'\n"
    assert process(script.encode(), "outer.sh", Settings(embedded=False), None).findings == []


def test_no_embedded_flag_and_config_key(tmp_path):
    from cli_helpers import run_cli

    (tmp_path / "job.sh").write_text("#!/bin/sh\nsh -c 'cat access.log | wc -l'\n")
    assert run_cli("check", "--output-format", "concise", "job.sh", cwd=tmp_path).returncode == 1
    assert run_cli("check", "--no-embedded", "job.sh", cwd=tmp_path).returncode == 0
    (tmp_path / ".pipelint.toml").write_text("embedded = false\n")
    assert run_cli("check", "job.sh", cwd=tmp_path).returncode == 0
    assert run_cli("check", "--embedded", "job.sh", cwd=tmp_path).returncode == 1
    (tmp_path / ".pipelint.toml").write_text('remote-shell = "zsh"\n')
    completed = run_cli("check", "job.sh", cwd=tmp_path)
    assert completed.returncode == 2 and b"remote-shell" in completed.stderr


def test_a_string_that_does_not_parse_is_reported_unless_the_outer_shell_expands_part_of_it():
    broken = process(b"sh -c 'if true; then echo x'\n", "outer.sh", Settings(), None)
    assert len(broken.parse_failures) == 1
    # tree-sitter-bash cannot parse `<>`; with `${console}` in it the text is partly the outer shell's
    expanded = process(b'setsid sh -c "exec sh -i <>/dev/${console} 1>&0 2>&1"\n', "outer.sh", Settings(), None)
    assert expanded.parse_failures == []
