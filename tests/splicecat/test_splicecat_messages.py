"""splicecat's messages name files as GNU cat and tee 9.1 do."""

import os
import subprocess

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
