"""`--output-format sarif`: valid against the official SARIF 2.1.0 schema, and its fixes really fix."""

from __future__ import annotations

import base64
import re
import json
import urllib.parse
from pathlib import Path

import jsonschema
import pytest
from harness import assert_same_behaviour
from output_helpers import BAD, BROKEN, CLEAN, lint_files, made_up_report, render, run_cli

from pipelint import __version__
from pipelint.engine import registry
from pipelint.finding import Severity
from pipelint.output import rule_document, sarif
from pipelint.output.common import rule_url

SCHEMA = json.loads((Path(__file__).parent.parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft4Validator(SCHEMA)


def assert_valid(log: dict) -> None:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(log)]
    assert errors == []


def sarif_of(reports, **options) -> dict:
    log = json.loads(render("sarif", reports, **options))
    assert_valid(log)
    return log


def apply_fixes(source: bytes, log: dict) -> bytes:
    """Apply every replacement of every result's fixes, as a SARIF viewer would."""
    text = source.decode("utf-8", "surrogateescape")
    line_starts = [0]
    for line in text.split("\n")[:-1]:
        line_starts.append(line_starts[-1] + len(line) + 1)

    def offset(line: int, column: int) -> int:  # 1-based, columns in code points
        return line_starts[line - 1] + column - 1

    changes = []
    for result in log["runs"][0]["results"]:
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                for replacement in change["replacements"]:
                    region = replacement["deletedRegion"]
                    content = replacement.get("insertedContent", {})
                    if "binary" in content:
                        inserted = base64.b64decode(content["binary"]).decode("utf-8", "surrogateescape")
                    else:
                        inserted = content.get("text", "")
                    start = offset(region["startLine"], region["startColumn"])
                    end = offset(region["endLine"], region["endColumn"])
                    changes.append((start, end, inserted))
    changes.sort()
    for (_, end, _), (start, _, _) in zip(changes, changes[1:]):
        assert end <= start, "overlapping replacements"
    for start, end, inserted in reversed(changes):
        text = text[:start] + inserted + text[end:]
    return text.encode("utf-8", "surrogateescape")


def test_findings_parse_failures_and_clean_files_validate_against_the_schema(tmp_path):
    reports = lint_files({"bad.sh": BAD, "clean.sh": CLEAN, "broken.sh": BROKEN}, tmp_path)
    log = sarif_of(reports)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert len(run["results"]) == sum(len(r.findings) for r in reports) == 3
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert {n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes} == {"broken.sh"}
    assert all(n["level"] == "error" and n["descriptor"]["id"] == "parse-error" for n in notes)


def test_an_empty_run_is_valid(tmp_path):
    log = sarif_of(lint_files({"clean.sh": CLEAN}, tmp_path))
    run = log["runs"][0]
    assert run["results"] == []
    assert run["tool"]["driver"]["rules"] == []
    assert run["invocations"][0]["toolExecutionNotifications"] == []


def test_driver_lists_only_the_rules_that_fired_with_their_documents(tmp_path):
    reports = lint_files({"bad.sh": BAD}, tmp_path)
    driver = sarif_of(reports)["runs"][0]["tool"]["driver"]
    assert driver["name"] == "pipelint"
    assert driver["version"] == __version__
    fired = sorted({f.code for r in reports for f in r.findings})
    assert [rule["id"] for rule in driver["rules"]] == fired
    assert len(fired) < len(registry.RULES)  # not the whole table
    for descriptor in driver["rules"]:
        rule = registry.lookup(descriptor["id"])
        assert descriptor["name"] == rule.name
        document = rule_document.markdown(rule)  # as `pipelint rule` prints it: links absolute
        assert descriptor["help"]["markdown"] == document
        assert descriptor["fullDescription"]["text"] == sarif.section(document, "What it does")
        assert descriptor["fullDescription"]["text"].startswith(descriptor["shortDescription"]["text"].split("`")[0])
        assert descriptor["helpUri"] == rule_url(next(f for r in reports for f in r.findings if f.code == rule.code))
        assert urllib.parse.urlparse(descriptor["helpUri"]).scheme == "https"
        assert descriptor["defaultConfiguration"]["level"] == sarif.LEVELS[rule.severity]


def test_results_point_at_their_rule(tmp_path):
    log = sarif_of(lint_files({"bad.sh": BAD}, tmp_path))
    run = log["runs"][0]
    for result in run["results"]:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]


def test_links_between_rule_documents_become_absolute(tmp_path):
    driver = sarif_of(lint_files({"bad.sh": BAD}, tmp_path))["runs"][0]["tool"]["driver"]
    help_text = next(rule["help"]["markdown"] for rule in driver["rules"] if rule["id"] == "PL001")
    assert "[PL004](https://github.com/pipelint/pipelint/blob/main/rules/PL004-piped-dump-import.md)" in help_text
    assert re.findall(r"\]\((?!https://|#)[^)]*\)", help_text) == []


