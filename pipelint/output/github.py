"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

    ::warning file=F,line=L,col=C,endLine=EL,endColumn=EC,title=T::message

Escaping follows the Actions toolkit (`@actions/core` `escapeData` and
`escapeProperty`): `%`, CR and LF everywhere, and `:` and `,` inside
properties. pipelint's severities map to the commands `error`, `warning`
and `notice`. A parse failure, which also makes the exit status 1, is an
`error` annotation so the failed job says why.
"""

from __future__ import annotations

import re
from typing import TextIO

from pipelint.finding import Applicability, Finding, Severity
from pipelint.linter import FileReport
from pipelint.output.common import RenderOptions, is_fixable, rule_url, span

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}

_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_data(value: str) -> str:
    """The message after `::`."""
    value = _SURROGATE.sub("\ufffd", value)
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A `key=value` property before `::`."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(command: str, report: FileReport, start: int, end: int, title: str, message: str) -> str:
    where = span(report, start, end)
    properties = {
        "file": report.display_name,
        "line": where.row,
        "col": where.column,
        "endLine": where.end_row,
        "endColumn": where.end_column,
        "title": title,
    }
    listed = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{command} {listed}::{escape_data(message)}\n"


def message(finding: Finding, options: RenderOptions) -> str:
    lines = [finding.message]
    fix = finding.fix
    if fix is not None:
        if is_fixable(finding, options.unsafe_fixes):
            lines.append(f"[*] {fix.title} (pipelint check --fix)")
        elif fix.applicability is Applicability.UNSAFE:
            lines.append(f"help: {fix.title} (unsafe fix: pipelint check --fix --unsafe-fixes)")
        else:
            lines.append(f"help: {fix.title} (apply by hand)")
    if finding.help is not None:
        lines.append(f"help: {finding.help} (apply by hand)")
    lines.append(f"See {rule_url(finding)}")
    return "\n".join(lines)


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    for report in reports:
        for finding in report.findings:
            title = f"pipelint {finding.code} ({finding.name})"
            command = COMMANDS[finding.severity]
            out.write(annotation(command, report, finding.start, finding.end, title, message(finding, options)))
        for failure in report.parse_failures:
            out.write(
                annotation(
                    "error",
                    report,
                    failure.start,
                    failure.end,
                    "pipelint: parse error",
                    "could not parse from here; the rest of the file was checked",
                )
            )
