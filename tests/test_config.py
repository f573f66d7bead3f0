"""Configuration: where it is found, what it means, how the CLI overrides it."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run_cli

from pipelint.config import ConfigError, Overrides, Settings, SettingsResolver, find_config_file, load

BAD = "#!/bin/bash\ncat access.log | grep 500\ncat dump.sql | mysql shop\n"


def found_codes(result) -> set[str]:
    return {record["code"] for record in json.loads(result.stdout)}


def test_pyproject_table_is_read(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pipelint]\nignore = ["PL004"]\n')
    (tmp_path / "a.sh").write_text(BAD)
    assert found_codes(run_cli("check", "--output-format", "json", "a.sh", cwd=tmp_path)) == {"PL001"}


def test_pyproject_without_our_table_is_skipped(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pipelint]\nselect = ["PL004"]\n')
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert find_config_file(sub) == tmp_path / "pyproject.toml"


def test_dot_pipelint_toml_wins_over_pyproject_in_the_same_folder(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pipelint]\nselect = ["PL004"]\n')
    (tmp_path / ".pipelint.toml").write_text('select = ["PL001"]\n')
    (tmp_path / "a.sh").write_text(BAD)
    assert found_codes(run_cli("check", "--output-format", "json", "a.sh", cwd=tmp_path)) == {"PL001"}


def test_closest_config_wins(tmp_path):
    (tmp_path / ".pipelint.toml").write_text('select = ["PL004"]\n')
    nested = tmp_path / "nested"
    nested.mkdir()
    (nested / ".pipelint.toml").write_text('select = ["PL001"]\n')
    (tmp_path / "top.sh").write_text(BAD)
    (nested / "deep.sh").write_text(BAD)
    records = json.loads(run_cli("check", "--output-format", "json", cwd=tmp_path).stdout)
    assert {(r["filename"], r["code"]) for r in records} == {("top.sh", "PL004"), ("nested/deep.sh", "PL001")}


def test_cli_overrides_config(tmp_path):
    (tmp_path / ".pipelint.toml").write_text('select = ["PL001"]\n')
    (tmp_path / "a.sh").write_text(BAD)
    result = run_cli("check", "--output-format", "json", "--select", "PL004", "a.sh", cwd=tmp_path)
    assert found_codes(result) == {"PL004"}


def test_per_file_ignores_and_exclude(tmp_path):
    (tmp_path / ".pipelint.toml").write_text(
        'exclude = ["vendor/"]\n[per-file-ignores]\n"legacy/*.sh" = ["useless-cat"]\n'
    )
    for name in ("legacy/old.sh", "vendor/lib.sh", "new.sh"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(BAD)
    records = json.loads(run_cli("check", "--output-format", "json", cwd=tmp_path).stdout)
    assert {(r["filename"], r["code"]) for r in records} == {
        ("legacy/old.sh", "PL004"),
        ("new.sh", "PL001"),
        ("new.sh", "PL004"),
    }


def test_unsafe_fixes_from_config(tmp_path):
    (tmp_path / ".pipelint.toml").write_text("unsafe-fixes = true\n")
    script = tmp_path / "loop.sh"
    script.write_text("cat access.log | while read -r l; do :; done\n")
    assert run_cli("check", "--fix", "loop.sh", cwd=tmp_path).returncode == 0
    assert script.read_text() == "while read -r l; do :; done < access.log\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('select = "PL001"\n', "select: must be a list of strings"),
        ('bogus = ["x"]\n', "bogus: unknown key"),
        ('extend-select = ["nope"]\n', "extend-select: unknown rule selector 'nope'"),
        ('[per-file-ignores]\n"*.sh" = "PL001"\n', "per-file-ignores.*.sh: must be a list of rule codes"),
        ("slow-mounts = [1]\n", "slow-mounts: must be a list of strings"),
        ("select = [\n", "invalid TOML"),
    ],
)
def test_errors_name_the_file_and_the_key(tmp_path, content, message):
    config = tmp_path / ".pipelint.toml"
    config.write_text(content)
    load.cache_clear()
    with pytest.raises(ConfigError) as error:
        load(config)
    assert str(error.value).startswith(str(config))
    assert message in str(error.value)


def test_default_selection_leaves_out_opt_in_rules():
    codes = {rule.code for rule in Settings().enabled_rules()}
    assert "PL001" in codes
    assert not any(code.startswith("PL6") for code in codes)


def test_overrides_extend_and_ignore():
    settings = Overrides(select=("PL003",), extend_select=("PL00",), ignore=("PL001",)).apply(Settings())
    codes = {rule.code for rule in settings.enabled_rules()}
    assert "PL001" not in codes and "PL004" in codes


def test_resolver_uses_an_explicit_config_file(tmp_path):
    config = tmp_path / "custom.toml"
    config.write_text('select = ["PL003"]\n')
    settings = SettingsResolver(config_file=config).for_path(tmp_path / "x.sh")
    assert [rule.code for rule in settings.enabled_rules()] == ["PL003"]
