"""When the server lints: at once on a change, one lint per document at a time, the newest text next (latest wins).

The server here lints in a thread with a patched engine that waits for the
test's word, so what runs when is decided by the test, not by timing.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from lsprotocol import types
from test_lsp_pieces import server_with_one_document, settled

from pipelint.lsp import handlers

pytestmark = pytest.mark.asyncio

URI = "untitled:typing"


class HeldEngine:
    """lint_document that records each job's text and, while held, waits before linting it."""

    def __init__(self, lint_document):
        self.lint_document = lint_document
        self.texts: list[bytes] = []
        self.started = threading.Semaphore(0)
        self.release = threading.Event()

    def __call__(self, job):
        self.texts.append(job.source)
        self.started.release()
        self.release.wait(timeout=30)
        return self.lint_document(job)

    async def wait_started(self) -> None:
        assert await asyncio.to_thread(self.started.acquire, timeout=30), "no lint started"


def type_text(server, text: str, version: int) -> None:
    """What didChange does: the workspace holds the new text, and the server is told."""
    item = types.TextDocumentItem(uri=URI, language_id="shellscript", version=version, text=text)
    server.workspace.put_text_document(item)
    document = types.VersionedTextDocumentIdentifier(uri=URI, version=version)
    handlers.did_change(server, types.DidChangeTextDocumentParams(text_document=document, content_changes=[]))


@pytest.fixture
def held(monkeypatch):
    from pipelint.lsp import server as server_module

    server, shown, logged, published = server_with_one_document(monkeypatch, URI, "thread")
    engine = HeldEngine(server_module.lint_document)
    monkeypatch.setattr(server_module, "lint_document", engine)
    yield server, engine, published
    engine.release.set()
    server.worker.stop()


async def test_a_change_is_linted_at_once(held):
    server, engine, published = held
    engine.release.set()
    type_text(server, "cat a | grep x\n", 2)
    await engine.wait_started()  # no timer: the lint started with the change
    await settled(server)
    assert [(p.version, [d.code for d in p.diagnostics]) for p in published] == [(2, ["PL001"])]


async def test_a_burst_of_changes_costs_the_running_lint_and_one_for_the_newest_text(held):
    server, engine, published = held
    type_text(server, "echo 1\n", 2)
    await engine.wait_started()
    texts = [f"echo {n}\n" * n + "cat a | grep x\n" for n in range(3, 23)]
    for version, text in enumerate(texts, start=3):  # 20 keystrokes while the first lint runs
        type_text(server, text, version)
    engine.release.set()
    await settled(server)
    assert engine.texts == [b"echo 1\n", texts[-1].encode()]
    # The first lint's text was gone when it ended: only the newest version is published.
    assert [(p.version, [d.code for d in p.diagnostics]) for p in published] == [(22, ["PL001"])]


async def test_asking_again_for_the_text_being_linted_does_not_queue_a_lint(held):
    server, engine, published = held
    type_text(server, "cat a | grep x\n", 2)
    await engine.wait_started()
    server.request_lint(URI)  # didSave of the same text
    server.request_lint(URI)
    engine.release.set()
    await settled(server)
    assert len(engine.texts) == 1
    assert [p.version for p in published] == [2]


async def test_a_config_reload_during_a_lint_lints_the_same_text_again(held):
    server, engine, published = held
    type_text(server, "cat a | grep x\n", 2)
    await engine.wait_started()
    server.reload_config()  # the running lint read the old settings: its result is stale
    engine.release.set()
    await settled(server)
    assert engine.texts == [b"cat a | grep x\n"] * 2
    assert [p.version for p in published] == [2]


# -- provisional diagnostics (lsp/provisional.py) --------------------------------

TEXT = "echo 0\ncat a | grep x\necho 1\n"


@pytest.fixture
def recorded(monkeypatch):
    """A server whose worker jobs are recorded in order: ("exact" or "provisional", version's text)."""
    from pipelint.lsp import server as server_module

    server, shown, logged, published = server_with_one_document(monkeypatch, URI, "thread")
    jobs: list[tuple[str, bytes]] = []
    lint, provisional = server_module.lint_document, server_module.provisional_document

    def exact_job(job):
        jobs.append(("exact", job.source))
        return lint(job)

    def provisional_job(job):
        jobs.append(("provisional", job.job.source))
        return provisional(job)

    monkeypatch.setattr(server_module, "lint_document", exact_job)
    monkeypatch.setattr(server_module, "provisional_document", provisional_job)
    yield server, jobs, published, monkeypatch
    server.worker.stop()


async def test_a_change_gets_a_provisional_lint_and_then_the_exact_one(recorded):
    server, jobs, published, _ = recorded
    type_text(server, TEXT, 2)
    await settled(server)  # no exact lint before: no provisional one
    edited = TEXT.replace("grep x", "grep xy")
    type_text(server, edited, 3)
    await settled(server)
    assert jobs == [("exact", TEXT.encode()), ("provisional", edited.encode()), ("exact", edited.encode())]
    # Published once: the exact diagnostics were the same as the provisional ones.
    assert [(p.version, [d.code for d in p.diagnostics]) for p in published] == [(2, ["PL001"]), (3, ["PL001"])]


async def test_the_exact_diagnostics_go_out_when_they_differ_from_the_provisional_ones(recorded):
    from pipelint.lsp import server as server_module
    from pipelint.lsp.documents import ProvisionalResult

    server, jobs, published, monkeypatch = recorded
    type_text(server, TEXT, 2)
    await settled(server)
    monkeypatch.setattr(server_module, "provisional_document", lambda job: ProvisionalResult("[]"))
    type_text(server, TEXT.replace("grep x", "grep xy"), 3)
    await settled(server)
    assert [(p.version, [d.code for d in p.diagnostics]) for p in published] == [(2, ["PL001"]), (3, []), (3, ["PL001"])]


async def test_provisional_diagnostics_of_a_text_already_changed_again_are_not_published(recorded):
    from pipelint.lsp import server as server_module

    server, jobs, published, monkeypatch = recorded
    type_text(server, TEXT, 2)
    await settled(server)
    release = threading.Event()
    provisional = server_module.provisional_document

    def held(job):
        release.wait(timeout=30)
        return provisional(job)

    monkeypatch.setattr(server_module, "provisional_document", held)
    type_text(server, TEXT.replace("grep x", "grep xy"), 3)
    type_text(server, TEXT.replace("grep x", "grep xyz"), 4)  # while version 3's provisional lint runs
    release.set()
    await settled(server)
    assert [p.version for p in published] == [2, 4]
