"""The server's pieces in-process: severities, the fix-all edit, which documents are scripts."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_client import REPOSITORY, SERVER_ENV, failure_diagnostic, take_snapshot
from lsprotocol import types

from pipelint.finding import Finding, Severity, apply_edits
from pipelint.lsp.actions import changed_span, wanted
from pipelint.lsp.diagnostics import finding_diagnostic
from pipelint.lsp.documents import is_shell_document, to_bytes
from pipelint.shell.positions import Encoding


@pytest.mark.parametrize(
    ("severity", "expected"),
    [
        (Severity.ERROR, types.DiagnosticSeverity.Error),
        (Severity.WARNING, types.DiagnosticSeverity.Warning),
        (Severity.INFO, types.DiagnosticSeverity.Information),
    ],
)
def test_severities_map_one_to_one(tmp_path, severity, expected):
    snapshot = take_snapshot("untitled:x", 1, "echo hi\n", "shellscript", tmp_path)
    finding = Finding("PL001", "useless-cat", severity, "message", 0, 4)
    diagnostic = finding_diagnostic(snapshot.index, finding, Encoding.UTF16)
    assert diagnostic.severity == expected
    assert diagnostic.range == types.Range(types.Position(0, 0), types.Position(0, 4))


def test_parse_failure_note_stays_on_its_line(tmp_path):
    text = "echo start\nif true; then\n  echo a\n  echo b\n"  # `fi` missing: broken to the end
    snapshot = take_snapshot("untitled:x", 1, text, "shellscript", tmp_path)
    note = failure_diagnostic(snapshot, Encoding.UTF16)
    assert note is not None
    assert note.range.start.line == note.range.end.line


def test_changed_span_is_one_edit_that_never_splits_a_character_or_a_crlf():
    random.seed(5)
    alphabet = ["a", "é", "ê", "😀", "\n", "\r", "\r\n", "|", " "]
    for _ in range(5000):
        old = "".join(random.choices(alphabet, k=random.randint(0, 10))).encode()
        new = "".join(random.choices(alphabet, k=random.randint(0, 10))).encode()
        edit = changed_span(old, new)
        assert apply_edits(old, [edit]) == new
        old[: edit.start].decode()  # raises if the edit starts inside a character
        old[edit.end :].decode()
        edit.content.decode()
        for cut in (edit.start, edit.end):
            assert old[cut - 1 : cut + 1] != b"\r\n" or cut == 0, (old, new, edit)


def test_changed_span_keeps_the_unchanged_ends():
    edit = changed_span(b"a\ncat f | grep x\nz\n", b"a\ngrep x < f\nz\n")
    assert (edit.start, edit.end) == (2, 16)


@pytest.mark.parametrize(
    ("kind", "only", "expected"),
    [
        ("source.fixAll.pipelint", None, True),
        ("source.fixAll.pipelint", ["source"], True),
        ("source.fixAll.pipelint", ["source.fixAll"], True),
        ("source.fixAll.pipelint", ["source.fixAll.pipelint"], True),
        ("source.fixAll.pipelint", ["quickfix"], False),
        ("source.fixAll.pipelint", ["source.fix"], False),
        ("quickfix", ["quickfix"], True),
        ("quickfix", ["source"], False),
    ],
)
def test_kinds_are_hierarchical(kind, only, expected):
    assert wanted(kind, only) is expected


@pytest.mark.parametrize(
    ("language_id", "name", "text", "expected"),
    [
        ("shellscript", "a.txt", "echo", True),
        ("bash", None, "echo", True),
        ("sh", None, "echo", True),
        ("plaintext", "deploy", "#!/bin/sh\necho", True),
        ("plaintext", "deploy", "#!/usr/bin/env bash\necho", True),
        ("plaintext", "run.sh", "echo", True),
        ("python", "tool.py", "#!/usr/bin/env python3\n", False),
        ("toml", "pyproject.toml", "[tool.pipelint]\n", False),
        ("shellscript", ".pipelint.toml", "ignore = []\n", False),  # whatever the editor says
    ],
)
def test_which_documents_are_scripts(language_id, name, text, expected):
    path = Path("/work") / name if name else None
    assert is_shell_document(language_id, path, text.encode()) is expected


def test_text_becomes_the_bytes_it_came_from():
    raw = b"echo \xff\xfe caf\xc3\xa9\n"
    assert to_bytes(raw.decode("utf-8", "surrogateescape")) == raw
    assert to_bytes("a\ud800b") == b"a?b"  # no byte maps to it: one placeholder, positions hold


def test_check_does_not_import_the_language_server(tmp_path):
    script = tmp_path / "a.sh"
    script.write_text("cat access.log | grep 500\n")
    probe = (
        "import sys\n"
        "from pipelint.cli.main import main\n"
        f"sys.argv = ['pipelint', 'check', {str(script)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('pygls' in sys.modules, 'lsprotocol' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=SERVER_ENV, cwd=REPOSITORY)
    assert done.stdout.strip().splitlines()[-1] == "False False"


async def settled(server) -> None:
    """No lint runs, exact or provisional (an exact lint may wait for a provisional one to start)."""
    while server.linting or server.provisionals:
        await asyncio.gather(*[lint.task for lint in [*server.linting.values(), *server.provisionals.values()]])


def server_with_one_document(monkeypatch, uri: str, place: str = "loop"):
    """A server holding one open script, its messages, logs and diagnostics recorded in lists.

    It lints in this process ("loop" or "thread"), so a test can patch the engine.
    """
    from pygls.workspace import Workspace

    from pipelint.lsp import server as server_module

    server = server_module.PipelintServer(place)
    server.protocol._workspace = Workspace(None, types.TextDocumentSyncKind.Full)
    server.workspace.put_text_document(
        types.TextDocumentItem(uri=uri, language_id="shellscript", version=1, text="cat access.log | grep 500\necho end\n")
    )
    shown, logged, published = [], [], []
    monkeypatch.setattr(server, "window_show_message", shown.append)
    monkeypatch.setattr(server, "window_log_message", logged.append)
    monkeypatch.setattr(server.protocol, "send_json", lambda body: published.append(published_params(body)))
    return server, shown, logged, published


def published_params(body: str) -> types.PublishDiagnosticsParams:
    """A publishDiagnostics notification the server wrote, read back as the client would."""
    from pipelint.lsp.diagnostics import CONVERTER

    message = json.loads(body)
    assert message["jsonrpc"] == "2.0" and message["method"] == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
    return CONVERTER.structure(message["params"], types.PublishDiagnosticsParams)


@pytest.mark.asyncio
@pytest.mark.parametrize("place", ["loop", "thread"])
async def test_an_engine_crash_is_reported_once_and_the_server_keeps_serving(monkeypatch, place):
    from pipelint.lsp import server as server_module

    uri = "untitled:crash"
    server, shown, logged, published = server_with_one_document(monkeypatch, uri, place)

    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    with monkeypatch.context() as patch:
        patch.setattr(server_module, "lint_document", crash)
        for _ in range(2):
            server.request_lint(uri)
            await settled(server)
    assert len(shown) == 1 and "internal error" in shown[0].message and "boom" in shown[0].message
    assert len(logged) == 2 and "Traceback" in logged[0].message
    assert published == []

    server.request_lint(uri)  # the engine works again: diagnostics flow
    await settled(server)
    assert [d.code for d in published[0].diagnostics] == ["PL001"]
    server.worker.stop()


@pytest.mark.asyncio
async def test_a_failed_fix_all_is_not_kept(monkeypatch):
    from pipelint.lsp import server as server_module

    uri = "untitled:fix"
    server, *_ = server_with_one_document(monkeypatch, uri)
    document = server.current(uri)
    with monkeypatch.context() as patch:
        patch.setattr(server_module, "fix_document", lambda job: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            await server.fixed_source(document)
    assert await server.fixed_source(document) == b"grep 500 < access.log\necho end\n"
    server.worker.stop()


@pytest.mark.asyncio
async def test_a_rule_that_raises_is_logged_and_the_other_rules_still_publish(monkeypatch):
    from pipelint.engine.config import Settings
    from pipelint.rule import Rule

    class Raises(Rule):
        code = "PL997"
        name = "raises"
        severity = Severity.WARNING

        def check_pipeline(self, pipeline, context):
            raise ValueError("boom")

    default_rules = Settings.enabled_rules
    monkeypatch.setattr(Settings, "enabled_rules", lambda self, path=None: [Raises, *default_rules(self, path)])
    uri = "untitled:rule-crash"
    server, shown, logged, published = server_with_one_document(monkeypatch, uri)
    server.request_lint(uri)
    await settled(server)
    assert [d.code for d in published[0].diagnostics] == ["PL001"]
    (log,) = logged
    assert log.message.startswith(f"internal error in PL997 on {uri} (please report): ValueError: boom")
    assert "Traceback" in log.message
    assert shown == []
    server.worker.stop()


def test_a_result_from_a_worker_process_brings_its_report_packed_and_whole(tmp_path):
    import pickle

    from pipelint.lsp.documents import DocumentText, LintJob, PackedReport, Snapshot, lint_document

    document = DocumentText("untitled:packed", 1, "cat a | grep b\nsort w | cat | uniq -c\n", "shellscript")
    result = lint_document(LintJob.of(document, tmp_path))
    crossed = pickle.loads(pickle.dumps(result, pickle.HIGHEST_PROTOCOL))
    assert isinstance(crossed.report, PackedReport) and crossed.diagnostics == result.diagnostics
    snapshot = Snapshot.of(document, crossed)
    assert snapshot.report.findings == result.report.findings
    assert [f.code for f in snapshot.findings] == ["PL001", "PL003"]
    assert Snapshot.of(document, result).report is result.report  # in a thread or on the loop: nothing packed
