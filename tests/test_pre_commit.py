"""The pre-commit hooks, run for real: `pre-commit try-repo` against this checkout.

A throw-away git repository holds a script pipelint must flag (`bad.sh`), a
clean one, an extension-less, non-executable script with a shell shebang
(`tool`, which identify does not tag `shell`), a README whose text looks
like a pipeline, a Dockerfile and a workflow with a wasteful pipeline, and a
YAML file that is neither (`compose.yml`). One `try-repo --all-files` runs the
four hooks of .pre-commit-hooks.yaml in id order: `pipelint`,
`pipelint-all`, `pipelint-fix`, `pipelint-hosts`.
Each try-repo installs the hook environment afresh in a temporary store (it
pip-installs this checkout, building splicecat), which takes most of the
25-50 s, so all three hooks share one run. try-repo includes uncommitted
changes to tracked and staged files, not untracked ones.

The configuration docs/ci.md gives users is run as written too (below,
`documented_run`): its `repo:` is a clone of this checkout whose branch is
`main`, everything else verbatim; then `pre-commit autoupdate` pins a
commit, and the pinned configuration runs again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from harness import assert_same_behaviour

from pipelint.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent

# `echo done` last: the pipeline's status is not the script's (else PL001's fix is unsafe).
BAD = b"#!/bin/sh\ncat access.log | grep -c ' 500 '\necho done\n"
BAD_FIXED = b"#!/bin/sh\ngrep -c ' 500 ' < access.log\necho done\n"
CLEAN = b"#!/bin/sh\nwc -l < words.txt\n"
TOOL = b"#!/bin/sh\ncat data.csv | uniq\n"
README = b"Count the errors with `cat access.log | grep 500`.\n"
DOCKERFILE = b"FROM debian:12\nRUN cat access.log | grep -c 500\n"
WORKFLOW = b"on: push\njobs:\n  count:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cat access.log | grep -c 500\n"
COMPOSE = b"services:\n  db:\n    command: cat access.log | grep -c 500\n"


def git_free_env(**extra: str) -> dict[str, str]:
    """The environment without GIT_* variables (set when the suite runs inside a git hook)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(extra)
    return env


def hook_sections(output: str) -> dict[str, tuple[str, str]]:
    """hook id → (status line, the hook's output), from `pre-commit run --verbose`."""
    parts = re.split(r"^- hook id: (\S+)\n", output, flags=re.MULTILINE)
    sections = {}
    for index in range(1, len(parts), 2):
        status = parts[index - 1].rstrip("\n").rsplit("\n", 1)[-1]
        body = parts[index + 1]
        sections[parts[index]] = (status, body)
    return sections


def named_files(body: str) -> set[str]:
    """The files pipelint reported (`path:row:col: CODE …` lines)."""
    return set(re.findall(r"^(\S+):\d+:\d+: PL\d+", body, flags=re.MULTILINE))


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=git_free_env(), capture_output=True, text=True, check=True)
    return done.stdout


def commit_all(folder: Path, message: str) -> None:
    for args in (
        ("config", "user.email", "test@example.com"),
        ("config", "user.name", "pipelint tests"),
        ("config", "commit.gpgsign", "false"),
        ("add", "."),
        ("commit", "-q", "-m", message),
    ):
        git(*args, cwd=folder)


def documented_config() -> str:
    """The first ```yaml block of docs/ci.md's "## pre-commit" section, as users copy it."""
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    section = text[text.index("\n## pre-commit\n") :]
    block = re.search(r"```yaml\n(.*?)```", section, flags=re.DOTALL)
    assert block, "no yaml block under ## pre-commit in docs/ci.md"
    return block.group(1)


