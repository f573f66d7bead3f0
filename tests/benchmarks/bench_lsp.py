"""How long a 5,000-line script takes from didOpen to diagnostics, and where the time goes.

    python tests/benchmarks/bench_lsp.py [--lines 5000] [--runs 15] [--select PL001,PL003]

Prints medians (and the fastest run) of:
  engine      linter.process: parse, walk, rules (what `pipelint check` does per file)
  snapshot    the server's lint step: settings lookup + engine
  diagnostics findings → lsprotocol Diagnostics (LineIndex conversions)
  wire        pygls unstructure + json.dumps of the notification
  end to end  didOpen sent → publishDiagnostics received by a real client over
              stdio (the client's own decoding included), fresh URI each run
--select writes a .pipelint.toml with those rules into the scratch folder, to
see what a subset of rules costs.  Run on an idle machine: the load average
is printed first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from large_script import large_script  # noqa: E402
from lsp_client import SERVER, SERVER_ENV, file_uri, initialize_params, make_client, open_document, published  # noqa: E402
from lsprotocol import types  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402

from pipelint.config import SettingsResolver  # noqa: E402
from pipelint.linter import process  # noqa: E402
from pipelint.lsp.diagnostics import diagnostics  # noqa: E402
from pipelint.lsp.documents import take_snapshot  # noqa: E402
from pipelint.positions import Encoding  # noqa: E402


def timed(function, runs: int) -> tuple[float, float, object]:
    samples = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, min(samples) * 1000, result


def in_process(text: str, folder: Path, runs: int) -> None:
    path = folder / "big.sh"
    source = text.encode()
    settings = SettingsResolver().for_path(path)
    process(source, "big.sh", settings, path)  # warm: queries compiled, caches filled
    rows = []
    rows.append(("engine", *timed(lambda: process(source, "big.sh", settings, path), runs)[:2]))
    uri = file_uri(path)
    median, best, snapshot = timed(lambda: take_snapshot(uri, 1, text, "shellscript", folder), runs)
    rows.append(("snapshot", median, best))
    median, best, found = timed(lambda: diagnostics(snapshot, Encoding.UTF16), runs)
    rows.append(("diagnostics", median, best))
    converter = default_converter()
    message = types.PublishDiagnosticsNotification(
        params=types.PublishDiagnosticsParams(uri=uri, version=1, diagnostics=found)
    )
    rows.append(("wire", *timed(lambda: json.dumps(converter.unstructure(message)), runs)[:2]))
    print(f"{len(snapshot.findings)} findings")
    for label, median, best in rows:
        print(f"{label:<12} median {median:7.1f} ms   fastest {best:7.1f} ms")


async def end_to_end(text: str, folder: Path, runs: int) -> None:
    client = make_client()
    await client.start_io(*SERVER, env=SERVER_ENV)
    await client.initialize_session(initialize_params(folder, types.ClientCapabilities()))
    samples = []
    for run in range(runs + 1):
        uri = file_uri(folder / f"big{run}.sh")
        sent = time.perf_counter()
        open_document(client, uri, text)
        arrived = await published(client, uri, version=1, timeout=60)
        if run:  # the first open pays for warming up the server
            samples.append(arrived.at - sent)
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await client.shutdown_session()
    await client.stop()
    print(
        f"{'end to end':<12} median {statistics.median(samples) * 1000:7.1f} ms   fastest {min(samples) * 1000:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--select", default=None, help="comma-separated rule codes (default: the default rules)")
    options = parser.parse_args()
    print("load average:", Path("/proc/loadavg").read_text().split()[:3])
    text = large_script(options.lines)
    with tempfile.TemporaryDirectory() as folder:
        if options.select:
            codes = [code.strip() for code in options.select.split(",") if code.strip()]
            (Path(folder) / ".pipelint.toml").write_text(f"select = {codes!r}\n".replace("'", '"'))
        print(f"{options.lines} lines, {len(text.encode())} bytes")
        in_process(text, Path(folder), options.runs)
        asyncio.run(end_to_end(text, Path(folder), options.runs))


if __name__ == "__main__":
    main()
