"""Drive the real `pipelint lsp` over stdio with pytest-lsp, as an editor would.

`client`: one server per test module (starting one costs ~1 s, mostly
imports), initialized with VS Code's capabilities and one workspace folder;
each test works in its own sub-folder (`workspace`), so documents and config
files of different tests never meet.  Modules using it run in the module's
event loop: `pytestmark = pytest.mark.asyncio(loop_scope="module")`.
`bare_client`: a fresh server per test, which the test initializes itself
(to choose the client's capabilities).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsp_client import CONFIG, initialize_params
from pytest_lsp import LanguageClient, client_capabilities


@pytest.fixture(scope="module")
def workspace_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workspace")


@pytest.fixture
def workspace(workspace_root: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=workspace_root))


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, workspace_root: Path):
    lsp_client.initialize_result = await lsp_client.initialize_session(
        initialize_params(workspace_root, client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def bare_client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


