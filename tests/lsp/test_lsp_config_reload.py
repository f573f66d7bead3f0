"""The server reads the CLI's config files and reloads them when they change."""

from __future__ import annotations

import pytest
from lsp_client import arrival, diagnostics, file_uri, open_document
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = "#!/bin/bash\ncat access.log | grep 500\nsort words.txt | cat | uniq -c\n"


def watched_change(client, path, kind=types.FileChangeType.Changed) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=file_uri(path), type=kind)])
    )


def saved(client, path) -> None:
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=file_uri(path)))
    )


async def test_config_file_watchers_are_registered(client):
    # The request follows `initialized`: wait for it to come.
    await arrival(client, lambda: client.registrations or None, "client/registerCapability")
    (registration,) = [r for r in client.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    globs = {w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in registration.register_options["watchers"]}
    assert globs == {"**/.pipelint.toml", "**/pyproject.toml"}


async def test_settings_come_from_the_folders_config_file(client, workspace):
    (workspace / ".pipelint.toml").write_text('ignore = ["PL001"]\n')
    uri = file_uri(workspace / "job.sh")
    open_document(client, uri, SCRIPT)
    assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL003"]


async def test_pyproject_tool_table_counts_too(client, workspace):
    (workspace / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.pipelint]\nselect = ["PL001"]\n')
    uri = file_uri(workspace / "job.sh")
    open_document(client, uri, SCRIPT)
    assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL001"]


async def test_a_changed_config_file_relints_open_documents(client, workspace):
    config = workspace / ".pipelint.toml"
    config.write_text('ignore = ["PL001"]\n')
    uri = file_uri(workspace / "job.sh")
    open_document(client, uri, SCRIPT)
    assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL003"]

    mark = len(client.published)
    config.write_text('ignore = ["PL003"]\n')
    watched_change(client, config)
    assert [d.code for d in await diagnostics(client, uri, after=mark)] == ["PL001"]

    mark = len(client.published)
    config.write_text("ignore = []\n")
    saved(client, config)  # editors that do not watch files still send didSave
    assert [d.code for d in await diagnostics(client, uri, after=mark)] == ["PL001", "PL003"]

    mark = len(client.published)
    config.unlink()
    (workspace / "pyproject.toml").write_text('[tool.pipelint]\nignore = ["PL001", "PL003"]\n')
    watched_change(client, workspace / "pyproject.toml", types.FileChangeType.Created)
    assert await diagnostics(client, uri, after=mark) == []


async def test_other_watched_files_do_not_relint(client, workspace):
    uri = file_uri(workspace / "job.sh")
    open_document(client, uri, SCRIPT)
    await diagnostics(client, uri, version=1)
    mark = len(client.published)
    watched_change(client, workspace / "README.md")
    check = file_uri(workspace / "probe.sh")
    open_document(client, check, SCRIPT)  # a later event, to know the first one was handled
    await diagnostics(client, check, version=1, after=mark)
    assert [p.params.uri for p in client.published[mark:]] == [check]


async def test_a_broken_config_shows_one_error_and_linting_goes_on(client, workspace):
    config = workspace / ".pipelint.toml"
    config.write_text('ignore = ["PL001"\n')  # unterminated array
    messages = len(client.messages)
    uri = file_uri(workspace / "job.sh")
    open_document(client, uri, SCRIPT)
    # The defaults apply meanwhile.
    assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL001", "PL003"]
    (error,) = client.messages[messages:]
    assert error.type == types.MessageType.Error
    assert str(config) in error.message and "invalid TOML" in error.message

    # Linting again does not repeat the message.
    other = file_uri(workspace / "other.sh")
    open_document(client, other, SCRIPT)
    await diagnostics(client, other, version=1)
    assert len(client.messages) == messages + 1

    # An unknown rule is a config error too, named with its key.
    mark = len(client.published)
    config.write_text('select = ["PL999"]\n')
    watched_change(client, config)
    await diagnostics(client, uri, after=mark)
    assert "select" in client.messages[-1].message

    # Fixed: the file's settings apply again, no new message.
    mark = len(client.published)
    count = len(client.messages)
    config.write_text('ignore = ["PL001"]\n')
    watched_change(client, config)
    assert [d.code for d in await diagnostics(client, uri, after=mark)] == ["PL003"]
    assert len(client.messages) == count