def pre_commit(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args, "--color", "never"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module")
def hook_run(tmp_path_factory):
    project = tmp_path_factory.mktemp("project")
    home = tmp_path_factory.mktemp("pre-commit-home")
    env = git_free_env(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    (project / "bad.sh").write_bytes(BAD)
    (project / "clean.sh").write_bytes(CLEAN)
    (project / "tool").write_bytes(TOOL)
    (project / "README.md").write_bytes(README)
    (project / "Dockerfile").write_bytes(DOCKERFILE)
    (project / ".github" / "workflows").mkdir(parents=True)
    (project / ".github" / "workflows" / "count.yml").write_bytes(WORKFLOW)
    (project / "compose.yml").write_bytes(COMPOSE)
    os.chmod(project / "tool", 0o644)  # not executable: identify gives it no `shell` tag
    git("init", "-q", cwd=project)
    commit_all(project, "scripts")
    completed = pre_commit("try-repo", str(ROOT), "--all-files", "--verbose", cwd=project, env=env)
    output = completed.stdout + completed.stderr
    if "An unexpected error has occurred" in output:
        # Most likely `pip install` of this checkout failed (pyproject.toml,
        # runtime/CMakeLists.txt): users could not install the hook either.
        log = home / "pre-commit.log"
        detail = log.read_text(errors="replace") if log.is_file() else ""
        pytest.fail(f"pre-commit could not set up the hook:\n{output}\n{detail[-4000:]}")
    if "Traceback (most recent call last)" in output:
        # try-repo copies modified tracked files but not untracked ones: in a
        # shared work tree, a registry line naming an uncommitted rule shows here.
        pytest.fail(f"pipelint crashed inside the hook:\n{output}")
    return project, completed.returncode, output, hook_sections(output)


def test_the_run_fails_and_runs_every_hook(hook_run):
    _, status, output, sections = hook_run
    assert status == 1, output
    assert list(sections) == ["pipelint", "pipelint-all", "pipelint-fix", "pipelint-hosts"], output


def test_each_hook_runs_pipelint_once_with_one_summary(hook_run):
    """`require_serial: true`: pre-commit hands every file to one pipelint (it would split them by CPU)."""
    _, _, output, sections = hook_run
    for hook, (_, body) in sections.items():
        summaries = re.findall(r"^(?:Found \d+ problems?|All checks passed!|No problems found)", body, flags=re.MULTILINE)
        assert len(summaries) <= 1, f"{hook} printed {len(summaries)} summaries:\n{output}"
    assert len(named_files(sections["pipelint-all"][1])) == 4  # several files, one call


def test_check_hook_names_only_the_bad_script(hook_run):
    _, _, output, sections = hook_run
    status, body = sections["pipelint"]
    assert status.endswith("Failed"), output
    assert "- exit code: 1" in body
    # The clean script is passed and has nothing to report; the README and the
    # extension-less script are not shell files to identify: never passed.
    assert named_files(body) == {"bad.sh"}
    assert "bad.sh:2:1: PL001" in body


def test_all_hook_reaches_the_extensionless_script_and_skips_text(hook_run):
    _, _, output, sections = hook_run
    status, body = sections["pipelint-all"]
    assert status.endswith("Failed"), output
    # pre-commit hands it README.md, compose.yml and clean.sh too: `--only-shell`
    # skips the README and the YAML that is no CI file, and the clean script has
    # nothing to report. The Dockerfile and the workflow hold shell: linted.
    assert named_files(body) == {"bad.sh", "tool", "Dockerfile", ".github/workflows/count.yml"}
    assert "tool:2:1: PL001" in body


def test_fix_hook_rewrites_the_bad_script(hook_run, tmp_path):
    project, _, output, sections = hook_run
    status, body = sections["pipelint-fix"]
    assert status.endswith("Failed"), output
    assert "files were modified by this hook" in body
    assert (project / "bad.sh").read_bytes() == BAD_FIXED
    assert (project / "clean.sh").read_bytes() == CLEAN
    assert (project / "README.md").read_bytes() == README
    # `types: [shell]` does not reach the extension-less script: left as it was.
    assert (project / "tool").read_bytes() == TOOL
    changed = subprocess.run(
        ["git", "status", "--porcelain"], cwd=project, env=git_free_env(), capture_output=True, text=True, check=True
    ).stdout
    assert changed.split() == ["M", "bad.sh"]
    # Success path: the rules' error path is issue 13 class 10 (tests/rules)
    assert_same_behaviour(BAD, BAD_FIXED, tmp_path, "dash", inputs=())


def test_hosts_hook_lints_dockerfiles_and_workflows_and_skips_other_yaml(hook_run):
    project, _, output, sections = hook_run
    status, body = sections["pipelint-hosts"]
    assert status.endswith("Failed"), output
    # It runs after pipelint-fix (id order), which fixed bad.sh already.
    assert named_files(body) == {"Dockerfile", ".github/workflows/count.yml"}
    assert "Dockerfile:2:5: PL001" in body
    assert ".github/workflows/count.yml:6:14: PL001" in body
    assert "compose.yml" not in body and "Traceback" not in body
    assert (project / "Dockerfile").read_bytes() == DOCKERFILE  # linted, not fixed


@pytest.fixture(scope="module")
def documented_run(tmp_path_factory):
    """docs/ci.md's configuration against a clone (branch main), then `pre-commit autoupdate`, then again."""
    base = tmp_path_factory.mktemp("documented")
    home = base / "pre-commit-home"
    env = git_free_env(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    # The clone holds what git tracks here, uncommitted changes included (as try-repo takes them).
    clone = base / "pipelint"
    clone.mkdir()
    for name in git("ls-files", "-z", cwd=ROOT).split("\0"):
        source = ROOT / name
        if name and (source.is_file() or source.is_symlink()):
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name, follow_symlinks=False)
    git("init", "-q", "-b", "main", cwd=clone)
    commit_all(clone, "pipelint")
    head = git("rev-parse", "HEAD", cwd=clone).strip()

    project = base / "project"
    project.mkdir()
    (project / "bad.sh").write_bytes(BAD)
    (project / "clean.sh").write_bytes(CLEAN)
    documented = documented_config()
    config = documented.replace("https://github.com/pipelint/pipelint", clone.as_uri())
    assert config != documented and config.count(clone.as_uri()) == 1
    (project / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    git("init", "-q", cwd=project)
    commit_all(project, "scripts")

    first = pre_commit("run", "--all-files", cwd=project, env=env)
    update = pre_commit("autoupdate", "--repo", clone.as_uri(), cwd=project, env=env)
    pinned = (project / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    second = pre_commit("run", "--all-files", cwd=project, env=env)
    for run in (first, update, second):
        assert "An unexpected error has occurred" not in run.stdout + run.stderr, run.stdout + run.stderr
    return documented, head, first, update, pinned, second


def test_the_documented_configuration_runs_as_written(documented_run):
    documented, _, first, _, _, _ = documented_run
    assert "rev: main" in documented and "id: pipelint" in documented
    output = first.stdout + first.stderr
    assert first.returncode == 1, output
    assert re.search(r"^pipelint\.+Failed$", output, flags=re.MULTILINE), output
    assert "bad.sh:2:1: PL001" in output and "clean.sh" not in output.split("Failed", 1)[1]


def test_autoupdate_pins_the_commit_of_main_and_the_pinned_configuration_runs(documented_run):
    _, head, _, update, pinned, second = documented_run
    assert update.returncode == 0, update.stdout + update.stderr
    (repository,) = yaml.safe_load(pinned)["repos"]
    assert repository["rev"] == head  # 40 hex digits: a commit, until a tag exists
    output = second.stdout + second.stderr
    assert second.returncode == 1, output
    assert "bad.sh:2:1: PL001" in output
    assert "mutable reference" not in output


def test_hook_sections_parses_pre_commit_output():
    output = (
        "pipelint....Failed\n- hook id: pipelint\n- duration: 0.1s\n- exit code: 1\n\nbad.sh:2:1: PL001 x\n\n"
        "pipelint (fix)....Passed\n- hook id: pipelint-fix\n- duration: 0.1s\n"
    )
    sections = hook_sections(output)
    assert sections["pipelint"][0] == "pipelint....Failed"
    assert "bad.sh:2:1" in sections["pipelint"][1]
    assert sections["pipelint-fix"][0] == "pipelint (fix)....Passed"
    assert named_files(sections["pipelint"][1]) == {"bad.sh"}
    assert named_files(sections["pipelint-fix"][1]) == set()


# The flags the hooks pass, checked without pre-commit.


def check(folder: Path, monkeypatch, *args: str):
    monkeypatch.chdir(folder)
    return CliRunner().invoke(cli, ["check", "--output-format", "concise", *args])


def reported(output: str) -> set[str]:
    return set(re.findall(r"^(\S+):\d+:\d+: PL\d+", output, flags=re.MULTILINE))


@pytest.fixture
def named(tmp_path):
    """Files pre-commit may name: shell scripts by extension or shebang, and other text."""
    (tmp_path / "bad.sh").write_bytes(BAD)
    (tmp_path / "tool").write_bytes(TOOL)  # no extension, not executable, shell shebang
    (tmp_path / "old.ksh").write_bytes(b"cat data.csv | uniq\n")  # identify: no `shell` tag
    (tmp_path / "README.md").write_bytes(README)
    (tmp_path / "notes.txt").write_bytes(b"cat access.log | grep 500\n")
    (tmp_path / "script.py").write_bytes(b"#!/usr/bin/env python3\nprint('cat f | grep x')\n")
    return tmp_path


def test_named_files_are_linted_whatever_they_are(named, monkeypatch):
    result = check(named, monkeypatch, "README.md", "notes.txt")
    assert result.exit_code == 1
    assert reported(result.output) == {"README.md", "notes.txt"}


def test_only_shell_keeps_the_files_discovery_would_pick(named, monkeypatch):
    names = ["bad.sh", "tool", "old.ksh", "README.md", "notes.txt", "script.py"]
    result = check(named, monkeypatch, "--only-shell", *names)
    assert result.exit_code == 1
    assert reported(result.output) == {"bad.sh", "tool", "old.ksh"}


def test_only_shell_with_nothing_left_passes(named, monkeypatch):
    result = check(named, monkeypatch, "--only-shell", "README.md", "notes.txt", "script.py")
    assert result.exit_code == 0, result.output
    assert reported(result.output) == set()
    for output_format in ("json", "sarif", "gitlab"):
        result = CliRunner().invoke(cli, ["check", "--only-shell", "--output-format", output_format, "README.md"])
        assert result.exit_code == 0, result.output


def test_a_folder_without_scripts_is_still_an_error(named, monkeypatch):
    (named / "empty").mkdir()
    result = check(named, monkeypatch, "--only-shell", "empty")
    assert result.exit_code != 0


def test_force_exclude_applies_exclude_to_named_files(named, monkeypatch):
    (named / "build").mkdir()
    (named / "build" / "gen.sh").write_bytes(BAD)  # `build` is excluded by default
    (named / "generated").mkdir()
    (named / "generated" / "more.sh").write_bytes(BAD)
    (named / ".pipelint.toml").write_text('extend-exclude = ["generated/"]\n')
    names = ["bad.sh", "build/gen.sh", "generated/more.sh"]
    assert reported(check(named, monkeypatch, *names).output) == set(names)
    result = check(named, monkeypatch, "--force-exclude", *names)
    assert result.exit_code == 1
    assert reported(result.output) == {"bad.sh"}
