"""What the output-format tests share: lint files like the CLI does, render, run the real CLI."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from pipelint.engine.config import Settings
from pipelint.finding import Applicability, Edit, Finding, Fix, Severity
from pipelint.engine.linter import FileReport, process
from pipelint.output import FORMATS, RenderOptions

REPO = Path(__file__).resolve().parent.parent.parent

# A script with findings from two rules, one of them twice, and a clean line.
# `echo done` last: the script's own status is not the pipelines' (else PL001's fix is unsafe).
BAD = b"#!/bin/bash\ncat access.log | grep -c ' 500 '\ncat dump.sql | mysql shop\nwc -l < words.txt\ncat data.csv | uniq\necho done\n"
CLEAN = b"#!/bin/sh\nwc -l < words.txt\n"
BROKEN = b"#!/bin/bash\nif [ -f x ; then\n"


def lint_files(files: dict[str, bytes], folder: Path, fix: bool = False, **settings) -> list[FileReport]:
    """Reports as `pipelint check NAME…` would make them, run from folder."""
    reports = []
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        reports.append(process(data, name, Settings(**settings), path, fix=fix))
    return reports


def render(format_name: str, reports: list[FileReport], **options) -> str:
    """The text a format prints, written as strictly as stdout is: UTF-8, no lone surrogates."""
    buffer = io.BytesIO()
    out = io.TextIOWrapper(buffer, encoding="utf-8", errors="strict", newline="")
    FORMATS[format_name](reports, RenderOptions(**options), out)
    out.flush()
    return buffer.getvalue().decode("utf-8")


NOT_UTF8_NAME = b"caf\xe9.sh".decode("utf-8", "surrogateescape")  # as Python sees such a name in argv


def made_up_report(severity: Severity = Severity.WARNING, message: str = "a message", name: str = "x.sh") -> FileReport:
    """One finding with chosen severity and message, independent of any real rule."""
    source = b"echo a | cat\n"
    fix = Fix("Drop the cat", Applicability.SAFE, (Edit.delete(6, 12),))
    finding = Finding("PL001", "useless-cat", severity, message, 5, 12, fix)
    return FileReport(display_name=name, source=source, findings=[finding])


def run_cli(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """The real command line in a subprocess; stdout and stderr as bytes."""
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    command = [sys.executable, "-m", "pipelint", *args]
    if stdin is None:
        return subprocess.run(command, cwd=cwd, capture_output=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
    return subprocess.run(command, cwd=cwd, capture_output=True, env=env, timeout=120, input=stdin)


def strict_json(text: str | bytes) -> object:
    """json.loads as strict readers do it (Rust's serde_json, Go): valid UTF-8, no lone surrogates, escaped or not."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "strict")

    def check(value: object) -> object:
        if isinstance(value, str):
            value.encode("utf-8", "strict")  # a lone surrogate, even from a \udcNN escape, fails here
        elif isinstance(value, dict):
            for key, item in value.items():
                check(key)
                check(item)
        elif isinstance(value, list):
            for item in value:
                check(item)
        return value

    return check(json.loads(text))
