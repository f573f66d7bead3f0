"""One JSON object per line and per finding: the same record as `--output-format json`.

Easy to stream, `grep` and append to; an empty run prints nothing. Text that
is not valid UTF-8 (lone surrogates from undecodable bytes) becomes U+FFFD so
every line is valid UTF-8 JSON.
"""

from __future__ import annotations

import json
import re
from typing import TextIO

from pipelint.output.common import RenderOptions
from pipelint.output.json_format import finding_record

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean(value):
    """The record with every string made encodable."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {key: clean(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clean(item) for item in value]
    return value


def render(reports: list, options: RenderOptions, out: TextIO) -> None:
    for report in reports:
        for finding in report.findings:
            out.write(json.dumps(clean(finding_record(report, finding)), ensure_ascii=False) + "\n")
