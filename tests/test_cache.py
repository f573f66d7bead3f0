"""The results cache: a file is linted again exactly when something its findings depend on changed."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from cli_helpers import REPO, run_cli

from pipelint.cli import cache, run as check_run
from pipelint.cli.run import RunOptions, run_check
from pipelint.engine.config import Overrides, SettingsResolver
from pipelint.engine.linter import FileReport

SCRIPT = "cat dump.sql | mysql db\ncat log | tee /mnt/nfs/out > /dev/null\n"
CACHE_FILE = Path(".pipelint_cache") / cache.FILE_NAME


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.sh").write_text(SCRIPT)
    (tmp_path / "b.sh").write_text("echo hi | grep -c h | wc -l\n")
    return tmp_path


@pytest.fixture
def linted(monkeypatch) -> list[str]:
    """The names of the files actually linted (not answered from the cache), run after run."""
    names: list[str] = []
    real = check_run._lint_job

    def counting(job):
        names.append(job.name)
        return real(job)

    monkeypatch.setattr(check_run, "_lint_job", counting)
    return names


def check(*paths: str, fix: bool = False, overrides: Overrides | None = None):
    options = RunOptions(fix=fix, write=fix, cache=True)
    return run_check(paths, SettingsResolver(overrides or Overrides()), options)


def findings(run) -> list[tuple[str, str, int]]:
    return [(report.display_name, finding.code, finding.start) for report in run.reports for finding in report.findings]


def test_an_unchanged_file_is_answered_from_the_cache(project, linted):
    first = check("a.sh", "b.sh")
    assert linted == ["a.sh", "b.sh"]
    second = check("a.sh", "b.sh")
    assert linted == ["a.sh", "b.sh"]  # nothing linted the second time
    assert findings(second) == findings(first) and findings(first)


def test_a_change_of_content_lints_that_file_again(project, linted):
    check("a.sh", "b.sh")
    (project / "b.sh").write_text("echo hi | grep -c h\n")
    check("a.sh", "b.sh")
    assert linted == ["a.sh", "b.sh", "b.sh"]


@pytest.mark.parametrize(
    "change",
    [
        Overrides(select=("PL001",)),
        Overrides(ignore=("PL004",)),
        Overrides(slow_mounts=("/data",)),
        Overrides(embedded=False),
    ],
)
def test_a_change_of_settings_lints_again(project, linted, change):
    check("a.sh")
    check("a.sh", overrides=change)
    assert linted == ["a.sh", "a.sh"]


def test_a_change_of_config_file_lints_again(project, linted):
    check("a.sh")
    (project / ".pipelint.toml").write_text('ignore = ["PL004"]\n')
    check("a.sh")
    assert linted == ["a.sh", "a.sh"]


def test_a_change_of_version_lints_again(project, linted, monkeypatch):
    check("a.sh")
    monkeypatch.setattr(cache, "engine_fingerprint", lambda: "pipelint 99.0")
    check("a.sh")
    assert linted == ["a.sh", "a.sh"]


def test_a_change_of_the_mount_table_lints_again_when_pl102_checks(project):
    table = project / "mountinfo"
    table.write_text("22 1 8:1 / / rw - ext4 /dev/sda1 rw\n")
    before = run_cli("check", "--mounts", str(table), "a.sh", cwd=project)
    table.write_text(table.read_text() + "40 22 0:50 / /mnt/nfs rw - nfs4 srv:/export rw\n")
    after = run_cli("check", "--mounts", str(table), "a.sh", cwd=project)
    assert b"PL102" not in before.stdout
    assert b"PL102" in after.stdout


def test_without_pl102_the_mount_table_is_not_read(project, linted):
    table = project / "mountinfo"
    table.write_text("22 1 8:1 / / rw - ext4 /dev/sda1 rw\n")
    quiet = Overrides(ignore=("PL102",))
    options = RunOptions(cache=True, mountinfo=str(table))
    run_check(["a.sh"], SettingsResolver(quiet), options)
    table.write_text(table.read_text() + "40 22 0:50 / /mnt/nfs rw - nfs4 srv:/export rw\n")
    run_check(["a.sh"], SettingsResolver(quiet), options)
    assert linted == ["a.sh"]
    run_check(["a.sh"], SettingsResolver(), options)  # with PL102, the table it reads is fingerprinted
    table.write_text(table.read_text() + "41 22 0:51 / /mnt/cifs rw - cifs //srv/x rw\n")
    run_check(["a.sh"], SettingsResolver(), options)
    assert linted == ["a.sh", "a.sh", "a.sh"]


# Issue 25 class 8: PL103 reads the scripts beside the file, which the key did not cover.
STRAY = "sort words.txt | tee debug.log | wc -l\n"


@pytest.fixture
def stray(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "job.sh").write_text(STRAY)
    (tmp_path / "other.sh").write_text("echo other\n")
    (tmp_path / "notes.txt").write_text("not a script\n")
    return tmp_path


PASSED = b"All checks passed!\n"


def _cli(*names: str):
    completed = run_cli("check", "--output-format", "concise", *names)
    return completed.returncode, completed.stdout


def test_a_sibling_that_starts_naming_the_copy_is_seen_by_the_cached_run(stray):
    """End to end with the real CLI: the cached answer must follow the sibling, both ways."""
    assert _cli("job.sh")[0] == 1 and b"PL103" in _cli("job.sh")[1]  # linted, then answered from the cache
    (stray / "other.sh").write_text("grep error debug.log\n")
    assert _cli("job.sh") == (0, PASSED)
    assert _cli("job.sh") == (0, PASSED)  # and cached so
    (stray / "other.sh").write_text("echo nothing read\n")
    assert _cli("job.sh")[0] == 1
    assert _cli("job.sh")[0] == run_cli("check", "--no-cache", "job.sh").returncode == 1


@pytest.mark.parametrize(
    "change",
    [
        lambda d: (d / "reader.sh").write_text("tail debug.log\n"),  # a new script beside it
        lambda d: (d / "reader").write_text("#!/bin/sh\ntail debug.log\n"),  # a script by its shebang
        lambda d: (d / "other.sh").unlink() or (d / "other.sh").write_text("cat debug.log\n"),  # replaced
        lambda d: [(d / "notes.txt").write_text("cat debug.log\n"), (d / "notes.txt").rename(d / "notes.sh")],
    ],
    ids=["new", "shebang", "replaced", "renamed"],
)
def test_every_change_beside_it_that_answers_the_question_is_seen(stray, change):
    assert _cli("job.sh")[0] == 1
    change(stray)
    assert _cli("job.sh") == (0, PASSED)
    assert run_cli("check", "--no-cache", "job.sh").returncode == 0


def test_a_file_whose_lint_read_no_sibling_stays_cached(stray, linted):
    (stray / "plain.sh").write_text("cat words.txt | wc -l\n")  # no stray tee: PL103 never looks beside it
    check("plain.sh", "job.sh")
    (stray / "other.sh").write_text("grep error debug.log\n")
    again = check("plain.sh", "job.sh")
    assert linted == ["plain.sh", "job.sh", "job.sh"]
    assert [f[1] for f in findings(again)] == ["PL001"]


def test_an_entry_records_what_its_lint_read_from_outside(stray):
    check("job.sh")
    (entry,) = json.loads(CACHE_FILE.read_bytes())["entries"].values()
    assert set(entry["outside"]) == {"SIBLING_SCRIPTS", "MOUNT_TABLE"}


def test_every_outside_read_is_declared_by_the_rules_that_make_it():
    """The cache fingerprints what the enabled rules declare; a read nobody declared is never cached."""
    from pipelint.engine.registry import RULES
    from pipelint.facts.outside import Outside

    from pipelint.facts.outside import ENGINE_READS

    declared = {kind for rule in RULES for kind in rule.reads_outside}
    assert declared | ENGINE_READS == set(Outside) and not declared & ENGINE_READS
    for rule in RULES:
        text = Path(sys.modules[rule.__module__].__file__).read_text()
        for kind, method in ((Outside.MOUNT_TABLE, "mount_table()"), (Outside.SIBLING_SCRIPTS, "sibling_scripts()")):
            assert (method in text) == (kind in rule.reads_outside), (rule.code, kind)
    assert cache.entry_of([], [], None, [], None, frozenset({Outside.SIBLING_SCRIPTS}), {}) is None


def test_entries_the_last_run_did_not_use_are_pruned(project):
    check("a.sh", "b.sh")
    assert len(json.loads(CACHE_FILE.read_bytes())["entries"]) == 2
    check("a.sh")
    assert len(json.loads(CACHE_FILE.read_bytes())["entries"]) == 1


@pytest.mark.parametrize(
    "damage", [b"", b"{not json", b'{"format": 1, "entries": []}', b'{"format": 1, "entries": {"x": 1}}', b"\xff\xfe"]
)
def test_a_corrupt_cache_is_ignored_and_rewritten(project, linted, damage):
    expected = findings(check("a.sh", "b.sh"))
    CACHE_FILE.write_bytes(damage)
    assert findings(check("a.sh", "b.sh")) == expected
    assert linted == ["a.sh", "b.sh", "a.sh", "b.sh"]
    assert len(json.loads(CACHE_FILE.read_bytes())["entries"]) == 2


def test_a_damaged_entry_lints_that_file_again(project, linted):
    expected = findings(check("a.sh", "b.sh"))
    data = json.loads(CACHE_FILE.read_bytes())
    for entry in data["entries"].values():
        entry["findings"] = [["PL001", "useless-cat", "no-such-severity", "m", 0, 1, None, None]]
    CACHE_FILE.write_text(json.dumps(data))
    assert findings(check("a.sh", "b.sh")) == expected
    assert linted == ["a.sh", "b.sh", "a.sh", "b.sh"]


def test_a_fix_run_gives_what_it_gives_without_the_cache(project, tmp_path):
    check("a.sh", "b.sh")  # the cache holds the lint of both
    with_cache = check("a.sh", "b.sh", fix=True)
    fixed = {name: (project / name).read_text() for name in ("a.sh", "b.sh")}
    assert fixed["a.sh"] != SCRIPT  # the fix was written, not skipped for a cached lint
    (project / "a.sh").write_text(SCRIPT)
    (project / "b.sh").write_text("echo hi | grep -c h | wc -l\n")
    options = RunOptions(fix=True, write=True, cache=False)
    without = run_check(("a.sh", "b.sh"), SettingsResolver(), options)
    assert findings(with_cache) == findings(without)
    assert [r.fixed for r in with_cache.reports] == [r.fixed for r in without.reports]
    assert fixed == {name: (project / name).read_text() for name in ("a.sh", "b.sh")}


def test_a_fixed_file_is_answered_from_the_cache_next_time(project, linted):
    check("a.sh", fix=True)
    check("a.sh")
    assert linted == ["a.sh"]  # the fix run kept the lint of the text it wrote


def test_no_cache_reads_and_writes_nothing(project):
    result = run_cli("check", "--no-cache", "a.sh", cwd=project)
    assert result.returncode == 1
    assert not (project / ".pipelint_cache").exists()


def test_the_cache_folder_keeps_itself_out_of_git(project):
    run_cli("check", "a.sh", cwd=project)
    folder = project / ".pipelint_cache"
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")


def test_cache_dir_from_the_config_file(project):
    (project / "sub").mkdir()
    (project / "sub" / "c.sh").write_text(SCRIPT)
    (project / "sub" / ".pipelint.toml").write_text('cache-dir = "../elsewhere/cache"\n')
    result = run_cli("check", "sub/c.sh", cwd=project)
    assert result.returncode == 1
    assert (project / "elsewhere" / "cache" / cache.FILE_NAME).is_file()
    assert not (project / ".pipelint_cache").exists()


def test_a_cache_that_cannot_be_written_is_skipped(project):
    (project / ".pipelint.toml").write_text('cache-dir = "/proc/no-cache-here"\n')
    result = run_cli("check", "a.sh", cwd=project)
    assert result.returncode == 1
    assert result.stderr == b""
    assert b"PL001" in result.stdout


def test_two_concurrent_runs_on_one_tree_both_succeed(project):
    for index in range(150):
        (project / f"s{index:03d}.sh").write_text(SCRIPT + f"echo {index}\n")
    command = [sys.executable, "-m", "pipelint", "check", "--output-format", "concise", "."]
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    runs = [subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [1, 1]
    assert outputs[0] == outputs[1]
    assert outputs[0][1] == b""
    assert len(json.loads(CACHE_FILE.read_bytes())["entries"]) == 152
    third = run_cli("check", "--output-format", "concise", ".", cwd=project)
    assert (third.stdout, third.stderr) == outputs[0]


def test_an_entry_keeps_every_field_a_lint_reports():
    """A field added to FileReport must be kept in the cache too (and FORMAT bumped), or cached runs would lose it."""
    per_run = {"display_name", "source", "fixed", "fixed_source", "crashes"}  # the run's, or never cached
    assert {f.name for f in fields(FileReport)} - per_run == {f.name for f in fields(cache.Entry)}


def test_a_cached_run_says_the_notes_again(project):
    (project / "joined.sh").write_text("[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r > k\n[ 1 ]\n")
    (project / "unread.sh").write_text('#!/bin/bash\nfor i do echo "$i"; done\ncat words.txt | wc -l\n')
    for arguments in (["--verbose", "joined.sh"], ["unread.sh"]):
        first = run_cli("check", *arguments, cwd=project)
        second = run_cli("check", *arguments, cwd=project)
        assert b"pipelint: note: " in first.stderr
        assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)


def test_the_shell_that_judges_an_unparsed_line_is_an_input_too(tmp_path, monkeypatch):
    """Where tree-sitter-bash cannot parse a line, `bash -n` decides between a note and a parse error: another
    bash (here one that rejects everything, first on PATH) must not be answered from the other's entry."""
    import os

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.sh").write_text('#!/bin/bash\nfor i do echo "$i"; done\ncat words.txt | wc -l\n')
    strict = tmp_path / "strict-bin"
    strict.mkdir()
    (strict / "bash").write_text("#!/bin/sh\nexit 2\n")
    (strict / "bash").chmod(0o755)
    rejecting = {"PATH": f"{strict}{os.pathsep}{os.environ['PATH']}"}
    for _ in range(2):  # the second time from the cache
        assert b"parse-error" in run_cli("check", "a.sh", env=rejecting).stdout
        accepted = run_cli("check", "a.sh")
        assert b"parse-error" not in accepted.stdout and b"the shell accepts the script" in accepted.stderr
