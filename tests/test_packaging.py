"""The package as users meet it: its metadata, its one home (`[project.urls]`), its license, its install docs.

The wheel itself is built and run elsewhere: by the release workflow
(cibuildwheel in the manylinux2014 image, then in slim containers without a
compiler) and, once, by hand on a chroot without one (docs/release.md).
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipelint import __version__
from pipelint.cli.main import cli
from pipelint.embedded import hosts
from pipelint.output import common

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
URLS = PROJECT["urls"]
EXTENSION = ROOT / "editors" / "vscode"


def test_the_project_home_has_the_four_addresses_users_look_for():
    assert {"Homepage", "Documentation", "Changelog", "Issues"} <= set(URLS)
    assert URLS["Rules"].endswith("/") and all(url.startswith("https://") for url in URLS.values())
    assert URLS["Changelog"].endswith("/CHANGELOG.md") and (ROOT / "CHANGELOG.md").is_file()
    assert "## [Unreleased]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_addresses_pipelint_prints_are_read_from_the_project_home():
    common.project_urls.cache_clear()
    assert common.project_urls() == URLS


def test_an_installed_wheel_reads_them_from_its_metadata(tmp_path, monkeypatch):
    """No pyproject.toml beside an installed package: the dist-info's METADATA (scikit-build-core wrote it) answers."""
    metadata = importlib.metadata.distribution("pipelint").read_text("METADATA")
    assert metadata is not None
    dist_info = tmp_path / f"pipelint-{__version__}.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(metadata, encoding="utf-8")
    monkeypatch.setattr(common, "_PACKAGE_PARENT", tmp_path)
    common.project_urls.cache_clear()
    try:
        assert common.project_urls() == URLS
    finally:
        common.project_urls.cache_clear()


BAD = b"#!/bin/sh\ncat access.log | grep -c 500\necho done\n"


@pytest.mark.parametrize("output_format", ["json", "json-lines", "sarif", "github", "junit"])
def test_every_format_links_the_rule_at_the_project_home(tmp_path, monkeypatch, output_format):
    (tmp_path / "bad.sh").write_bytes(BAD)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", output_format, "bad.sh"])
    assert result.exit_code == 1, result.output
    assert URLS["Rules"] + "PL001-useless-cat.md" in result.output
    if output_format == "sarif":
        assert json.loads(result.output)["runs"][0]["tool"]["driver"]["informationUri"] == URLS["Homepage"]


def test_the_vscode_extension_names_the_same_home_and_license():
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    assert manifest["homepage"] == URLS["Documentation"]
    assert manifest["repository"]["url"] == URLS["Homepage"]
    assert manifest["bugs"]["url"] == URLS["Issues"]
    assert manifest["license"] == PROJECT["license"] == "MIT"
    # `vsce package` puts the license into the .vsix (tested there); it is the root's one copy.
    assert (EXTENSION / "LICENSE").is_symlink() and (EXTENSION / "LICENSE").resolve() == ROOT / "LICENSE"
    assert "--skip-license" not in manifest["scripts"]["package"]


def test_license_and_classifiers():
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    assert PROJECT["license-files"] == ["LICENSE"]
    classifiers = set(PROJECT["classifiers"])
    assert {
        "Operating System :: POSIX :: Linux",
        "Environment :: Console",
        "Topic :: Software Development :: Quality Assurance",
    } <= classifiers
    # PEP 639: a license expression, and no license classifier beside it.
    assert not any(classifier.startswith("License ::") for classifier in classifiers)
    versions = sorted(c.rsplit(" ", 1)[1] for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert versions == ["3.11", "3.12", "3.13"] and PROJECT["requires-python"] == ">=3.11"
    assert PROJECT["authors"] and PROJECT["keywords"]
    assert "Linux" in PROJECT["description"]


def test_the_build_requirement_is_bounded_and_uses_the_current_metadata_form():
    (requirement,) = PYPROJECT["build-system"]["requires"]
    assert re.fullmatch(r"scikit-build-core>=1\.\d+,<2", requirement)
    assert "metadata" not in PYPROJECT["tool"]["scikit-build"]  # deprecated since scikit-build-core 1.0
    assert PYPROJECT["tool"]["dynamic-metadata"] == [
        {"provider": "scikit_build_core.metadata.regex", "field": "version", "input": "pipelint/__init__.py"}
    ]
    assert importlib.metadata.version("pipelint") == __version__


def test_the_wheel_config_builds_manylinux2014_and_runs_the_smoke_test():
    config = PYPROJECT["tool"]["cibuildwheel"]
    assert config["manylinux-x86_64-image"] == config["manylinux-aarch64-image"] == "manylinux2014"
    assert ".ci/wheel-smoke" in config["test-command"]
    release = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert "id-token: write" in release and "pypa/gh-action-pypi-publish" in release
    assert "wheel-smoke . --no-compiler" in release


@pytest.mark.parametrize(("path", "kind"), json.loads((EXTENSION / "test" / "host-files.json").read_text())["paths"].items())
def test_the_editor_samples_agree_with_the_host_registry(path, kind):
    """The sample paths the VS Code extension and the Neovim and Emacs setups are tested against."""
    found = hosts.kind_of(path)
    assert (found.name if found else None) == kind


def readme_block(heading: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(f"\n{heading}\n") :]
    return re.search(r"```sh\n(.*?)```", section, flags=re.DOTALL).group(1)


def test_ci_runs_exactly_the_readme_test_command():
    readme = [line for line in readme_block("## Test").splitlines() if line and not line.startswith("#")]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme == [ci[-1]]
    assert "pip install" in readme[0] and readme[0].endswith("python -m pytest")


def test_the_readme_starts_with_what_pipelint_does_and_a_finding():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = text[: text.index("\n## Install\n")]
    assert "pipelint" in first_screen.split("\n\n")[1]  # the first paragraph says what it is
    assert re.search(r"^\S+:\d+:\d+: PL\d{3} ", first_screen, flags=re.MULTILINE)
    assert text.index("\n## Install\n") < text.index("\n## Test\n") < text.index("\n## Using it\n")


# A command that installs pipelint from a registry, which has none yet.
REGISTRY_INSTALL = re.compile(r"\b(?:pip|pipx|uv pip|uv tool) install (?:-[-\w]+ )*[\"']?pipelint(?![-\w@ /.])")


def test_no_document_tells_users_to_install_from_a_registry_before_the_first_release():
    """Each such command must sit in a sentence that says it works once pipelint is on PyPI."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offending = []
    for name in files:
        path = ROOT / name
        if path.suffix not in {".md", ".ts", ".yml", ".yaml", ".toml", ".py", ".json"} or re.match(r"(?:.*/)?tests?/", name):
            continue
        text = path.read_text(encoding="utf-8")
        for paragraph in re.split(r"\n\s*\n", text):
            for match in REGISTRY_INSTALL.finditer(paragraph):
                if not re.search(r"[Oo]nce pipelint is (?:released )?on PyPI", paragraph):
                    offending.append(f"{name}: {match.group(0)}")
    assert offending == []
