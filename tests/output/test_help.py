"""`Finding.help`, advice that is not a fix, in every format with room for it; and the older display-only fix."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace

from output_helpers import made_up_report, render, strict_json
from test_github import parse as parse_github
from test_sarif import assert_valid

from pipelint.finding import Applicability, Fix

ADVICE = "Sort the file on the primary key first"


def with_help(fix: Fix | None = None):
    report = made_up_report(message="loads rows out of order")
    report.findings = [replace(report.findings[0], help=ADVICE, fix=fix)]
    return report


def test_full_shows_help_below_the_excerpt():
    text = render("full", [with_help()])
    assert f"  = help: {ADVICE} (apply by hand)\n" in text
    assert "[*]" not in text


def test_full_shows_both_a_fix_and_help():
    fix = Fix("Drop the cat", Applicability.SAFE, made_up_report().findings[0].fix.edits)
    lines = render("full", [with_help(fix)]).splitlines()
    helps = [line for line in lines if line.startswith("  = help: ")]
    assert helps == ["  = help: Drop the cat", f"  = help: {ADVICE} (apply by hand)"]


def test_json_and_json_lines_have_a_help_key():
    (record,) = strict_json(render("json", [with_help()]))
    assert record["help"] == ADVICE and record["fix"] is None
    (line,) = render("json-lines", [with_help()]).splitlines()
    assert strict_json(line)["help"] == ADVICE
    (plain,) = strict_json(render("json", [made_up_report()]))
    assert plain["help"] is None


def test_sarif_puts_help_in_the_message_and_the_property_bag():
    log = json.loads(render("sarif", [with_help()]))
    assert_valid(log)
    (result,) = log["runs"][0]["results"]
    assert result["message"]["text"] == f"loads rows out of order\nHelp: {ADVICE}"
    assert result["properties"]["help"] == ADVICE


def test_github_and_junit_messages_carry_help():
    _, _, message = parse_github(render("github", [with_help()]).rstrip("\n"))
    assert message.splitlines()[:2] == ["loads rows out of order", f"help: {ADVICE} (apply by hand)"]
    root = ET.fromstring(render("junit", [with_help()]).encode())
    assert f"help: {ADVICE} (apply by hand)" in root.find("testsuite/testcase/failure").text


def test_a_display_only_fix_without_edits_still_reads_as_advice():
    """The older way to give advice, until every rule moves it to `help`."""
    report = made_up_report()
    report.findings = [replace(report.findings[0], fix=Fix(ADVICE, Applicability.DISPLAY_ONLY))]
    assert f"  = help: {ADVICE} (apply by hand)" in render("full", [report])
    _, _, message = parse_github(render("github", [report]).rstrip("\n"))
    assert f"help: {ADVICE} (apply by hand)" in message
    (record,) = strict_json(render("json", [report]))
    assert record["fix"] == {"applicability": "display-only", "message": ADVICE, "edits": []}
    assert "[*]" not in render("concise", [report])
