"""`pipelint trace` on a terminal: the pipelines that ran, most expensive first, with their findings and fixes."""

from __future__ import annotations

import shlex
import signal
from typing import TextIO

from rich.console import Console
from rich.text import Text

from pipelint.trace import DEFAULT_TOP
from pipelint.output.common import RenderOptions, fix_hint, one_line, plural, printable, span
from pipelint.trace.quantities import seconds, size
from pipelint.trace.report import FindingCost, StageCost, TraceReport, UnitCost

_SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}


def _summary(report: TraceReport) -> Text:
    line = Text("pipelint trace: ", style="bold")
    line.append(printable(shlex.join(report.command)), style="bold")
    if report.killed_by is None:
        outcome = f" exited {report.status}"
    else:
        outcome = f" was killed by {_signal_name(report.killed_by)} (status {report.status})"
    line.append(outcome)
    total = report.cost
    line.append(
        f" after {seconds(report.wall_s)} · {seconds(total.cpu_s)} of CPU · {plural(len(report.record.processes), 'process', 'processes')}"
    )
    return line


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _unit_header(rank: int, unit_cost: UnitCost, display: str) -> Text:
    unit = unit_cost.unit
    lines = f"{unit.line}" if unit.end_line == unit.line else f"{unit.line}-{unit.end_line}"
    header = Text(f"{rank:>3}  ", style="bold")
    header.append(f"{printable(display)}:{lines}", style="bold")
    header.append(f"  {one_line(unit.text)}")
    header.append(f"  ({plural(unit_cost.runs, 'run')})", style="dim")
    return header


def _unit_cost(unit_cost: UnitCost) -> Text:
    measured = unit_cost.measured
    text = Text(f"     {seconds(measured.wall_s)} · {seconds(measured.cpu_s)} of CPU")
    busiest = max(unit_cost.stages, key=lambda stage: max(stage.cost.read, stage.cost.written))
    if measured.bytes:
        through = f" through {busiest.stage.label}" if unit_cost.unit.is_pipeline else ""
        text.append(f" · {size(measured.bytes)}{through}")
    started = sum(stage.started for stage in unit_cost.stages)
    if started:
        text.append(f" · started {plural(started, 'process', 'processes')}")
    return text


def _stage(stage: StageCost, width: int) -> Text:
    cost = stage.cost
    text = Text(f"       {stage.stage.label:<{width}}  ", style="bold")
    text.append(f"{seconds(cost.cpu_s)} of CPU · read {size(cost.read)} · wrote {size(cost.written)}")
    if stage.waited_s >= 0.001:
        text.append(f" · waited {seconds(stage.waited_s)}", style="dim")
    return text


def _finding(found: FindingCost, options: RenderOptions) -> list[Text]:
    finding = found.finding
    where = span(found.report, finding.start, finding.end)
    line = Text("     ")
    line.append(finding.code, style=_SEVERITY_STYLE.get(finding.severity.value, "bold"))
    line.append(f" {finding.name}", style="dim")
    line.append(f" (line {where.row}) {one_line(finding.message)}")
    lines = [line]
    saving = found.saving
    if saving is not None and saving.removed:
        removed = ", ".join(saving.removed)
        saved = f"       the fix removes {removed}: {seconds(saving.cpu_s)} of CPU"
        lines.append(Text(saved + (f", {size(saving.bytes)} copied" if saving.bytes else "")))
    elif saving is not None:
        lines.append(Text("       the fix changes the stage in place: its cost above is what is at stake"))
    hint = fix_hint(finding, options)
    if hint is not None:
        lines.append(Text(f"       {one_line(hint)}", style="cyan"))
    elif finding.help:
        lines.append(Text(f"       help: {one_line(finding.help)}", style="cyan"))
    return lines


def render(report: TraceReport, out: TextIO, colour: bool, top: int = DEFAULT_TOP) -> None:
    console = Console(file=out, highlight=False, soft_wrap=True, force_terminal=colour, no_color=not colour)
    options = RenderOptions(unsafe_fixes=False, color=colour)
    console.print(_summary(report))
    for note in report.notes:
        console.print(Text(f"note: {one_line(note)}", style="yellow"))
    displays = {script.script: script.display for script in report.scripts}
    shown = report.ranked if top <= 0 else report.ranked[:top]
    for rank, unit_cost in enumerate(shown, 1):
        console.print()
        console.print(_unit_header(rank, unit_cost, displays[unit_cost.unit.script]))
        console.print(_unit_cost(unit_cost))
        if unit_cost.unit.is_pipeline:
            width = max(len(stage.stage.label) for stage in unit_cost.stages)
            for stage in unit_cost.stages:
                console.print(_stage(stage, width))
        for found in unit_cost.findings:
            for line in _finding(found, options):
                console.print(line)
    rest = report.ranked[len(shown) :]
    tail = []
    if rest:
        with_findings = sum(1 for unit_cost in rest if unit_cost.findings)
        tail.append(
            f"{plural(len(rest), 'more pipeline')} ran ({with_findings} with findings; `--top 0` lists all)"
        )
    shells = [f"{printable(s.display)} {seconds(s.shell.cpu_s)}" for s in report.scripts if s.shell.cpu_s >= 0.001]
    if shells:
        tail.append(f"the scripts' own shells (builtins, expansions, forks) used {', '.join(shells)} of CPU")
    if report.unattributed_processes:
        tail.append(
            f"{plural(report.unattributed_processes, 'process', 'processes')} outside any script line used "
            f"{seconds(report.unattributed.cpu_s)} of CPU"
        )
    not_run = sum(len(s.not_run) for s in report.scripts)
    if not_run:
        tail.append(f"{plural(not_run, 'finding')} on lines that did not run (`pipelint check` lists them)")
    if tail:
        console.print()
        for line in tail:
            console.print(Text(line[0].upper() + line[1:] + ".", style="dim"))
