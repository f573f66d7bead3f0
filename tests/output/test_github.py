"""`--output-format github`: workflow commands that the Actions runner turns into annotations."""

from __future__ import annotations

import re

import pytest
from output_helpers import BAD, NOT_UTF8_NAME, lint_files, made_up_report, render, run_cli

from pipelint.finding import Severity
from pipelint.output import github
from pipelint.output.common import rule_url, span

COMMAND = re.compile(r"^::(?P<command>\w+) (?P<properties>[^:]*)::(?P<message>.*)$")


def unescape_data(value: str) -> str:
    """What the runner does to a command's message (%25 last, so `%250A` stays `%0A`)."""
    return value.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(value: str) -> str:
    return value.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def parse(line: str) -> tuple[str, dict[str, str], str]:
    """One workflow command, read the way the Actions runner reads it."""
    match = COMMAND.match(line)
    assert match, line
    properties = {}
    for pair in match["properties"].split(","):
        key, _, value = pair.partition("=")
        properties[key] = unescape_property(value)
    return match["command"], properties, unescape_data(match["message"])


def test_one_annotation_per_finding_with_its_span(tmp_path):
    reports = lint_files({"bad.sh": BAD}, tmp_path)
    lines = render("github", reports).splitlines()
    findings = reports[0].findings
    assert len(lines) == len(findings) == 3
    for line, finding in zip(lines, findings):
        command, properties, message = parse(line)
        where = span(reports[0], finding.start, finding.end)
        assert command == "warning"
        assert properties == {
            "file": "bad.sh",
            "line": str(where.row),
            "col": str(where.column),
            "endLine": str(where.end_row),
            "endColumn": str(where.end_column),
            "title": f"pipelint {finding.code} ({finding.name})",
        }
        assert message.splitlines() == [
            finding.message,
            f"[*] {finding.fix.title} (pipelint check --fix)",
            f"See {rule_url(finding)}",
        ]


def test_exact_line():
    line = render("github", [made_up_report(message="cat feeds f")])
    assert line == (
        "::warning file=x.sh,line=1,col=6,endLine=1,endColumn=13,title=pipelint PL001 (useless-cat)::"
        "cat feeds f%0A[*] Drop the cat (pipelint check --fix)%0A"
        "See https://github.com/pipelint/pipelint/blob/main/rules/PL001-useless-cat.md\n"
    )


@pytest.mark.parametrize(
    ("severity", "command"), [(Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.INFO, "notice")]
)
def test_severities(severity, command):
    assert render("github", [made_up_report(severity)]).startswith(f"::{command} ")


def test_escaping_follows_the_toolkit():
    assert github.escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert github.escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"
    assert github.escape_data("literal %0A") == "literal %250A"


def test_awkward_names_and_messages_survive_the_round_trip():
    name = "dir,with:odd%chars/x.sh"
    message = "50% of `a,b::c` lost\nsecond line %0A"
    command, properties, text = parse(render("github", [made_up_report(message=message, name=name)]).rstrip("\n"))
    assert command == "warning"
    assert properties["file"] == name
    assert text.splitlines()[:2] == ["50% of `a,b::c` lost", "second line %0A"]


def test_unsafe_and_display_only_fixes_say_so(tmp_path):
    source = b"#!/bin/bash\ncat access.log 2>/dev/null | grep 500\n"
    reports = lint_files({"u.sh": source}, tmp_path)
    _, _, message = parse(render("github", reports).rstrip("\n"))
    assert "(unsafe fix: apply with --unsafe-fixes)" in message
    _, _, message = parse(render("github", reports, unsafe_fixes=True).rstrip("\n"))
    assert message.splitlines()[1].startswith("[*] ")


def test_parse_failures_are_errors_so_a_failed_job_says_why(project):
    completed = run_cli("check", "--output-format", "github", "broken.sh", "clean.sh", cwd=project)
    assert completed.returncode == 1
    lines = completed.stdout.decode().splitlines()
    assert lines, "a failing run must annotate something"
    for line in lines:
        command, properties, message = parse(line)
        assert command == "error"
        assert properties["file"] == "broken.sh"
        assert properties["title"] == "pipelint: parse error"
        assert message == "could not parse line 2; the rest of the file was checked"


def test_a_file_name_that_is_not_utf8(tmp_path):
    (report,) = lint_files({NOT_UTF8_NAME: BAD}, tmp_path)
    lines = render("github", [report]).splitlines()
    assert parse(lines[0])[1]["file"] == "caf\\xe9.sh"  # as concise prints it, and `ls -b`
