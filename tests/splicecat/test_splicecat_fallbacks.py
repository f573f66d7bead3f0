"""Every fallback forced on purpose with strace fault injection.

Before the first byte, a refused syscall hands over to the next method and
the output stays byte-identical; after bytes have moved, an error is
reported and the operand stops: never a silent fallback that could drop or
duplicate bytes.  Skipped where strace is missing or ptrace is denied.
"""

import fcntl
import os
import re
import socket
import subprocess
import threading
import time

import pytest
from sc_helpers import file_sha, sha


def inject(strace, *rules, log="/dev/null"):
    """The strace prefix that makes the syscalls in RULES fail."""
    argv = [strace, "-f", "-o", log]
    for rule in rules:
        argv += ["-e", f"inject={rule}"]
    return argv


def to_file(sc, tmp_path, *args, wrapper, stdin=None):
    out = tmp_path / "out"
    with open(out, "wb") as f:
        r = sc.run("--stats", *args, stdout=f, stdin=stdin, wrapper=wrapper)
    return r, out


def from_pipe(sc, source, *args, wrapper, **kw):
    cat = subprocess.Popen(["cat", str(source)], stdout=subprocess.PIPE)
    r = sc.run("--stats", *args, stdin=cat.stdout, wrapper=wrapper, **kw)
    cat.stdout.close()
    cat.wait()
    return r


# --- before the first byte: hand over to the next method ------------------

@pytest.mark.parametrize("rules, method", [
    (["copy_file_range:error=EXDEV"], "sendfile"),
    (["copy_file_range:error=ENOSYS"], "sendfile"),
    (["copy_file_range:error=EOPNOTSUPP"], "sendfile"),
    (["copy_file_range:error=EXDEV", "sendfile:error=EINVAL"], "splice"),
    (["copy_file_range:error=ENOSYS", "sendfile:error=ENOSYS", "splice:error=ENOSYS"], "readwrite"),
], ids=["cfr-EXDEV", "cfr-ENOSYS", "cfr-EOPNOTSUPP", "cfr+sendfile", "all-ENOSYS"])
def test_file_to_file_fallbacks(sc, strace, tmp_path, medium, rules, method):
    r, out = to_file(sc, tmp_path, medium, wrapper=inject(strace, *rules))
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(out) == file_sha(medium)
    assert r.stats == {method: medium.stat().st_size}


def test_tmpfs_target_sendfile_refused(sc, strace, medium):
    """ext4 -> tmpfs: EXDEV from the kernel, EINVAL injected into sendfile."""
    if os.stat("/dev/shm").st_dev == medium.stat().st_dev:
        pytest.skip("no tmpfs /dev/shm on another filesystem than the test data")
    target = f"/dev/shm/splicecat-fallback-{os.getpid()}-{sc.kind}"
    try:
        with open(target, "wb") as f:
            r = sc.run("--stats", medium, stdout=f, wrapper=inject(strace, "sendfile:error=EINVAL"))
        assert (r.returncode, r.errors) == (0, "")
        assert file_sha(target) == file_sha(medium)
        assert r.stats == {"splice": medium.stat().st_size}
    finally:
        os.unlink(target)


@pytest.mark.parametrize("errno", ["EINVAL", "ENOSYS"])
def test_file_to_pipe_splice_refused(sc, strace, medium, errno):
    r = sc.run("--stats", medium, wrapper=inject(strace, f"splice:error={errno}"))
    assert (r.returncode, r.errors) == (0, "")
    assert sha(r.stdout) == file_sha(medium)
    assert r.stats == {"readwrite": medium.stat().st_size}


@pytest.mark.parametrize("errno", ["EINVAL", "ENOSYS"])
def test_pipe_to_file_splice_refused(sc, strace, tmp_path, medium, errno):
    cat = subprocess.Popen(["cat", str(medium)], stdout=subprocess.PIPE)
    r, out = to_file(sc, tmp_path, wrapper=inject(strace, f"splice:error={errno}"), stdin=cat.stdout)
    cat.stdout.close()
    cat.wait()
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(out) == file_sha(medium)
    assert r.stats == {"readwrite": medium.stat().st_size}


def test_output_refuses_splice_after_input_was_spliced(sc, strace, medium):
    """file -> socket goes through splicecat's own pipe.  The first splice
    fills that pipe, the second (pipe -> socket) is refused: the bytes
    already in the pipe are written out with write(2), then read/write goes
    on.  Nothing lost, nothing twice."""
    ours, theirs = socket.socketpair()
    chunks = []
    drain = threading.Thread(target=lambda: [chunks.append(c) for c in iter(lambda: ours.recv(1 << 20), b"")])
    drain.start()
    r = sc.run("--stats", medium, stdout=theirs, wrapper=inject(strace, "splice:error=EINVAL:when=2"))
    theirs.close()
    drain.join(timeout=60)
    ours.close()
    assert (r.returncode, r.errors) == (0, "")
    assert sha(b"".join(chunks)) == file_sha(medium)
    assert r.stats == {"readwrite": medium.stat().st_size}


