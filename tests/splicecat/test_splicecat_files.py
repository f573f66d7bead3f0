"""splicecat on files and devices: same bytes as cat, the intended method,
cat's messages and exit status."""

import os
import socket
import subprocess

import pytest
from sc_helpers import BIG_SIZE, SMALL_INPUT_MAX, MiB, file_sha, gnu, sha


def write_to(sc, path, *args, mode="wb", **kw):
    with open(path, mode) as out:
        return sc.run("--stats", *args, stdout=out, **kw)


# --- regular file -> regular file: copy_file_range --------------------------

@pytest.mark.parametrize("size", [1, 4096, 3 * MiB + 7])
def test_file_to_file_uses_copy_file_range(sc, tmp_path, size):
    src = tmp_path / "src"
    src.write_bytes(os.urandom(size))
    r = write_to(sc, tmp_path / "out", src)
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(tmp_path / "out") == sha(gnu("cat", src).stdout)
    assert r.stats == {"copy_file_range": size}


def test_big_file_to_file(sc, tmp_path, big, big_sha):
    r = write_to(sc, tmp_path / "out", big)
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(tmp_path / "out") == big_sha
    assert r.stats == {"copy_file_range": BIG_SIZE}


# --- small regular files: not worth a pipe of our own -------------------------

@pytest.mark.parametrize("size", [1, 4096, SMALL_INPUT_MAX])
def test_small_files_skip_our_own_pipe(sc, tmp_path, size):
    """Neither end a pipe (here /dev/null): a file of at most SMALL_INPUT_MAX
    bytes is not worth creating and raising a pipe (docs/splicecat.md,
    "Small inputs"): read/write."""
    src = tmp_path / "src"
    src.write_bytes(os.urandom(size))
    r = write_to(sc, os.devnull, src)
    assert (r.returncode, r.errors) == (0, "")
    assert r.stats == {"readwrite": size}


def test_small_file_to_a_socket_by_read_write(sc, tmp_path):
    src = tmp_path / "src"
    src.write_bytes(os.urandom(SMALL_INPUT_MAX))
    ours, theirs = socket.socketpair()
    r = sc.run("--stats", src, stdout=theirs)
    theirs.close()
    got = b"".join(iter(lambda: ours.recv(1 << 16), b""))
    ours.close()
    assert got == src.read_bytes()
    assert r.stats == {"readwrite": SMALL_INPUT_MAX}


@pytest.mark.parametrize("output, method", [("pipe", "splice"), ("file", "copy_file_range")])
def test_small_files_into_a_pipe_or_file_use_the_kernel(sc, tmp_path, output, method):
    """No pipe of our own needed: splicing 1000 small files into a pipe took
    7-18% less CPU than read/write; into a file the two tie."""
    src = tmp_path / "src"
    src.write_bytes(os.urandom(100))
    if output == "pipe":
        r = sc.run("--stats", src, src)
        got = r.stdout
    else:
        r = write_to(sc, tmp_path / "out", src, src)
        got = (tmp_path / "out").read_bytes()
    assert got == src.read_bytes() * 2
    assert r.stats == {method: 200}


def test_one_byte_over_the_threshold_splices(sc, tmp_path):
    src = tmp_path / "src"
    src.write_bytes(os.urandom(SMALL_INPUT_MAX + 1))
    r = write_to(sc, os.devnull, src, src)
    assert r.stats == {"splice": 2 * (SMALL_INPUT_MAX + 1)}


def test_small_files_create_no_pipe(sc, strace, tmp_path, medium):
    """No pipe2 or F_SETPIPE_SZ while only small files went to /dev/null;
    the first big one creates splicecat's pipe."""
    small = tmp_path / "small"
    small.write_bytes(b"x" * 100)
    log = tmp_path / "strace.log"
    trace = [strace, "-f", "-o", str(log), "-e", "trace=fcntl,pipe2"]
    with open(os.devnull, "wb") as null:
        sc.run(small, small, stdout=null, wrapper=trace)
        assert "F_SETPIPE_SZ" not in log.read_text() and "pipe2" not in log.read_text()
        r = sc.run("--stats", small, medium, stdout=null, wrapper=trace)
    assert "pipe2(" in log.read_text()
    assert r.stats == {"readwrite": 100, "splice": medium.stat().st_size}


def test_empty_file_is_one_read(sc, tmp_path):
    """Size 0 could be a /proc file: read(2) decides, and finds the end."""
    (tmp_path / "empty").write_bytes(b"")
    r = write_to(sc, tmp_path / "out", tmp_path / "empty")
    assert (r.returncode, r.errors) == (0, "")
    assert (tmp_path / "out").read_bytes() == b""
    assert r.stats == {"readwrite": 0}


