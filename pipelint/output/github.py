"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

    ::warning file=F,line=L,col=C,endLine=EL,endColumn=EC,title=T::message

Escaping follows the Actions toolkit (`@actions/core` `escapeData` and
`escapeProperty`): `%`, CR and LF everywhere, and `:` and `,` inside
properties. pipelint's severities map to the commands `error`, `warning`
and `notice`. A parse failure, which also makes the exit status 1, is an
`error` annotation so the failed job says why; a note (a stretch not
checked though the shell accepts it) is a `notice`.
"""

from __future__ import annotations

from typing import TextIO

from pipelint.finding import Finding, Severity
from pipelint.engine.report import FileReport
from pipelint.output.common import (
    RenderOptions,
    note_groups,
    parse_failure_text,
    advice_hint,
    fix_hint,
    lossy,
    printable,
    rule_url,
    span,
)

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(value: str) -> str:
    """The message after `::`."""
    value = lossy(value)
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A `key=value` property before `::`."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(command: str, report: FileReport, start: int, end: int, title: str, message: str) -> str:
    where = span(report, start, end)
    properties = {
        "file": printable(report.display_name),
        "line": where.row,
        "col": where.column,
        "endLine": where.end_row,
        "endColumn": where.end_column,
        "title": title,
    }
    listed = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{command} {listed}::{escape_data(message)}\n"


def message(finding: Finding, options: RenderOptions) -> str:
    lines = [finding.message, fix_hint(finding, options), advice_hint(finding), f"See {rule_url(finding)}"]
    return "\n".join(line for line in lines if line)


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
                    parse_failure_text(report.index, failure),
                )
            )
        for group in note_groups(report, options.verbose):
            out.write(annotation("notice", report, group.start, group.end, "pipelint: note", group.text))
