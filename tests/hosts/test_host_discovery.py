"""Which Dockerfiles and CI files `pipelint check DIR` picks, and the switches that leave them out."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipelint.cli import discovery
from pipelint.cli.main import cli

BAD_RUN = "FROM debian:12\nRUN cat access.log | grep 500\n"
BAD_STEP = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cat access.log | grep 500\n"
BAD_JOB = "job:\n  script:\n    - cat access.log | grep 500\n"
BAD_SERVICE = "services:\n  db:\n    command: sh -c 'cat access.log | grep 500'\n"

PICKED = {
    "Dockerfile": BAD_RUN,
    "Containerfile": BAD_RUN,
    "api.Dockerfile": BAD_RUN,
    "Dockerfile.prod": BAD_RUN,
    "Dockerfile-arm64v8": BAD_RUN,
    "images/Dockerfile-debian-aarch64": BAD_RUN,
    "Containerfile-ubi9": BAD_RUN,
    "docker/x.dockerfile": BAD_RUN,
    ".github/workflows/ci.yml": BAD_STEP,
    ".github/workflows/release.yaml": BAD_STEP,
    "actions/count/action.yml": "runs:\n  using: composite\n  steps:\n    - shell: bash\n      run: cat access.log | grep 500\n",
    ".gitlab-ci.yml": BAD_JOB,
    "ci/Deploy.gitlab-ci.yml": BAD_JOB,
    "docker-compose.yml": BAD_SERVICE,
    "compose.yaml": BAD_SERVICE,
    "deploy/compose.prod.yml": BAD_SERVICE,
}
NOT_PICKED = {
    "Dockerfile.dockerignore": "*.log\n",
    ".github/workflows/drafts/ci.yml": BAD_STEP,  # GitHub reads no subfolder of workflows/
    "notes.yml": BAD_JOB,
    "compose.yaml.orig": BAD_SERVICE,
    "Makefile": "all:\n\tcat access.log | grep 500\n",
}
# Scripts, picked as scripts: `Dockerfile-build.sh` ends as one does.
SCRIPTS = {"backup.sh": "cat access.log | grep 500\n", "Dockerfile-build.sh": "cat access.log | grep 500\n"}


@pytest.fixture
def project(tmp_path):
    for name, text in {**PICKED, **NOT_PICKED, **SCRIPTS}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def walked(folder, embedded: bool) -> set[str]:
    return {
        path.relative_to(folder).as_posix()
        for path in discovery.walk_scripts(folder, lambda p: False, embedded=embedded)
    }


def test_a_folder_walk_picks_dockerfiles_and_ci_files(project):
    assert walked(project, embedded=True) == set(PICKED) | set(SCRIPTS)


def test_no_embedded_picks_scripts_only(project):
    assert walked(project, embedded=False) == set(SCRIPTS)


def test_a_dockerfile_named_with_a_dash_is_linted_as_one(project, monkeypatch):
    """Named on the command line, `Dockerfile-arm64v8` is read as a Dockerfile, not as a shell script."""
    result = run(project, monkeypatch, "Dockerfile-arm64v8")
    assert "Dockerfile-arm64v8:2:5: PL001" in result.output and "parse-error" not in result.output


def run(folder, monkeypatch, *args: str):
    monkeypatch.chdir(folder)
    return CliRunner().invoke(cli, ["check", "--output-format", "concise", *args])


def reported(output: str) -> set[str]:
    return set(re.findall(r"^(\S+):\d+:\d+: PL\d+", output, flags=re.MULTILINE))


def test_check_reports_every_host_file_at_its_line(project, monkeypatch):
    result = run(project, monkeypatch, ".")
    assert result.exit_code == 1
    assert reported(result.output) == set(PICKED) | set(SCRIPTS)
    assert "Dockerfile:2:5: PL001" in result.output
    assert ".github/workflows/ci.yml:6:14: PL001" in result.output
    assert ".gitlab-ci.yml:3:7: PL001" in result.output
    assert "docker-compose.yml:3:21: PL001" in result.output


def test_config_embedded_false_turns_discovery_off(project, monkeypatch):
    (project / ".pipelint.toml").write_text("embedded = false\n")
    assert reported(run(project, monkeypatch, ".").output) == set(SCRIPTS)
    assert reported(run(project, monkeypatch, "--embedded", ".").output) == set(PICKED) | set(SCRIPTS)


def test_a_named_host_file_is_linted_as_its_kind_and_skipped_without_embedded(project, monkeypatch):
    result = run(project, monkeypatch, "Dockerfile")
    assert reported(result.output) == {"Dockerfile"} and "parse-error" not in result.output
    result = run(project, monkeypatch, "--no-embedded", "Dockerfile")
    assert result.exit_code == 0 and reported(result.output) == set()
    assert "Dockerfile: not linted" in result.output


def test_only_shell_skips_other_yaml_quietly(project, monkeypatch):
    names = [".gitlab-ci.yml", ".github/workflows/ci.yml", "compose.yaml.orig", "notes.yml", "Dockerfile"]
    result = run(project, monkeypatch, "--only-shell", *names)
    assert reported(result.output) == {".gitlab-ci.yml", ".github/workflows/ci.yml", "Dockerfile"}
    assert "compose.yaml.orig" not in result.output and "notes.yml" not in result.output
    result = run(project, monkeypatch, "--only-shell", "compose.yaml.orig", "notes.yml")
    assert result.exit_code == 0 and result.output.strip() == "All checks passed!"


def test_fix_rewrites_a_dockerfile_in_place_keeping_its_mode(project, monkeypatch):
    os.chmod(project / "Dockerfile", 0o640)
    # Both scripts' last status is seen (the build, GitLab's `sh -e`): PL001's fix is unsafe there.
    result = run(project, monkeypatch, "--fix", "--unsafe-fixes", "Dockerfile", ".gitlab-ci.yml")
    assert result.exit_code == 0, result.output
    assert (project / "Dockerfile").read_text() == "FROM debian:12\nRUN grep 500 < access.log\n"
    assert (project / ".gitlab-ci.yml").read_text() == "job:\n  script:\n    - grep 500 < access.log\n"
    assert os.stat(project / "Dockerfile").st_mode & 0o777 == 0o640


_PROBE = """
import sys
from pipelint.cli.main import cli
try:
    # --jobs 1: linted in this process, whose modules are the ones looked at; --no-cache: linted at all
    cli(["check", "--exit-zero", "-q", "--jobs", "1", "--no-cache", sys.argv[1]])
except SystemExit:
    pass
print(sorted({"yaml", "dockerfile"} & set(sys.modules)))
"""


def parsers_loaded_by_checking(path: Path) -> str:
    """Which host parsers a fresh `pipelint check PATH` imported."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)], check=False, capture_output=True, text=True, env=env
    )
    assert run.stdout, run.stderr
    return run.stdout.strip().splitlines()[-1]


def test_a_run_over_scripts_alone_loads_no_host_parser(tmp_path):
    # PyYAML and BuildKit's parser cost ~40 ms at start-up: loaded only when a host file is read.
    (tmp_path / "backup.sh").write_text("cat access.log | grep 500\n")
    assert parsers_loaded_by_checking(tmp_path / "backup.sh") == "[]"
    (tmp_path / "Dockerfile").write_text(BAD_RUN)
    assert parsers_loaded_by_checking(tmp_path) == "['dockerfile']"