def test_sparse_file(sc, tmp_path):
    src = tmp_path / "sparse"
    with open(src, "wb") as f:
        f.truncate(32 * MiB)
        for offset in (0, 5 * MiB + 3, 31 * MiB):
            f.seek(offset)
            f.write(os.urandom(1000))
    expected = sha(gnu("cat", src).stdout)
    r = write_to(sc, tmp_path / "out", src)
    assert file_sha(tmp_path / "out") == expected
    assert r.stats == {"copy_file_range": 32 * MiB}
    r = sc.run("--stats", src)
    assert sha(r.stdout) == expected
    assert r.stats == {"splice": 32 * MiB}


def test_several_files_and_stdin(sc, tmp_path, medium):
    a, b, e = tmp_path / "a", tmp_path / "b", tmp_path / "e"
    a.write_bytes(b"first\n")
    b.write_bytes(os.urandom(MiB + 1))
    e.write_bytes(b"")
    with open(medium, "rb") as stdin:
        r = write_to(sc, tmp_path / "out", a, e, "-", b, "-", stdin=stdin)
    with open(medium, "rb") as stdin:
        expected = sha(gnu("cat", a, e, "-", b, "-", stdin=stdin).stdout)
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(tmp_path / "out") == expected
    total = 6 + MiB + 1 + medium.stat().st_size
    assert r.stats == {"copy_file_range": total, "readwrite": 0}


def test_no_operand_reads_stdin(sc, tmp_path, medium):
    with open(medium, "rb") as stdin:
        r = write_to(sc, tmp_path / "out", stdin=stdin)
    assert file_sha(tmp_path / "out") == file_sha(medium)
    assert r.stats == {"copy_file_range": medium.stat().st_size}


def test_append_output_uses_write(sc, tmp_path, medium):
    """O_APPEND: splice/sendfile say EINVAL, copy_file_range EBADF."""
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.write_bytes(b"prefix\n")
    theirs.write_bytes(b"prefix\n")
    r = write_to(sc, ours, medium, mode="ab")
    with open(theirs, "ab") as out:
        gnu("cat", medium, stdout=out)
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(ours) == file_sha(theirs)
    assert r.stats == {"readwrite": medium.stat().st_size}


def test_cross_filesystem_uses_sendfile(sc, big, big_sha):
    """ext4 -> tmpfs: copy_file_range says EXDEV (5.19+), sendfile works."""
    if not os.path.isdir("/dev/shm") or os.stat("/dev/shm").st_dev == big.stat().st_dev:
        pytest.skip("no tmpfs /dev/shm on another filesystem than the test data")
    target = f"/dev/shm/splicecat-test-{os.getpid()}-{sc.kind}"
    try:
        r = write_to(sc, target, big)
        assert (r.returncode, r.errors) == (0, "")
        assert file_sha(target) == big_sha
        assert r.stats == {"sendfile": BIG_SIZE}
    finally:
        os.unlink(target)


def test_o_direct_output(sc, tmp_path, medium):
    """O_DIRECT: splice would fail on the unaligned tail after the rest moved."""
    out = tmp_path / "direct"
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_DIRECT)
    except OSError as e:
        pytest.skip(f"no O_DIRECT here: {e}")
    try:
        r = sc.run("--stats", medium, stdout=fd)
    finally:
        os.close(fd)
    assert (r.returncode, r.errors) == (0, "")
    assert file_sha(out) == file_sha(medium)
    assert r.stats == {"readwrite": medium.stat().st_size}


# --- /proc, /dev/null, /dev/full ------------------------------------------

@pytest.mark.parametrize("proc_file", ["/proc/version", "/proc/cpuinfo"])
def test_proc_file(sc, tmp_path, proc_file):
    """st_size 0 but content: copy_file_range would return 0 here."""
    expected = gnu("cat", proc_file).stdout
    assert expected
    r = write_to(sc, tmp_path / "out", proc_file)
    assert (tmp_path / "out").read_bytes() == expected
    assert r.stats == {"readwrite": len(expected)}
    r = sc.run("--stats", proc_file)
    assert r.stdout == expected
    assert r.stats == {"readwrite": len(expected)}


def test_dev_null(sc, big):
    with open(os.devnull, "wb") as null:
        r = sc.run("--stats", big, stdout=null)
    assert (r.returncode, r.errors) == (0, "")
    assert r.stats == {"splice": BIG_SIZE}


@pytest.mark.parametrize("via", ["file", "pipe"])
def test_dev_full_reports_enospc(sc, medium, via):
    with open("/dev/full", "wb") as full:
        if via == "file":
            r = sc.run(medium, stdout=full)
            ref = gnu("cat", medium, stdout=full)
        else:
            with open(medium, "rb") as f:
                data = f.read()
            r = sc.run(input=data, stdout=full)
            ref = gnu("cat", input=data, stdout=full)
    assert r.returncode == ref.returncode == 1
    assert r.stderr == "splicecat: write error: No space left on device\n"
    assert ref.stderr.decode().replace("cat:", "splicecat:") == r.stderr


