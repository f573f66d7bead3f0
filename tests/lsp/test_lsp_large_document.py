"""Large documents: linted off the event loop, and over the live limit not linted at all.

Nothing here asserts a duration: durations are printed (`pytest -s`) and
measured with care in `python tests/benchmarks/bench_lsp.py`.  What is
asserted is order: a hover sent while a long lint runs is answered before
that lint's diagnostics arrive — and, to show the test can fail, the other
way round when the server lints on its event loop (PIPELINT_LSP_LINT_IN=loop,
the behaviour before the worker).
"""

from __future__ import annotations

import time

import pytest
from harness import lint
from large_script import large_script
from lsp_client import (
    change_document,
    code_actions,
    diagnostics,
    file_uri,
    lsp_server,
    open_document,
    published,
)
from lsprotocol import types
from pytest_lsp import client_capabilities

from pipelint.lsp.documents import LIVE_LINT_BYTES
from pipelint.lsp.worker import LINT_IN_VARIABLE

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = large_script(5000)
DIRECTIVE = "# pipelint: disable=PL003\n"


def hover_params(uri: str, line: int, character: int) -> types.HoverParams:
    return types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character))


async def test_5000_lines_open_change_and_act(client, workspace):
    uri = file_uri(workspace / "big.sh")
    sent = time.perf_counter()
    open_document(client, uri, TEXT)
    first = await published(client, uri, version=1)
    to_diagnostics = first.at - sent
    assert len(first.params.diagnostics) == len(lint(TEXT, path="big.sh")) > 600

    mark = len(client.published)
    edited = TEXT.replace("echo done", "cat access.log | wc -l", 1)
    sent = time.perf_counter()
    change_document(client, uri, edited, version=2)
    second = await published(client, uri, version=2, after=mark)
    after_change = second.at - sent
    assert len(second.params.diagnostics) == len(first.params.diagnostics) + 1

    target = second.params.diagnostics[-1].range
    sent = time.perf_counter()
    actions = await code_actions(client, uri, target)
    acting = time.perf_counter() - sent
    assert any(a.title.startswith("PL001:") for a in actions)
    print(
        f"\n5,000 lines: didOpen → diagnostics {to_diagnostics * 1000:.0f} ms; "
        f"didChange → diagnostics {after_change * 1000:.0f} ms; "
        f"code actions {acting * 1000:.0f} ms"
    )


async def test_typing_burst_in_a_large_document_publishes_only_the_newest_version(client, workspace):
    uri = file_uri(workspace / "burst.sh")
    open_document(client, uri, TEXT)
    await diagnostics(client, uri, version=1)
    mark = len(client.published)
    text = TEXT
    for version in range(2, 22):  # 20 keystrokes, faster than a lint: they wait for it, then only the last is linted
        text += "x"
        change_document(client, uri, text, version)
    await published(client, uri, version=21, after=mark)
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


async def test_a_result_for_an_old_text_is_dropped(client, workspace):
    """The text changes while its lint runs: that lint's result is not published, the new text's is."""
    uri = file_uri(workspace / "stale.sh")
    mark = len(client.published)
    open_document(client, uri, TEXT)  # its lint starts at once and takes a while
    change_document(client, uri, "#!/bin/sh\ncat access.log | grep 500\n", version=2)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    latest = await published(client, uri, version=2, after=mark)
    assert [d.code for d in latest.params.diagnostics] == ["PL001"]
    assert [p.params.version for p in client.published[mark:] if p.params.uri == uri] == [2]


# -- over the live limit -----------------------------------------------------------

HUGE = "#!/bin/sh\n" + DIRECTIVE + "cat access.log | grep 500\n" * (2 * LIVE_LINT_BYTES // 26)


async def test_a_document_over_the_live_limit_gets_one_information_diagnostic(client, workspace):
    uri = file_uri(workspace / "huge.sh")
    open_document(client, uri, HUGE)
    (note,) = await diagnostics(client, uri, version=1)
    assert note.severity == types.DiagnosticSeverity.Information
    assert note.message == "too large to lint live: 2.0 MiB > 1 MiB; run pipelint check on the file"
    assert note.range.start == types.Position(0, 0)

    # Not parsed either: a parse of it would hold the server for a second.
    assert await client.text_document_hover_async(hover_params(uri, 1, 22)) is None

    # Back under the limit, it is linted again.
    change_document(client, uri, "#!/bin/sh\ncat access.log | grep 500\n", version=2)
    assert [d.code for d in await diagnostics(client, uri, version=2)] == ["PL001"]


async def test_fix_all_on_a_document_over_the_limit_is_disabled_with_the_reason(client, workspace):
    uri = file_uri(workspace / "huge-fix.sh")
    open_document(client, uri, HUGE)
    await diagnostics(client, uri, version=1)
    everywhere = types.Range(types.Position(0, 0), types.Position(0, 0))
    (action,) = await code_actions(client, uri, everywhere, only=["source.fixAll"])
    assert action.edit is None
    assert action.disabled.reason == "too large to fix live: 2.0 MiB > 1 MiB; run pipelint check --fix on the file"
    # No quick fixes either: nothing was linted.
    assert await code_actions(client, uri, types.Range(types.Position(2, 0), types.Position(2, 3))) == []


async def test_fix_all_over_the_limit_says_why_to_a_client_without_disabled_actions(tmp_path):
    capabilities = client_capabilities("neovim@v0.11")
    assert not capabilities.text_document.code_action.disabled_support
    async with lsp_server(tmp_path, capabilities=capabilities) as client:
        uri = file_uri(tmp_path / "huge.sh")
        open_document(client, uri, HUGE)
        await diagnostics(client, uri, version=1)
        everywhere = types.Range(types.Position(0, 0), types.Position(0, 0))
        assert await code_actions(client, uri, everywhere, only=["source.fixAll"]) == []
        assert [m.message for m in client.messages][-1].startswith("pipelint: too large to fix live: 2.0 MiB")


# -- requests never wait for a lint --------------------------------------------------

SLOW = large_script(10_000) + DIRECTIVE  # ~1 s to lint on an idle 2-core VM, hover needs ~10 ms


@pytest.mark.parametrize(("place", "hover_first"), [("process", True), ("thread", True), ("loop", False)])
async def test_hover_is_answered_while_a_long_lint_runs(tmp_path, place, hover_first):
    async with lsp_server(tmp_path, env={LINT_IN_VARIABLE: place}) as client:
        uri = file_uri(tmp_path / "slow.sh")
        open_document(client, uri, SLOW)
        answer = await client.text_document_hover_async(hover_params(uri, SLOW.count("\n") - 1, 22))
        linted_before_hover = [p for p in client.published if p.params.uri == uri]
        assert answer is not None and "PL003" in answer.contents.value
        await published(client, uri, version=1)
        assert (linted_before_hover == []) is hover_first, place
