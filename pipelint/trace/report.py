"""The record joined with the findings: each unit's measured cost, what each fix would save, and the ranking.

A unit's cost is what its stages' processes cost, those they started
included (xargs' children are xargs' stage): CPU time and bytes read and
written, from the kernel's counts. Its wall time is the time during which
any of its processes ran, so a pipeline run 3,000 times in a loop counts
each run once and a pipeline whose stages overlap counts the overlap once.

A finding's fix saves what the stages it removes cost: `pipelint check
--fix` rewrites `cat f | wc -l` to `wc -l < f`, and the `cat` stage's CPU
and the bytes it copied are gone. A fix that changes a stage in place (a
block size, a compression level) removes no stage: the stage's cost is
what is at stake, and the rule's document gives the measured ratio.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pipelint.engine.config import ConfigError, Settings, SettingsResolver
from pipelint.engine.linter import FileReport, process
from pipelint.finding import Finding, Measured, apply_edits
from pipelint.trace import scripts as static
from pipelint.trace.attribute import attribute
from pipelint.trace.record import Cost, Record
from pipelint.trace.scripts import Script, Stage, Unit


@dataclass
class StageCost:
    stage: Stage
    processes: int = 0  # its own processes: one per run of a simple command
    started: int = 0  # processes those started (xargs' children)
    cost: Cost = field(default_factory=Cost)
    wall_s: float = 0.0

    @property
    def waited_s(self) -> float:
        """Time its processes were alive but not on a CPU: waiting on a pipe, the disk, or for a CPU."""
        return max(0.0, self.wall_s - self.cost.cpu_s) if self.processes else 0.0


@dataclass(frozen=True)
class Saving:
    removed: tuple[str, ...]  # the stages the fix removes, by program (empty: it changes one in place)
    cpu_s: float
    bytes: int  # what the removed stages copied: the bytes they wrote


@dataclass
class FindingCost:
    finding: Finding
    report: FileReport  # the linted script, for positions
    saving: Saving | None  # None: the fix removes no stage, or there is no fix


@dataclass
class UnitCost:
    unit: Unit
    stages: list[StageCost]
    runs: int = 0
    wall_s: float = 0.0
    findings: list[FindingCost] = field(default_factory=list)

    @property
    def cost(self) -> Cost:
        total = Cost()
        for stage in self.stages:
            total = total + stage.cost
        return total

    @property
    def measured(self) -> Measured:
        moved = max((max(stage.cost.read, stage.cost.written) for stage in self.stages), default=0)
        return Measured(self.wall_s, self.cost.cpu_s, moved)


@dataclass
class ScriptCost:
    script: Script
    display: str  # the path as the report names it
    lint: FileReport
    shell: Cost = field(default_factory=Cost)  # the script's own shell and subshells: builtins, expansions, forks
    not_run: list[Finding] = field(default_factory=list)  # findings on units that did not run


@dataclass
class TraceReport:
    command: list[str]
    status: int
    record: Record
    ranked: list[UnitCost]  # the units that ran, most expensive first
    scripts: list[ScriptCost]
    unattributed: Cost = field(default_factory=Cost)  # processes no script line started (a non-shell command's)
    unattributed_processes: int = 0
    notes: list[str] = field(default_factory=list)
    killed_by: int | None = None  # the signal that ended the command, if one did

    @property
    def wall_s(self) -> float:
        return self.record.wall_s or 0.0

    @property
    def cost(self) -> Cost:
        total = Cost()
        for process in self.record.processes:
            total = total + process.own_cost
        return total


def display_path(path: Path, cwd: Path) -> str:
    """The path as the user would type it from where pipelint ran: relative below cwd."""
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)


class ScriptLoader:
    """Reads each script the run executed once; None for what is not a readable file."""

    def __init__(self) -> None:
        self._read: dict[Path, Script | None] = {}

    def __call__(self, path: Path) -> Script | None:
        try:
            real = path.resolve()
        except OSError:
            return None
        if real not in self._read:
            try:
                self._read[real] = static.read(real, real.read_bytes()) if real.is_file() else None
            except OSError:
                self._read[real] = None
        return self._read[real]


def build(command: list[str], status: int, record: Record, cwd: Path, killed_by: int | None = None) -> TraceReport:
    """Attribute the record, lint the scripts it ran, and rank what ran."""
    cwd = cwd.resolve()  # the scripts' paths are real paths
    found = attribute(record, ScriptLoader())
    report = TraceReport(command, status, record, [], [], notes=list(record.notes), killed_by=killed_by)
    units: dict[Unit, UnitCost] = {}
    spans: dict[Stage, list[tuple[float, float]]] = {}  # when each stage's own processes ran
    end = record.ended_at or max((p.ended_at or p.forked_at for p in record.processes), default=0.0)
    for process in record.processes:
        home = found.home(process)
        if home is None:
            continue
        unit = home.stage.unit
        if unit not in units:
            units[unit] = UnitCost(unit, [StageCost(stage) for stage in unit.stages])
        stage_cost = units[unit].stages[home.stage.index]
        stage_cost.cost = stage_cost.cost + process.own_cost
        if not home.direct:
            stage_cost.started += 1
            continue
        stage_cost.processes += 1
        if process.finished or process.untraced != "setuid":  # a program let go has no end seen: no wall time
            # A job still running when the script ended ran until then, as far as the run is concerned.
            spans.setdefault(home.stage, []).append((process.forked_at, process.ended_at or end))
    for unit_cost in units.values():
        unit_cost.runs = max((stage.processes for stage in unit_cost.stages), default=0)
        unit_cost.wall_s = _covered([span for stage in unit_cost.unit.stages for span in spans.get(stage, [])])
        for stage_cost in unit_cost.stages:
            stage_cost.wall_s = _covered(spans.get(stage_cost.stage, []))
    by_script: dict[Script, ScriptCost] = {}
    for script in found.scripts:
        display = display_path(script.path, cwd)
        lint, problem = _lint(script, display)
        if problem:
            report.notes.append(problem)
        by_script[script] = ScriptCost(script, display, lint)
    for process, script in found.shells.items():
        if script in by_script:
            by_script[script].shell = by_script[script].shell + process.own_cost
    for process in record.processes:
        if process not in found.homes and process not in found.shells:
            report.unattributed = report.unattributed + process.own_cost
            report.unattributed_processes += 1
    for script_cost in by_script.values():
        for finding in script_cost.lint.findings:
            unit = script_cost.script.unit_at(finding.start)
            if unit is None or unit not in units:
                script_cost.not_run.append(finding)
                continue
            unit_cost = units[unit]
            unit_cost.findings.append(FindingCost(finding, script_cost.lint, _saving(finding, unit_cost)))
    report.scripts = list(by_script.values())
    report.notes += _untraced_notes(record)
    report.ranked = sorted(units.values(), key=lambda u: (-u.wall_s, -u.cost.cpu_s, u.unit.script.path, u.unit.start))
    return report


def _untraced_notes(record: Record) -> list[str]:
    """What ran untraced, once per program: a set-user-ID program keeps its privileges only so."""
    notes = []
    for reason, text in (
        ("setuid", "ran untraced from its exec on, to keep its set-user-ID privileges: its cost is not measured"),
        ("setuid-unprivileged", "ran without the privileges its set-user-ID bit grants: ptrace keeps them off here"),
    ):
        names = sorted({_program(p) for p in record.processes if p.untraced == reason})
        if names:
            notes.append(f"{', '.join(names)} {text}")
    return notes


def _program(process) -> str:
    image = process.execs[-1] if process.execs else None
    return (image.argv[0] if image and image.argv else b"?").decode("utf-8", "replace")


def _lint(script: Script, display: str) -> tuple[FileReport, str | None]:
    """The script's findings with its own settings (its config file), as `pipelint check` gives them."""
    problem = None
    try:
        settings = SettingsResolver().for_path(script.path)
    except ConfigError as error:
        settings, problem = Settings(), f"{error}; the default settings apply"
    return process(script.source, display, settings, script.path), problem


