"""An executor that runs each job at once, in the caller's thread: `--jobs 1`, and the language server's fallback."""

from __future__ import annotations

from concurrent.futures import Executor, Future


class InlineExecutor(Executor):
    """Runs each job at once in the caller's thread."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to whoever takes the result, as a pool would
            future.set_exception(error)
        return future
