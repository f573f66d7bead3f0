"""`--statistics`: findings counted per rule, most frequent first, in text for people or JSON for programs.

The JSON is ruff's `--statistics --output-format json` shape (`code`, `name`,
`count`, `fixable`, `fixable_count`); parts of scripts that did not parse
count as one more entry, `code` null and `name` `parse-error`, as the
findings' JSON writes them. `json-lines` writes the same objects one per
line. The other machine formats are shapes for findings (a SARIF result, a
GitHub annotation, a JUnit test case), which counts are not: the command
line refuses `--statistics` with them, as ruff does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TextIO

from pipelint.engine.report import FileReport
from pipelint.output.common import PARSE_FAILURE_KIND, RenderOptions, is_fixable, parse_failures
from pipelint.output.json_format import dumps


@dataclass(frozen=True)
class Count:
    code: str | None  # None: parse failures
    name: str
    count: int
    fixable_count: int


def counts(reports: list[FileReport], options: RenderOptions) -> list[Count]:
    """One count per rule that found something, most frequent first (then by code); parse failures last."""
    found = Counter((f.code, f.name) for r in reports for f in r.findings)
    fixable = Counter(f.code for r in reports for f in r.findings if is_fixable(f, options.unsafe_fixes))
    ordered = sorted(found.items(), key=lambda item: (-item[1], item[0][0]))
    result = [Count(code, name, count, fixable[code]) for (code, name), count in ordered]
    failures = len(parse_failures(reports))
    if failures:
        result.append(Count(None, PARSE_FAILURE_KIND, failures, 0))
    return result


def lines(reports: list[FileReport], options: RenderOptions) -> list[str]:
    """`  12  PL001  [*] useless-cat`: `[*]` where some of the rule's findings are fixable."""
    return [
        f"{count.count:>5}  {count.code or '':5}  {'[*]' if count.fixable_count else '   '} {count.name}"
        for count in counts(reports, options)
    ]


def _records(reports: list[FileReport], options: RenderOptions) -> list[dict]:
    return [
        {
            "code": count.code,
            "name": count.name,
            "count": count.count,
            "fixable": count.fixable_count > 0,
            "fixable_count": count.fixable_count,
        }
        for count in counts(reports, options)
    ]


def render_text(reports: list[FileReport], options: RenderOptions, out: TextIO) -> None:
    for line in lines(reports, options):
        out.write(line + "\n")


def render_json(reports: list[FileReport], options: RenderOptions, out: TextIO) -> None:
    out.write(dumps(_records(reports, options), indent=2) + "\n")


def render_json_lines(reports: list[FileReport], options: RenderOptions, out: TextIO) -> None:
    for record in _records(reports, options):
        out.write(dumps(record) + "\n")


# The formats --statistics prints in.
FORMATS = {"full": render_text, "concise": render_text, "json": render_json, "json-lines": render_json_lines}
