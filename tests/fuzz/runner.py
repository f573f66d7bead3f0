"""Run the fuzzer: generate, check and (for new failures) shrink and save, in worker processes.

Scripts are numbered; script i of seed s is always the same, so a run is
reproducible given its seed and count (a timed run stops at whatever index
the clock allows). Each check runs in its own temporary folder.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import regressions
from .check import Failure, Verdict, check
from .grammar import generate
from .shrink import shrink

_worker_root: Path | None = None


def _start_worker(root: Path) -> None:
    """Each worker process checks its scripts in its own folder under the run's root."""
    global _worker_root
    _worker_root = root / str(os.getpid())
    _worker_root.mkdir()


def _check_one(job: tuple[int, int, bool]) -> tuple[int, Verdict]:
    seed, index, timing = job
    case = generate(seed, index, timing)
    assert _worker_root is not None
    workdir = _worker_root / f"case-{index}"
    try:
        return index, check(case.source, case.path, workdir, case.body_bytes)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _shrink_one(failure: Failure) -> Failure:
    assert _worker_root is not None
    workdir = _worker_root / "shrink"
    try:
        return shrink(failure, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@dataclass
class Distinct:
    """One distinct failure: how often it was seen, and its reproducer."""

    signature: str
    first: Failure
    first_index: int
    count: int = 0
    new: bool = False
    reproducer: str = ""  # file name in tests/fuzz/regressions/


@dataclass
class Report:
    seed: int
    tried: int = 0
    invalid: int = 0
    fixed: int = 0
    flaky: int = 0
    seconds: float = 0.0
    failures: list[tuple[int, Failure]] = field(default_factory=list)
    distinct: dict[str, Distinct] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.tried / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        lines = [
            f"seed {self.seed}: {self.tried} scripts in {self.seconds:.0f} s ({self.rate:.1f} scripts/s); "
            f"{self.invalid} did not parse, {self.fixed} got a safe fix, {self.flaky} flaky comparisons skipped",
            f"failures: {len(self.failures)} scripts, {len(self.distinct)} distinct "
            f"({sum(d.new for d in self.distinct.values())} new, {sum(not d.new for d in self.distinct.values())} known)",
        ]
        for entry in sorted(self.distinct.values(), key=lambda d: (d.first.issue_class, d.signature)):
            state = "new" if entry.new else "known"
            lines.append(f"  {entry.first.describe():70} ×{entry.count:<5} {state:5} {entry.reproducer}")
        by_class = Counter(d.first.issue_class for d in self.distinct.values())
        lines.append("classes reproduced: " + (", ".join(str(c) for c in sorted(by_class)) or "none"))
        return "\n".join(lines)


class Run:
    def __init__(self, seed: int, jobs: int, timing: bool, save: bool, say: Callable[[str], None]):
        self.report = Report(seed)
        self.jobs = jobs
        self.timing = timing
        self.save = save
        self.say = say
        self.known = {r.signature: r.file.name for r in regressions.load()}
        self.pending: list = []  # (async shrink result, Distinct)

    def record(self, index: int, verdict: Verdict) -> Failure | None:
        report = self.report
        report.tried += 1
        report.invalid += not verdict.valid
        report.fixed += verdict.fixed
        report.flaky += verdict.flaky
        failure = verdict.failure
        if failure is None:
            return None
        report.failures.append((index, failure))
        entry = report.distinct.get(failure.signature)
        if entry is None:
            entry = report.distinct[failure.signature] = Distinct(failure.signature, failure, index)
            entry.reproducer = self.known.get(failure.signature, "")
            entry.new = not entry.reproducer
            self.say(f"script {index}: {failure.describe()}{' (new)' if entry.new else ''}")
            entry.count += 1
            return failure if entry.new and self.save else None
        entry.count += 1
        return None

    def finish_shrinks(self, wait: bool) -> None:
        still = []
        for result, entry in self.pending:
            if not wait and not result.ready():
                still.append((result, entry))
                continue
            self.store(result.get(), entry)
        self.pending = still

    def store(self, small: Failure, entry: Distinct) -> None:
        """Save a shrunk failure, unless it turned out to be one already saved."""
        if small.signature in self.known:
            entry.new, entry.reproducer = False, self.known[small.signature]
            return
        found_by = f"python -m tests.fuzz --seed {self.report.seed} (script {entry.first_index})"
        path = regressions.save(small, found_by)
        self.known[small.signature] = entry.reproducer = path.name
        self.say(f"saved {path.name}: {small.describe()}")


def run(
    seed: int,
    *,
    seconds: float | None = None,
    count: int | None = None,
    jobs: int = 1,
    timing: bool = True,
    save: bool = False,
    say: Callable[[str], None] = print,
) -> Report:
    """Check scripts 0, 1, 2, … of seed until `count` are done or `seconds` have passed.

    save: shrink each failure whose signature has no reproducer yet and save it.
    """
    state = Run(seed, jobs, timing, save, say)
    started = time.monotonic()
    batch = max(jobs * 4, 4)
    index = 0
    root = Path(tempfile.mkdtemp(prefix="pipelint-fuzz-"))
    try:
        with _workers(jobs, root) as pool:
            while (count is None or index < count) and (seconds is None or time.monotonic() - started < seconds):
                end = index + batch if count is None else min(index + batch, count)
                for number, verdict in pool.imap_unordered(_check_one, [(seed, i, timing) for i in range(index, end)]):
                    new = state.record(number, verdict)
                    if new is not None:
                        state.pending.append((pool.apply_async(_shrink_one, (new,)), state.report.distinct[new.signature]))
                index = end
                state.finish_shrinks(wait=False)
            state.finish_shrinks(wait=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    state.report.seconds = time.monotonic() - started
    return state.report


class _Done:
    """The result of a call made at once, shaped like multiprocessing's AsyncResult."""

    def __init__(self, value):
        self.value = value

    def ready(self) -> bool:
        return True

    def get(self):
        return self.value


class _InProcess:
    """One job at a time in this process: what the test suite uses (no fork of pytest)."""

    def imap_unordered(self, function, jobs):
        return map(function, jobs)

    def apply_async(self, function, arguments):
        return _Done(function(*arguments))


@contextlib.contextmanager
def _workers(jobs: int, root: Path):
    if jobs <= 1:
        _start_worker(root)
        yield _InProcess()
        return
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_start_worker, initargs=(root,)) as pool:
        yield pool
