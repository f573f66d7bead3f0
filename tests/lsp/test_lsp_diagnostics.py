"""Diagnostics from the real server: on open, change (at once, latest wins), save and close."""

from __future__ import annotations

import asyncio

import pytest
from harness import lint
from lsp_client import REPOSITORY, change_document, diagnostics, file_uri, open_document, published
from lsprotocol import types


pytestmark = pytest.mark.asyncio(loop_scope="module")

# How long to listen for a publication that should not come (a lint of these scripts takes ~10 ms).
QUIET_SECONDS = 0.4

SCRIPT = "#!/bin/sh\ncat access.log | grep 500\nsort words.txt | cat | uniq -c\necho done\n"


async def test_open_reports_each_finding_with_code_name_link_and_source(client, workspace):
    uri = file_uri(workspace / "report.sh")
    open_document(client, uri, SCRIPT)
    found = await diagnostics(client, uri, version=1)
    engine = lint(SCRIPT, path="report.sh")
    assert [d.code for d in found] == [f.code for f in engine] == ["PL001", "PL003"]
    for diagnostic, finding in zip(found, engine):
        assert diagnostic.source == "pipelint"
        assert diagnostic.message == finding.message
        assert diagnostic.severity == types.DiagnosticSeverity.Warning
        assert diagnostic.data["name"] == finding.name
        document = diagnostic.code_description.href.rsplit("/", 1)[1]
        assert document == f"{finding.code}-{finding.name}.md"
        assert (REPOSITORY / "rules" / document).is_file()
    assert found[0].range == types.Range(types.Position(1, 0), types.Position(1, 14))  # `cat access.log`


async def test_clean_script_gets_an_empty_list(client, workspace):
    uri = file_uri(workspace / "clean.sh")
    open_document(client, uri, "#!/bin/sh\ngrep 500 < access.log\ncat access.log words.txt | wc -l\n")
    assert await diagnostics(client, uri, version=1) == []


async def test_changes_are_linted_at_once_and_the_last_version_is_published_last(client, workspace):
    uri = file_uri(workspace / "typing.sh")
    open_document(client, uri, SCRIPT)
    await diagnostics(client, uri, version=1)
    mark = len(client.published)
    change_document(client, uri, SCRIPT + "c", version=2)
    change_document(client, uri, SCRIPT + "ca", version=3)
    change_document(client, uri, "#!/bin/sh\ngrep 500 < access.log\n", version=4)
    last = await published(client, uri, version=4, after=mark)
    assert list(last.params.diagnostics) == []
    await asyncio.sleep(QUIET_SECONDS)
    # A version whose lint ended before the next change came is published; none after a newer one.
    versions = [p.params.version for p in client.published[mark:] if p.params.uri == uri]
    assert versions[-1] == 4 and versions == sorted(set(versions))


async def test_save_of_the_text_being_linted_costs_no_second_lint(client, workspace):
    uri = file_uri(workspace / "saved.sh")
    open_document(client, uri, "#!/bin/sh\necho start\n")
    await diagnostics(client, uri, version=1)
    mark = len(client.published)
    change_document(client, uri, SCRIPT, version=2)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    found = await published(client, uri, version=2, after=mark)
    assert [d.code for d in found.params.diagnostics] == ["PL001", "PL003"]
    await asyncio.sleep(QUIET_SECONDS)
    assert len([p for p in client.published[mark:] if p.params.uri == uri]) == 1


async def test_save_of_a_text_already_linted_costs_no_lint(client, workspace):
    """Whether the lint ended before the save came or not (on a busy machine it often has): one publish."""
    uri = file_uri(workspace / "saved-late.sh")
    open_document(client, uri, SCRIPT)
    await diagnostics(client, uri, version=1)
    mark = len(client.published)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await asyncio.sleep(QUIET_SECONDS)
    assert [p for p in client.published[mark:] if p.params.uri == uri] == []


async def test_close_clears_the_diagnostics(client, workspace):
    uri = file_uri(workspace / "closed.sh")
    open_document(client, uri, SCRIPT)
    await diagnostics(client, uri, version=1)
    mark = len(client.published)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await diagnostics(client, uri, after=mark) == []


async def test_syntax_error_gives_one_note_and_no_finding_inside_the_error(client, workspace):
    uri = file_uri(workspace / "broken.sh")
    text = "#!/bin/bash\ncat access.log | grep 500\necho $(( cat words.txt | sort\n"
    open_document(client, uri, text)
    found = await diagnostics(client, uri, version=1)
    findings = [d for d in found if d.code]
    notes = [d for d in found if not d.code]
    # The first pipeline parses and is reported; the one inside the ERROR node is not.
    assert [(d.code, d.range.start.line) for d in findings] == [("PL001", 1)]
    assert len(notes) == 1
    note = notes[0]
    assert note.source == "pipelint"
    assert note.severity == types.DiagnosticSeverity.Information
    assert note.message == "could not parse line 3; the rest of the file was checked"
    assert note.range.start.line == 2 and note.range.end.line == 2


async def test_untitled_buffer_is_linted_by_its_language(client):
    uri = "untitled:Untitled-1"
    open_document(client, uri, "cat access.log | grep 500\n")
    assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL001"]


@pytest.mark.parametrize(
    ("name", "language_id"),
    [("pyproject.toml", "toml"), (".pipelint.toml", "toml"), ("notes.md", "markdown")],
)
async def test_other_languages_are_not_linted(client, workspace, name, language_id):
    uri = file_uri(workspace / name)
    open_document(client, uri, "cat access.log | grep 500\n", language_id=language_id)
    assert await diagnostics(client, uri, version=1) == []


async def test_shebang_makes_a_plaintext_buffer_a_script(client, workspace):
    uri = file_uri(workspace / "deploy")
    open_document(client, uri, "#!/usr/bin/env bash\ncat access.log | grep 500\n", language_id="plaintext")
    assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL001"]


async def test_excluded_files_get_no_diagnostics(client, workspace):
    (workspace / ".pipelint.toml").write_text('extend-exclude = ["vendor"]\n')
    (workspace / "vendor").mkdir()
    uri = file_uri(workspace / "vendor" / "third_party.sh")
    open_document(client, uri, SCRIPT)
    assert await diagnostics(client, uri, version=1) == []


@pytest.mark.parametrize(
    "text",
    [
        "cat access.log | grep \0 500\n",  # NUL bytes
        'echo "\udc80\udcff"; cat access.log | grep 500\n',  # raw bytes kept as lone surrogates
        'echo "\ud800"; cat access.log | grep 500\n',  # a lone surrogate no byte maps to
        "",
        "\n\n\n",
        "if then fi done ;; esac ) } ((\n",
    ],
)
async def test_odd_text_never_breaks_the_server(client, workspace, text):
    uri = file_uri(workspace / "odd.sh")
    errors = len(client.messages)
    open_document(client, uri, text)
    await diagnostics(client, uri, version=1)
    # Still alive and answering.
    change_document(client, uri, "cat access.log | grep 500\n", version=2)
    assert [d.code for d in await diagnostics(client, uri, version=2)] == ["PL001"]
    assert not [m for m in client.messages[errors:] if m.type == types.MessageType.Error]
