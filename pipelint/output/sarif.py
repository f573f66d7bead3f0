"""SARIF 2.1.0, the format GitHub code scanning and other result viewers read.

One run: the driver names pipelint, its version and only the rules that fired
(each with its document as help), results carry 1-based regions counted in
Unicode code points (`columnKind`), and findings that `--fix` would apply with
the current flags carry `fixes`. Paths relative to the working directory are
given relative to `%SRCROOT%`, which is how GitHub matches them to the
checkout. Parse failures become tool notifications: they make the exit status
1 just like findings, so CI must be able to show them. A rule that raised on
a file is an `internal-error` notification and makes `executionSuccessful`
false. Advice that is not a fix (`Finding.help`) ends the result's message
and is `properties.help`.
"""

from __future__ import annotations

import base64
import json
import os
import re
import urllib.parse
from pathlib import Path
from typing import TextIO

from pipelint import __version__
from pipelint.engine import registry
from pipelint.finding import Edit, Finding, Severity
from pipelint.engine.report import FileReport
from pipelint.output import rule_document
from pipelint.output.common import NOTE_KIND, PARSE_FAILURE_KIND, note_groups, parse_failure_text, RenderOptions, is_fixable, lossy, project_urls, rule_url, span

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SOURCE_ROOT = "%SRCROOT%"

# SARIF's levels are none, note, warning and error; pipelint has no "none".
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

def artifact_location(report: FileReport) -> dict:
    """The file as a URI: relative to %SRCROOT% (the working directory) when it can be."""
    name = report.display_name
    raw = os.fsencode(name)
    if Path(name).is_absolute():
        return {"uri": "file://" + urllib.parse.quote(raw)}
    relative = raw[2:] if raw.startswith(b"./") else raw
    return {"uri": urllib.parse.quote(relative), "uriBaseId": SOURCE_ROOT}


def region(report: FileReport, start: int, end: int) -> dict:
    where = span(report, start, end)
    return {
        "startLine": where.row,
        "startColumn": where.column,
        "endLine": where.end_row,
        "endColumn": where.end_column,
    }


def section(markdown: str, heading: str) -> str:
    """The body of one `## heading` section of a rule document, stripped."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", markdown, re.MULTILINE | re.DOTALL)
    return match.group(1).strip() if match else ""


def rule_descriptor(code: str, fallback: Finding) -> dict:
    rule = registry.lookup(code)
    name = rule.name if rule else fallback.name
    severity = rule.severity if rule else fallback.severity
    document = rule_document.markdown(rule) if rule else ""
    what = section(document, "What it does") or fallback.message
    first_paragraph = " ".join(what.split("\n\n", 1)[0].split())
    first_sentence = re.match(r"(.+?[.!?])(?:\s|$)", first_paragraph)
    descriptor = {
        "id": code,
        "name": name,
        "shortDescription": {"text": lossy(first_sentence.group(1) if first_sentence else first_paragraph)},
        "fullDescription": {"text": lossy(what)},
        "helpUri": rule_url(fallback),
        "defaultConfiguration": {"level": LEVELS[severity]},
    }
    if document:
        descriptor["help"] = {"text": lossy(document), "markdown": lossy(document)}
    if rule:
        descriptor["properties"] = {"fixAvailability": rule.fix_availability.value}
    return descriptor


def replacement(report: FileReport, edit: Edit) -> dict:
    change: dict = {"deletedRegion": region(report, edit.start, edit.end)}
    if edit.content:
        try:
            change["insertedContent"] = {"text": edit.content.decode("utf-8")}
        except UnicodeDecodeError:
            # Bytes that are not UTF-8 travel exactly, base64-encoded.
            change["insertedContent"] = {"binary": base64.b64encode(edit.content).decode("ascii")}
    return change


def result(report: FileReport, finding: Finding, rule_index: int, options: RenderOptions) -> dict:
    location = artifact_location(report)
    message = finding.message if not finding.help else f"{finding.message}\nHelp: {finding.help}"
    entry = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": LEVELS[finding.severity],
        "message": {"text": lossy(message)},
        "locations": [
            {"physicalLocation": {"artifactLocation": location, "region": region(report, finding.start, finding.end)}}
        ],
    }
    properties = {}
    if finding.fix is not None and is_fixable(finding, options.unsafe_fixes):
        entry["fixes"] = [
            {
                "description": {"text": lossy(finding.fix.title)},
                "artifactChanges": [
                    {"artifactLocation": location, "replacements": [replacement(report, e) for e in finding.fix.edits]}
                ],
            }
        ]
        properties["fixApplicability"] = finding.fix.applicability.value
    if finding.help:
        properties["help"] = lossy(finding.help)
    if properties:
        entry["properties"] = properties
    return entry


def _notification(
    report: FileReport, kind: str, message: str, region_of: dict | None = None, level: str = "error"
) -> dict:
    location: dict = {"artifactLocation": artifact_location(report)}
    if region_of is not None:
        location["region"] = region_of
    return {
        "descriptor": {"id": kind},
        "level": level,
        "message": {"text": lossy(message)},
        "locations": [{"physicalLocation": location}],
    }


def notifications(reports: list[FileReport], options: RenderOptions) -> list[dict]:
    """Parse failures, notes (level "note"), and rules that raised (each naming its rule)."""
    found = []
    for report in reports:
        for group in note_groups(report, options.verbose):
            where = region(report, group.start, group.end)
            found.append(_notification(report, NOTE_KIND, group.text, where, level="note"))
        for failure in report.parse_failures:
            where = region(report, failure.start, failure.end)
            found.append(_notification(report, PARSE_FAILURE_KIND, parse_failure_text(report.index, failure), where))
        for crash in report.crashes:
            notification = _notification(report, "internal-error", f"internal error in {crash.code}: {crash.summary}")
            notification["associatedRule"] = {"id": crash.code}
            found.append(notification)
    return found


def sarif_log(reports: list[FileReport], options: RenderOptions) -> dict:
    """The whole log as a dict (what `render` prints)."""
    first_of: dict[str, Finding] = {}
    for report in reports:
        for finding in report.findings:
            first_of.setdefault(finding.code, finding)
    codes = sorted(first_of)
    index = {code: i for i, code in enumerate(codes)}
    results = [
        result(report, finding, index[finding.code], options) for report in reports for finding in report.findings
    ]
    run = {
        "tool": {
            "driver": {
                "name": "pipelint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": project_urls()["Homepage"],
                "rules": [rule_descriptor(code, first_of[code]) for code in codes],
            }
        },
        "invocations": [
            {
                "executionSuccessful": not any(report.crashes for report in reports),
                "toolExecutionNotifications": notifications(reports, options),
            }
        ],
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    json.dump(sarif_log(reports, options), out, indent=2, ensure_ascii=False)
    out.write("\n")
