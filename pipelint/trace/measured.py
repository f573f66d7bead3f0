"""A saved trace read back: what `pipelint check --trace FILE` adds to findings, and what an editor shows on hover.

`pipelint trace --output-format json -o FILE -- SCRIPT` writes the file
(`trace.json_format`). Each pipeline in it names its script by absolute
path and SHA-256 and its place by byte offsets: a finding in the same
script, unchanged, gets the measured cost of the innermost pipeline (or
command) that holds it. A script changed since the trace gets nothing: its
offsets may point anywhere now.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from pipelint.finding import Finding, Measured
from pipelint.trace.quantities import seconds, size

SUPPORTED_VERSION = 1


class TraceFileError(Exception):
    """A trace file that cannot be used; the message names the file and why."""


@dataclass(frozen=True)
class MeasuredUnit:
    start: int
    end: int
    text: str
    runs: int
    measured: Measured
    stages: tuple[tuple[str, float, int, int], ...]  # program, CPU seconds, bytes read, bytes written


@dataclass
class TracedScript:
    sha256: str
    units: list[MeasuredUnit] = field(default_factory=list)

    def unit_at(self, offset: int) -> MeasuredUnit | None:
        """The innermost measured unit holding offset."""
        best = None
        for unit in self.units:
            if unit.start <= offset < unit.end and (best is None or unit.end - unit.start < best.end - best.start):
                best = unit
        return best


@dataclass
class TraceFile:
    path: Path
    started: str | None
    scripts: dict[str, TracedScript]  # by the script's real path

    def script(self, path: Path | str, source: bytes) -> TracedScript | None:
        """What the trace measured of the script at path, if its text is the one traced."""
        traced = self.scripts.get(os.path.realpath(path))
        if traced is None or traced.sha256 != sha256(source):
            return None
        return traced

    def has(self, path: Path | str) -> bool:
        return os.path.realpath(path) in self.scripts


def sha256(source: bytes) -> str:
    """How a trace file names a script's text."""
    return hashlib.sha256(source).hexdigest()


def load(path: Path) -> TraceFile:
    """Read a trace file; TraceFileError when it is missing, not JSON, or not a trace."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as error:
        raise TraceFileError(f"{path}: {error.strerror or error}") from None
    except ValueError as error:
        raise TraceFileError(f"{path}: not a trace file (invalid JSON: {error})") from None
    if not isinstance(data, dict) or data.get("version") != SUPPORTED_VERSION or "pipelines" not in data:
        raise TraceFileError(f"{path}: not a trace file of this pipelint (write one with `pipelint trace --output-format json -o FILE`)")
    try:
        scripts = {os.path.realpath(entry["path"]): TracedScript(entry["sha256"]) for entry in data["scripts"]}
        for pipeline in data["pipelines"]:
            traced = scripts.get(os.path.realpath(pipeline["path"]))
            if traced is None:
                continue
            measured = pipeline["measured"]
            stages = tuple(
                (str(stage["program"]), float(stage["cpu_s"]), int(stage["bytes_read"]), int(stage["bytes_written"]))
                for stage in pipeline["stages"]
            )
            traced.units.append(
                MeasuredUnit(
                    int(pipeline["start_byte"]),
                    int(pipeline["end_byte"]),
                    str(pipeline["text"]),
                    int(pipeline["runs"]),
                    Measured(float(measured["wall_s"]), float(measured["cpu_s"]), int(measured["bytes"])),
                    stages,
                )
            )
    except (KeyError, TypeError, ValueError) as error:
        raise TraceFileError(f"{path}: not a trace file of this pipelint ({type(error).__name__}: {error})") from None
    return TraceFile(path, data.get("started"), scripts)


_CACHE: dict[Path, tuple[tuple[int, int], TraceFile]] = {}


def load_cached(path: Path) -> TraceFile:
    """load(), read again only when the file changed (the language server asks on every hover)."""
    status = path.stat()
    key = (status.st_mtime_ns, status.st_size)
    known = _CACHE.get(path)
    if known is None or known[0] != key:
        known = _CACHE[path] = (key, load(path))
    return known[1]


def describe(unit: MeasuredUnit) -> str:
    """`1 run, 1.92 s, 1.80 s of CPU, 256.0 MiB through cat`."""
    runs = f"{unit.runs} run" + ("" if unit.runs == 1 else "s")
    text = f"{runs}, {seconds(unit.measured.wall_s)}, {seconds(unit.measured.cpu_s)} of CPU"
    if unit.measured.bytes:
        busiest = max(unit.stages, key=lambda stage: max(stage[2], stage[3]), default=None)
        through = f" through {busiest[0]}" if busiest is not None and len(unit.stages) > 1 else ""
        text += f", {size(unit.measured.bytes)}{through}"
    return text


def annotate(findings: list[Finding], traced: TracedScript) -> list[Finding]:
    """The findings with what the trace measured of the pipeline each sits in, in the message and `measured`."""
    annotated = []
    for finding in findings:
        unit = traced.unit_at(finding.start)
        if unit is None:
            annotated.append(finding)
            continue
        message = f"{finding.message} [traced: {describe(unit)}]"
        annotated.append(replace(finding, message=message, measured=unit.measured))
    return annotated


def hover(trace: TraceFile, path: Path, source: bytes, offset: int) -> tuple[MeasuredUnit, str] | None:
    """What an editor shows over a pipeline the trace measured (Markdown), and the pipeline; None elsewhere,
    and in a script changed since the trace."""
    traced = trace.script(path, source)
    unit = traced.unit_at(offset) if traced is not None else None
    if unit is None:
        return None
    when = f" ({trace.started})" if trace.started else ""
    lines = [f"**pipelint trace**{when}: {describe(unit)}", ""]
    if len(unit.stages) > 1:
        lines += ["| stage | CPU | read | written |", "|---|---|---|---|"]
        lines += [f"| `{name}` | {seconds(cpu)} | {size(read)} | {size(written)} |" for name, cpu, read, written in unit.stages]
    return unit, "\n".join(lines).rstrip() + "\n"
