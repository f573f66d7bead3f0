"""Configuration: where it is found, what it means, how the CLI overrides it."""

from __future__ import annotations

import json
import os

import pytest
from cli_helpers import run_cli

from pipelint.engine import config
from pipelint.engine.config import ConfigError, Overrides, Settings, SettingsResolver, find_config_file, load

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


@pytest.mark.parametrize("order", [("deep", "plain", "configured"), ("configured", "plain", "deep")])
def test_one_search_remembers_each_folder_it_passed(tmp_path, order):
    """The folders searched for one file answer for the next: whatever the order, each gets its own closest file."""
    (tmp_path / "pyproject.toml").write_text('[tool.pipelint]\nselect = ["PL004"]\n')
    folders = {"plain": tmp_path / "plain", "configured": tmp_path / "plain" / "configured"}
    folders["deep"] = folders["configured"] / "a" / "b"
    folders["deep"].mkdir(parents=True)
    (folders["configured"] / ".pipelint.toml").write_text('select = ["PL001"]\n')
    known: dict = {}
    found = {name: find_config_file(folders[name], known) for name in order}
    assert found == {
        "plain": tmp_path / "pyproject.toml",
        "configured": folders["configured"] / ".pipelint.toml",
        "deep": folders["configured"] / ".pipelint.toml",
    }
    assert known[folders["deep"]] == folders["configured"] / ".pipelint.toml"


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


def test_the_micro_costs_leave_the_default_set_but_pl503_stays_in_loops():
    settings = Settings()
    codes = {rule.code for rule in settings.enabled_rules()}
    assert {"PL501", "PL502"}.isdisjoint(codes)
    assert "PL503" in codes and settings.loops_only == {"PL503"}


@pytest.mark.parametrize(
    "settings",
    [
        Settings(extend_select=("PL5",)),
        Settings(extend_select=("echo-pipe",)),
        Settings(select=("PL503",)),
        Settings(select=("ALL",)),
    ],
)
def test_a_rule_selected_by_name_or_prefix_reports_everywhere(settings):
    assert "PL503" in {rule.code for rule in settings.enabled_rules()}
    assert settings.loops_only == frozenset()


def test_an_ignored_loop_rule_is_off_everywhere():
    settings = Settings(ignore=("PL5",))
    assert "PL503" not in {rule.code for rule in settings.enabled_rules()}
    assert settings.loops_only == frozenset()


def test_overrides_extend_and_ignore():
    settings = Overrides(select=("PL003",), extend_select=("PL00",), ignore=("PL001",)).apply(Settings())
    codes = {rule.code for rule in settings.enabled_rules()}
    assert "PL001" not in codes and "PL004" in codes


def test_resolver_uses_an_explicit_config_file(tmp_path):
    config = tmp_path / "custom.toml"
    config.write_text('select = ["PL003"]\n')
    settings = SettingsResolver(config_file=config).for_path(tmp_path / "x.sh")
    assert [rule.code for rule in settings.enabled_rules()] == ["PL003"]


# A broken config file stops only the files it governs.


