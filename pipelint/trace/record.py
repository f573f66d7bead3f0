"""The tracer's record read back: every process a run started, with what it cost itself.

`pipelint-tracer` (runtime/tracer.c, whose header documents the format)
writes one line per event. This module turns them into `Process`es, each
with its parent, its execs, its timestamps and its own cost: the CPU time
and bytes the kernel counted for it, minus what it inherited from the
children it reaped (the kernel adds a reaped child's rusage and I/O counts
to its parent's, so a shell's raw numbers hold its whole subtree).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

FORMAT_VERSION = b"1"
_ESCAPE = re.compile(rb"\\x([0-9a-f]{2})?")


def unescape(field_bytes: bytes) -> bytes:
    """A record field's bytes (`\\xHH` escapes; `\\x` alone is the empty field)."""
    if b"\\" not in field_bytes:
        return field_bytes
    return _ESCAPE.sub(lambda match: bytes.fromhex(match.group(1).decode()) if match.group(1) else b"", field_bytes)


@dataclass
class Exec:
    """One successful execve of a process."""

    at: float  # seconds since the run started
    argv: tuple[bytes, ...]
    exe: bytes  # the executable's path (`/usr/bin/bash` for a `#!/bin/bash` script)
    cwd: bytes
    stdin: bytes  # what fd 0 and fd 1 were (`pipe:[123]`, a path, `-` if closed)
    stdout: bytes
    argv_cut: bool = False  # the tracer kept the first 256 KiB of argv only


@dataclass(frozen=True)
class Cost:
    """What a process (or a group of them) cost: CPU seconds and bytes read and written."""

    user_s: float = 0.0
    sys_s: float = 0.0
    read: int = 0
    written: int = 0

    @property
    def cpu_s(self) -> float:
        return self.user_s + self.sys_s

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.user_s + other.user_s, self.sys_s + other.sys_s, self.read + other.read, self.written + other.written)

    def __sub__(self, other: Cost) -> Cost:
        """Never below zero: the kernel's counters are read a few microseconds apart."""
        return Cost(
            max(0.0, self.user_s - other.user_s),
            max(0.0, self.sys_s - other.sys_s),
            max(0, self.read - other.read),
            max(0, self.written - other.written),
        )


@dataclass(eq=False)
class Process:
    pid: int
    parent: Process | None
    forked_at: float
    fork_line: int | None = None  # the parent bash's line_number at the fork (None: not a bash, or unknown)
    execs: list[Exec] = field(default_factory=list)
    children: list[Process] = field(default_factory=list)
    exited_at: float | None = None  # its exit stop
    died_at: float | None = None
    wait_status: int | None = None
    # What the kernel counted for it and the children it reaped.
    total_io: tuple[int, int] | None = None  # rchar, wchar at its exit stop
    total_cpu: tuple[float, float] | None = None  # user, system seconds from wait4
    exit_stdin: bytes = b"-"  # fds 0 and 1 at its exit stop: a subshell's pipes
    exit_stdout: bytes = b"-"
    # Why it ran untraced from its last exec on: "setuid" (restarted untraced to keep its privileges), or
    # "setuid-unprivileged" (traced, so without them). None: traced to its end.
    untraced: str | None = None

    @property
    def ended_at(self) -> float | None:
        return self.exited_at if self.exited_at is not None else self.died_at

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    @property
    def first_exec(self) -> Exec | None:
        return self.execs[0] if self.execs else None

    def image_at(self, moment: float) -> Exec | None:
        """The program the process ran at a moment: its last exec before, else its parent's then."""
        for done in reversed(self.execs):
            if done.at <= moment:
                return done
        return self.parent.image_at(self.forked_at) if self.parent is not None else None

    @property
    def fds(self) -> tuple[bytes, bytes]:
        """stdin and stdout as the process ran: at its first exec, else (a subshell) at its exit."""
        first = self.first_exec
        return (first.stdin, first.stdout) if first is not None else (self.exit_stdin, self.exit_stdout)

    @property
    def own_cost(self) -> Cost:
        """Its own CPU and bytes: the kernel's totals for it minus those of the children it reaped."""
        total = self._total_cost
        reaped = Cost()
        for child in self.children:
            if child.died_at is not None and (self.ended_at is None or child.died_at <= self.ended_at):
                reaped = reaped + child._total_cost
        return total - reaped

    @property
    def _total_cost(self) -> Cost:
        user, system = self.total_cpu or (0.0, 0.0)
        read, written = self.total_io or (0, 0)
        return Cost(user, system, read, written)

    @property
    def wall_s(self) -> float | None:
        end = self.ended_at
        return None if end is None else max(0.0, end - self.forked_at)

    def descendants(self) -> Iterable[Process]:
        stack = list(reversed(self.children))
        while stack:
            process = stack.pop()
            yield process
            stack.extend(reversed(process.children))