@pytest.mark.parametrize(
    ("severity", "level"), [(Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.INFO, "note")]
)
def test_levels(severity, level):
    log = sarif_of([made_up_report(severity)])
    assert log["runs"][0]["results"][0]["level"] == level


def test_regions_are_one_based_and_count_code_points(tmp_path):
    source = "#!/bin/bash\necho \"😀é\"; cat access.log | grep 500\n".encode()
    result = sarif_of(lint_files({"u.sh": source}, tmp_path))["runs"][0]
    assert result["columnKind"] == "unicodeCodePoints"
    region = result["results"][0]["locations"][0]["physicalLocation"]["region"]
    line = source.decode().split("\n")[1]
    assert region["startLine"] == 2
    assert region["startColumn"] == line.index("cat") + 1 == 12  # UTF-16 would say 13, bytes 16
    assert region["endLine"] == 2


def test_fixes_do_what_fix_does_and_behave_the_same(tmp_path):
    log = sarif_of(lint_files({"bad.sh": BAD}, tmp_path))
    assert all("fixes" in result for result in log["runs"][0]["results"])
    fixed_by_sarif = apply_fixes(BAD, log)
    fixed_by_cli = lint_files({"again.sh": BAD}, tmp_path, fix=True)[0].final_source
    assert fixed_by_sarif == fixed_by_cli != BAD
    # Success path: the rules' error path is issue 13 class 10 (tests/rules)
    assert_same_behaviour(BAD, fixed_by_sarif, tmp_path / "run", "bash", inputs=())


def test_a_fix_inserting_bytes_that_are_not_utf8_travels_as_binary(tmp_path):
    source = b"#!/bin/bash\ncat caf\xe9.txt | wc -c\necho done\n"
    log = sarif_of(lint_files({"latin.sh": source}, tmp_path))
    inserted = [
        r.get("insertedContent", {})
        for fix in log["runs"][0]["results"][0]["fixes"]
        for change in fix["artifactChanges"]
        for r in change["replacements"]
    ]
    assert any("binary" in content for content in inserted)
    assert apply_fixes(source, log) == b"#!/bin/bash\nwc -c < caf\xe9.txt\necho done\n"


def test_unsafe_fixes_only_with_unsafe_fixes(tmp_path):
    source = b"#!/bin/bash\ncat access.log 2>/dev/null | grep 500\n"
    reports = lint_files({"u.sh": source}, tmp_path)
    assert reports[0].findings[0].fix.applicability.value == "unsafe"
    assert "fixes" not in sarif_of(reports)["runs"][0]["results"][0]
    result = sarif_of(reports, unsafe_fixes=True)["runs"][0]["results"][0]
    assert result["properties"]["fixApplicability"] == "unsafe"
    fixed_by_cli = lint_files({"again.sh": source}, tmp_path, fix=True, unsafe_fixes=True)[0].final_source
    assert apply_fixes(source, {"runs": [{"results": [result]}]}) == fixed_by_cli != source


def test_relative_paths_use_srcroot_and_absolute_paths_file_uris(tmp_path):
    reports = lint_files({"my dir/a b.sh": BAD}, tmp_path)
    reports[0].display_name = "./my dir/a b.sh"
    absolute = lint_files({"abs.sh": BAD}, tmp_path)
    absolute[0].display_name = str(tmp_path / "abs.sh")
    run = sarif_of(reports + absolute)["runs"][0]
    first = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert first == {"uri": "my%20dir/a%20b.sh", "uriBaseId": "%SRCROOT%"}
    last = run["results"][-1]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert last == {"uri": (tmp_path / "abs.sh").as_uri()}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path.cwd().as_uri().rstrip("/") + "/"


def test_the_command_line_prints_only_the_log(project):
    completed = run_cli("check", "--output-format", "sarif", "bad.sh", "clean.sh", "broken.sh", cwd=project)
    assert completed.returncode == 1
    log = json.loads(completed.stdout)
    assert_valid(log)
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]] == [
        "bad.sh"
    ] * 3


def test_a_file_name_that_is_not_utf8(tmp_path):
    name = b"caf\xe9.sh"
    (tmp_path / name.decode("utf-8", "surrogateescape")).write_bytes(BAD)
    completed = run_cli("check", "--output-format", "sarif", name.decode("utf-8", "surrogateescape"), cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    log = json.loads(completed.stdout.decode("utf-8"))
    assert_valid(log)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "caf%E9.sh"
    assert urllib.parse.unquote_to_bytes(uri) == name
