"""A 5,000-line script through the real server: the time until diagnostics arrive.

The numbers are printed (`pytest -s tests/lsp/test_lsp_large_document.py`); the
bounds asserted here are loose so a busy CI machine does not fail the build.
`python tests/benchmarks/bench_lsp.py` measures the same more carefully, with the
time split between the engine and the server.
"""

from __future__ import annotations

import time

import pytest
from harness import lint
from large_script import large_script
from lsp_client import change_document, code_actions, diagnostics, file_uri, open_document, published
from lsprotocol import types

from pipelint.lsp.server import DEBOUNCE_SECONDS

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = large_script(5000)


async def test_5000_lines_open_change_and_act(client, workspace):
    uri = file_uri(workspace / "big.sh")
    sent = time.perf_counter()
    open_document(client, uri, TEXT)
    first = await published(client, uri, version=1, timeout=30)
    to_diagnostics = first.at - sent
    assert len(first.params.diagnostics) == len(lint(TEXT, path="big.sh")) > 600

    mark = len(client.published)
    edited = TEXT.replace("echo done", "cat access.log | wc -l", 1)
    sent = time.perf_counter()
    change_document(client, uri, edited, version=2)
    second = await published(client, uri, version=2, after=mark, timeout=30)
    after_change = second.at - sent
    assert len(second.params.diagnostics) == len(first.params.diagnostics) + 1

    target = second.params.diagnostics[-1].range
    sent = time.perf_counter()
    actions = await code_actions(client, uri, target)
    acting = time.perf_counter() - sent
    assert any(a.title.startswith("PL001:") for a in actions)

    print(
        f"\n5,000 lines: didOpen → diagnostics {to_diagnostics * 1000:.0f} ms; "
        f"didChange → diagnostics {after_change * 1000:.0f} ms (debounce {DEBOUNCE_SECONDS * 1000:.0f} ms included); "
        f"code actions {acting * 1000:.0f} ms"
    )
    assert to_diagnostics < 2.0
    assert DEBOUNCE_SECONDS * 0.9 <= after_change < DEBOUNCE_SECONDS + 2.0
    assert acting < 2.0


async def test_typing_burst_in_a_large_document_costs_one_lint(client, workspace):
    uri = file_uri(workspace / "burst.sh")
    open_document(client, uri, TEXT)
    await diagnostics(client, uri, version=1)
    mark = len(client.published)
    text = TEXT
    for version in range(2, 22):  # 20 keystrokes, faster than the debounce
        text += "x"
        change_document(client, uri, text, version)
    await published(client, uri, version=21, after=mark, timeout=30)
    versions = [p.params.version for p in client.published[mark:] if p.params.uri == uri]
    assert versions == [21]


async def test_fix_all_on_a_large_document(client, workspace):
    uri = file_uri(workspace / "fixall.sh")
    open_document(client, uri, TEXT)
    await diagnostics(client, uri, version=1)
    sent = time.perf_counter()
    (action,) = await code_actions(client, uri, types.Range(types.Position(0, 0), types.Position(0, 0)), only=["source.fixAll"])
    elapsed = time.perf_counter() - sent
    (edit,) = action.edit.document_changes[0].edits
    # One edit over the changed middle of the file, not a whole-document replacement.
    assert edit.range.start.line > 0 and edit.range.end.line < TEXT.count("\n")
    print(f"\n5,000 lines: source.fixAll {elapsed * 1000:.0f} ms")
    assert elapsed < 5.0
