"""The VS Code extension (editors/vscode): in step with the package, built, packaged and tested by node.

The build runs in a copy of editors/vscode, so the checkout keeps no
node_modules/, out/ or .vsix from the tests. `npm ci` needs the npm registry;
everything after it (TypeScript, esbuild, `vsce package`, `node --test`) runs
without a network where `unshare` can take it away, which is the proof that
packaging works offline.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
EXTENSION = REPOSITORY / "editors" / "vscode"
NODE_MAJOR_NEEDED = 20  # @vscode/vsce 3.x and the node:test features used


def manifest() -> dict:
    return json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))


def test_the_extension_version_is_the_python_package_version():
    from pipelint import __version__  # pyproject.toml reads the version from there

    assert manifest()["version"] == __version__


def node_major() -> int | None:
    if shutil.which("node") is None or shutil.which("npm") is None:
        return None
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=30).stdout
    found = re.match(r"v(\d+)\.", version)
    return int(found.group(1)) if found else None


def without_network() -> list[str]:
    """A prefix that runs a command with no network, or [] where unshare is not allowed."""
    if shutil.which("unshare") is None:
        return []
    probe = subprocess.run(["unshare", "-rn", "true"], capture_output=True, timeout=30)
    return ["unshare", "-rn"] if probe.returncode == 0 else []


def run(argv: list[str], cwd: Path, timeout: int) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(argv)} failed ({done.returncode}):\n{output}"
    return output


def test_npm_ci_package_and_node_test(tmp_path: Path):
    major = node_major()
    if major is None:
        pytest.skip("node and npm are not installed: the VS Code extension is not built")
    if major < NODE_MAJOR_NEEDED:
        pytest.skip(f"node {major} is older than the {NODE_MAJOR_NEEDED} the extension's build needs")
    work = tmp_path / "vscode"
    shutil.copytree(EXTENSION, work, ignore=shutil.ignore_patterns("node_modules", "out", "dist", "*.vsix"))
    run(["npm", "ci", "--no-audit", "--no-fund"], work, timeout=600)
    # `npm test` packages the .vsix (compile, bundle, vsce package), then runs node --test.
    output = run([*without_network(), "npm", "test"], work, timeout=600)
    tests = re.search(r"^# tests (\d+)$", output, flags=re.MULTILINE)
    passed = re.search(r"^# pass (\d+)$", output, flags=re.MULTILINE)
    assert tests and passed and int(tests.group(1)) == int(passed.group(1)) > 0, output
    vsix = work / f"{manifest()['name']}-{manifest()['version']}.vsix"
    assert vsix.is_file() and vsix.stat().st_size > 0
