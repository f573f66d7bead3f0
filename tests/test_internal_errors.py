"""A bug in pipelint never aborts a run: one `internal error` line per crash, exit 2, every other file still reported."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pipelint.cli.main import cli
from pipelint.engine import linter
from pipelint.finding import RuleCrash
from pipelint.rules.pl001_useless_cat import UselessCatRule

BAD = "#!/bin/bash\ncat access.log | grep 500\ncat dump.sql | mysql shop\n"
OTHER = "#!/bin/bash\necho hi | cat > out.txt\n"
TRACEBACK = 'Traceback (most recent call last):\n  File "pl102.py", line 7, in check\nKeyError: \'mount\'\n'


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "bad.sh").write_text(BAD)
    (tmp_path / "other.sh").write_text(OTHER)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str):
    return CliRunner().invoke(cli, ["check", "--output-format", "concise", *args])


def error_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("pipelint: error:")]


def after_process(monkeypatch, names: tuple[str, ...], then) -> None:
    """linter.process (which a run imports when it lints), with then(report) in place of its result for the files named."""
    real_process = linter.process

    def process(source, name, *args, **kwargs):
        report = real_process(source, name, *args, **kwargs)
        return then(report) if name in names else report

    monkeypatch.setattr(linter, "process", process)


@pytest.fixture
def crash_in_pl102_on_bad_sh(monkeypatch):
    """The report the checker makes when PL102 raised on bad.sh: the other rules' findings, and the crash."""

    def crashed(report):
        report.crashes = [RuleCrash("PL102", "KeyError: 'mount'", TRACEBACK)]
        return report

    after_process(monkeypatch, ("bad.sh",), crashed)


def test_a_rule_crash_is_one_line_and_exit_2(project, crash_in_pl102_on_bad_sh):
    result = check("bad.sh", "other.sh")
    assert result.exit_code == 2
    assert error_lines(result) == [
        "pipelint: error: internal error in PL102 on bad.sh (please report): KeyError: 'mount'"
    ]
    assert "Traceback" not in result.stderr
    assert "bad.sh:2:1: PL001" in result.stdout and "bad.sh:3:1: PL004" in result.stdout
    assert "other.sh:2:" in result.stdout
    assert "All checks passed!" not in result.stdout
    assert "; 1 error" in result.stdout


def test_verbose_adds_the_traceback(project, crash_in_pl102_on_bad_sh):
    result = check("-v", "bad.sh")
    assert result.exit_code == 2
    assert len(error_lines(result)) == 1
    assert TRACEBACK.rstrip("\n") in result.stderr


def test_a_crash_is_an_internal_error_notification_in_sarif(project, crash_in_pl102_on_bad_sh):
    import json

    result = CliRunner().invoke(cli, ["check", "--output-format", "sarif", "bad.sh"])
    invocation = json.loads(result.stdout)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    (crash,) = [n for n in invocation["toolExecutionNotifications"] if n["descriptor"]["id"] == "internal-error"]
    assert crash["associatedRule"] == {"id": "PL102"}


def test_a_crash_is_an_error_case_in_junit(project, crash_in_pl102_on_bad_sh):
    import xml.etree.ElementTree as ET

    result = CliRunner().invoke(cli, ["check", "--output-format", "junit", "bad.sh"])
    root = ET.fromstring(result.stdout.encode())
    assert root.get("errors") == "1"
    (error,) = root.iter("error")
    assert error.get("type") == "internal-error" and error.get("message") == "KeyError: 'mount'"


@pytest.fixture
def pl001_raises(monkeypatch):
    """PL001 raises on bad.sh, and works on every other file."""
    real = UselessCatRule.check_pipeline

    def boom(self, pipeline, context):
        if context.path is not None and context.path.endswith("bad.sh"):
            raise RuntimeError("boom\nsecond line")
        return real(self, pipeline, context)

    monkeypatch.setattr(UselessCatRule, "check_pipeline", boom)


@pytest.fixture
def linting_bad_sh_raises(monkeypatch):
    """A bug outside the rules (the fixer, positions, …): process() itself raises on bad.sh and on stdin."""

    def raises(report):
        raise RuntimeError("boom\nsecond line")

    after_process(monkeypatch, ("bad.sh", "-"), raises)


def test_any_exception_while_linting_a_file_spares_the_other_files(project, linting_bad_sh_raises):
    result = check("bad.sh", "other.sh")
    assert result.exit_code == 2
    assert error_lines(result) == [
        "pipelint: error: internal error on bad.sh (please report): RuntimeError: boom second line"
    ]
    assert "other.sh:2:" in result.stdout
    assert "Traceback" not in result.stderr
    assert "Traceback" in check("--verbose", "bad.sh").stderr


def test_stdin_fix_prints_the_input_unchanged_after_an_internal_error(project, linting_bad_sh_raises):
    result = CliRunner().invoke(cli, ["check", "--fix", "-"], input=BAD)
    assert result.exit_code == 2
    assert result.stdout == BAD
    assert len(error_lines(result)) == 1


def test_a_raising_rule_leaves_the_other_rules_findings_on_the_same_file(project, pl001_raises):
    result = check("bad.sh")
    assert result.exit_code == 2
    (line,) = error_lines(result)
    assert line.startswith("pipelint: error: internal error in PL001 on bad.sh (please report): RuntimeError")
    assert "bad.sh:3:1: PL004" in result.stdout
