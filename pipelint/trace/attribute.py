"""Which command of which script started each process.

A process belongs to the script whose shell forked it: the shell process
that exec'd `bash FILE` / `sh FILE` / a `#!` script, or a subshell of it
(a fork that did not exec: a pipeline stage, `( … )`, `$( … )`, `… &`).
Within that script it is matched to a command by its argv
(`scripts.matches`) and, where bash told the line it was running at the
fork (`Process.fork_line`), among the commands on that line only: exact
for functions, loops, `$(…)` and background jobs. Without the line
(dash), commands with the same words are told apart by the pipes around
the process (a pipeline's first stage has no pipe on its stdin) and then
by order: the one the shell reaches first from the last command it ran
(`Script.distances`: through loops and function calls).

A process started by a program that is not a script's shell (xargs' and
find's children, what `sudo` or `sh -c '…'` runs) belongs with that
program: its cost is its command's. A subshell that execs nothing (`…
| while read l; do …; done`) is the stage its pipes connect it to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipelint.shell import syntax
from pipelint.shell.dialect import SHELLS
from pipelint.shell.options import read_shell_command_line
from pipelint.trace.record import Exec, Process, Record
from pipelint.trace.scripts import Script, Stage, StaticCommand, matches


@dataclass(frozen=True)
class Home:
    """Where a process's cost goes: a stage of a unit of a script."""

    stage: Stage
    direct: bool  # the stage's own process, not one it started (xargs' children)


@dataclass(frozen=True)
class ShellRun:
    """What a shell image runs: a script file, or text (`-c`, stdin) whose commands pipelint does not map."""

    script: Script | None


@dataclass
class Attribution:
    homes: dict[Process, Home] = field(default_factory=dict)
    # Processes that are a script's shell or a subshell of it with no stage of their own: the shell's own work.
    shells: dict[Process, Script] = field(default_factory=dict)
    scripts: list[Script] = field(default_factory=list)  # in the order they first ran

    def home(self, process: Process) -> Home | None:
        return self.homes.get(process)


def shell_name(image: Exec) -> str | None:
    """The shell an exec started (by the executable's name; busybox by its applet), or None."""
    name = (syntax.basename(image.exe) or b"").decode("utf-8", "replace")
    if name == "busybox" and image.argv:
        name = (syntax.basename(image.argv[0]) or b"").decode("utf-8", "replace")
    known = SHELLS.get(name)
    return name if known is not None and known.dialect is not None and known.program else None


def script_path(image: Exec) -> Path | None:
    """The script file a shell exec runs (`bash -e deploy.sh`, a `#!/bin/sh` file), or None (-c, stdin)."""
    line = read_shell_command_line(image.argv[1:])
    if line.script_file is None:
        return None
    raw = image.argv[1 + line.script_file]
    path = Path(raw.decode("utf-8", "surrogateescape"))
    if not path.is_absolute():
        path = Path(image.cwd.decode("utf-8", "surrogateescape")) / path
    return path


def attribute(record: Record, load: Callable[[Path], Script | None]) -> Attribution:
    """Every process's home; load reads a script (None when it cannot: not a file, not shell)."""
    found = Attribution()
    runs: dict[int, ShellRun | None] = {}  # id of an Exec → what it runs, for shell execs

    def run_of(image: Exec | None) -> ShellRun | None:
        if image is None:
            return None
        key = id(image)
        if key not in runs:
            runs[key] = None
            if shell_name(image) is not None:
                path = script_path(image)
                script = load(path) if path is not None else None
                if script is not None and script not in found.scripts:
                    found.scripts.append(script)
                runs[key] = ShellRun(script)
        return runs[key]

    cursors: dict[Process, StaticCommand | None] = {}  # per shell process: the last command it was seen to run
    subshells: list[tuple[Process, Script]] = []
    for process in record.processes:
        parent = process.parent
        own_run = run_of(process.first_exec)
        creator = run_of(parent.image_at(process.forked_at)) if parent is not None else None
        if creator is not None and creator.script is not None:
            script = creator.script
            cursors[process] = cursors.get(parent)  # a subshell goes on from where its shell was
            image = process.first_exec
            if image is None:
                subshells.append((process, script))
                continue
            command = _match(script, process, image, cursors[process])
            if command is not None and command.stage is not None:
                cursors[parent] = command
                found.homes[process] = Home(command.stage, direct=True)
                continue  # a nested script's shell too: its own work is its command's
            # No command of the script has its words (a sourced file's, an alias's): outside any script line.
        if own_run is not None and own_run.script is not None:
            found.shells[process] = own_run.script  # the traced script's shell, or an unmatched nested one
    for process, script in subshells:
        stage = _stage_by_pipes(process, found) or _stage_by_line(process, script)
        if stage is not None:
            found.homes[process] = Home(stage, direct=True)
        else:
            found.shells[process] = script
    for process in record.processes:  # parents before children: what a program starts goes with it
        if process in found.homes or process in found.shells or process.parent is None:
            continue
        parent_home = found.homes.get(process.parent)
        if parent_home is not None:
            found.homes[process] = Home(parent_home.stage, direct=False)
    return found


