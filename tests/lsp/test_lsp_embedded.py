"""Shell inside a string, seen from an editor: the range is the outer document's, in UTF-16, and the quick fix lands there."""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour
from lsp_client import apply_workspace_edit, change_document, code_actions, diagnostics, file_uri, open_document
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

# A non-ASCII line, then non-ASCII and an astral emoji (two UTF-16 units, four bytes) before the ssh on its line.
PREFIX = "echo 'héllo 😀 wörld'; ssh backup '"
# `echo done` last: the ssh's status is not the script's (else PL001's fix inside is unsafe).
TEXT = f"#!/bin/sh\n# sauvegarde — données\nmkdir -p remote-backup && cp access.log remote-backup/\n{PREFIX}cat access.log | grep 500'\necho done\n"


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


async def test_a_finding_inside_ssh_has_the_outer_range_and_its_fix_applies(client, workspace, tmp_path):
    uri = file_uri(workspace / "backup.sh")
    open_document(client, uri, TEXT)
    (found,) = await diagnostics(client, uri, version=1)
    assert found.code == "PL001"
    start, end = utf16(PREFIX), utf16(PREFIX + "cat access.log")
    assert found.range == types.Range(types.Position(3, start), types.Position(3, end))
    (action,) = [
        a for a in await code_actions(client, uri, found.range) if a.title == "PL001: Redirect access.log into grep"
    ]
    fixed = apply_workspace_edit(TEXT, uri, action.edit, version=1)
    assert fixed == TEXT.replace("cat access.log | grep 500", "grep 500 < access.log")
    change_document(client, uri, fixed, 2)
    assert await diagnostics(client, uri, version=2) == []
    # The success path (inputs taken away: tests/test_embedded_commands.py).
    assert_same_behaviour(TEXT.encode(), fixed.encode(), tmp_path, "dash", inputs=())
