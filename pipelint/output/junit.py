"""JUnit XML, for CI systems that show test reports (GitLab, Jenkins, Azure).

One `<testsuite name="pipelint">`. As in ruff, every finding is a failed
`<testcase>` named by its rule and position, with the file as `classname`
and `file`, and the line as `line`; a checked file without findings is one
passing test case, so the report also says what was checked. A parse
failure is a failed test case of type `parse-error`; a rule that raised on a
file is a test case with an `<error type="internal-error">`.

Text that XML 1.0 cannot hold (control characters, bytes that are not UTF-8)
is written as `\\xNN`, so the report is always well-formed.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TextIO

from pipelint.engine.report import FileReport
from pipelint.output.common import PARSE_FAILURE_KIND, parse_failure_text, RenderOptions, advice_hint, escape_character, fix_hint, rule_url, span

# Characters XML 1.0 forbids: C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str) -> str:
    return _NOT_XML.sub(escape_character, value)


def _case(suite: ET.Element, name: str, path: str, line: int | None = None) -> ET.Element:
    attributes = {"name": xml_text(name), "classname": xml_text(path), "file": xml_text(path)}
    if line is not None:
        attributes["line"] = str(line)
    return ET.SubElement(suite, "testcase", attributes)


def _failure(case: ET.Element, message: str, kind: str, body: str, tag: str = "failure") -> None:
    failure = ET.SubElement(case, tag, {"message": xml_text(message), "type": xml_text(kind)})
    failure.text = xml_text(body)


def junit_tree(reports: list[FileReport], options: RenderOptions) -> ET.Element:
    suites = ET.Element("testsuites", {"name": "pipelint"})
    suite = ET.SubElement(suites, "testsuite", {"name": "pipelint"})
    tests = failures = errors = 0
    for report in reports:
        path = report.display_name
        for crash in report.crashes:
            case = _case(suite, f"internal error in {crash.code}", path)
            _failure(case, crash.summary, "internal-error", f"{path}: internal error in {crash.code}: {crash.summary}", "error")
            tests += 1
            errors += 1
        if not report.findings and not report.parse_failures:
            _case(suite, "no problems found", path)
            tests += 1
            continue
        for finding in report.findings:
            where = span(report, finding.start, finding.end)
            case = _case(suite, f"{finding.code} {finding.name} at {where.row}:{where.column}", path, where.row)
            lines = [
                f"{path}:{where.row}:{where.column}: {finding.code} {finding.message}",
                fix_hint(finding, options),
                advice_hint(finding),
                f"See {rule_url(finding)}",
            ]
            _failure(case, finding.message, finding.code, "\n".join(line for line in lines if line))
            tests += 1
            failures += 1
        for failure in report.parse_failures:
            where = span(report, failure.start, failure.end)
            case = _case(suite, f"parse error at {where.row}:{where.column}", path, where.row)
            text = parse_failure_text(report.index, failure)
            _failure(case, text, PARSE_FAILURE_KIND, f"{path}:{where.row}:{where.column}: {text}")
            tests += 1
            failures += 1
    for element in (suites, suite):
        element.set("tests", str(tests))
        element.set("failures", str(failures))
        element.set("errors", str(errors))
    suite.set("skipped", "0")
    return suites


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    tree = junit_tree(reports, options)
    ET.indent(tree)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(tree, encoding="unicode"))
    out.write("\n")