def _argv_forms(image: Exec) -> list[tuple[bytes, ...]]:
    """argv as exec'd, and as the script wrote it when the kernel ran a `#!` interpreter:
    `./inner.sh a` arrives as `/bin/bash ./inner.sh a` (`/usr/bin/env python3 ./x.py a`)."""
    argv = image.argv
    forms = [argv]
    for skip in range(1, min(4, len(argv))):
        forms.append(argv[skip:])
    return forms


def _match(script: Script, process: Process, image: Exec, cursor: StaticCommand | None) -> StaticCommand | None:
    candidates = [c for c in script.commands if any(matches(c.words, argv) for argv in _argv_forms(image))]
    if not candidates:
        return None
    line = process.fork_line
    if line is not None:
        on_line = [c for c in candidates if c.line <= line <= c.end_line]
        if on_line:
            candidates = on_line
    if len(candidates) > 1:
        piped_in, piped_out = _pipes(process)
        fitting = [c for c in candidates if _fits(c, piped_in, piped_out)]
        candidates = fitting or candidates
    if len(candidates) > 1:  # the one the shell reaches first from the last command it ran
        distances = script.distances(cursor)
        return min(candidates, key=lambda c: (distances.get(c, len(script.commands) + 1), c.start))
    return candidates[0]


def _fits(command: StaticCommand, piped_in: bool, piped_out: bool) -> bool:
    stage = command.stage
    if stage is None:
        return not piped_in and not piped_out
    return (stage.index > 0) == piped_in and (stage.index < len(stage.unit.stages) - 1) == piped_out


def _is_pipe(fd: bytes) -> bool:
    return fd.startswith(b"pipe:")


def _pipes(process: Process) -> tuple[bool, bool]:
    """Whether the process's stdin comes from, and its stdout goes to, a sibling by a pipe (a pipeline's stages
    are siblings: the shell forks each)."""
    stdin, stdout = process.fds
    siblings = process.parent.children if process.parent is not None else []
    piped_in = _is_pipe(stdin) and any(s is not process and s.fds[1] == stdin for s in siblings)
    piped_out = _is_pipe(stdout) and any(s is not process and s.fds[0] == stdout for s in siblings)
    return piped_in, piped_out


def _stage_by_pipes(process: Process, found: Attribution) -> Stage | None:
    """The stage of a subshell by the stage a pipe connects it to: it writes into stage k, or reads from it."""
    stdin, stdout = process.fds
    siblings = process.parent.children if process.parent is not None else []
    for sibling in siblings:
        home = found.homes.get(sibling)
        if sibling is process or home is None:
            continue
        stages = home.stage.unit.stages
        index = home.stage.index
        if _is_pipe(stdout) and sibling.fds[0] == stdout and index > 0:
            return stages[index - 1]
        if _is_pipe(stdin) and sibling.fds[1] == stdin and index + 1 < len(stages):
            return stages[index + 1]
    return None


def _stage_by_line(process: Process, script: Script) -> Stage | None:
    """A subshell bash forked at a line with no pipe to tell its stage: the first stage of the pipeline there;
    or, for a fork let go before it ran anything (the script ended between a job's fork and its exec:
    `sleep 1000 &`), the one command there."""
    line = process.fork_line
    if line is None:
        return None
    on_line = [unit for unit in script.units if unit.line == line and unit.stages]
    for unit in on_line:
        if unit.is_pipeline:
            return unit.stages[0]
    if not process.finished and not process.children and len(on_line) == 1:
        return on_line[0].stages[0]
    return None
