"""This checkout's language server against another checkout's, side by side in one run.

    python tests/benchmarks/bench_lsp_versus.py --against /path/to/other/checkout
                                                [--lines 5000] [--runs 8] [--burst 10] [--gap 50]
                                                [--edit function|end]

Both servers (process workers) hold the same 5,000-line script; the
measurements alternate between them, so load on the machine falls on both:
  didChange → first diagnostics  one new version sent → its first publishDiagnostics
                                 (provisional ones, where the server sends them)
  didChange → exact diagnostics  → the exact lint of that version done: its
                                 diagnostics published, or found the same as the
                                 provisional ones (the server's $/logTrace says
                                 which); a server without provisional diagnostics:
                                 its first diagnostics
  burst: last → …                --burst keystrokes --gap ms apart → the last one's
                                 first and exact diagnostics; and how many versions
                                 were published
  provisional                    how many changes got provisional diagnostics
--edit: where each change types: `function` (default), a character more in a
word of a pipeline inside a function body in the middle of the script (what
a person typing does); `end`, a `#` more at the end of the last line, a
comment (the edit of the benchmarks before provisional diagnostics).
Ratios are this checkout's median over the other's.  The other checkout needs
only its own `pipelint` package and tests/lsp; `git worktree add` or
`git archive REV | tar -x -C DIR` makes one of any revision.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from large_script import large_script  # noqa: E402
from lsp_client import (  # noqa: E402
    REPOSITORY,
    change_document,
    exact_diagnostics,
    file_uri,
    lsp_server,
    open_document,
    published,
    trace_verbosely,
)

PAUSE = 0.3  # between measurements: the server's work after a publication (parse ahead) is not measured


class Typist:
    """The texts of successive changes: one character more each time, where --edit says."""

    def __init__(self, text: str, where: str) -> None:
        self.text = text
        if where == "end":
            self.at = len(text)  # a line of `#` after the last one: a comment
            self.typed = "#"
        else:
            self.at = text.index("healthcheck", len(text) // 2) + len("healthcheck")
            self.typed = "x"

    def version(self, count: int) -> str:
        return self.text[: self.at] + self.typed * count + self.text[self.at :]


class Server:
    """One server under test, and whether it says when its exact lint is done ($/logTrace)."""

    def __init__(self, client, uri: str) -> None:
        self.client, self.uri = client, uri
        self.traces = False
        self.provisional = 0

    async def change(self, text: str, version: int) -> tuple[float, float]:
        """didChange → (first diagnostics, exact diagnostics) of that version, in seconds."""
        client = self.client
        mark, marked = len(client.published), len(client.traces)
        sent = time.perf_counter()
        change_document(client, self.uri, text, version)
        first = (await published(client, self.uri, version=version, after=mark, timeout=120)).at - sent
        if not self.traces:
            return first, first
        exact = (await exact_diagnostics(client, self.uri, version, after=marked, timeout=120)).at - sent
        self.count_provisional(marked, version)
        return first, exact

    def count_provisional(self, marked: int, version: int) -> None:
        text = f"provisional diagnostics of {self.uri} version {version}: published"
        self.provisional += any(text in trace.message for trace in self.client.traces[marked:])

    async def burst(self, typist: Typist, first_count: int, first_version: int, keystrokes: int, gap: float):
        """Keystrokes gap apart: from the last one to its first and exact diagnostics, and the versions published."""
        client = self.client
        mark, marked = len(client.published), len(client.traces)
        for keystroke in range(keystrokes):
            if keystroke:
                await asyncio.sleep(gap)
            sent = time.perf_counter()
            change_document(client, self.uri, typist.version(first_count + keystroke), first_version + keystroke)
        last = first_version + keystrokes - 1
        first = (await published(client, self.uri, version=last, after=mark, timeout=120)).at - sent
        exact = first
        if self.traces:
            exact = (await exact_diagnostics(client, self.uri, last, after=marked, timeout=120)).at - sent
        versions = {p.params.version for p in client.published[mark:] if p.params.uri == self.uri}
        return first, exact, len(versions)


def row(label: str, this: list[float], other: list[float], note: str = "") -> None:
    mine, theirs = statistics.median(this) * 1000, statistics.median(other) * 1000
    print(f"  {label:<32} this {mine:7.0f} ms (fastest {min(this) * 1000:5.0f})   other {theirs:7.0f} ms "
          f"(fastest {min(other) * 1000:5.0f})   ratio {mine / theirs:4.2f}   {note}")


async def main(options: argparse.Namespace, folder: Path) -> None:
    text = large_script(options.lines)
    typist = Typist(text, options.edit)
    checkouts = {"this": REPOSITORY, "other": options.against.resolve()}
    async with contextlib.AsyncExitStack() as stack:
        servers: dict[str, Server] = {}
        for name, checkout in checkouts.items():
            env = {"PIPELINT_LSP_LINT_IN": "process", "PYTHONPATH": str(checkout)}
            client = await stack.enter_async_context(lsp_server(folder, env=env))
            trace_verbosely(client)
            servers[name] = Server(client, file_uri(folder / f"{name}.sh"))
            open_document(client, servers[name].uri, text)
        for server in servers.values():
            await published(server.client, server.uri, version=1, timeout=120)
            await asyncio.sleep(1)  # a server that traces has said so by now (its exact lint of version 1)
            server.traces = any("exact diagnostics of" in t.message for t in server.client.traces)
        firsts = {name: [] for name in checkouts}
        exacts = {name: [] for name in checkouts}
        version = 1
        for run in range(options.runs):
            version += 1
            for name, server in servers.items():
                first, exact = await server.change(typist.version(run + 1), version)
                firsts[name].append(first)
                exacts[name].append(exact)
                await asyncio.sleep(PAUSE)
        burst_firsts = {name: [] for name in checkouts}
        burst_exacts = {name: [] for name in checkouts}
        counts = {name: [] for name in checkouts}
        typed = options.runs + 1
        for run in range(max(1, options.runs // 2) if options.burst else 0):
            version += options.burst
            for name, server in servers.items():
                first, exact, count = await server.burst(typist, typed, version, options.burst, options.gap / 1000)
                burst_firsts[name].append(first)
                burst_exacts[name].append(exact)
                counts[name].append(count)
                await asyncio.sleep(PAUSE)
            typed += options.burst
    print(f"this: {checkouts['this']}   other: {checkouts['other']}   edit: {options.edit}")
    row("didChange → first diagnostics", firsts["this"], firsts["other"])
    row("didChange → exact diagnostics", exacts["this"], exacts["other"])
    if options.burst:
        note = f"{options.burst} keystrokes {options.gap:.0f} ms apart; versions published: this {counts['this']}, other {counts['other']}"
        row("burst: last → first diagnostics", burst_firsts["this"], burst_firsts["other"], note)
        row("burst: last → exact diagnostics", burst_exacts["this"], burst_exacts["other"])
    for name, server in servers.items():
        if server.traces:
            print(f"  {name}: provisional diagnostics for {server.provisional} of {options.runs} changes")


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", type=Path, required=True, help="the other checkout")
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--burst", type=int, default=10, help="keystrokes per burst (0: none)")
    parser.add_argument("--gap", type=float, default=50, help="ms between a burst's keystrokes")
    parser.add_argument("--edit", choices=("function", "end"), default="function", help="where the changes type")
    options = parser.parse_args()
    print("load average:", Path("/proc/loadavg").read_text().split()[:3])
    with tempfile.TemporaryDirectory() as scratch:
        asyncio.run(main(options, Path(scratch)))
    print("load average:", Path("/proc/loadavg").read_text().split()[:3])


if __name__ == "__main__":
    run()
