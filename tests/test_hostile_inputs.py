"""No traceback, whatever the tree: one `pipelint: error:` line, exit 2, and every other file still checked.

Each case runs the real command line with a timeout, beside a good script
whose finding must still be reported, and checks that no file changed.
"""

from __future__ import annotations

import os

import pytest
from cli_helpers import run_cli, text

GOOD = b"#!/bin/bash\ncat access.log | grep 500\n"
GOOD_FINDING = "good.sh:2:1: PL001"
TIMEOUT = 60  # seconds; each case takes about one
LONG = "a" * 300  # over NAME_MAX (255 bytes)


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "good.sh").write_bytes(GOOD)
    return tmp_path


def snapshot(folder) -> dict:
    """Every regular file's size, time and (up to 1 MiB) bytes; the results cache, pipelint's own, left out."""
    found = {}
    for path in folder.rglob("*"):
        if ".pipelint_cache" in path.relative_to(folder).parts:
            continue
        if not path.is_symlink() and path.is_file():
            status = path.stat()
            content = path.read_bytes() if status.st_size < 1 << 20 else None
            found[path] = (status.st_size, status.st_mtime_ns, content)
    return found


def assert_one_error_and_the_rest_checked(result, *needles: str, code: int = 2) -> str:
    out, err = text(result)
    assert "Traceback" not in err, err
    assert result.returncode == code, (out, err)
    errors = [line for line in err.splitlines() if line.startswith("pipelint: error:")]
    assert len(errors) == 1, err
    for needle in needles:
        assert needle in errors[0]
    assert GOOD_FINDING in out
    return errors[0]


def check(tree, *args: str, **kwargs):
    before = snapshot(tree)
    result = run_cli("check", "--output-format", "concise", *args, cwd=tree, timeout=TIMEOUT, **kwargs)
    assert snapshot(tree) == before
    return result


def test_a_symlink_loop_named_directly(tree):
    os.symlink("loop.sh", tree / "loop.sh")
    assert_one_error_and_the_rest_checked(check(tree, "loop.sh", "good.sh"), "loop.sh: Too many levels of symbolic links")


def test_a_symlink_loop_inside_a_scanned_folder(tree):
    os.symlink("loop.sh", tree / "loop.sh")
    os.symlink("b", tree / "a")
    os.symlink("a", tree / "b")
    (tree / "sub").mkdir()
    os.symlink("..", tree / "sub" / "up")  # a directory cycle: not followed
    assert_one_error_and_the_rest_checked(check(tree, "."), "loop.sh: Too many levels of symbolic links")


def test_a_directory_symlink_loop_named_directly(tree):
    os.symlink("d2", tree / "d1")
    os.symlink("d1", tree / "d2")
    assert_one_error_and_the_rest_checked(check(tree, "d1", "good.sh"), "d1: Too many levels of symbolic links")


@pytest.mark.parametrize("line", ["!", "\\", "a\\", "[z-a]"])
def test_gitignore_lines_git_accepts_but_pathspec_does_not(tree, line):
    """git accepts the file: the line is skipped with a warning, the others still apply."""
    (tree / ".git").mkdir()
    (tree / ".gitignore").write_text(f"ignored.sh\n{line}\n")
    (tree / "ignored.sh").write_bytes(GOOD)
    result = check(tree, ".")
    out, err = text(result)
    assert result.returncode == 1 and "Traceback" not in err
    assert err == f"pipelint: warning: .gitignore: line 2: pattern '{line}' cannot be read; the line is ignored\n"
    assert GOOD_FINDING in out and "ignored.sh" not in out


@pytest.mark.parametrize("key", ["exclude", "extend-exclude"])
@pytest.mark.parametrize("pattern", ["!", "\\\\", "a\\\\", "[z-a]"])
def test_the_same_patterns_in_exclude_are_a_config_error(tree, key, pattern):
    sub = tree / "sub"
    sub.mkdir()
    (sub / ".pipelint.toml").write_text(f'{key} = ["{pattern}"]\n')
    (sub / "x.sh").write_bytes(GOOD)
    result = check(tree, "sub", "good.sh")
    assert_one_error_and_the_rest_checked(result, ".pipelint.toml", key, "not a valid gitignore pattern")


def test_a_path_component_over_255_bytes_on_the_command_line(tree):
    assert_one_error_and_the_rest_checked(check(tree, LONG, "good.sh"), "File name too long")


def test_a_path_component_over_255_bytes_as_stdin_filename(tree):
    result = check(tree, "--stdin-filename", f"dir/{LONG}.sh", "-", "good.sh", stdin=GOOD)
    assert_one_error_and_the_rest_checked(result, "--stdin-filename", "file name too long")


def test_dev_zero_stops_at_the_size_limit(tree):
    line = assert_one_error_and_the_rest_checked(check(tree, "/dev/zero", "good.sh"), "/dev/zero")
    assert line.endswith("larger than the 8 MiB limit (raise it with --max-file-size or `max-file-size`)")


def test_a_large_file_is_refused_before_it_is_read(tree):
    with open(tree / "huge.sh", "wb") as handle:
        handle.truncate(1 << 40)  # 1 TiB, sparse: reading it would take hours
    assert_one_error_and_the_rest_checked(check(tree, "huge.sh", "good.sh"), "huge.sh: larger than the 8 MiB limit")


def test_the_size_limit_is_a_flag_and_a_config_key(tree):
    (tree / "two_kib.sh").write_bytes(GOOD + b"echo padding\n" * 150)
    assert_one_error_and_the_rest_checked(check(tree, "--max-file-size", "1KiB", "two_kib.sh", "good.sh"), "1 KiB limit")
    (tree / ".pipelint.toml").write_text('max-file-size = "1KiB"\n')
    assert_one_error_and_the_rest_checked(check(tree, "two_kib.sh", "good.sh"), "1 KiB limit")
    result = check(tree, "--max-file-size", "0", "two_kib.sh", "good.sh")  # 0: no limit
    assert result.returncode == 1 and "two_kib.sh:2:1: PL001" in text(result)[0]


def test_an_unreadable_size_is_a_usage_error(tree):
    result = run_cli("check", "--max-file-size", "lots", "good.sh", cwd=tree)
    out, err = text(result)
    assert result.returncode == 2 and "Traceback" not in err
    assert err.startswith("pipelint: error: --max-file-size 'lots': must be a size such as 8MiB")


def test_a_fifo_named_on_the_command_line_is_read(tree):
    fifo = tree / "fifo.sh"
    os.mkfifo(fifo)
    # The writer is the test's own child: it opens the FIFO and writes a script, as a shell's <(…) would.
    writer = os.fork()
    if writer == 0:
        try:
            with open(fifo, "wb") as handle:
                handle.write(b"cat f | wc -l\n")
        finally:
            os._exit(0)
    result = run_cli("check", "fifo.sh", "good.sh", cwd=tree, timeout=TIMEOUT)
    os.waitpid(writer, 0)
    assert result.returncode == 1
    assert "fifo.sh:1:1: PL001" in text(result)[0] and GOOD_FINDING in text(result)[0]


def test_a_named_directory_that_cannot_be_listed_is_not_a_traceback(tree):
    sub = tree / "sealed"
    sub.mkdir()
    (sub / "x.sh").write_bytes(GOOD)
    sub.chmod(0o000)
    try:
        result = run_cli("check", "sealed", "good.sh", cwd=tree, timeout=TIMEOUT, unprivileged=os.geteuid() == 0)
    finally:
        sub.chmod(0o755)
    assert_one_error_and_the_rest_checked(result, "sealed: Permission denied")
