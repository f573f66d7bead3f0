"""--fix respects the file it writes: its permissions, owner, links, and edits made while pipelint ran.

Real files, real users (the `nobody` account through setpriv), real hard
links, a real concurrent writer. Every refusal is one `pipelint: error:`
line, exit 2, the file untouched, and its findings still reported as
remaining: the summary never counts a fix that did not reach the disk.
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from cli_helpers import AS_NOBODY, REPO, run_cli, text

# Not the script's last command: a status its caller could see would make the fix unsafe.
BAD = b"#!/bin/bash\ncat access.log | grep 500\necho done\n"
FIXED = b"#!/bin/bash\ngrep 500 < access.log\necho done\n"
NOBODY = pwd.getpwnam("nobody")

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="changes owners; the suite runs as root")


@pytest.fixture
def shared(tmp_path):
    """A folder every user can enter (pytest's own tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="pipelint-fix-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder)


def error_lines(result) -> list[str]:
    return [line for line in text(result)[1].splitlines() if line.startswith("pipelint: error:")]


def assert_not_fixed(result, script: Path, reason: str) -> None:
    out, err = text(result)
    assert result.returncode == 2, (out, err)
    assert error_lines(result) == [f"pipelint: error: {script.name}: fixes not written: {reason}"], err
    assert script.read_bytes() == BAD
    assert f"{script.name}:2:1: PL001 [*]" in out, "the finding stays reported"
    assert "fixed" not in out and "All checks passed!" not in out
    assert "Found 1 problem; 1 error" in out


@needs_root
def test_nobody_cannot_replace_a_read_only_file_of_root(shared):
    script = shared / "root.sh"
    script.write_bytes(BAD)
    script.chmod(0o444)
    result = run_cli("check", "--fix", "root.sh", cwd=shared, as_nobody=True)
    assert_not_fixed(result, script, "permission denied (the file is not writable by you)")
    assert script.stat().st_uid == 0


@needs_root
def test_nobody_in_a_folder_it_cannot_write(shared):
    folder = shared / "locked"
    folder.mkdir()
    script = folder / "mine.sh"
    script.write_bytes(BAD)
    os.chown(script, NOBODY.pw_uid, NOBODY.pw_gid)
    folder.chmod(0o755)
    result = run_cli("check", "--fix", "mine.sh", cwd=folder, as_nobody=True)
    assert_not_fixed(result, script, "cannot create a file beside it: Permission denied")
    assert not [p for p in folder.iterdir() if p.name.endswith(".pipelint")]


@needs_root
def test_root_keeps_the_owner_and_setuid_bit_of_a_users_file(shared):
    script = shared / "tool.sh"
    script.write_bytes(BAD)
    os.chown(script, NOBODY.pw_uid, NOBODY.pw_gid)
    script.chmod(0o4755)
    result = run_cli("check", "--fix", "tool.sh", cwd=shared)
    assert result.returncode == 0, text(result)
    assert script.read_bytes() == FIXED
    status = script.stat()
    assert (status.st_uid, status.st_gid) == (NOBODY.pw_uid, NOBODY.pw_gid)
    assert stat.S_IMODE(status.st_mode) == 0o4755


@needs_root
def test_a_group_the_user_cannot_give_is_a_refusal(shared):
    script = shared / "grouped.sh"
    script.write_bytes(BAD)
    os.chown(script, NOBODY.pw_uid, 0)  # nobody's file, group root: nobody may not chown to it
    script.chmod(0o664)
    result = run_cli("check", "--fix", "grouped.sh", cwd=shared, as_nobody=True)
    reason = f"cannot keep its owner and group ({NOBODY.pw_uid}:0) in a rewritten copy"
    assert_not_fixed(result, script, reason)
    assert script.stat().st_gid == 0


def test_hard_links_all_see_the_fix(tmp_path):
    script = tmp_path / "a.sh"
    script.write_bytes(BAD)
    other = tmp_path / "b.sh"
    os.link(script, other)
    inode = script.stat().st_ino
    result = run_cli("check", "--fix", "a.sh", cwd=tmp_path)
    assert result.returncode == 0, text(result)
    assert script.read_bytes() == other.read_bytes() == FIXED
    assert script.stat().st_ino == inode and script.stat().st_nlink == 2


def test_a_fix_that_makes_the_file_shorter_in_place_leaves_no_tail(tmp_path):
    script = tmp_path / "a.sh"
    script.write_bytes(b"#!/bin/bash\ncat 'a long file name.log' | grep 500\necho done\n" + b"# trailing comment\n" * 3)
    os.link(script, tmp_path / "b.sh")
    run_cli("check", "--fix", "a.sh", cwd=tmp_path)
    assert script.read_bytes() == b"#!/bin/bash\ngrep 500 < 'a long file name.log'\necho done\n" + b"# trailing comment\n" * 3


def test_process_substitution_is_not_a_file_to_fix(tmp_path):
    command = [sys.executable, "-m", "pipelint", "check", "--fix", "--output-format", "concise"]
    script = f"{' '.join(command)} <(printf 'cat access.log | grep 500\\necho done\\n')"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    result = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, env=env, timeout=120)
    out, err = text(result)
    assert result.returncode == 2, (out, err)
    (line,) = error_lines(result)
    assert line.startswith("pipelint: error: /dev/fd/") and line.endswith(": fixes not written: not a regular file")
    assert "fixed" not in out and "Found 1 problem; 1 error" in out


