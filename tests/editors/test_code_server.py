"""The VS Code extension in a real VS Code: code-server, with the built .vsix installed, shows pipelint's diagnostics.

Opt-in (`PIPELINT_TEST_CODE_SERVER=1`): it installs code-server and
puppeteer-core from the npm registry (about 600 MB, several minutes the
first time; kept in `$PIPELINT_TEST_CACHE`, default `~/.cache/pipelint-tests`),
and needs a Chromium to show code-server's workbench (Debian: `apt-get
install chromium`). code-server 4.139 runs on Node.js 24: the `node` on
PATH when it is 24 or later, else `npm install node@24` into the same cache.
Its native modules build with libkrb5-dev where npm runs install scripts.

The test packages the extension (`npm ci`, `npm run package`), installs the
.vsix with `code-server --install-extension`, sets `pipelint.path` to this
checkout's pipelint, opens a workspace with a script, a Dockerfile and a
GitHub Actions workflow in a headless Chromium (code_server_driver.cjs), opens
each file from the Explorer, and waits until the Problems panel lists its
pipelint diagnostic.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
EXTENSION = REPOSITORY / "editors" / "vscode"
DRIVER = HERE / "code_server_driver.cjs"
OPT_IN = "PIPELINT_TEST_CODE_SERVER"
CODE_SERVER = "code-server@4.139.1"
PUPPETEER = "puppeteer-core@25.19.0"
NODE_MAJOR_NEEDED = 24  # code-server 4.139's engines
# What the workspace holds, each file with a finding pipelint reports.
FILES = {
    "report.sh": "#!/bin/sh\ncat access.log | grep -c 500\necho done\n",
    "Dockerfile": "FROM debian:12\nRUN cat access.log | grep -c 500\n",
    ".github/workflows/count.yml": (
        "on: push\njobs:\n  count:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cat access.log | grep -c 500\n"
    ),
}

pytestmark = pytest.mark.skipif(
    os.environ.get(OPT_IN) != "1",
    reason=f"opt-in: {OPT_IN}=1 installs code-server from npm and drives it in Chromium (docs/editors.md, VS Code)",
)


def node_major(node: str) -> int | None:
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=60).stdout
    except OSError:
        return None
    found = re.match(r"v(\d+)\.", version)
    return int(found.group(1)) if found else None


def run(argv: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 1200) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{shlex.join(argv)} failed ({done.returncode}):\n{output[-4000:]}"
    return output


def chromium() -> str:
    for candidate in (os.environ.get("PIPELINT_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    pytest.skip("no Chromium to show code-server's workbench (Debian: apt-get install chromium)")


def tools() -> tuple[Path, Path]:
    """(a node >= 24, the folder whose node_modules holds code-server and puppeteer-core), installed once."""
    if shutil.which("npm") is None:
        pytest.skip("no npm: code-server comes from the npm registry")
    cache = Path(os.environ.get("PIPELINT_TEST_CACHE", Path.home() / ".cache" / "pipelint-tests")) / CODE_SERVER.replace("@", "-")
    cache.mkdir(parents=True, exist_ok=True)
    node = shutil.which("node")
    if node is None or (node_major(node) or 0) < NODE_MAJOR_NEEDED:
        bundled = cache / "node" / "node_modules" / "node" / "bin" / "node"
        if not bundled.is_file():
            (cache / "node").mkdir(exist_ok=True)
            run(["npm", "install", "--no-audit", "--no-fund", f"node@{NODE_MAJOR_NEEDED}"], cache / "node")
        node = str(bundled)
    assert (node_major(node) or 0) >= NODE_MAJOR_NEEDED, f"{node} is not Node.js {NODE_MAJOR_NEEDED}"
    if not (cache / "node_modules" / ".bin" / "code-server").exists():
        env = {**os.environ, "PATH": os.pathsep.join([str(Path(node).parent), os.environ.get("PATH", "")])}
        run(["npm", "install", "--no-audit", "--no-fund", CODE_SERVER, PUPPETEER], cache, env=env, timeout=3600)
    return Path(node), cache


def package_vsix(tmp_path: Path) -> Path:
    work = tmp_path / "vscode"
    shutil.copytree(EXTENSION, work, ignore=shutil.ignore_patterns("node_modules", "out", "dist", "*.vsix"))
    run(["npm", "ci", "--no-audit", "--no-fund"], work)
    run(["npm", "run", "package"], work)
    manifest = json.loads((work / "package.json").read_text(encoding="utf-8"))
    return work / f"{manifest['name']}-{manifest['version']}.vsix"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_line(process: subprocess.Popen, text: str, timeout: float) -> list[str]:
    """Read the process's output until a line holds text (an event, bounded for a loaded machine).

    A thread reads the lines (a selector on a buffered pipe misses lines already
    read into the buffer) and keeps reading, so the process never blocks on a
    full pipe; the lines it read are returned, for the report.
    """
    lines: list[str] = []
    found = threading.Event()

    def read() -> None:
        for line in process.stdout:
            lines.append(line)
            if text in line:
                found.set()
        found.set()  # the process ended

    threading.Thread(target=read, daemon=True).start()
    assert found.wait(timeout) and any(text in line for line in lines), f"code-server never said {text!r}:\n{''.join(lines)[-4000:]}"
    return lines


def test_code_server_shows_pipelint_diagnostics_for_a_script_a_dockerfile_and_a_workflow(tmp_path: Path):
    browser = chromium()
    node, cache = tools()
    vsix = package_vsix(tmp_path)
    code_server = cache / "node_modules" / ".bin" / "code-server"

    workspace = tmp_path / "workspace"
    for name, text in FILES.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text, encoding="utf-8")
    # code-server's extension host resolves a login shell's environment, so
    # the checkout's pipelint is named by the setting users have for it.
    wrapper = tmp_path / "bin" / "pipelint"
    wrapper.parent.mkdir()
    wrapper.write_text(
        f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(REPOSITORY))} exec {shlex.quote(sys.executable)} -m pipelint \"$@\"\n"
    )
    wrapper.chmod(0o755)
    user_data, extensions = tmp_path / "user-data", tmp_path / "extensions"
    (user_data / "User").mkdir(parents=True)
    settings = {
        "pipelint.path": str(wrapper),
        "security.workspace.trust.enabled": False,
        "workbench.startupEditor": "none",
        "explorer.compactFolders": False,
        # A preview editor is closed by the next file opened, and a closed document loses its diagnostics.
        "workbench.editor.enablePreview": False,
        "telemetry.telemetryLevel": "off",
    }
    (user_data / "User" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(node.parent), os.environ.get("PATH", "")]),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),  # code-server writes its config.yaml there
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    common = ["--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    installed = run([str(code_server), *common, "--install-extension", str(vsix)], tmp_path, env=env)
    assert "successfully installed" in installed, installed

    port = free_port()
    server = subprocess.Popen(
        [str(code_server), *common, "--auth", "none", "--bind-addr", f"127.0.0.1:{port}",
         "--disable-telemetry", "--disable-update-check", str(workspace)],  # fmt: skip
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # its extension hosts and pipelint servers share its process group
    )
    try:
        server_output = wait_for_line(server, "HTTP server listening", timeout=300)
        done = subprocess.run(
            [str(node), str(DRIVER), f"http://127.0.0.1:{port}/?folder={workspace}", browser, *FILES],
            env={**env, "NODE_PATH": str(cache / "node_modules")},
            capture_output=True,
            text=True,
            timeout=1800,
            stdin=subprocess.DEVNULL,
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
    assert done.stdout.strip(), f"the driver printed no report:\n{done.stderr[-4000:]}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    logs = "\n".join(path.read_text(errors="replace") for path in user_data.glob("logs/*/exthost*/pipelint.pipelint/*.log"))
    assert "error" not in report, f"{report['error']}\nsteps: {report['steps']}\npipelint log:\n{logs}\n{''.join(server_output)[-3000:]}"
    assert report["files"] == {name: True for name in FILES}, f"{report}\npipelint log:\n{logs}"
    assert report["problems"].count("\npipelint\nPL001\n") == len(FILES), report["problems"]
