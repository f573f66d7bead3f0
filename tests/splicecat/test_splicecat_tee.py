"""splicecat --tee: the same bytes as GNU tee, to stdout and every file."""

import os
import subprocess

import pytest
from sc_helpers import BIG_SIZE, file_sha, gnu, sha, shell


def tee_through_pipes(sc, source, *args):
    """`cat SOURCE | splicecat ARGS | (read by us)`: both ends are pipes."""
    cat = subprocess.Popen(["cat", str(source)], stdout=subprocess.PIPE)
    r = sc.run("--stats", *args, stdin=cat.stdout)
    cat.stdout.close()
    assert cat.wait() == 0
    return r


def gnu_tee(source, *args):
    cat = subprocess.Popen(["cat", str(source)], stdout=subprocess.PIPE)
    ref = gnu("tee", *args, stdin=cat.stdout)
    cat.stdout.close()
    cat.wait()
    return ref


@pytest.mark.parametrize("n_files", [1, 2, 3])
def test_tee_pipe_to_pipe_uses_tee(sc, tmp_path, big, big_sha, n_files):
    files = [tmp_path / f"copy{i}" for i in range(n_files)]
    args = [a for f in files for a in ("--tee", f)]
    r = tee_through_pipes(sc, big, *args)
    assert (r.returncode, r.errors) == (0, "")
    assert sha(r.stdout) == big_sha
    for f in files:
        assert file_sha(f) == big_sha
    assert r.stats == {"tee": BIG_SIZE}


def test_tee_equals_form(sc, tmp_path, medium):
    r = tee_through_pipes(sc, medium, f"--tee={tmp_path / 'copy'}")
    assert sha(r.stdout) == file_sha(medium) == file_sha(tmp_path / "copy")


def test_tee_matches_gnu_tee(sc, tmp_path, medium):
    r = tee_through_pipes(sc, medium, "--tee", tmp_path / "ours")
    ref = gnu_tee(medium, tmp_path / "theirs")
    assert sha(r.stdout) == sha(ref.stdout)
    assert file_sha(tmp_path / "ours") == file_sha(tmp_path / "theirs")


@pytest.mark.parametrize("n_files", [1, 2])
def test_tee_append(sc, tmp_path, big, n_files):
    """O_APPEND tee files cannot be spliced into: they get write(2)."""
    ours = [tmp_path / f"ours{i}" for i in range(n_files)]
    theirs = [tmp_path / f"theirs{i}" for i in range(n_files)]
    for f in ours + theirs:
        f.write_bytes(b"already here\n")
    r = tee_through_pipes(sc, big, "--append", *[a for f in ours for a in ("--tee", f)])
    ref = gnu_tee(big, "--append", *theirs)
    assert (r.returncode, r.errors) == (0, "")
    assert sha(r.stdout) == sha(ref.stdout)
    for o, t in zip(ours, theirs):
        assert file_sha(o) == file_sha(t)
    assert r.stats == {"tee": BIG_SIZE}


def test_tee_append_and_truncate_default(sc, tmp_path, medium):
    f = tmp_path / "copy"
    f.write_bytes(b"old content that must go\n" * 1000)
    tee_through_pipes(sc, medium, "--tee", f)
    assert file_sha(f) == file_sha(medium)


def test_tee_file_to_file_reads_and_writes(sc, tmp_path, medium):
    """Not both pipes: read into the buffer, write to stdout and each file."""
    with open(tmp_path / "out", "wb") as out:
        r = sc.run("--stats", "--tee", tmp_path / "copy", medium, stdout=out)
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(tmp_path / "out") == file_sha(tmp_path / "copy") == file_sha(medium)
    assert r.stats == {"readwrite": medium.stat().st_size}


def test_tee_file_to_pipe(sc, tmp_path, medium):
    r = sc.run("--stats", "--tee", tmp_path / "copy", medium)
    assert sha(r.stdout) == file_sha(tmp_path / "copy") == file_sha(medium)
    assert r.stats == {"readwrite": medium.stat().st_size}


