"""splicecat --tee: the same bytes as GNU tee, to stdout and every file."""

import os
import subprocess

import pytest
from sc_helpers import BIG_SIZE, file_sha, gnu, sha


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