@dataclass
class Record:
    """A whole run: its processes in the order they started, and how it ended."""

    processes: list[Process] = field(default_factory=list)
    top: Process | None = None
    started_ns: int = 0  # wall-clock start, nanoseconds since the epoch
    ended_at: float | None = None  # the Z line: the command ended
    status: int | None = None  # its exit status, shell-style (128+N after signal N)
    notes: list[str] = field(default_factory=list)  # why it ran untraced, …
    traced: bool = True

    @property
    def wall_s(self) -> float | None:
        top = self.top
        if top is None or top.died_at is None:
            return self.ended_at
        return top.died_at - top.forked_at


def read(lines: Iterable[bytes]) -> Record:
    """Read a record; a record cut short (the tracer was killed) gives what it holds."""
    record = Record()
    live: dict[int, Process] = {}  # pid → its current process (a pid is reused after a death)
    threads: set[int] = set()

    def process_of(pid: int, at: float) -> Process:
        found = live.get(pid)
        if found is None:  # an event of a process whose start was not recorded: keep it anyway
            found = live[pid] = Process(pid, None, at)
            record.processes.append(found)
        return found

    for raw in lines:
        parts = raw.rstrip(b"\n").split(b" ")
        kind = parts[0]
        try:
            if kind == b"V":
                if parts[1] != FORMAT_VERSION:
                    raise ValueError(f"record format {parts[1]!r}, expected {FORMAT_VERSION!r}")
                continue
            if kind == b"B":
                record.started_ns = int(parts[1])
                continue
            at = int(parts[1]) / 1e9
            if kind == b"N":
                record.notes.append(unescape(b" ".join(parts[2:])).decode("utf-8", "replace"))
                if parts[2] == b"ptrace:":
                    record.traced = False
            elif kind == b"S":
                top = live[int(parts[2])] = Process(int(parts[2]), None, at)
                record.processes.append(top)
                record.top = top
            elif kind == b"F":
                parent = process_of(int(parts[2]), at)
                line = int(parts[4])
                child = Process(int(parts[3]), parent, at, line if line > 0 else None)
                live[child.pid] = child
                parent.children.append(child)
                record.processes.append(child)
            elif kind == b"H":
                threads.add(int(parts[3]))
            elif kind == b"E":
                process = process_of(int(parts[2]), at)
                fields = [unescape(part) for part in parts[3:]]
                cut = bool(fields) and fields[-1] == b"+" and parts[-1] == b"+"
                argv = tuple(fields[4:-1] if cut else fields[4:])
                process.execs.append(Exec(at, argv, fields[3], fields[2], fields[0], fields[1], cut))
            elif kind == b"X":
                pid = int(parts[2])
                if pid in threads:
                    continue
                process = process_of(pid, at)
                process.exited_at = at
                read_bytes, written = int(parts[4]), int(parts[5])
                if read_bytes >= 0 and written >= 0:
                    process.total_io = (read_bytes, written)
                process.exit_stdin, process.exit_stdout = unescape(parts[6]), unescape(parts[7])
            elif kind == b"D":
                pid = int(parts[2])
                if pid in threads:
                    threads.discard(pid)
                    continue
                process = process_of(pid, at)
                process.died_at = at
                process.wait_status = int(parts[3])
                process.total_cpu = (int(parts[4]) / 1e6, int(parts[5]) / 1e6)
                del live[pid]
            elif kind == b"U":
                process = process_of(int(parts[2]), at)
                process.untraced = parts[3].decode("ascii", "replace")
                if process.untraced == "setuid":
                    del live[process.pid]  # let go: its pid may come back as another process
            elif kind == b"Z":
                record.ended_at = at
                record.status = int(parts[2])
        except (IndexError, ValueError) as error:
            if isinstance(error, ValueError) and "record format" in str(error):
                raise
            break  # a line cut short: the tracer died while writing it
    return record
