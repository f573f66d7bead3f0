"""One JSON object per line: the records of `--output-format json`: findings, parse failures, notes.

Easy to stream, `grep` and append to; an empty run prints nothing. Each line
is valid UTF-8 JSON: see json_format for `filename_bytes` and `content_bytes`.
"""

from __future__ import annotations

from typing import TextIO

from pipelint.output.common import RenderOptions
from pipelint.output.json_format import dumps, records


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    for record in records(reports, options):
        out.write(dumps(record) + "\n")