def test_tee_to_a_pipe_file(sc, tmp_path, medium):
    """A tee file may be a pipe too: a FIFO read by `cat > sunk`."""
    os.mkfifo(tmp_path / "fifo")
    sink = subprocess.Popen(["bash", "-c", f'cat "{tmp_path / "fifo"}" > "{tmp_path / "sunk"}"'])
    r = tee_through_pipes(sc, medium, "--tee", tmp_path / "fifo", "--tee", tmp_path / "copy")
    assert sink.wait() == 0
    assert (r.returncode, r.errors) == (0, "")
    assert sha(r.stdout) == file_sha(tmp_path / "sunk") == file_sha(tmp_path / "copy") == file_sha(medium)


@pytest.mark.parametrize("path", ["pipes", "files"])
def test_tee_file_errors_do_not_stop_the_copy(sc, tmp_path, medium, path):
    """As GNU tee: report the file, keep copying to stdout and the others."""
    bad_open = tmp_path / "no-such-dir" / "copy"
    args = ["--tee", bad_open, "--tee", "/dev/full", "--tee", tmp_path / "good"]
    if path == "pipes":
        r = tee_through_pipes(sc, medium, *args)
        ref = gnu_tee(medium, bad_open, "/dev/full", tmp_path / "good-ref")
    else:
        r = sc.run("--stats", *args, medium)
        ref = gnu("tee", bad_open, "/dev/full", tmp_path / "good-ref", stdin=open(medium, "rb"))
    assert r.returncode == ref.returncode == 1
    assert r.errors == (f"splicecat: {bad_open}: No such file or directory\n"
                        "splicecat: /dev/full: No space left on device\n")
    assert r.errors == ref.stderr.decode().replace("tee:", "splicecat:").replace("good-ref", "good")
    assert sha(r.stdout) == file_sha(tmp_path / "good") == file_sha(medium)


# --- standard output unusable: the files still get every byte, as with tee --

@pytest.mark.parametrize("source", ["printf abc", "cat medium", "cat medium | cat"],
                         ids=["small-pipe", "file-stdin", "pipe"])
def test_closed_stdout_still_writes_the_files(sc, tmp_path, medium, source):
    """`printf abc | splicecat --tee t1 >&-`: GNU tee writes t1, reports
    standard output, exits 1.  So do we (from a pipe: read/write)."""
    (tmp_path / "medium").symlink_to(medium)
    stdin = " < medium" if source == "cat medium" else ""
    producer = "" if stdin else f"{source} | "
    ours = shell(sc, f'{producer}"{sc.path}" --tee t1 --tee t2{stdin} >&-', cwd=tmp_path)
    theirs = shell(sc, f"{producer}tee r1 r2{stdin} >&-", cwd=tmp_path)
    assert ours.returncode == theirs.returncode == 1
    assert ours.stderr == theirs.stderr.replace(b"tee:", b"splicecat:")
    assert ours.stderr == b"splicecat: 'standard output': Bad file descriptor\n"
    for o, t in (("t1", "r1"), ("t2", "r2")):
        assert (tmp_path / o).read_bytes() == (tmp_path / t).read_bytes() != b""


def test_closed_stdout_with_file_operands(sc, tmp_path, medium):
    """Operands are opened after stdout was found closed: none of them may
    take descriptor 1, or 'standard output' would be that file."""
    r = shell(sc, f'"{sc.path}" --tee "{tmp_path}/copy" "{medium}" "{medium}" >&-')
    assert r.returncode == 1
    assert r.stderr == b"splicecat: 'standard output': Bad file descriptor\n"
    assert (tmp_path / "copy").read_bytes() == medium.read_bytes() * 2


