"""splicecat's messages name files as GNU cat and tee 9.1 do, and its options
are cat's and tee's POSIX ones: the rest is refused by name, with a reason."""

import os
import signal
import subprocess
import time

import pytest
from sc_helpers import gnu

# Names that exercise every quoting form: as is, 'single', "double" (an
# apostrophe among plain characters), $'...' escapes for control characters
# and bytes that are no character, specials only at the start or alone.
ODD_NAMES = [
    b"plain-name_1.txt", b"a b", b"it's", b"it's here", b'say "hi"', b"a$b", b"*.log",
    b"a:b", b"it's:x", b"x\ny", b"tab\there", b"\x01\x7f", b"\xff\xfe", "café".encode(),
    "é\n".encode(), b"\xc3", b"#x", b"x#", b"~x", b"x~", b"{", b"a{b}", b"a=b", b"a\\b",
    b"what?", b"a@b", b"100%+,-.", b"it's#", b"'", b"''", b"x'y$", b"\n'",
]
LOCALES = ["C.UTF-8", "C"]


def missing_file_message(argv, name: bytes, locale: str, cwd) -> bytes:
    """What ARGV says about NAME, a file that does not exist, in LOCALE."""
    env = dict(os.environ, LC_ALL=locale)
    return subprocess.run([*argv, b"--", name], capture_output=True, env=env, cwd=cwd,
                          stdin=subprocess.DEVNULL).stderr


def quoted_by(argv, name: bytes, locale: str, cwd) -> bytes:
    message = missing_file_message(argv, name, locale, cwd)
    prefix, suffix = b": ", b": No such file or directory\n"
    assert message.endswith(suffix), message
    return message[message.index(prefix) + len(prefix):-len(suffix)]


def read_back_by_bash(quoted: bytes) -> bytes:
    """The word bash reads from QUOTED, as a user pasting it would get."""
    script = b"printf %s " + quoted
    return subprocess.run([b"bash", b"-c", script], capture_output=True, check=True).stdout


def gnulib_quirk(ours: bytes, cat_form: bytes) -> bool:
    """Whether CAT_FORM is OURS as gnulib in coreutils 9.1 garbles it.  For a
    name with an apostrophe whose quoted form ends in a $'...' escape, its
    second pass starts with the first pass's "inside $'...'" state left
    over: it prints '' right after the opening quote (harmless), or, if the
    name starts with an escaped byte, leaves out the $' that begins the
    escape (bash then reads \n as two characters).  Later gnulib fixed it."""
    return cat_form in (ours[:1] + b"''" + ours[1:], ours.replace(b"'$'", b"", 1))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("name", ODD_NAMES, ids=repr)
def test_names_quoted_like_cat(sc, tmp_path, name, locale):
    ours = quoted_by([sc.path], name, locale, tmp_path)
    theirs = quoted_by(["cat"], name, locale, tmp_path)
    assert ours == theirs
    assert read_back_by_bash(ours) == name


@pytest.mark.parametrize("name", [b"it's\n", b"\nit's\x01", "it's é\x7f".encode()], ids=repr)
def test_apostrophe_and_trailing_escape_read_back_right(sc, tmp_path, name):
    """The one deliberate difference from cat 9.1 (see gnulib_quirk): our
    form is what fixed gnulib prints, and bash reads back the name."""
    ours = quoted_by([sc.path], name, "C.UTF-8", tmp_path)
    assert read_back_by_bash(ours) == name
    theirs = quoted_by(["cat"], name, "C.UTF-8", tmp_path)
    assert ours == theirs or gnulib_quirk(ours, theirs)


def test_every_message_quotes_the_name(sc, tmp_path):
    """Open, read and 'input file is output file' errors, like cat."""
    (tmp_path / "a dir").mkdir()
    (tmp_path / "it's").write_bytes(b"x\n")
    with open(tmp_path / "it's", "ab") as out:
        r = sc.run("a dir", "it's", stdout=out, cwd=tmp_path)
    with open(tmp_path / "it's", "ab") as out:
        ref = gnu("cat", "a dir", "it's", stdout=out, cwd=tmp_path)
    assert r.returncode == ref.returncode == 1
    assert r.stderr == "splicecat: 'a dir': Is a directory\nsplicecat: \"it's\": input file is output file\n"
    assert ref.stderr.decode().replace("cat:", "splicecat:") == r.stderr


