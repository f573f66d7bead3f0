"""PL900 unused-directive: `# pipelint: disable=` codes that disable nothing, and the fix that takes them away."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import assert_same_behaviour, fix_all, lint_all

from pipelint.engine.config import Settings
from pipelint.engine.linter import process
from pipelint.finding import Applicability

ON = {"extend_select": ("PL900",)}
CAT = "cat access.log | grep 500\n"


def unused(script: str, path: str = "script.sh", **settings) -> list:
    return [f for f in lint_all(script, path, **{**ON, **settings}) if f.code == "PL900"]


def messages(script: str, **settings) -> list[str]:
    return [f.message for f in unused(script, **settings)]


def test_opt_in():
    assert [f.code for f in lint_all("echo x\n# pipelint: disable=PL001\necho y\n")] == []


def test_a_directive_that_disables_a_finding_is_not_reported():
    assert unused("echo x\n# pipelint: disable=PL001\n" + CAT) == []
    assert unused("echo x\n" + CAT.strip() + "  # pipelint: disable=useless-cat\n") == []


def test_each_reason_is_named():
    script = "echo x\n# pipelint: disable=PL001,PL999,PL001,PL501,useless-cat\necho y\n"
    (message,) = messages(script)
    assert message == (
        "`# pipelint: disable=PL001,PL999,PL001,PL501,useless-cat` disables nothing here "
        "(unused: `PL001`; unknown: `PL999`; not enabled: `PL501`; duplicate: `PL001`, `useless-cat`)"
    )


def test_only_the_idle_codes_are_named_when_others_work():
    (message,) = messages("echo x\n# pipelint: disable=PL004, PL001\n" + CAT)
    assert message.endswith("(unused: `PL004`)")


def test_a_directive_on_the_wrong_line_is_unused():
    """A trailing directive covers its own line: written for the next line, it disables nothing."""
    found = unused("echo x  # pipelint: disable=PL001\n" + CAT)
    assert [f.message.split(" (")[1] for f in found] == ["unused: `PL001`)"]


def test_all_is_unused_only_when_it_disabled_nothing():
    assert unused("echo x\n# pipelint: disable=all\n" + CAT) == []
    (finding,) = unused("#!/bin/sh\n# pipelint: disable=all\necho y\n")
    assert finding.message.endswith("(unused: `all`)")  # `all` does not hide the report about itself


def test_shellcheck_directives_are_shellchecks():
    assert unused("echo x\n# shellcheck disable=SC2002,SC9999\necho y\n") == []


def test_naming_pl900_in_the_directive_or_before_the_file_keeps_it_quiet():
    assert unused("echo x\n# pipelint: disable=PL001,PL900\necho y\n") == []
    assert unused("#!/bin/sh\n# pipelint: disable=PL900\necho x\n# pipelint: disable=PL001\necho y\n") == []


def test_a_directive_used_only_by_the_script_inside_a_command_is_used():
    assert unused("echo x\n# pipelint: disable=PL001\nsh -c 'cat access.log | grep 500'\n") == []


def test_an_idle_directive_inside_an_inner_script_is_reported_there():
    script = "echo x\nsh -c 'echo y  # pipelint: disable=PL001'\n"
    (finding,) = unused(script)
    assert script.encode()[finding.start : finding.end] == b"# pipelint: disable=PL001"
    assert fix_all(script, unsafe=False, **ON) == b"echo x\nsh -c 'echo y'\n"


def test_an_idle_directive_of_a_dockerfile_is_reported_and_its_line_removed():
    text = b"FROM debian:12\n# pipelint: disable=PL003\nRUN grep 500 < access.log\n"
    report = process(text, "Dockerfile", Settings(**ON), Path("Dockerfile"), fix=True)
    assert report.final_source == b"FROM debian:12\nRUN grep 500 < access.log\n"
    assert [f.code for f in report.fixed] == ["PL900"]


def test_a_directive_next_to_a_parse_error_is_left_alone():
    assert unused("echo x\n# pipelint: disable=PL001\nif then fi (\n") == []


@pytest.mark.parametrize(
    ("script", "fixed"),
    [
        (  # alone on its line: the line goes
            "echo x\n# pipelint: disable=PL001 the log is tiny\necho y\n",
            "echo x\necho y\n",
        ),
        (  # at the end of a line: the comment and the blanks before it
            "echo x\necho y   # pipelint: disable=PL001\n",
            "echo x\necho y\n",
        ),
        (  # some codes work: only the idle ones go, with the separator the list had
            "echo x\n# pipelint: disable=PL004, PL001, PL003\n" + CAT,
            "echo x\n# pipelint: disable=PL001\n" + CAT,
        ),
        (  # a duplicate goes, the working one stays
            "echo x\n" + CAT.strip() + "  # pipelint: disable=PL001,useless-cat\n",
            "echo x\n" + CAT.strip() + "  # pipelint: disable=PL001\n",
        ),
        (  # a ShellCheck annotation in the same comment stays
            "echo x\n# pipelint: disable=PL001 # shellcheck disable=SC2086\necho $y\n",
            "echo x\n# shellcheck disable=SC2086\necho $y\n",
        ),
        (  # a CRLF line: the `\r` goes with the comment, or it would join `y`
            "echo x\r\necho y  # pipelint: disable=PL001\r\necho z\r\n",
            "echo x\r\necho y\necho z\r\n",
        ),
        (  # a `\` continues the line before into the comment: its line break stays
            "echo x \\\n  # pipelint: disable=PL001\necho y\n",
            "echo x \\\n\necho y\n",
        ),
        (  # the last line, without a line break
            "echo x\n# pipelint: disable=PL001",
            "echo x\n",
        ),
    ],
)
def test_the_fix(script, fixed, tmp_path):
    result = fix_all(script, **ON)
    assert result.decode() == fixed
    assert [f.code for f in lint_all(result, **ON)] == []
    assert_same_behaviour(script.encode(), result, tmp_path, "bash", path="script.bash")


def test_the_fix_is_unsafe_for_codes_that_may_matter_elsewhere():
    (unknown,) = unused("echo x\n# pipelint: disable=PL999\necho y\n")
    (off,) = unused("echo x\n# pipelint: disable=PL501\necho y\n")
    (idle,) = unused("echo x\n# pipelint: disable=PL001\necho y\n")
    assert unknown.fix.applicability is off.fix.applicability is Applicability.UNSAFE
    assert unknown.help.startswith("The fix is unsafe:")
    assert idle.fix.applicability is Applicability.SAFE and idle.help is None
    assert fix_all("echo x\n# pipelint: disable=PL999\necho y\n", **ON) == b"echo x\n# pipelint: disable=PL999\necho y\n"


def test_no_fix_where_the_comment_holds_other_text_first():
    (finding,) = unused("echo x\n# note: # pipelint: disable=PL001\necho y\n")
    assert finding.fix is None and "by hand" in finding.help