def test_closed_stdout_and_nothing_to_write(sc, tmp_path):
    """tee never writes to the closed stdout: no error, exit 0."""
    ours = shell(sc, f'"{sc.path}" --tee t </dev/null >&-', cwd=tmp_path)
    theirs = shell(sc, "tee r </dev/null >&-", cwd=tmp_path)
    assert (ours.returncode, ours.stderr) == (theirs.returncode, theirs.stderr) == (0, b"")
    assert (tmp_path / "t").read_bytes() == b""


@pytest.mark.parametrize("path", ["pipes", "file"])
def test_full_stdout_still_writes_the_files(sc, tmp_path, medium, path):
    """ENOSPC on stdout in the middle: reported once as tee does, files whole."""
    with open("/dev/full", "wb") as full:
        if path == "pipes":
            cat = subprocess.Popen(["cat", str(medium)], stdout=subprocess.PIPE)
            r = sc.run("--tee", tmp_path / "copy", stdin=cat.stdout, stdout=full)
            cat.stdout.close()
            cat.wait()
        else:
            r = sc.run("--tee", tmp_path / "copy", medium, stdout=full)
        ref = gnu("tee", tmp_path / "ref", stdin=open(medium, "rb"), stdout=full)
    assert r.returncode == ref.returncode == 1
    assert r.stderr == "splicecat: 'standard output': No space left on device\n"
    assert r.stderr == ref.stderr.decode().replace("tee:", "splicecat:")
    assert file_sha(tmp_path / "copy") == file_sha(tmp_path / "ref") == file_sha(medium)


@pytest.mark.parametrize("source", ["pipe", "file"])
def test_reader_gone_with_sigpipe_ignored_is_quiet_like_tee(sc, tmp_path, big, big_sha, source):
    """GNU tee drops a broken-pipe stdout without a word (it speaks only
    under --output-error), finishes the files and exits 0."""
    if source == "pipe":
        cmd = f'cat "{big}" | "{sc.path}" --tee "{tmp_path}/ours"'
        ref_cmd = f'cat "{big}" | tee "{tmp_path}/theirs"'
    else:
        cmd = f'"{sc.path}" --tee "{tmp_path}/ours" "{big}"'
        ref_cmd = f'tee "{tmp_path}/theirs" < "{big}"'
    status = 'echo "status ${PIPESTATUS[-2]}" >&2'
    ours = shell(sc, f'trap "" PIPE; {cmd} | head -c 10 >/dev/null; {status}')
    theirs = shell(sc, f'trap "" PIPE; {ref_cmd} | head -c 10 >/dev/null; {status}')
    assert ours.stderr == theirs.stderr == b"status 0\n"
    assert file_sha(tmp_path / "ours") == file_sha(tmp_path / "theirs") == big_sha


def test_stops_when_no_output_is_left(sc, tmp_path, big):
    """stdout gone (EPIPE, quiet) and the only file full: nothing left to
    write to, so it stops reading, reporting the file as tee does."""
    status = 'echo "status ${PIPESTATUS[-2]}" >&2'
    producer = f'trap "" PIPE; cat "{big}" 2>/dev/null'  # it gets EPIPE once we stop
    ours = shell(sc, f'{producer} | "{sc.path}" --tee /dev/full | head -c 10 >/dev/null; {status}')
    theirs = shell(sc, f'{producer} | tee /dev/full | head -c 10 >/dev/null; {status}')
    assert ours.stderr == theirs.stderr.replace(b"tee:", b"splicecat:")
    assert ours.stderr == b"splicecat: /dev/full: No space left on device\nstatus 1\n"


def test_closed_stdin_never_reads_a_tee_file(sc, tmp_path, medium):
    """With stdin closed, the tee file must not take descriptor 0: `-` would
    then read the tee file and closing stdin would close it."""
    r = shell(sc, f'"{sc.path}" --tee "{tmp_path}/copy" "{medium}" - <&- | cat > "{tmp_path}/out"')
    assert r.stderr == b"splicecat: -: Bad file descriptor\nsplicecat: closing standard input: Bad file descriptor\n"
    assert (tmp_path / "copy").read_bytes() == (tmp_path / "out").read_bytes() == medium.read_bytes()