def test_binary_stdin_with_fix_comes_back_unchanged(tmp_path):
    data = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40
    result = run_cli("check", "--fix", "-", cwd=tmp_path, stdin=data)
    assert result.returncode == 2
    assert result.stdout == data
    assert error_lines(result) == ["pipelint: error: -: binary file, not a shell script"]


def test_stdin_over_the_size_limit_with_fix_comes_back_whole(tmp_path):
    data = b"cat access.log | grep 500\n" * 100 + b"echo done\n"
    result = run_cli("check", "--fix", "--max-file-size", "1KiB", "-", cwd=tmp_path, stdin=data)
    assert result.returncode == 2
    assert result.stdout == data
    (line,) = error_lines(result)
    assert "larger than the 1 KiB limit" in line


def test_an_edit_made_while_pipelint_ran_is_kept(tmp_path):
    """A real race, made deterministic: pipelint reads big.sh, then blocks reading a FIFO.

    Files are checked in the order named and every fix is written only after
    all were read, so while pipelint waits for the FIFO's writer, big.sh has
    been read and not yet written: a line appended then must survive.
    """
    script = tmp_path / "big.sh"
    body = BAD + b"echo step\n" * 5_000  # 50 kB, one finding up top
    script.write_bytes(body)
    fifo = tmp_path / "later.sh"
    os.mkfifo(fifo)
    command = [sys.executable, "-m", "pipelint", "check", "--fix", "--output-format", "concise", "big.sh", "later.sh"]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

    def concurrent_editor():
        with open(fifo, "wb") as writer:  # returns once pipelint opened the FIFO: big.sh was read
            with open(script, "ab") as appender:
                appender.write(b"echo appended by someone else\n")
            writer.write(b"#!/bin/sh\necho fine\n")

    editor = threading.Thread(target=concurrent_editor)
    editor.start()
    out, err = process.communicate(timeout=300)
    editor.join(timeout=10)
    assert process.returncode == 2, (out, err)
    assert script.read_bytes() == body + b"echo appended by someone else\n"
    lines = [line for line in err.decode().splitlines() if line.startswith("pipelint: error:")]
    assert lines == ["pipelint: error: big.sh: fixes not written: changed since pipelint read it; run pipelint again"]
    assert b"big.sh:2:1: PL001" in out and b"fixed" not in out


def test_a_fifo_in_a_folder_is_not_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.sh")
    (tmp_path / "real.sh").write_bytes(BAD)
    result = run_cli("check", ".", cwd=tmp_path, timeout=60)
    assert result.returncode == 1
    assert "real.sh:2:1: PL001" in text(result)[0]


def test_nobody_runs_through_setpriv():
    """The helper really drops to nobody (else the permission tests above prove nothing)."""
    result = subprocess.run([*AS_NOBODY, "id", "-u"], capture_output=True, text=True)
    assert result.stdout.strip() == str(NOBODY.pw_uid)


def test_a_file_met_under_two_names_is_checked_and_fixed_once(tmp_path):
    (tmp_path / "a.sh").write_bytes(BAD)
    os.link(tmp_path / "a.sh", tmp_path / "hard.sh")
    os.symlink("a.sh", tmp_path / "soft.sh")
    result = run_cli("check", "--fix", ".", "a.sh", "hard.sh", cwd=tmp_path)
    out, err = text(result)
    assert result.returncode == 0, (out, err)
    assert (tmp_path / "a.sh").read_bytes() == FIXED
    assert "Found 1 problem (1 fixed, 0 remaining)." in out


def test_a_name_close_to_the_255_byte_limit_can_be_fixed(tmp_path):
    name = "n" * 240 + ".sh"
    (tmp_path / name).write_bytes(BAD)
    result = run_cli("check", "--fix", name, cwd=tmp_path)
    assert result.returncode == 0, text(result)
    assert (tmp_path / name).read_bytes() == FIXED


