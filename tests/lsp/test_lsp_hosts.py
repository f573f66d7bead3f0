"""The server lints Dockerfiles and CI files too: diagnostics at the host's line and UTF-16 column, fix-all keeps the host."""

from __future__ import annotations

import pytest
import yaml
from lsp_client import apply_workspace_edit, code_actions, diagnostics, file_uri, open_document
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

# "😀" is two UTF-16 units: the finding's column counts them as an editor does.
WORKFLOW = (
    "on: push\njobs:\n  count:\n    runs-on: ubuntu-latest\n    steps:\n"
    "      - shell: sh {0}\n        run: |\n          echo 😀 && cat access.log | grep -c 500\n          echo done\n"
)
# `sh {0}` without -e, and a command after the pipeline: its status is not seen, the fix is safe.


async def test_dockerfile_by_language_id(client, workspace):
    uri = file_uri(workspace / "build.docker")  # no telling name: the editor's language id decides
    open_document(client, uri, "FROM debian:12\nRUN cat access.log | grep 500\n", language_id="dockerfile")
    (found,) = await diagnostics(client, uri, version=1)
    assert found.code == "PL001"
    assert found.range == types.Range(types.Position(1, 4), types.Position(1, 18))


async def test_workflow_by_file_name_and_fix_all(client, workspace):
    (workspace / ".github" / "workflows").mkdir(parents=True)
    uri = file_uri(workspace / ".github" / "workflows" / "count.yml")
    open_document(client, uri, WORKFLOW, language_id="yaml")
    (found,) = await diagnostics(client, uri, version=1)
    assert found.range.start == types.Position(7, 21)  # 10 blanks, `echo `, 2 units of 😀, ` && `
    (action,) = await code_actions(client, uri, found.range, only=["source.fixAll.pipelint"])
    fixed = apply_workspace_edit(WORKFLOW, uri, action.edit)
    assert yaml.safe_load(fixed)["jobs"]["count"]["steps"][0]["run"] == "echo 😀 && grep -c 500 < access.log\necho done\n"


async def test_other_yaml_is_not_linted(client, workspace):
    uri = file_uri(workspace / "compose.yml")
    open_document(client, uri, "services:\n  db:\n    command: cat access.log | grep 500\n", language_id="yaml")
    assert await diagnostics(client, uri, version=1) == []
