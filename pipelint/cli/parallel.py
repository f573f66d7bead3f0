"""Jobs run on every core, their results taken back in the order they were given.

`pipelint check` lints a folder's files in a pool of worker processes
(`--jobs N`, default the CPUs this process may use), or in its own process
with `--jobs 1`. The caller submits jobs in path order and takes the results
in that same order, so the output does not depend on which worker finished
first: it is byte-identical to `--jobs 1`.

Processes, not threads: a lint holds the GIL nearly all the time (Python
rules; tree-sitter 0.26 keeps the GIL while it parses). Workers are forked:
they start with the engine already imported, where a spawned worker pays
~0.3 s of imports. The parent has no other thread when they start (the
progress bar refreshes from the main thread), so fork is safe here.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

# concurrent.futures (with threading and logging) and multiprocessing are imported only
# when a pool starts: `--jobs 1`, one file, and a run answered from the cache never start one.
if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

Job = TypeVar("Job")
Result = TypeVar("Result")
Item = TypeVar("Item")

# Batches in flight per worker: enough to keep each busy while the parent reads
# the next files, few enough that the sources waiting in memory stay bounded.
IN_FLIGHT_PER_WORKER = 4
# A batch is sent once its jobs reach this size (bytes of scripts) or count.
BATCH_SIZE = 256 * 1024
BATCH_COUNT = 64
# The first batches are smaller, each twice the last, so that every worker has files at once: a
# folder of 80 small scripts went out as batches of 64 and 16 files, one worker doing four fifths.
FIRST_BATCH_SIZE = 16 * 1024
FIRST_BATCH_COUNT = 4


def default_jobs() -> int:
    """The CPUs this process may run on (a container's or taskset's limit, not the machine's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _start_worker(warm_up: Callable[[], None] | None) -> None:
    """Ctrl-C is the parent's to handle: a worker stopped mid-job would only print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if warm_up is not None:
        warm_up()


def _nothing() -> None:
    pass


class OrderedPool(Generic[Job, Result]):
    """Runs function over jobs with `jobs` workers; `run` yields results in submission order.

    A worker that dies (the OOM killer, a crash in a native library) takes
    its pool with it: its jobs are run again in this process, and a fresh
    pool takes the jobs after them.

    warm_up: run by each worker as it starts (importing what the jobs need),
    so that `start` has the workers do it while the caller is still finding
    the jobs.
    """

    def __init__(self, function: Callable[[Job], Result], jobs: int, warm_up: Callable[[], None] | None = None):
        self.function = function
        self.jobs = max(1, jobs)
        self.warm_up = warm_up
        self._executor: Executor | None = None

    def stay_here(self) -> None:
        """Run every job in this process after all, unless the workers have started."""
        if self._executor is None:
            self.jobs = 1

    def start(self) -> None:
        """Start the workers now, not at the first job (nothing to start with one job at a time)."""
        if self.jobs > 1:
            self._pool().submit(_nothing)  # forking starts every worker at once, at the first submission

    def _pool(self) -> Executor:
        if self._executor is None:
            import multiprocessing  # ~25 ms of start-up with concurrent.futures.process: only for a pool
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("fork")
            self._executor = ProcessPoolExecutor(
                self.jobs, mp_context=context, initializer=_start_worker, initargs=(self.warm_up,)
            )
        return self._executor

    def run(
        self,
        items: Iterator[Item],
        job_of: Callable[[Item], Job | None],
        size_of: Callable[[Job], int] = lambda job: 1,
    ) -> Iterator[tuple[Item, Result | None]]:
        """(item, result) for each item in order; job_of says what to run for it (None: nothing, result None).

        With workers, consecutive jobs travel together until their sizes
        (size_of: a file's bytes) reach BATCH_SIZE: one round trip to a
        worker per batch, not per file. Handing 1,400 small scripts over one
        by one cost the parent a second of CPU in queue threads and pickling.

        The pool starts at the first job (or at `start`): a run whose results
        all come from the cache never forks.
        """
        inline = self.jobs == 1
        window = 1 if inline else self.jobs * IN_FLIGHT_PER_WORKER
        pending: deque[_Batch] = deque()
        batch = _Batch()
        sent = 0  # batches sent: the limits double with each, up to BATCH_SIZE and BATCH_COUNT
        for item in items:
            job = job_of(item)
            batch.add(item, job, 0 if job is None else size_of(job))
            size_limit, count_limit = min(BATCH_SIZE, FIRST_BATCH_SIZE << sent), min(BATCH_COUNT, FIRST_BATCH_COUNT << sent)
            if inline or batch.size >= size_limit or len(batch.entries) >= count_limit:
                pending.append(self._submit(batch))
                sent = min(sent + 1, 8)  # 16 KiB << 4 is BATCH_SIZE already
                batch = _Batch()
            while len(pending) >= window:
                yield from self._take(pending.popleft())
        if batch.entries:
            pending.append(self._submit(batch))
        while pending:
            yield from self._take(pending.popleft())

    def _submit(self, batch: _Batch) -> _Batch:
        jobs = batch.jobs()
        if not jobs:
            return batch
        if self.jobs == 1:  # here and now, in this process
            batch.outcomes = _run_each(self.function, jobs)
            return batch
        # BrokenExecutor, not BrokenProcessPool: the same class, without importing concurrent.futures.process.
        from concurrent.futures import BrokenExecutor

        try:
            batch.future = self._pool().submit(_run_each, self.function, jobs)
        except BrokenExecutor:
            self._executor = None
            batch.future = self._pool().submit(_run_each, self.function, jobs)
        return batch

    def _take(self, batch: _Batch) -> Iterator[tuple[Item, Result | None]]:
        outcomes: Iterator[_Outcome] = iter(batch.outcomes)
        if batch.future is not None:
            from concurrent.futures import BrokenExecutor

            try:
                outcomes = iter(batch.future.result())
            except BrokenExecutor:
                self._executor = None  # the batches still queued in it fail the same way and come here too
                outcomes = iter(_run_each(self.function, batch.jobs()))
        for item, job in batch.entries:
            if job is None:
                yield item, None
                continue
            result, error = next(outcomes)
            if error is not None:
                raise error
            yield item, result

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> OrderedPool[Job, Result]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


_Outcome = tuple[object, BaseException | None]  # (result, None) or (None, the exception the job raised)


def _run_each(function: Callable[[Job], Result], jobs: list[Job]) -> list[_Outcome]:
    """Each job's outcome: one job's exception reaches the caller at that job, as if it had run alone."""
    outcomes: list[_Outcome] = []
    for job in jobs:
        try:
            outcomes.append((function(job), None))
        except Exception as error:
            outcomes.append((None, error))
    return outcomes


@dataclass
class _Batch:
    """Consecutive items, and the jobs of those that have one, sent to a worker together."""

    entries: list[tuple[object, object]] = field(default_factory=list)  # (item, job or None)
    size: int = 0
    future: Future | None = None  # a worker's
    outcomes: list[_Outcome] = field(default_factory=list)  # without workers, run at once

    def add(self, item: object, job: object, size: int) -> None:
        self.entries.append((item, job))
        self.size += size

    def jobs(self) -> list:
        return [job for _, job in self.entries if job is not None]