@pytest.fixture
def two_projects(tmp_path):
    """a/ configured well, b/ with an invalid pyproject.toml; each with scripts that have findings."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.sh").write_text(BAD)
    (tmp_path / "b" / "y.sh").write_text(BAD)
    (tmp_path / "a" / ".pipelint.toml").write_text('ignore = ["PL004"]\n')
    (tmp_path / "b" / "pyproject.toml").write_text("[tool.pipelint]\nselct = ['PL001']\n")
    return tmp_path


def config_errors(result) -> list[str]:
    return [line for line in result.stderr.decode().splitlines() if line.startswith("pipelint: error:")]


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_broken_config_stops_only_its_files(two_projects, order):
    result = run_cli("check", "--output-format", "concise", *order, cwd=two_projects)
    out = result.stdout.decode()
    assert result.returncode == 2
    (line,) = config_errors(result)
    assert "b/pyproject.toml: tool.pipelint.selct: unknown key" in line
    assert "a/x.sh:2:1: PL001" in out and "PL004" not in out  # a's own config applied
    assert "b/" not in out


def test_each_broken_config_is_reported_once(two_projects):
    result = run_cli("check", "b/x.sh", "b/y.sh", "b", cwd=two_projects)
    assert result.returncode == 2 and len(config_errors(result)) == 1


def test_fix_reports_every_files_outcome_when_a_config_is_broken(two_projects):
    """Every config is loaded before the first write; the good folder is fixed and says so."""
    result = run_cli("check", "--fix", "--output-format", "concise", "a", "b", cwd=two_projects)
    out = result.stdout.decode()
    assert result.returncode == 2
    assert len(config_errors(result)) == 1
    assert (two_projects / "a" / "x.sh").read_text() == BAD.replace("cat access.log | grep 500", "grep 500 < access.log")
    assert (two_projects / "b" / "x.sh").read_text() == BAD
    assert "Found 1 problem (1 fixed, 0 remaining); 1 error" in out  # a's config ignores PL004
    assert "All checks passed!" not in out


@pytest.mark.parametrize(
    ("value", "size"),
    [("8MiB", 8 << 20), ("8 MiB", 8 << 20), ("500k", 500 << 10), ("10MB", 10_000_000), (4096, 4096), ("0", None), (0, None)],
)
def test_sizes(value, size):
    from pipelint.engine.config import parse_size

    assert parse_size(value) == size


@pytest.mark.parametrize("value", ["lots", "-1", "1.5MiB", True, "8 MiBs"])
def test_unreadable_sizes(value):
    from pipelint.engine.config import parse_size

    with pytest.raises(ValueError):
        parse_size(value)


def test_max_file_size_in_config_is_validated(tmp_path):
    (tmp_path / ".pipelint.toml").write_text('max-file-size = "huge"\n')
    with pytest.raises(ConfigError, match="max-file-size: must be a size"):
        load(tmp_path / ".pipelint.toml")
    (tmp_path / ".pipelint.toml").write_text('max-file-size = "2MiB"\n')
    assert load(tmp_path / ".pipelint.toml").max_file_size == 2 << 20


def test_per_file_ignores_patterns_are_validated(tmp_path):
    (tmp_path / ".pipelint.toml").write_text('[per-file-ignores]\n"[z-a]" = ["PL001"]\n')
    with pytest.raises(ConfigError, match=r"per-file-ignores.\[z-a\]: is not a valid gitignore pattern"):
        load(tmp_path / ".pipelint.toml")


def test_stdin_fix_under_a_broken_config_gives_the_input_back(tmp_path):
    (tmp_path / ".pipelint.toml").write_text("selct = 1\n")
    result = run_cli("check", "--fix", "-", cwd=tmp_path, stdin=BAD.encode())
    assert result.returncode == 2
    assert result.stdout == BAD.encode()
    assert result.stderr.decode().startswith("pipelint: error: ") and "selct: unknown key" in result.stderr.decode()


def test_real_folders_are_those_os_path_realpath_gives_through_links_loops_and_a_change_of_folder(tmp_path, monkeypatch):
    """config._realpath walks up from remembered parents (one lstat per folder): it must agree with realpath."""
    (tmp_path / "a/b/c").mkdir(parents=True)
    (tmp_path / "absolute").symlink_to(tmp_path / "a/b")
    (tmp_path / "a/relative").symlink_to("b")
    (tmp_path / "a/b/up").symlink_to("../..")
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    absolute = [
        "", "a", "a/b/c", "absolute", "absolute/c", "absolute/..", "a/relative/c", "a/b/up/a", "a/b/up/absolute/c",
        "missing/x", "a/../a/b", "/a//b/", "a/./b", "loop1", "loop1/x", "a/b/c/..",
    ]  # fmt: skip
    relative = ["b", "b/c", "relative", "relative/c", "../absolute/c", "./b", "b/up/absolute", ".", ".."]
    for first_folder in (tmp_path / "a", tmp_path / "a/b"):  # the same relative names, from two folders
        monkeypatch.chdir(first_folder)
        for folder in [f"{tmp_path}/{name}" for name in absolute] + relative:
            assert config._realpath(folder) == os.path.realpath(folder), folder


def test_a_folder_turned_into_a_link_is_seen_after_read_afresh(tmp_path):
    """What a language server asks before each lint: real paths are not remembered across lints."""
    (tmp_path / "real").mkdir()
    (tmp_path / "elsewhere").mkdir()
    folder = str(tmp_path / "real")
    assert config._realpath(folder) == folder
    (tmp_path / "real").rmdir()
    (tmp_path / "real").symlink_to(tmp_path / "elsewhere")
    config.read_afresh()
    assert config._realpath(folder) == str(tmp_path / "elsewhere")
