"""This checkout's language server against another checkout's, side by side in one run.

    python tests/benchmarks/bench_lsp_versus.py --against /path/to/other/checkout
                                                [--lines 5000] [--runs 8] [--burst 10] [--gap 50]

Both servers (process workers) hold the same 5,000-line script; the
measurements alternate between them, so load on the machine falls on both:
  didChange → diagnostics    one new version sent → its publishDiagnostics
  burst: last → diagnostics  --burst keystrokes --gap ms apart → the last one's
                             diagnostics; and how many versions were published
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

from bench_lsp import typing_burst  # noqa: E402
from large_script import large_script  # noqa: E402
from lsp_client import REPOSITORY, change_document, file_uri, lsp_server, open_document, published  # noqa: E402

PAUSE = 0.3  # between measurements: the server's work after a publication (parse ahead) is not measured


async def one_change(client, uri: str, text: str, version: int) -> float:
    sent = time.perf_counter()
    change_document(client, uri, text, version)
    return (await published(client, uri, version=version, timeout=120)).at - sent


def row(label: str, this: list[float], other: list[float], note: str = "") -> None:
    mine, theirs = statistics.median(this) * 1000, statistics.median(other) * 1000
    print(f"  {label:<26} this {mine:7.0f} ms (fastest {min(this) * 1000:5.0f})   other {theirs:7.0f} ms "
          f"(fastest {min(other) * 1000:5.0f})   ratio {mine / theirs:4.2f}   {note}")


async def main(options: argparse.Namespace, folder: Path) -> None:
    text = large_script(options.lines)
    checkouts = {"this": REPOSITORY, "other": options.against.resolve()}
    async with contextlib.AsyncExitStack() as stack:
        clients, uris = {}, {}
        for name, checkout in checkouts.items():
            env = {"PIPELINT_LSP_LINT_IN": "process", "PYTHONPATH": str(checkout)}
            clients[name] = await stack.enter_async_context(lsp_server(folder, env=env))
            uris[name] = file_uri(folder / f"{name}.sh")
            open_document(clients[name], uris[name], text)
        for name in checkouts:
            await published(clients[name], uris[name], version=1, timeout=120)
        changes = {name: [] for name in checkouts}
        bursts = {name: [] for name in checkouts}
        counts = {name: [] for name in checkouts}
        version = 1
        for run in range(options.runs):
            version += 1
            for name in checkouts:
                changes[name].append(await one_change(clients[name], uris[name], text + "#" * run, version))
                await asyncio.sleep(PAUSE)
        for run in range(max(1, options.runs // 2) if options.burst else 0):
            version += options.burst
            for name in checkouts:
                latency, count = await typing_burst(clients[name], uris[name], text + "x" * run, version, options.burst, options.gap / 1000)
                bursts[name].append(latency)
                counts[name].append(count)
                await asyncio.sleep(PAUSE)
    print(f"this: {checkouts['this']}   other: {checkouts['other']}")
    row("didChange → diagnostics", changes["this"], changes["other"])
    if options.burst:
        note = f"{options.burst} keystrokes {options.gap:.0f} ms apart; versions published: this {counts['this']}, other {counts['other']}"
        row("burst: last → diagnostics", bursts["this"], bursts["other"], note)


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", type=Path, required=True, help="the other checkout")
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--burst", type=int, default=10, help="keystrokes per burst (0: none)")
    parser.add_argument("--gap", type=float, default=50, help="ms between a burst's keystrokes")
    options = parser.parse_args()
    print("load average:", Path("/proc/loadavg").read_text().split()[:3])
    with tempfile.TemporaryDirectory() as scratch:
        asyncio.run(main(options, Path(scratch)))
    print("load average:", Path("/proc/loadavg").read_text().split()[:3])


if __name__ == "__main__":
    run()