def _covered(spans: list[tuple[float, float]]) -> float:
    """The length of the union of the spans: concurrent runs count once."""
    total = 0.0
    reach = None
    for start, end in sorted(spans):
        if reach is None or start > reach:
            total += end - start
            reach = end
        elif end > reach:
            total += end - reach
            reach = end
    return total


def _saving(finding: Finding, unit_cost: UnitCost) -> Saving | None:
    """What the finding's fix saves: the cost of the stages it removes, told by the programs the unit runs
    before and after the fix."""
    fix = finding.fix
    if fix is None or not fix.edits:
        return None
    unit = unit_cost.unit
    script = unit.script
    fixed = apply_edits(script.source, sorted(fix.edits))
    after = static.read(script.path, fixed)
    start, end = _moved(unit.start, fix.edits), _moved(unit.end, fix.edits)
    remaining = Counter(stage.label for u in after.units if start <= u.start and u.end <= end for stage in u.stages)
    removed: list[StageCost] = []
    for stage_cost in unit_cost.stages:
        label = stage_cost.stage.label
        if remaining[label] > 0:
            remaining[label] -= 1
        else:
            removed.append(stage_cost)
    if not removed:
        return Saving((), 0.0, 0)
    return Saving(
        tuple(stage.stage.label for stage in removed),
        sum(stage.cost.cpu_s for stage in removed),
        sum(stage.cost.written for stage in removed),
    )


def _moved(offset: int, edits) -> int:
    """Where an offset of the source lands after the edits."""
    shift = 0
    for edit in edits:
        if edit.end <= offset:
            shift += len(edit.content) - (edit.end - edit.start)
    return offset + shift

