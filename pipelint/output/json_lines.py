"""One JSON object per line and per finding: the same record as `--output-format json`.

Easy to stream, `grep` and append to; an empty run prints nothing. Bytes of
the script that are not valid UTF-8 are written as `\\udcNN` escapes, as in
the json format, so every line is valid UTF-8 JSON and nothing is lost.
"""

from __future__ import annotations

from typing import TextIO

from pipelint.output.common import RenderOptions
from pipelint.output.json_format import dumps, finding_record


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    for report in reports:
        for finding in report.findings:
            out.write(dumps(finding_record(report, finding)) + "\n")