@pytest.mark.parametrize("errno", ["EINVAL", "ENOSYS"])
def test_tee_refused(sc, strace, tmp_path, medium, errno):
    r = from_pipe(sc, medium, "--tee", tmp_path / "copy", wrapper=inject(strace, f"tee:error={errno}"))
    assert (r.returncode, r.errors) == (0, "")
    assert sha(r.stdout) == file_sha(tmp_path / "copy") == file_sha(medium)
    assert r.stats == {"readwrite": medium.stat().st_size}


@pytest.mark.parametrize("n_files", [1, 2])
def test_tee_file_refuses_splice(sc, strace, tmp_path, medium, n_files):
    """A tee file that refuses splice before its first byte gets write(2);
    the bytes come from the pipe tee(2) has not consumed, or from the
    duplicate in splicecat's own pipe."""
    files = [tmp_path / f"copy{i}" for i in range(n_files)]
    r = from_pipe(sc, medium, *[a for f in files for a in ("--tee", f)],
                  wrapper=inject(strace, "splice:error=EINVAL:when=1"))
    assert (r.returncode, r.errors) == (0, "")
    assert sha(r.stdout) == file_sha(medium)
    for f in files:
        assert file_sha(f) == file_sha(medium)
    assert r.stats == {"tee": medium.stat().st_size}


def test_tee_input_pipe_bigger_than_measured(sc, strace, tmp_path, medium):
    """The input pipe holds more than splicecat measured: a producer may
    raise it afterwards.  Here every fcntl fails, so splicecat takes the
    input pipe for 64 KiB and its own dup_pipe stays at 64 KiB, while the
    pipes really hold 1 MiB: tee(2) into dup_pipe then duplicates less than
    stdout got.  That file gets the chunk by read(2): no byte lost, no
    error (it used to fail the file)."""
    data = medium.read_bytes()
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    for fd in (in_w, out_w):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    os.write(in_w, data[: 1 << 20])  # a full MiB waits: the first tee(2) takes it all
    files = [tmp_path / "copy0", tmp_path / "copy1"]
    p = sc.popen("--stats", "--tee", files[0], "--tee", files[1], stdin=in_r, stdout=out_w,
                 wrapper=inject(strace, "fcntl:error=EPERM"))
    os.close(in_r)
    os.close(out_w)

    def feed():
        with open(in_w, "wb") as pipe:
            pipe.write(data[1 << 20:])

    feeder = threading.Thread(target=feed)
    feeder.start()
    with open(out_r, "rb") as out:
        got = out.read()
    feeder.join()
    r = sc.finish(p)
    assert (r.returncode, r.errors) == (0, "")
    assert sha(got) == sha(data)
    for f in files:
        assert file_sha(f) == sha(data)
    assert r.stats == {"tee": len(data)}


# --- after bytes moved: report, exit 1, no fallback -----------------------

def assert_prefix(out: bytes, path, stats, method):
    data = path.read_bytes()
    assert 0 < len(out) < len(data)
    assert out == data[: len(out)]
    assert stats == {method: len(out)}


def test_splice_fails_after_bytes_moved(sc, strace, medium):
    r = sc.run("--stats", medium, wrapper=inject(strace, "splice:error=EIO:when=3+"))
    assert r.returncode == 1
    assert r.errors == f"splicecat: {medium}: Input/output error\n"
    assert_prefix(r.stdout, medium, r.stats, "splice")


def test_splice_from_pipe_fails_after_bytes_moved(sc, strace, tmp_path, medium):
    cat = subprocess.Popen(["cat", str(medium)], stdout=subprocess.PIPE)
    r, out = to_file(sc, tmp_path, wrapper=inject(strace, "splice:error=EIO:when=3+"), stdin=cat.stdout)
    cat.stdout.close()
    cat.wait()
    assert r.returncode == 1
    assert r.errors == "splicecat: -: Input/output error\n"
    assert_prefix(out.read_bytes(), medium, r.stats, "splice")


def test_own_pipe_to_output_fails_after_bytes_moved(sc, strace, medium):
    """Through splicecat's pipe (file -> /dev/null) only the output can fail
    on the way out: a write error, and exit at once.  /dev/null takes each
    pipeful in one call, so splice #4 is the second pipe -> output call."""
    with open(os.devnull, "wb") as null:
        r = sc.run("--stats", medium, "/dev/null", stdout=null,
                   wrapper=inject(strace, "splice:error=EIO:when=4+"))
    assert r.returncode == 1
    assert r.errors == "splicecat: write error: Input/output error\n"
    assert 0 < r.stats["splice"] < medium.stat().st_size
    assert list(r.stats) == ["splice"]