def test_dev_full_with_nothing_to_write(sc, tmp_path):
    (tmp_path / "empty").write_bytes(b"")
    with open("/dev/full", "wb") as full:
        r = sc.run(tmp_path / "empty", stdout=full)
    assert (r.returncode, r.stderr) == (0, "")


# --- errors like cat --------------------------------------------------------

def test_missing_operand_among_good_ones(sc, tmp_path, medium):
    good = tmp_path / "good"
    good.write_bytes(b"good bytes\n")
    r = sc.run(good, "missing", medium, cwd=tmp_path)
    ref = gnu("cat", good, "missing", medium, cwd=tmp_path)
    assert r.returncode == ref.returncode == 1
    assert r.stderr == "splicecat: missing: No such file or directory\n"
    assert sha(r.stdout) == sha(ref.stdout)


def test_directory_operand(sc, tmp_path, medium):
    (tmp_path / "dir").mkdir()
    r = sc.run("dir", medium, cwd=tmp_path)
    ref = gnu("cat", "dir", medium, cwd=tmp_path)
    assert r.returncode == ref.returncode == 1
    assert r.stderr == "splicecat: dir: Is a directory\n"
    assert ref.stderr.decode().replace("cat:", "splicecat:") == r.stderr
    assert sha(r.stdout) == sha(ref.stdout)


@pytest.mark.parametrize("mode", ["ab", "r+b"])
def test_input_file_is_output_file(sc, tmp_path, mode):
    f = tmp_path / "f"
    f.write_bytes(b"abc\n")
    with open(f, mode) as out:
        r = sc.run("f", stdout=out, cwd=tmp_path)
    with open(f, mode) as out:
        ref = gnu("cat", "f", stdout=out, cwd=tmp_path)
    assert r.returncode == ref.returncode == 1
    assert r.stderr == "splicecat: f: input file is output file\n"
    assert ref.stderr.decode().replace("cat:", "splicecat:") == r.stderr
    assert f.read_bytes() == b"abc\n"


def test_empty_file_appended_to_itself_is_fine(sc, tmp_path):
    """cat 9.1 complains only when input is left to read."""
    (tmp_path / "e").write_bytes(b"")
    with open(tmp_path / "e", "ab") as out:
        r = sc.run("e", stdout=out, cwd=tmp_path)
    assert (r.returncode, r.stderr) == (0, "")


def test_closed_stdout(sc, medium):
    r = subprocess.run(["bash", "-c", f'"{sc.path}" "{medium}" >&-'], capture_output=True, env=sc.env)
    ref = subprocess.run(["bash", "-c", f'cat "{medium}" >&-'], capture_output=True)
    assert r.returncode == ref.returncode == 1
    assert r.stderr.decode() == "splicecat: standard output: Bad file descriptor\n"


# --- options ----------------------------------------------------------------

def test_version(sc):
    r = sc.run("--version")
    assert (r.returncode, r.stdout, r.stderr) == (0, b"splicecat 0.1.0\n", "")


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_text_to_a_full_disk(sc, option):
    with open("/dev/full", "wb") as full:
        r = sc.run(option, stdout=full)
        ref = gnu("cat", option, stdout=full)
    assert r.returncode == ref.returncode == 1
    assert r.stderr == "splicecat: write error: No space left on device\n"


def test_help(sc):
    r = sc.run("--help")
    assert r.returncode == 0
    text = r.stdout.decode()
    assert text.startswith("Usage: splicecat [OPTION]... [FILE]...\n")
    for option in ("--tee=FILE", "--append", "--stats", "--help", "--version"):
        assert option in text


@pytest.mark.parametrize("arg, message", [
    ("--x", "splicecat: unrecognized option '--x'\n"),
    ("-x", "splicecat: invalid option -- 'x'\n"),
    ("--tee", "splicecat: option '--tee' requires an argument\n"),
])
def test_bad_option(sc, arg, message):
    r = sc.run(arg, stdin=subprocess.DEVNULL)
    assert r.returncode == 1
    assert r.stdout == b""
    assert r.stderr == message + "Try 'splicecat --help' for more information.\n"
    if arg != "--tee":  # cat has no option taking an argument
        ref = gnu("cat", arg, stdin=subprocess.DEVNULL)
        assert ref.returncode == 1
        assert ref.stderr.decode().replace("cat", "splicecat") == r.stderr


def test_double_dash_ends_options(sc, tmp_path):
    (tmp_path / "--stats").write_bytes(b"a file named --stats\n")
    r = sc.run("--", "--stats", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, b"a file named --stats\n", "")


def test_options_after_operands(sc, tmp_path):
    (tmp_path / "a").write_bytes(b"x" * 10)
    r = sc.run("a", "--stats", cwd=tmp_path)
    assert r.stdout == b"x" * 10
    assert r.stats == {"splice": 10}
