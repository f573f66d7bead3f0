"""`--output-format gitlab`: Code Quality issues whose fingerprints survive unrelated edits."""

from __future__ import annotations

import json

import pytest
from output_helpers import BAD, NOT_UTF8_NAME, lint_files, made_up_report, render, run_cli

from pipelint.finding import Severity

SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def issues_of(reports) -> list[dict]:
    return json.loads(render("gitlab", reports))


def test_one_issue_per_finding_with_the_fields_gitlab_reads(tmp_path):
    reports = lint_files({"bad.sh": BAD}, tmp_path)
    issues = issues_of(reports)
    assert len(issues) == len(reports[0].findings) == 3
    for issue, finding in zip(issues, reports[0].findings):
        assert issue["check_name"] == finding.code
        assert issue["description"] == f"{finding.code} {finding.message}"
        assert issue["severity"] in SEVERITIES
        assert issue["location"]["path"] == "bad.sh"
        begin = BAD.count(b"\n", 0, finding.start) + 1
        assert issue["location"]["lines"] == {"begin": begin, "end": begin}
    assert len({issue["fingerprint"] for issue in issues}) == 3


@pytest.mark.parametrize(
    ("severity", "expected"), [(Severity.ERROR, "major"), (Severity.WARNING, "minor"), (Severity.INFO, "info")]
)
def test_severities(severity, expected):
    assert issues_of([made_up_report(severity)])[0]["severity"] == expected


def fingerprints(source: bytes, tmp_path, name: str = "s.sh") -> list[str]:
    return [issue["fingerprint"] for issue in issues_of(lint_files({name: source}, tmp_path))]


def test_fingerprints_survive_edits_elsewhere_in_the_file(tmp_path):
    before = fingerprints(BAD, tmp_path)
    shifted = BAD.replace(b"#!/bin/bash\n", b"#!/bin/bash\n# a new comment\nset -eu\n\n")
    assert fingerprints(shifted, tmp_path) == before
    reindented = BAD.replace(b"\ncat data.csv", b"\n    cat data.csv")
    assert fingerprints(reindented, tmp_path) == before


def test_fingerprints_change_with_the_flagged_line_and_the_file(tmp_path):
    before = fingerprints(BAD, tmp_path)
    edited = BAD.replace(b"cat data.csv | uniq", b"cat data.csv | uniq -u")
    after = fingerprints(edited, tmp_path)
    assert after[:2] == before[:2] and after[2] != before[2]
    assert set(fingerprints(BAD, tmp_path, "other.sh")).isdisjoint(before)


def test_identical_lines_get_distinct_stable_fingerprints(tmp_path):
    twice = b"#!/bin/bash\ncat data.csv | uniq\ncat data.csv | uniq\n"
    first = fingerprints(twice, tmp_path)
    assert len(set(first)) == 2
    assert fingerprints(b"#!/bin/bash\necho start\n" + twice[12:], tmp_path) == first


def test_absolute_paths_inside_the_project_become_relative(tmp_path, monkeypatch):
    reports = lint_files({"ci/bad.sh": BAD}, tmp_path)
    reports[0].display_name = str(tmp_path / "ci" / "bad.sh")
    monkeypatch.setenv("CI_PROJECT_DIR", str(tmp_path))
    assert issues_of(reports)[0]["location"]["path"] == "ci/bad.sh"
    monkeypatch.setenv("CI_PROJECT_DIR", "/elsewhere")
    assert issues_of(reports)[0]["location"]["path"] == str(tmp_path / "ci" / "bad.sh")


def test_parse_failures_are_issues_too(project):
    completed = run_cli("check", "--output-format", "gitlab", "broken.sh", "clean.sh", cwd=project)
    assert completed.returncode == 1
    issues = json.loads(completed.stdout)
    assert issues and all(issue["check_name"] == "pipelint/parse-error" for issue in issues)
    assert all(issue["location"]["path"] == "broken.sh" and issue["severity"] == "major" for issue in issues)
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)


def test_a_clean_run_is_an_empty_array(project):
    completed = run_cli("check", "--output-format", "gitlab", "clean.sh", cwd=project)
    assert completed.returncode == 0
    assert json.loads(completed.stdout) == []


def test_a_file_name_that_is_not_utf8(tmp_path):
    issues = issues_of(lint_files({NOT_UTF8_NAME: BAD}, tmp_path))
    assert issues[0]["location"]["path"] == "caf\ufffd.sh"
