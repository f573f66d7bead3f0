"""docs/ci.md and .pre-commit-hooks.yaml: the snippets users copy are valid and name what exists."""

from __future__ import annotations

import re
import shlex

import yaml
from output_helpers import REPO

from pipelint.cli.main import check
from pipelint.output import FORMATS

DOC = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)
CHECK_OPTIONS = {name for param in check.params for name in param.opts}


def blocks(language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(DOC) if lang == language]


def pipelint_commands() -> list[list[str]]:
    """Every `pipelint check …` command in the document's YAML and shell blocks, and in the hooks."""
    lines = [hook["entry"] for hook in HOOKS]
    for body in blocks("yaml") + blocks("sh"):
        lines += [m.group(0) for m in re.finditer(r"pipelint check[^>|\n#]*", body)]
    return [shlex.split(line)[2:] for line in lines]


def test_yaml_blocks_parse():
    assert len(blocks("yaml")) >= 5
    for body in blocks("yaml"):
        yaml.safe_load(body)


def test_commands_use_existing_options_and_formats():
    commands = pipelint_commands()
    assert len(commands) >= 8
    for arguments in commands:
        for index, argument in enumerate(arguments):
            if argument.startswith("-"):
                assert argument in CHECK_OPTIONS, argument
            if argument == "--output-format":
                assert arguments[index + 1] in FORMATS


def test_every_ci_format_is_documented():
    for name in ("sarif", "github", "gitlab", "junit", "json-lines"):
        assert name in FORMATS
        assert f"`{name}`" in DOC


def test_the_pre_commit_example_names_real_hooks():
    ids = {hook["id"] for hook in HOOKS}
    assert ids == {"pipelint", "pipelint-fix", "pipelint-all", "pipelint-hosts"}
    for body in blocks("yaml"):
        config = yaml.safe_load(body)
        if isinstance(config, dict) and "repos" in config:
            for repo in config["repos"]:
                assert {hook["id"] for hook in repo["hooks"]} <= ids


def test_hooks_are_python_hooks_on_file_types():
    for hook in HOOKS:
        assert hook["language"] == "python"
        assert hook["entry"].startswith("pipelint check ")
        assert "--only-shell" in hook["entry"] and "--force-exclude" in hook["entry"]
    types = {hook["id"]: hook.get("types") or hook["types_or"] for hook in HOOKS}
    assert types == {
        "pipelint": ["shell"],
        "pipelint-fix": ["shell"],
        "pipelint-all": ["text"],
        "pipelint-hosts": ["shell", "dockerfile", "yaml"],  # any of them (`types_or`)
    }
    for hook in HOOKS:
        assert f"`{hook['id']}`" in DOC
    assert "--fix" in next(hook["entry"] for hook in HOOKS if hook["id"] == "pipelint-fix")
