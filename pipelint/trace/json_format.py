"""`pipelint trace --output-format json`: the report as one JSON object, described by docs/trace.schema.json.

It is also what `pipelint check --trace FILE` and the language server read
back (`trace.measured`): each pipeline names its script by absolute path
and the script's SHA-256, and its place by byte offsets, so a finding can
be matched to the pipeline it sits in as long as the script is unchanged.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import TextIO

from pipelint.finding import Finding
from pipelint.output.common import lossy, rule_url, span
from pipelint.engine.linter import FileReport
from pipelint.trace.measured import sha256
from pipelint.trace.record import Cost
from pipelint.trace.report import FindingCost, StageCost, TraceReport, UnitCost

VERSION = 1


def _seconds(value: float) -> float:
    return round(value, 6)


def _cost(cost: Cost) -> dict:
    return {
        "cpu_s": _seconds(cost.cpu_s),
        "user_s": _seconds(cost.user_s),
        "sys_s": _seconds(cost.sys_s),
        "bytes_read": cost.read,
        "bytes_written": cost.written,
    }


def _place(report: FileReport, start: int, end: int) -> dict:
    where = span(report, start, end)
    return {
        "location": {"row": where.row, "column": where.column},
        "end_location": {"row": where.end_row, "column": where.end_column},
    }


def _stage(stage: StageCost) -> dict:
    return {
        "index": stage.stage.index,
        "program": lossy(stage.stage.label),
        "text": lossy(stage.stage.text),
        "processes": stage.processes,
        "started": stage.started,
        "wall_s": _seconds(stage.wall_s),
        "waited_s": _seconds(stage.waited_s),
    } | _cost(stage.cost)


def finding_record(found: FindingCost) -> dict:
    finding: Finding = found.finding
    fix = finding.fix
    saving = found.saving
    return {
        "code": finding.code,
        "name": finding.name,
        "message": lossy(finding.message),
        **_place(found.report, finding.start, finding.end),
        "url": rule_url(finding),
        "fix": None if fix is None else {"applicability": fix.applicability.value, "message": lossy(fix.title)},
        "help": lossy(finding.help) if finding.help else None,
        "saves": None
        if saving is None
        else {"removed": list(saving.removed), "cpu_s": _seconds(saving.cpu_s), "bytes": saving.bytes},
    }


def _pipeline(rank: int, unit_cost: UnitCost, report: FileReport) -> dict:
    unit = unit_cost.unit
    return {
        "rank": rank,
        "filename": lossy(report.display_name),
        "path": lossy(str(unit.script.path)),
        **_place(report, unit.start, unit.end),
        "start_byte": unit.start,
        "end_byte": unit.end,
        "text": lossy(unit.text),
        "runs": unit_cost.runs,
        "measured": unit_cost.measured.as_json(),
        **_cost(unit_cost.cost),
        "stages": [_stage(stage) for stage in unit_cost.stages],
        "findings": [finding_record(found) for found in unit_cost.findings],
    }


def document(report: TraceReport) -> dict:
    lints = {script.script: script.lint for script in report.scripts}
    started = datetime.fromtimestamp(report.record.started_ns / 1e9, timezone.utc) if report.record.started_ns else None
    total = report.cost
    return {
        "version": VERSION,
        "command": [lossy(word) for word in report.command],
        "cwd": lossy(str(Path.cwd())),
        "started": started.isoformat(timespec="seconds") if started else None,
        "traced": report.record.traced,
        "exit_status": report.status,
        "signal": report.killed_by,
        "measured": {"wall_s": _seconds(report.wall_s), "processes": len(report.record.processes)} | _cost(total),
        "notes": [lossy(note) for note in report.notes],
        "scripts": [
            {
                "filename": lossy(script.display),
                "path": lossy(str(script.script.path)),
                "sha256": sha256(script.script.source),
                "shell": _cost(script.shell),
                "findings_not_run": [
                    {"code": finding.code, **_place(script.lint, finding.start, finding.end)} for finding in script.not_run
                ],
            }
            for script in report.scripts
        ],
        "pipelines": [
            _pipeline(rank, unit_cost, lints[unit_cost.unit.script])
            for rank, unit_cost in enumerate(report.ranked, 1)
        ],
        "unattributed": {"processes": report.unattributed_processes} | _cost(report.unattributed),
    }


def render(report: TraceReport, out: TextIO) -> None:
    out.write(json.dumps(document(report), ensure_ascii=False, indent=2))
    out.write("\n")