# Issue 25 class 10: an edit landing between the "unchanged" check and the write. Real processes, and every
# wait is on an event: the writer's line on a pipe, the lease break's SIGIO.
WRITER = r"""
import sys
path, hold = sys.argv[1], sys.argv[2] == "hold"
if hold:
    handle = open(path, "ab")
    print("open", flush=True)
sys.stdin.readline()  # go
if not hold:
    handle = open(path, "ab")  # waits while pipelint holds its lease
handle.write(b"echo edit\n")
handle.close()
print("written", flush=True)
"""
EDITED = BAD + b"echo edit\n"


def _writer(script: Path, hold: bool) -> subprocess.Popen:
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(script), "hold" if hold else "open"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    if hold:
        assert writer.stdout.readline() == b"open\n"
    return writer


def _go(writer: subprocess.Popen) -> None:
    writer.stdin.write(b"go\n")
    writer.stdin.flush()


def _script(tmp_path: Path, hard_link: bool) -> Path:
    script = tmp_path / "a.sh"
    script.write_bytes(BAD)
    if hard_link:
        os.link(script, tmp_path / "b.sh")
    return script


@pytest.mark.parametrize("hard_link", [False, True], ids=["renamed", "in place"])
def test_a_writer_that_opens_the_file_between_the_check_and_the_write_keeps_its_edit(tmp_path, monkeypatch, hard_link):
    """The writer's open waits on pipelint's lease; pipelint sees the break, leaves (or puts back) the old file."""
    import signal

    from pipelint.cli import writeback

    script = _script(tmp_path, hard_link)
    writer = _writer(script, hold=False)

    def open_meanwhile():
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGIO})
        try:
            _go(writer)
            assert signal.sigtimedwait({signal.SIGIO}, 120) is not None, "the writer's open should break the lease"
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGIO})

    monkeypatch.setattr(writeback, "between_check_and_write", open_meanwhile)
    with pytest.raises(writeback.NotWritten, match="opened by another process while pipelint wrote it"):
        writeback.write_fixed(script, BAD, os.stat(script), FIXED)
    assert writer.communicate(timeout=120)[0] == b"written\n"
    assert script.read_bytes() == EDITED
    assert sorted(path.name for path in tmp_path.iterdir()) == (["a.sh", "b.sh"] if hard_link else ["a.sh"])


@pytest.mark.parametrize("hard_link", [False, True], ids=["renamed", "in place"])
def test_a_file_another_process_holds_open_for_writing_is_not_written(tmp_path, hard_link):
    """A log appender's next write would go to the replaced copy: the real CLI refuses, and the write lands."""
    script = _script(tmp_path, hard_link)
    writer = _writer(script, hold=True)
    try:
        result = run_cli("check", "--fix", "a.sh", cwd=tmp_path)
    finally:
        _go(writer)
        writer.communicate(timeout=120)
    assert_not_fixed_then_edited(result, script, "open for writing in another process (its next write would be lost)")


def assert_not_fixed_then_edited(result, script: Path, reason: str) -> None:
    assert result.returncode == 2, text(result)
    assert error_lines(result) == [f"pipelint: error: {script.name}: fixes not written: {reason}"]
    assert script.read_bytes() == EDITED


@pytest.mark.parametrize("hard_link", [False, True], ids=["renamed", "in place"])
def test_a_file_another_process_only_reads_is_fixed(tmp_path, hard_link):
    """A reader (a running script, a pager) cannot lose an edit: a read lease suffices, and the fix is written."""
    script = _script(tmp_path, hard_link)
    with open(script, "rb"):
        result = run_cli("check", "--fix", "a.sh", cwd=tmp_path)
    assert result.returncode == 0, text(result)
    assert script.read_bytes() == FIXED


def test_without_a_lease_the_exchange_still_catches_an_edit_made_after_the_check(tmp_path, monkeypatch):
    """On a filesystem without leases (NFS), the old file is checked again after the exchange and put back."""
    import errno
    import fcntl

    from pipelint.cli import writeback

    real = fcntl.fcntl

    def no_leases(descriptor, command, *args):
        if command == fcntl.F_SETLEASE:
            raise OSError(errno.EINVAL, "no leases here")
        return real(descriptor, command, *args)

    script = _script(tmp_path, hard_link=False)
    writer = _writer(script, hold=False)

    def edit_meanwhile():
        _go(writer)
        assert writer.stdout.readline() == b"written\n"  # it opened and wrote: nothing held it back

    monkeypatch.setattr(fcntl, "fcntl", no_leases)
    monkeypatch.setattr(writeback, "between_check_and_write", edit_meanwhile)
    with pytest.raises(writeback.NotWritten, match="changed since pipelint read it"):
        writeback.write_fixed(script, BAD, os.stat(script), FIXED)
    writer.communicate(timeout=120)
    assert script.read_bytes() == EDITED
    assert [path.name for path in tmp_path.iterdir()] == ["a.sh"]
