"""Where lints run: off the event loop, so that no request waits for one.

Three places, chosen with the environment variable PIPELINT_LSP_LINT_IN:

- "process" (the default): a pool of two worker processes.  A lint holds the
  GIL nearly all the time — the rule walk is Python, and tree-sitter 0.26
  keeps the GIL while it parses (a spinning thread got 1/70 of its idle
  count during a parse) — so in a thread it slows every request the loop
  answers meanwhile; a process leaves the loop's core alone, at the price of
  pickling the findings back.
  `python tests/benchmarks/bench_lsp.py` measures all three side by side.
- "thread": a pool of two threads in the server process.
- "loop": on the event loop itself, as the server did before; kept to
  measure against.

Two workers, not one: a fix-all or a second document is not queued behind a
long lint.  A worker process that dies (a crash in a native library, the OOM
killer) breaks the pool: a fresh one replaces it and the jobs it held are
tried once more there; a job that kills its worker twice fails.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TypeVar

from pipelint.engine.inline import InlineExecutor

LINT_IN_VARIABLE = "PIPELINT_LSP_LINT_IN"
PLACES = ("process", "thread", "loop")
DEFAULT_PLACE = "process"
WORKERS = 2

Job = TypeVar("Job")
Result = TypeVar("Result")


def _warm_up() -> None:
    """Import the engine and compile its queries before the first real job."""
    from pipelint.lsp.documents import LintJob, lint_document

    lint_document(LintJob("untitled:warm-up", b"cat f | grep x\n", "shellscript", Path.cwd()))


def place_from_environment() -> str:
    place = os.environ.get(LINT_IN_VARIABLE, DEFAULT_PLACE).strip().lower()
    if place not in PLACES:
        raise ValueError(f"{LINT_IN_VARIABLE}={place!r}: expected one of {', '.join(PLACES)}")
    return place


class Worker:
    """Runs jobs (module-level functions of plain data) in the chosen place."""

    def __init__(self, place: str = DEFAULT_PLACE):
        if place not in PLACES:
            raise ValueError(f"unknown place to lint in: {place!r}")
        self.place = place
        self.executor = self._new_executor()

    def _new_executor(self) -> Executor:
        if self.place == "process":
            # spawn, not fork: the server has threads (the stdin reader), and a
            # forked child would inherit their locks in whatever state they were.
            context = multiprocessing.get_context("spawn")
            return ProcessPoolExecutor(WORKERS, mp_context=context, initializer=_warm_up)
        if self.place == "thread":
            return ThreadPoolExecutor(WORKERS, thread_name_prefix="pipelint-lint")
        return InlineExecutor()

    def start(self) -> None:
        """Start the workers now, so the first lint does not pay for their imports (~0.5 s)."""
        if self.place == "process":
            for _ in range(WORKERS):
                self.executor.submit(int)

    async def run(self, function: Callable[[Job], Result], job: Job) -> Result:
        """The job's result; a job whose worker died is tried once more in a fresh pool."""
        try:
            return await self._run_once(function, job)
        except BrokenProcessPool:
            return await self._run_once(function, job)

    async def _run_once(self, function: Callable[[Job], Result], job: Job) -> Result:
        executor = self.executor
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, function, job)
        except BrokenProcessPool:
            if self.executor is executor:  # the first job to see it replaces the pool
                self.executor = self._new_executor()
                self.start()
            raise

    def stop(self) -> None:
        """Stop at once: a lint still running is of no use to anyone."""
        executor = self.executor
        # ProcessPoolExecutor has no public way to end a running job before
        # Python 3.14 (terminate_workers); without this, exit waits for it.
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
