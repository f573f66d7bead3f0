"""splicecat between pipes, sockets and ttys, including non-blocking
descriptors and readers that go away."""

import os
import socket
import subprocess
import termios
import threading
import tty

import pytest
from sc_helpers import BIG_SIZE, MiB, file_sha, sha, shell


class Drain(threading.Thread):
    """Read FD to its end (or EIO, a pty's end) in the background."""

    def __init__(self, fd):
        super().__init__(daemon=True)
        self.fd, self.chunks = fd, []
        self.start()

    def run(self):
        while True:
            try:
                chunk = os.read(self.fd, MiB)
            except OSError:  # EIO: the pty's other side is closed
                break
            if not chunk:
                break
            self.chunks.append(chunk)

    def data(self) -> bytes:
        self.join(timeout=120)
        return b"".join(self.chunks)


def producer(path, **kw):
    """`cat PATH |`: a real pipe on our stdin, as in a shell pipeline."""
    return subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE, **kw)


# --- pipes -----------------------------------------------------------------

def test_file_to_pipe(sc, big, big_sha):
    r = sc.run("--stats", big)
    assert (r.returncode, r.errors) == (0, "")
    assert sha(r.stdout) == big_sha
    assert r.stats == {"splice": BIG_SIZE}


def test_pipe_to_file(sc, tmp_path, big, big_sha):
    cat = producer(big)
    with open(tmp_path / "out", "wb") as out:
        r = sc.run("--stats", stdin=cat.stdout, stdout=out)
    cat.stdout.close()
    assert cat.wait() == 0
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(tmp_path / "out") == big_sha
    assert r.stats == {"splice": BIG_SIZE}


def test_pipe_to_pipe(sc, big, big_sha):
    cat = producer(big)
    r = sc.run("--stats", stdin=cat.stdout)
    cat.stdout.close()
    assert cat.wait() == 0
    assert sha(r.stdout) == big_sha
    assert r.stats == {"splice": BIG_SIZE}


def test_file_redirected_to_stdin_then_pipe(sc, medium):
    with open(medium, "rb") as stdin:
        r = sc.run("--stats", stdin=stdin)
    assert sha(r.stdout) == file_sha(medium)
    assert r.stats == {"splice": medium.stat().st_size}


def test_empty_pipe(sc):
    r = sc.run("--stats", input=b"")
    assert (r.returncode, r.stdout, r.errors) == (0, b"", "")
    assert r.stats == {"splice": 0}


# --- non-blocking inherited descriptors: EAGAIN -> poll -------------------

@pytest.mark.parametrize("nonblocking", ["stdin", "stdout", "both"])
@pytest.mark.parametrize("tee", [False, True], ids=["plain", "tee"])
def test_nonblocking_pipes(sc, tmp_path, big, big_sha, nonblocking, tee):
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    if nonblocking in ("stdin", "both"):
        os.set_blocking(in_r, False)
    if nonblocking in ("stdout", "both"):
        os.set_blocking(out_w, False)
    cat = subprocess.Popen(["cat", str(big)], stdout=in_w)
    args = ["--tee", tmp_path / "copy"] if tee else []
    p = sc.popen("--stats", *args, stdin=in_r, stdout=out_w)
    for fd in (in_r, in_w, out_w):
        os.close(fd)
    drain = Drain(out_r)
    r = sc.finish(p)
    assert cat.wait() == 0
    out = drain.data()
    os.close(out_r)
    assert (r.returncode, r.errors) == (0, "")
    assert sha(out) == big_sha
    assert r.stats == ({"tee": BIG_SIZE} if tee else {"splice": BIG_SIZE})
    if tee:
        assert file_sha(tmp_path / "copy") == big_sha


def test_nonblocking_stdin_to_file(sc, tmp_path, big, big_sha):
    in_r, in_w = os.pipe()
    os.set_blocking(in_r, False)
    cat = subprocess.Popen(["cat", str(big)], stdout=in_w)
    os.close(in_w)
    with open(tmp_path / "out", "wb") as out:
        r = sc.run("--stats", stdin=in_r, stdout=out)
    os.close(in_r)
    assert cat.wait() == 0
    assert file_sha(tmp_path / "out") == big_sha
    assert r.stats == {"splice": BIG_SIZE}


# --- sockets (AF_UNIX socketpair) ----------------------------------------