@pytest.mark.parametrize("name", [b"no dir/x y", b"no-dir/it's", b"no-dir/\xff"], ids=repr)
def test_tee_file_names_quoted_like_tee(sc, tmp_path, name):
    r = subprocess.run([sc.path, b"--tee", name], input=b"data", capture_output=True, cwd=tmp_path, env=sc.env)
    ref = subprocess.run([b"tee", name], input=b"data", capture_output=True, cwd=tmp_path)
    assert r.returncode == ref.returncode == 1
    assert r.stdout == ref.stdout == b"data"
    assert r.stderr == ref.stderr.replace(b"tee:", b"splicecat:")


# --- options ------------------------------------------------------------------

def test_u_is_accepted_and_changes_nothing(sc, tmp_path, medium):
    """POSIX requires cat -u (unbuffered): splicecat never buffers output."""
    r = sc.run("-u", medium)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == gnu("cat", "-u", medium).stdout


@pytest.mark.parametrize("option", ["-a", "--append"])
def test_a_appends_like_tee(sc, tmp_path, option):
    for f in ("ours", "theirs"):
        (tmp_path / f).write_bytes(b"kept\n")
    r = sc.run(option, "--tee", tmp_path / "ours", input=b"added\n")
    ref = gnu("tee", "-a", tmp_path / "theirs", input=b"added\n")
    assert (r.returncode, r.stdout) == (ref.returncode, ref.stdout) == (0, b"added\n")
    assert (tmp_path / "ours").read_bytes() == (tmp_path / "theirs").read_bytes() == b"kept\nadded\n"


@pytest.mark.parametrize("option", ["-i", "--ignore-interrupts"])
def test_i_ignores_sigint_like_tee(sc, tmp_path, option):
    """SIGINT in the middle of a stream: with -i the copy completes, as tee -i's."""
    results = {}
    for name, argv in (("ours", [sc.path, option, "--tee", tmp_path / "ours"]),
                       ("theirs", ["tee", "-i", tmp_path / "theirs"])):
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=sc.env)
        p.stdin.write(b"before\n")
        p.stdin.flush()
        assert p.stdout.readline() == b"before\n"  # it runs, past option parsing
        p.send_signal(signal.SIGINT)
        time.sleep(0.1)
        out, err = p.communicate(b"after\n", timeout=30)
        results[name] = (p.returncode, out, err)
    assert results["ours"] == (0, b"after\n", b"") == results["theirs"]
    assert (tmp_path / "ours").read_bytes() == (tmp_path / "theirs").read_bytes() == b"before\nafter\n"


def test_without_i_sigint_ends_it(sc):
    # SIGINT's default action, as in a terminal: a suite run in the background of a script inherits it ignored.
    p = subprocess.Popen([sc.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=sc.env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    p.stdin.write(b"x\n")
    p.stdin.flush()
    assert p.stdout.readline() == b"x\n"
    p.send_signal(signal.SIGINT)
    assert p.wait(timeout=30) == -signal.SIGINT
    p.stdin.close()
    p.stdout.close()


CAT_REASON = "changes the bytes; splicecat copies them unchanged"
TEE_REASON = "is not supported: a failing output is reported and dropped, as by tee without it"


@pytest.mark.parametrize("arg, shown, reason", [
    *[(f"-{c}", f"-{c}", CAT_REASON) for c in "AbeEnstTv"],
    *[(f"--{o}", f"--{o}", CAT_REASON) for o in (
        "show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting")],
    ("--show-a", "--show-all", CAT_REASON),      # an unambiguous prefix, named in full
    ("-p", "-p", TEE_REASON),
    ("--output-error", "--output-error", TEE_REASON),
    ("--output-error=warn", "--output-error", TEE_REASON),
])
def test_cat_and_tee_options_refused_by_name(sc, arg, shown, reason):
    r = sc.run(arg, stdin=subprocess.DEVNULL)
    whose = "tee" if reason == TEE_REASON else "cat"
    assert (r.returncode, r.stdout) == (1, b"")
    assert r.stderr == (f"splicecat: {whose}'s option '{shown}' {reason}\n"
                        "Try 'splicecat --help' for more information.\n")
    # The real tools know these options: they are no typos.
    known = gnu(whose, arg, "/dev/null", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    assert b"unrecognized" not in known.stderr and b"invalid option" not in known.stderr


def test_help_lists_the_accepted_options(sc):
    text = sc.run("--help").stdout.decode()
    for option in ("-a, --append", "-i, --ignore-interrupts", "-u ", "--tee=FILE", "--stats"):
        assert option in text
    assert "--output-error" in text and "refused" in text
