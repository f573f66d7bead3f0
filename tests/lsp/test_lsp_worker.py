"""Where lints run: worker processes that may die, and the switch that picks the place."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from lsp_client import REPOSITORY, SERVER, SERVER_ENV, change_document, diagnostics, file_uri, lsp_server, open_document

from pipelint.lsp.worker import LINT_IN_VARIABLE

SCRIPT = "#!/bin/sh\ncat access.log | grep 500\n"


def worker_processes(server_pid: int) -> list[int]:
    """The server's children that run multiprocessing workers (not its resource tracker)."""
    children = []
    for task in Path(f"/proc/{server_pid}/task").iterdir():
        children += [int(pid) for pid in (task / "children").read_text().split()]
    return [pid for pid in children if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]


@pytest.mark.asyncio
async def test_killed_workers_are_replaced_and_linting_goes_on(tmp_path):
    async with lsp_server(tmp_path) as client:
        uri = file_uri(tmp_path / "job.sh")
        open_document(client, uri, SCRIPT)
        assert [d.code for d in await diagnostics(client, uri, version=1)] == ["PL001"]
        server_pid = client._server.pid  # pygls keeps the subprocess here
        killed = worker_processes(server_pid)
        assert len(killed) == 2
        for pid in killed:
            os.kill(pid, signal.SIGKILL)  # as the OOM killer would

        change_document(client, uri, SCRIPT + "sort words.txt | cat | uniq -c\n", version=2)
        assert [d.code for d in await diagnostics(client, uri, version=2)] == ["PL001", "PL003"]
        assert not set(worker_processes(server_pid)) & set(killed)
        assert not [m for m in client.messages if "internal error" in m.message]


def test_an_unknown_place_is_one_error_line():
    done = subprocess.run(
        SERVER, env={**SERVER_ENV, LINT_IN_VARIABLE: "gpu"}, cwd=REPOSITORY, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2
    assert done.stderr == f"pipelint: error: {LINT_IN_VARIABLE}='gpu': expected one of process, thread, loop\n"
    assert done.stdout == ""