def test_socket_as_stdin_to_pipe_and_file(sc, tmp_path, medium):
    data = medium.read_bytes()
    for to_file in (False, True):
        ours, theirs = socket.socketpair()
        feeder = threading.Thread(target=lambda: (ours.sendall(data), ours.shutdown(socket.SHUT_WR)))
        feeder.start()
        if to_file:
            with open(tmp_path / "out", "wb") as out:
                r = sc.run("--stats", stdin=theirs, stdout=out)
            got = (tmp_path / "out").read_bytes()
        else:
            r = sc.run("--stats", stdin=theirs)
            got = r.stdout
        feeder.join()
        ours.close()
        theirs.close()
        assert (r.returncode, r.errors) == (0, "")
        assert sha(got) == sha(data)
        # socket -> pipe directly; socket -> file through splicecat's pipe
        assert r.stats == {"splice": len(data)}


@pytest.mark.parametrize("source", ["file", "pipe"])
def test_socket_as_stdout(sc, medium, source):
    ours, theirs = socket.socketpair()
    drain = Drain(ours.fileno())
    if source == "file":
        r = sc.run("--stats", medium, stdout=theirs)
    else:
        cat = producer(medium)
        r = sc.run("--stats", stdin=cat.stdout, stdout=theirs)
        cat.stdout.close()
        cat.wait()
    theirs.close()
    got = drain.data()
    ours.close()
    assert (r.returncode, r.errors) == (0, "")
    assert sha(got) == file_sha(medium)
    assert r.stats == {"splice": medium.stat().st_size}


# --- pseudo-terminals -------------------------------------------------------

class Pty:
    """A pseudo-terminal pair whose ends are closed once, at most."""

    def __init__(self):
        self.master, self.slave = os.openpty()

    def close_slave(self):
        if self.slave is not None:
            os.close(self.slave)
            self.slave = None

    def close(self):
        self.close_slave()
        os.close(self.master)


@pytest.fixture
def pty():
    try:
        pair = Pty()
    except OSError as e:
        pytest.skip(f"no pseudo-terminal here: {e}")
    yield pair
    pair.close()


@pytest.mark.parametrize("source", ["file", "pipe"])
def test_pty_as_stdout(sc, medium, source, pty):
    master, slave = pty.master, pty.slave
    tty.setraw(slave)  # no \n -> \r\n: the bytes must arrive unchanged
    drain = Drain(master)
    if source == "file":
        r = sc.run("--stats", medium, stdout=slave)
    else:
        cat = producer(medium)
        r = sc.run("--stats", stdin=cat.stdout, stdout=slave)
        cat.stdout.close()
        cat.wait()
    pty.close_slave()  # the master then reads the rest, then EIO
    got = drain.data()
    assert (r.returncode, r.errors) == (0, "")
    assert sha(got) == file_sha(medium)
    assert r.stats == {"splice": medium.stat().st_size}


def test_pty_as_stdin(sc, pty):
    master, slave = pty.master, pty.slave
    attrs = termios.tcgetattr(slave)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    text = b"".join(b"line %d of a terminal session\n" % i for i in range(60))
    os.write(master, text + b"\x04")  # ^D at the start of a line: end of input
    r = sc.run("--stats", stdin=slave)
    assert (r.returncode, r.errors) == (0, "")
    assert r.stdout == text
    assert r.stats == {"splice": len(text)}


# --- readers that go away ---------------------------------------------------

def test_reader_closes_early_is_quiet(sc, big):
    """Like cat: SIGPIPE ends it, nothing on stderr."""
    ours = shell(sc, f'"{sc.path}" "{big}" | head -c 10; echo "${{PIPESTATUS[0]}}" >&2')
    ref = shell(sc, f'cat "{big}" | head -c 10; echo "${{PIPESTATUS[0]}}" >&2')
    assert ours.stdout == ref.stdout == big.read_bytes()[:10]
    assert ours.stderr == ref.stderr == b"141\n"  # 128 + SIGPIPE


@pytest.mark.parametrize("source", ["file", "pipe"])
def test_reader_closes_early_with_sigpipe_ignored(sc, big, source):
    """cat 9.1 then says "write error: Broken pipe" and exits 1: so do we.
    (With --tee, tee's rules apply: test_splicecat_tee.py.)"""
    cmd = {
        "file": f'"{sc.path}" "{big}"',
        "pipe": f'cat "{big}" | "{sc.path}"',
    }[source]
    script = f'trap "" PIPE; {cmd} | head -c 10 >/dev/null; echo "status ${{PIPESTATUS[-2]}}" >&2'
    ours = shell(sc, script).stderr.decode().splitlines()
    ref = shell(sc, script.replace(f'"{sc.path}"', "cat")).stderr.decode()
    # With a producer in front, it too gets EPIPE and says so, in either order.
    assert sorted(line.replace("splicecat", "cat") for line in ours) == sorted(ref.splitlines())
    assert ours.count("splicecat: write error: Broken pipe") == 1
    assert ours[-1] == "status 1"
