"""A lone "\\r" ends a line for an LSP client, though not for bash or the CLI.

The script mixes "\\r\\n", "\\n" and lone "\\r" line ends with accents and an
emoji, and every finding comes after a lone "\\r": with "\\n"-only lines the
ranges would land a line too high and the fix-all edit would corrupt the text.
Expected lines are counted here with Python's `re` on the decoded text, and
edits are applied by the test client's own conversion (lsp_client), so
pipelint's LineIndex cannot confirm itself.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from harness import lint
from lsp_client import REPOSITORY, SERVER_ENV, apply_workspace_edit, code_actions, diagnostics, file_uri, open_document
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = (
    "#!/bin/bash\r\n"
    "echo 'héllo'\recho 😀 ready\n"
    "cat access.log | grep 500\r\n"
    "printf 'ü'\rsort words.txt | cat | uniq -c\n"
    "cat ü.log | wc -l\n"
)


def lsp_position(text: str, byte_offset: int) -> types.Position:
    before = re.split(r"\r\n|\r|\n", text.encode()[:byte_offset].decode())
    return types.Position(len(before) - 1, len(before[-1].encode("utf-16-le")) // 2)


async def test_diagnostics_count_a_lone_cr_as_a_line_end(client, workspace):
    uri = file_uri(workspace / "mixed.sh")
    open_document(client, uri, TEXT)
    found = await diagnostics(client, uri, version=1)
    engine = lint(TEXT, path="mixed.sh")
    assert [d.code for d in found] == [f.code for f in engine] == ["PL001", "PL003", "PL001"]
    for diagnostic, finding in zip(found, engine):
        expected = types.Range(lsp_position(TEXT, finding.start), lsp_position(TEXT, finding.end))
        assert diagnostic.range == expected
    assert [d.range.start.line for d in found] == [3, 5, 6]


async def test_fix_all_on_mixed_line_ends_matches_check_fix(client, workspace):
    uri = file_uri(workspace / "fixall.sh")
    open_document(client, uri, TEXT)
    await diagnostics(client, uri, version=1)
    (action,) = await code_actions(client, uri, types.Range(types.Position(0, 0), types.Position(0, 0)), only=["source.fixAll"])
    in_editor = apply_workspace_edit(TEXT, uri, action.edit, version=1)

    on_disk = workspace / "cli.sh"
    on_disk.write_bytes(TEXT.encode())
    subprocess.run([sys.executable, "-m", "pipelint", "check", "--fix", str(on_disk)], env=SERVER_ENV, cwd=REPOSITORY, capture_output=True)
    expected = on_disk.read_bytes().decode()
    assert expected != TEXT  # the CLI fixed something
    assert in_editor == expected
