"""`--output-format junit`: well-formed XML, a failed test case per finding, a passed one per clean file."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from output_helpers import BAD, CLEAN, NOT_UTF8_NAME, lint_files, made_up_report, render, run_cli

from pipelint.output import junit


def parse(text: str) -> ET.Element:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(text.encode("utf-8"))


def test_one_suite_with_a_case_per_finding_and_per_clean_file(tmp_path):
    reports = lint_files({"bad.sh": BAD, "clean.sh": CLEAN}, tmp_path)
    root = parse(render("junit", reports))
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    findings = reports[0].findings
    assert len(cases) == len(findings) + 1
    for element in (root, suite):
        assert element.get("tests") == str(len(cases))
        assert element.get("failures") == str(len(findings))
        assert element.get("errors") == "0"
    for case, finding in zip(cases, findings):
        row = BAD.count(b"\n", 0, finding.start) + 1
        assert case.get("classname") == case.get("file") == "bad.sh"
        assert case.get("line") == str(row)
        assert case.get("name") == f"{finding.code} {finding.name} at {row}:1"
        (failure,) = case.findall("failure")
        assert failure.get("type") == finding.code
        assert failure.get("message") == finding.message
        assert failure.text.startswith(f"bad.sh:{row}:1: {finding.code} {finding.message}\n[*] {finding.fix.title}")
    clean = cases[-1]
    assert clean.get("classname") == "clean.sh"
    assert clean.findall("failure") == []


def test_a_clean_run_has_no_failures(tmp_path):
    root = parse(render("junit", lint_files({"clean.sh": CLEAN, "b.sh": CLEAN}, tmp_path)))
    assert root.get("tests") == "2" and root.get("failures") == "0"


def test_text_xml_cannot_hold_is_escaped_and_the_document_stays_well_formed():
    report = made_up_report(message="bell \x07, nul \x00, \udce9 & <tag> \"q\"\nline two", name="odd\x1b.sh")
    root = parse(render("junit", [report]))
    case = root.find("testsuite/testcase")
    assert case.get("classname") == "odd\\x1b.sh"
    failure = case.find("failure")
    assert failure.get("message") == "bell \\x07, nul \\x00, \\xe9 & <tag> \"q\"\nline two"
    assert junit.xml_text("ok\tfine\r\n") == "ok\tfine\r\n"


def test_parse_failures_are_failed_cases(project):
    completed = run_cli("check", "--output-format", "junit", "broken.sh", "clean.sh", cwd=project)
    assert completed.returncode == 1
    root = parse(completed.stdout.decode("utf-8"))
    broken = [case for case in root.iter("testcase") if case.get("classname") == "broken.sh"]
    assert broken and all(case.find("failure").get("type") == "parse-error" for case in broken)
    assert root.get("failures") == str(len(broken))


def test_a_file_name_that_is_not_utf8(tmp_path):
    root = parse(render("junit", lint_files({NOT_UTF8_NAME: BAD}, tmp_path)))
    assert {case.get("classname") for case in root.iter("testcase")} == {"caf\\xe9.sh"}
