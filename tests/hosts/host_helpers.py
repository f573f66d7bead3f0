"""Lint and fix host files (Dockerfiles, CI files) as `pipelint check` does, and say where findings are."""

from __future__ import annotations

from pathlib import Path

from pipelint.engine.config import Settings
from pipelint.finding import Finding
from pipelint.engine.linter import FileReport, process
from pipelint.shell.positions import LineIndex


def check(name: str, text: str | bytes, fix: bool = False, **settings) -> FileReport:
    data = text.encode() if isinstance(text, str) else text
    return process(data, name, Settings(**settings), Path(name), fix=fix)


def fixed(name: str, text: str | bytes, **settings) -> bytes:
    return check(name, text, fix=True, **settings).final_source


def one_step_workflow(shell: str, script: str, step_keys: str = "") -> str:
    """A workflow whose one job runs script (its lines) in one step under `shell:`, with step_keys before `run:`."""
    run = "".join(f"          {line}\n" for line in script.splitlines())
    return (
        "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
        f"      - shell: {shell}\n{step_keys}        run: |\n{run}"
    )


def where(report: FileReport, finding: Finding) -> tuple[int, int]:
    """1-based line and character column of a finding, as the CLI prints it."""
    position = LineIndex(report.final_source).position(finding.start)
    return position.line + 1, position.column + 1


def located(report: FileReport) -> list[tuple[str, int, int]]:
    return [(finding.code, *where(report, finding)) for finding in report.findings]
