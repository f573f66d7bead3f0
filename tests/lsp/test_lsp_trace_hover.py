"""With `trace-file` configured, hovering a pipeline that `pipelint trace` measured shows what it cost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import cli_env
from lsp_client import diagnostics, file_uri, open_document
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = "#!/bin/bash\nprintf 'a\\nb\\n' > data.txt\ncat data.txt | sort | uniq\necho done\n"


def traced(workspace: Path) -> Path:
    (workspace / "job.sh").write_text(SCRIPT)
    command = [sys.executable, "-m", "pipelint", "trace", "--output-format", "json", "-o", "trace.json", "--", "bash", "job.sh"]
    subprocess.run(command, cwd=workspace, env=cli_env(), check=True, capture_output=True)
    (workspace / ".pipelint.toml").write_text('trace-file = "trace.json"\n')
    return workspace / "job.sh"


async def hover(client, uri: str, line: int, column: int) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, column))
    )


async def test_hover_over_a_traced_pipeline_shows_its_cost(client, workspace):
    script = traced(workspace)
    pipeline = next(p for p in json.loads((workspace / "trace.json").read_text())["pipelines"] if p["location"]["row"] == 3)
    uri = file_uri(script)
    open_document(client, uri, SCRIPT)
    await diagnostics(client, uri, version=1)
    shown = await hover(client, uri, 2, 16)  # on `sort`
    assert shown is not None and shown.contents.kind == types.MarkupKind.Markdown
    value = shown.contents.value
    assert value.startswith("**pipelint trace** (") and ": 1 run, " in value
    assert "| `cat` |" in value and "| `sort` |" in value and "| `uniq` |" in value
    assert shown.range == types.Range(types.Position(2, 0), types.Position(2, len("cat data.txt | sort | uniq")))
    assert pipeline["runs"] == 1
    assert await hover(client, uri, 3, 1) is None  # `echo` is a builtin: nothing measured


async def test_a_changed_text_shows_no_stale_cost(client, workspace):
    script = traced(workspace)
    uri = file_uri(script)
    open_document(client, uri, "# edited\n" + SCRIPT)
    await diagnostics(client, uri, version=1)
    assert await hover(client, uri, 3, 16) is None
