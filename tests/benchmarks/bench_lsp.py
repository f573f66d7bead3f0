"""The language server on a 5,000-line script: where a lint's time goes, and what it costs requests.

    python tests/benchmarks/bench_lsp.py [--lines 5000] [--runs 15] [--places process,thread,loop]
                                         [--select PL001,PL003] [--profile] [--burst 10] [--gap 50]

Part 1, in this process (medians, and the fastest run):
  parse        tree-sitter alone (syntax.parse)
  incremental  the same after a line added mid-file, from the last version's tree
               (reparse.py: what the worker and the server's hover parse do)
  engine       linter.process: parse + the rules' walk (what `pipelint check` does per file)
  rule walk    engine - parse
  settings     the worker's settings lookup, config files read afresh
  pickle       a LintResult there and back: what the process worker adds before the
               diagnostics go out (the report travels pickled: see "unpack")
  unpack       the report unpickled in the server, after the diagnostics are out
  diagnostics  findings → the diagnostics' JSON, in the worker (LineIndex, LSP line ends);
               "cold": nothing kept from the last lint, "kept": each finding's JSON
               but its range kept from the lint before (a keystroke's case)
  provisional  the provisional lint of a character typed in a pipeline of a function
               body mid-file (lsp/provisional.py), from the exact lint before it:
               checks, the rules on the touched statements, the carried findings;
               "+ JSON" with the diagnostics' JSON; the engine's whole-script steps
               inside it (parse guards, the candidates' query, the variable facts)
  wire         the notification spliced around that JSON, on the server's loop
  (lsprotocol) the same diagnostics as lsprotocol objects + pygls' unstructure and
               json.dumps: what the server did before it wrote JSON itself

Part 2, one real server per place the lint can run (PIPELINT_LSP_LINT_IN),
driven over stdio by a pytest-lsp client, side by side in one run:
  didChange → diagnostics   a new version sent (a character typed in a pipeline of a
                            function body mid-file) → its first publishDiagnostics
                            (provisional ones when the server sends them)
  didChange → exact         → the exact lint of that version done ($/logTrace) received
  burst: last → diagnostics --burst keystrokes --gap ms apart (a typist, where
                            didChange types); from the last one sent to its first
                            diagnostics, and how many versions
                            were published meanwhile (latest wins: no pile-up)
  hover after diagnostics   a hover on a directive just after a lint's diagnostics
                            arrive (the server parses that text meanwhile)
  hover during lint         hovers sent one after another while the lint of a
                            saved version runs (didSave lints at once); "loop" is
                            the server before the worker: a hover waits for the lint

--select writes a .pipelint.toml with those rules into the scratch folder;
--profile prints the engine's 15 most expensive functions (cProfile).
Run on an idle machine: the load average is printed first.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pickle
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from large_script import large_script  # noqa: E402
from lsp_client import (  # noqa: E402
    change_document,
    exact_diagnostics,
    file_uri,
    lsp_server,
    open_document,
    published,
    trace_verbosely,
)
from lsprotocol import types  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402

from pipelint.shell import syntax  # noqa: E402
from pipelint.engine.linter import process  # noqa: E402
from pipelint.engine import candidates
from pipelint.facts import script as facts
from pipelint.shell import parse_guards  # noqa: E402
from pipelint.lsp import diagnostics, provisional  # noqa: E402
from pipelint.lsp.documents import DocumentText, LintJob, Snapshot, lint_document, settings_for  # noqa: E402
from pipelint.lsp.reparse import reparse  # noqa: E402
from pipelint.lsp.worker import LINT_IN_VARIABLE, PLACES  # noqa: E402
from pipelint.shell.positions import Encoding, LineBreaks, LineIndex  # noqa: E402

DIRECTIVE = "# pipelint: disable=PL003"


def typed(text: str, count: int) -> str:
    """text with count characters typed at the end of a word of a pipeline, in a function body mid-file."""
    at = text.index("healthcheck", len(text) // 2) + len("healthcheck")
    return text[:at] + "x" * count + text[at:]


def timed(function, runs: int) -> tuple[list[float], object]:
    samples, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        samples.append(time.perf_counter() - start)
    return samples, result


def row(label: str, samples: list[float], note: str = "") -> None:
    median, best = statistics.median(samples) * 1000, min(samples) * 1000
    print(f"  {label:<26} median {median:8.1f} ms   fastest {best:8.1f} ms   {note}")


def in_process(text: str, folder: Path, runs: int, profile: bool) -> None:
    path = folder / "big.sh"
    source = text.encode()
    settings = settings_for(path, folder).settings
    process(source, "big.sh", settings, path)  # warm: queries compiled, caches filled
    parse, _ = timed(lambda: syntax.parse(source), runs)
    middle = source.index(b"\n", len(source) // 2) + 1
    edited = source[:middle] + b"cat access.log | grep 500\n" + source[middle:]
    old_tree = syntax.parse(source)
    incremental, _ = timed(lambda: reparse(source, old_tree, edited), runs)
    engine, _ = timed(lambda: process(source, "big.sh", settings, path), runs)
    from_last, _ = timed(lambda: process(edited, "big.sh", settings, path, tree=reparse(source, old_tree, edited)), runs)
    lookup, _ = timed(lambda: settings_for(path, folder), runs)
    document = DocumentText(file_uri(path), 1, text, "shellscript")
    result = lint_document(LintJob.of(document, folder))
    round_trip, _ = timed(lambda: pickle.loads(pickle.dumps(result, pickle.HIGHEST_PROTOCOL)), runs)
    snapshot = Snapshot.of(document, result)
    report, kept = result.report, diagnostics._fields_kept

    def convert(keep: bool) -> str:
        if not keep:
            kept.clear()
        return diagnostics.diagnostics_json(report, LineIndex(source, LineBreaks.LSP), Encoding.UTF16)

    cold, _ = timed(lambda: convert(False), runs)
    warm, found = timed(lambda: convert(True), runs)
    wire, _ = timed(lambda: diagnostics.notification_json(document.uri, 1, found), runs)
    typed, _ = timed(lambda: lsprotocol_notification(snapshot), runs)
    walk = [e - statistics.median(parse) for e in engine]
    print(f"in process: {len(snapshot.findings)} findings")
    row("parse", parse)
    row("incremental parse", incremental, "(reparse.py: a line added mid-file, from the last tree)")
    row("engine", engine)
    row("rule walk", walk, "(engine - median parse)")
    row("engine, incremental parse", from_last, "(what the worker does when it linted the last version)")
    row("settings", lookup)
    row("pickle (process worker)", round_trip, f"{len(pickle.dumps(result, pickle.HIGHEST_PROTOCOL)) // 1024} KiB")
    packed = pickle.loads(pickle.dumps(result, pickle.HIGHEST_PROTOCOL)).report
    row("unpack (after publishing)", timed(packed.unpack, runs)[0])
    row("diagnostics, cold", cold)
    row("diagnostics, kept", warm)
    row("wire", wire)
    row("(lsprotocol + unstructure)", typed, "the server's way before it wrote JSON")
    provisional_rows(source, settings, path, runs)
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(process, source, "big.sh", settings, path)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)


class Timed:
    """Wraps a function, adding up the time spent in it."""

    def __init__(self, owner, name: str) -> None:
        self.owner, self.name, self.function, self.spent = owner, name, getattr(owner, name), 0.0

    def __call__(self, *arguments, **keywords):
        started = time.perf_counter()
        try:
            return self.function(*arguments, **keywords)
        finally:
            self.spent += time.perf_counter() - started


def provisional_rows(source: bytes, settings, path: Path, runs: int) -> None:
    tree = syntax.parse(source)
    report, line = provisional.exact_lint(source, "big.sh", settings, path, tree)
    base = provisional.Base(source, report.findings, line, settings)
    edited = typed(source.decode(), 1).encode()
    new_tree = reparse(source, tree, edited)
    index = lambda: LineIndex(edited, LineBreaks.LSP)  # noqa: E731

    def lint():
        return provisional.lint_moved(base, edited, new_tree, settings, path)

    moved = lint()
    alone, _ = timed(lint, runs)
    with_json, _ = timed(lambda: diagnostics.moved_findings_json(lint(), index(), Encoding.UTF16), runs)
    parts = [Timed(parse_guards, "guard"), Timed(candidates, "find"), Timed(facts.VariableFacts, "of")]
    for part in parts:
        setattr(part.owner, part.name, part)
    try:
        timed(lint, runs)
    finally:
        for part in parts:
            setattr(part.owner, part.name, part.function)
    fresh = sum(1 for _, delta in moved if delta == 0)
    row("provisional lint", alone, f"{len(moved)} findings, {len(moved) - fresh} carried after the edit")
    row("provisional + JSON", with_json, "(what the worker does for a provisional job)")
    steps = ", ".join(f"{part.name} {part.spent / runs * 1000:.1f} ms" for part in parts)
    print(f"  {'':26} whole-script steps inside it (mean): guard, candidates, variables: {steps}")
    print(f"  {'':26} baseline for it, made by the exact lint: "
          f"{statistics.median(timed(lambda: provisional.baseline(source, tree, report), runs)[0]) * 1000:.1f} ms")


def lsprotocol_notification(snapshot: Snapshot) -> str:
    converter = default_converter()
    found = [diagnostics.finding_diagnostic(snapshot.index, finding, Encoding.UTF16) for finding in snapshot.findings]
    params = types.PublishDiagnosticsParams(uri=snapshot.uri, version=1, diagnostics=found)
    return json.dumps(converter.unstructure(types.PublishDiagnosticsNotification(params=params)))


def hover_params(uri: str, line: int) -> types.HoverParams:
    return types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, len(DIRECTIVE) - 3))


async def timed_hover(client, uri: str, line: int) -> float:
    sent = time.perf_counter()
    answer = await client.text_document_hover_async(hover_params(uri, line))
    assert answer is not None, "the hover should find the directive"
    return time.perf_counter() - sent


async def one_place(place: str, text: str, folder: Path, runs: int, burst: int, gap: float) -> None:
    text = text + DIRECTIVE + "\n"
    directive_line = text.count("\n") - 1
    async with lsp_server(folder, env={LINT_IN_VARIABLE: place}) as client:
        trace_verbosely(client)
        uri = file_uri(folder / f"bench-{place}.sh")
        open_document(client, uri, text)
        await published(client, uri, version=1, timeout=120)  # warm: the workers import the engine
        changes, exact, idle, busy = [], [], [], []
        for run in range(runs):
            version = 2 * run + 2
            marked = len(client.traces)
            sent = time.perf_counter()
            change_document(client, uri, typed(text, version), version)
            changes.append((await published(client, uri, version=version, timeout=120)).at - sent)
            exact.append((await exact_diagnostics(client, uri, version, after=marked, timeout=120)).at - sent)
            idle.append(await timed_hover(client, uri, directive_line))
            busy.extend(await hovers_during_a_lint(client, uri, typed(text, version + 1), version + 1, directive_line))
        bursts, shown = [], []
        for run in range(max(1, runs // 3) if burst else 0):
            first_version = 1000 * (run + 1)
            latency, count = await typing_burst(client, uri, text, 1000 * (run + 1), first_version, burst, gap)
            bursts.append(latency)
            shown.append(count)
    print(f"{place}:")
    row("didChange → diagnostics", changes, "(the first: provisional ones where given)")
    row("didChange → exact", exact, "(the exact lint of the version done)")
    row("hover after diagnostics", idle)
    ranked = sorted(busy)
    p90, worst = ranked[int(len(ranked) * 0.9)] * 1000, ranked[-1] * 1000
    row("hover during lint", busy, f"p90 {p90:.0f} ms, max {worst:.0f} ms over {len(busy)} hovers")
    if bursts:
        note = f"{burst} keystrokes {gap * 1000:.0f} ms apart; versions published per burst: {sorted(shown)}"
        row("burst: last → diagnostics", bursts, note)


async def typing_burst(
    client, uri: str, text: str, typed_before: int, first_version: int, keystrokes: int, gap: float
) -> tuple[float, int]:
    """Keystrokes gap apart (`typed`); the time from the last one to its first diagnostics, and how many versions were published."""
    mark = len(client.published)
    for keystroke in range(keystrokes):
        if keystroke:
            await asyncio.sleep(gap)
        sent = time.perf_counter()
        change_document(client, uri, typed(text, typed_before + keystroke + 1), first_version + keystroke)
    last = first_version + keystrokes - 1
    latency = (await published(client, uri, version=last, timeout=120)).at - sent
    versions = {p.params.version for p in client.published[mark:] if p.params.uri == uri}
    return latency, len(versions)


async def hovers_during_a_lint(client, uri: str, text: str, version: int, line: int) -> list[float]:
    """Hovers one after another from a change until its exact lint is done (or its diagnostics, for a server that does not say)."""
    mark, marked = len(client.published), len(client.traces)
    change_document(client, uri, text, version)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    samples = [await timed_hover(client, uri, line)]
    exact = f"exact diagnostics of {uri} version {version}:"
    while not (
        any(exact in t.message for t in client.traces[marked:])
        or not client.traces and any(p.params.uri == uri and p.params.version == version for p in client.published[mark:])
    ):
        samples.append(await timed_hover(client, uri, line))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--places", default=",".join(PLACES), help=f"comma-separated, of {', '.join(PLACES)}")
    parser.add_argument("--select", default=None, help="comma-separated rule codes (default: the default rules)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--burst", type=int, default=10, help="keystrokes per typing burst (0: no burst)")
    parser.add_argument("--gap", type=float, default=50, help="ms between a burst's keystrokes")
    options = parser.parse_args()
    print("load average:", Path("/proc/loadavg").read_text().split()[:3])
    text = large_script(options.lines)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        if options.select:
            codes = [code.strip() for code in options.select.split(",") if code.strip()]
            (folder / ".pipelint.toml").write_text(f"select = {json.dumps(codes)}\n")
        print(f"{options.lines} lines, {len(text.encode())} bytes")
        in_process(text, folder, options.runs, options.profile)
        for place in options.places.split(","):
            asyncio.run(one_place(place.strip(), text, folder, options.runs, options.burst, options.gap / 1000))


if __name__ == "__main__":
    main()