def test_copy_file_range_fails_after_bytes_moved(sc, strace, tmp_path, medium):
    r, out = to_file(sc, tmp_path, medium, wrapper=inject(strace, "copy_file_range:error=EIO:when=2+"))
    assert r.returncode == 1
    assert r.errors == f"splicecat: {medium}: Input/output error\n"
    # The first call copied the whole 8 MiB; no sendfile or read/write after.
    assert r.stats == {"copy_file_range": medium.stat().st_size}
    assert file_sha(out) == file_sha(medium)


def test_tee_fails_after_bytes_moved(sc, strace, tmp_path, medium):
    r = from_pipe(sc, medium, "--tee", tmp_path / "copy", wrapper=inject(strace, "tee:error=EIO:when=3+"))
    assert r.returncode == 1
    assert r.errors == "splicecat: -: Input/output error\n"
    assert_prefix(r.stdout, medium, r.stats, "tee")
    assert (tmp_path / "copy").read_bytes() == r.stdout


def test_write_error_is_reported_once_and_ends(sc, strace, tmp_path, medium):
    """ENOSPC in the middle of read/write: one message, exit 1, no more operands."""
    with open(tmp_path / "out", "ab") as f:  # O_APPEND: read/write path
        r = sc.run(medium, medium, stdout=f, wrapper=inject(strace, "write:error=ENOSPC:when=5"))
    assert r.returncode == 1
    assert r.stderr == "splicecat: write error: No space left on device\n"
    assert (tmp_path / "out").stat().st_size == 4 * 128 * 1024


# --- EAGAIN on inherited O_NONBLOCK descriptors: wait, never spin ---------

def test_eagain_waits_instead_of_spinning(sc, strace, tmp_path, medium):
    """Both pipes O_NONBLOCK; the input comes in bursts (an empty input pipe:
    EAGAIN) and the reader starts late (a full output pipe: EAGAIN)."""
    data = medium.read_bytes()
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    os.set_blocking(in_r, False)
    os.set_blocking(out_w, False)

    def feed():
        for i in range(0, len(data), 512 * 1024):
            os.write(in_w, data[i:i + 512 * 1024])
            time.sleep(0.02)
        os.close(in_w)

    log = tmp_path / "strace.log"
    p = sc.popen("--stats", stdin=in_r, stdout=out_w,
                 wrapper=[strace, "-f", "-o", str(log), "-e", "trace=splice,poll"])
    os.close(in_r)
    os.close(out_w)
    feeder = threading.Thread(target=feed)
    feeder.start()
    time.sleep(0.3)
    chunks = []
    while chunk := os.read(out_r, 1 << 16):
        chunks.append(chunk)
    os.close(out_r)
    feeder.join()
    r = sc.finish(p)
    assert sha(b"".join(chunks)) == sha(data)
    assert r.stats == {"splice": len(data)}
    calls = re.findall(r"splice\(.*\) = (-?\d+)( EAGAIN)?", log.read_text())
    moved = sum(int(n) > 0 for n, _ in calls)
    eagain = sum(bool(e) for _, e in calls)
    # Each EAGAIN is followed by poll until both ends are ready, so the
    # retry makes progress: at most one EAGAIN per call that moved bytes.
    assert 0 < eagain <= moved + 1, (eagain, moved)


# --- pipe sizes -------------------------------------------------------------

def test_pipes_are_raised_to_1_mib(sc, strace, tmp_path, medium):
    """stdin and stdout pipes, and splicecat's own pipe, grow to 1 MiB."""
    if int(open("/proc/sys/fs/pipe-max-size").read()) < 1 << 20:
        pytest.skip("pipe-max-size is below 1 MiB here")
    log = tmp_path / "strace.log"
    trace = [strace, "-f", "-o", str(log), "-e", "trace=fcntl"]
    from_pipe(sc, medium, wrapper=trace)
    text = log.read_text()
    assert re.search(r"fcntl\(0, F_SETPIPE_SZ, 1048576\)\s+= 1048576", text), text
    assert re.search(r"fcntl\(1, F_SETPIPE_SZ, 1048576\)\s+= 1048576", text), text
    with open(os.devnull, "wb") as null:  # file -> /dev/null: through its own pipe
        sc.run(medium, stdout=null, wrapper=trace)
    assert re.search(r"fcntl\(\d+, F_SETPIPE_SZ, 1048576\)\s+= 1048576", log.read_text())


@pytest.mark.parametrize("errno", ["EPERM", "EBUSY"])
def test_pipe_size_refused_is_not_an_error(sc, strace, medium, errno):
    """Every fcntl fails: pipes keep their size, the copy is the same."""
    r = from_pipe(sc, medium, wrapper=inject(strace, f"fcntl:error={errno}"))
    assert (r.returncode, r.errors) == (0, "")
    assert sha(r.stdout) == file_sha(medium)
    assert r.stats == {"splice": medium.stat().st_size}
