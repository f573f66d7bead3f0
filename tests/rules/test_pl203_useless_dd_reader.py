"""PL203 useless-dd-reader: `dd if=FILE | cmd` → `cmd < FILE`, with PL001's rewrite and safety."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, fix, known_to_fail, lint, run_script

from pipelint.finding import Applicability
from pipelint.rules import evidence


@pytest.mark.parametrize(
    "script",
    [
        "dd if=access.log | grep 500",
        "dd if=access.log bs=1M | grep 500",
        "dd if=access.log bs=64k status=none | grep 500",
        "dd if=access.log ibs=4k obs=4k | grep 500",
        "dd bs=1M if=access.log iflag=fullblock | grep 500",
        "dd if=access.log status=noxfer | grep 500",
        "dd if=access.log 2>/dev/null | grep 500",
        'dd if="my file.txt" | wc -l',
        "dd 'if=my file.txt' | wc -l",
        'dd if="$HOME/access.log" | wc -l',
        "dd if=$f | wc -l",
        "/bin/dd if=access.log | wc -l",
        "dd if=/dev/sda bs=1M | gzip > sda.img.gz",
        "n=$(dd if=access.log | wc -l)",
        "diff <(dd if=access.log | uniq) words.txt",
        "dd if=access.log | while read -r line; do echo \"$line\"; done",
        "dd if=access.log |& grep 500",
    ],
)
def test_reports(script):
    assert_lint(script, "PL203")


@pytest.mark.parametrize(
    "script",
    [
        # dd doing a job a redirect cannot do.
        "dd if=/dev/sda bs=512 count=1 | xxd",
        "dd if=disk.img bs=1M skip=10 | gzip",
        "dd if=data.bin bs=4 iseek=1 | od",
        "dd if=access.log conv=ucase | grep 500",
        "dd if=access.log cbs=80 | grep 500",
        "dd if=access.log of=copy.log | grep 500",
        "dd if=disk.img iflag=direct bs=1M | sha256sum",
        "dd if=disk.img iflag=nocache bs=1M | sha256sum",
        "dd if=disk.img status=progress bs=1M | gzip > disk.img.gz",  # dd as a progress meter
        # Privileges: the shell would open the file, not root.
        "sudo dd if=/dev/sda bs=1M | gzip > sda.img.gz",
        # The operand is not one known file.
        "dd if=*.img | gzip",
        "dd if={a,b}.img | gzip",
        "dd if=- | gzip",
        'dd "if=$f" | gzip',
        "dd | gzip",
        "dd --help | head -1",
        # The consumer reads something else.
        "dd if=access.log | wc -l < words.txt",
        # Not the first stage.
        "sort words.txt | dd of=x.txt",
        "LC_ALL=C dd if=access.log | wc -l",
    ],
)
def test_leaves_alone(script):
    assert "PL203" not in codes(script)


@pytest.mark.parametrize(
    ("script", "tool"),
    [
        ("dd if=dump.sql bs=1M | mysql shop", "mysql"),
        ("dd if=dump.sql | sudo -u postgres psql shop", "psql"),
        ("dd if=backup.tar bs=1M status=none | tar -xf -", "tar"),
        ("dd if=backup.xb bs=1M | mbstream -x", "mbstream"),
    ],
)
def test_dump_consumer_is_reported_as_a_dump_import(script, tool):
    (finding,) = assert_lint(script, "PL203")
    assert finding.message.startswith(f"{tool} reads ") and evidence.PIPED_DUMP in finding.message


def test_never_reported_together_with_another_rule_on_its_span():
    for script in ["dd if=dump.sql | mysql shop", "dd if=access.log | wc -l", "dd if=a bs=512 | tee /dev/null | wc -l"]:
        findings = lint(script)
        spans = {}
        for finding in findings:
            spans.setdefault((finding.start, finding.end), []).append(finding.code)
        assert all(len(codes_) == 1 for codes_ in spans.values()), findings


@pytest.mark.parametrize(
    ("script", "expected", "safety"),
    [
        ("dd if=access.log status=none | grep 500\necho\n", "grep 500 < access.log\necho\n", Applicability.SAFE),
        ("dd if=access.log bs=1M status=none | grep 500 | sort\n", "grep 500 < access.log | sort\n", Applicability.SAFE),
        ('dd if="my file.txt" status=none | wc -l\necho\n', 'wc -l < "my file.txt"\necho\n', Applicability.SAFE),
        ("dd 'if=my file.txt' status=none | wc -l\necho\n", "wc -l < 'my file.txt'\necho\n", Applicability.SAFE),
        ("dd 'if=it'\"'\"'s.txt' status=none | wc -l\necho\n", "wc -l < 'it'\\''s.txt'\necho\n", Applicability.SAFE),
        ("dd if=access.log | grep 500\n", "grep 500 < access.log\n", Applicability.UNSAFE),
        ("dd if=access.log status=none 2>/dev/null | grep 500\n", "grep 500 < access.log\n", Applicability.UNSAFE),
        ("dd if=access.log status=none |& grep 500\n", "grep 500 < access.log\n", Applicability.UNSAFE),
        ("dd if=$f status=none | wc -l\n", "wc -l < $f\n", Applicability.UNSAFE),
        ("dd if=~/access.log status=none | wc -l\n", "wc -l < ~/access.log\n", Applicability.UNSAFE),
        # Fuzz seed 2415, script 34261: a quoted tilde names `./~/…`, which rarely exists; mysql then ran on
        # empty input before the fix and not at all after it.
        ('dd "if=~/w.txt" bs=1M status=none | mysql shop >> out\necho\n', "mysql shop >> out < '~/w.txt'\necho\n", Applicability.UNSAFE),
        (
            "dd if=access.log status=none | while read -r l; do n=1; done\n",
            "while read -r l; do n=1; done < access.log\n",
            Applicability.UNSAFE,
        ),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = lint(script, select=("PL203",))
    assert finding.fix.applicability is safety
    assert fix(script, unsafe=True, select=("PL203",)).decode() == expected


def test_the_fix_drops_dd_statistics_from_stderr(tmp_path):
    """Documented under Fix safety: why a dd without status=none gets an unsafe fix."""
    script = b"dd if=access.log 2>&1 >/dev/null | wc -l\n"
    assert "PL203" not in codes(script)  # its stderr is the pipe's input: not a reader at all
    script = b"{ dd if=access.log | wc -l; } 2>&1 | grep -c records\n"
    fixed = fix(script, unsafe=True, select=("PL203",))
    assert fixed == b"{ wc -l < access.log; } 2>&1 | grep -c records\n"
    assert run_script(script, tmp_path / "a").stdout == b"2\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"0\n"


TRICKY = [
    "dd if=access.log status=none | grep 500\necho after\n",
    "dd if=access.log bs=1M status=none | grep -c 500\necho after\n",
    'dd if="my file.txt" status=none | tr a-z A-Z\necho after\n',
    "dd 'if=my file.txt' status=none | tr a-z A-Z\necho after\n",
    "dd \\\n  if=access.log status=none \\\n  | grep 500 \\\n  | wc -l\n",
    "dd if=access.log status=none | grep 500 > out.txt\necho done\n",
    'n=$(dd if=access.log status=none | head -1); echo "$n"\n',
    'echo "$(dd if="$(echo access.log)" status=none | grep 500)"\n',
    "if dd if=access.log status=none | grep -q 404; then echo found; fi\n",
    "dd if=latin.txt status=none | od -c\necho after\n",
    "dd if=dump.sql bs=1M status=none | mysql --user=app shop\necho after\n",
    "dd if=access.log status=none | while read -r line; do echo \"got $line\"; done | tail -1\n",
]

ISSUE_13: dict = {}

# The script sees the status, or `$(…)` captures what the consumer prints on
# empty input, or tar reports a directory in its own words: unsafe.
UNSAFE_WHERE_SEEN = [
    "dd if=access.log status=none | grep 500\n",
    'n=$(dd if=access.log status=none | wc -l); echo "$n"\n',
    "dd if=backup.tar bs=1M status=none | tar -xf -\necho after\n",
    "set -e\ndd if=latin.txt status=none | od -c\necho after\n",
]


@pytest.mark.parametrize("script", UNSAFE_WHERE_SEEN)
def test_fix_is_unsafe_where_a_missing_input_would_show(script, tmp_path):
    (finding,) = lint(script, select=("PL203",))
    assert finding.fix.applicability is Applicability.UNSAFE
    fixed = fix(script, unsafe=True, select=("PL203",))
    with pytest.raises(AssertionError):
        assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", rules=("PL203",))


@pytest.mark.parametrize(("shell", "script"), known_to_fail([(sh, s) for s in TRICKY for sh in ("bash", "dash")], ISSUE_13))
def test_fix_keeps_behaviour(shell, script, tmp_path):
    source = script.encode() if shell == "bash" else b"#!/bin/sh\n" + script.encode()
    fixed = fix(source, "script.bash" if shell == "bash" else "script.sh", select=("PL203",))
    assert fixed != source, "expected a safe fix"
    assert b"dd " not in fixed
    assert_same_behaviour(source, fixed, tmp_path, shell)


@pytest.mark.parametrize(
    "script",
    [
        "dd if=access.log | grep 500\n",
        "dd if=access.log bs=4k 2>/dev/null | uniq\n",
        "dd if=dump.sql | mysql shop\n",
    ],
)
def test_unsafe_fix_keeps_stdout_and_files(script, tmp_path):
    fixed = fix(script, unsafe=True, select=("PL203",))
    assert b"dd " not in fixed
    # Unsafe: dd's "records in/out" statistics leave stderr (Fix safety); the rest stays.
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", inputs=(), keeps=("parse", "status", "stdout", "files", "state"))


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True)
        assert fix(once, unsafe=True) == once


def test_not_reported_inside_a_parse_error():
    assert "PL203" not in codes("case x in\n dd if=access.log | wc -l\nesac\n")
    for broken in ["{ dd if=access.log status=none | wc -l; )\n", "x=$(dd if=access.log status=none | wc -l\n"]:
        assert all(f.fix is None for f in lint(broken))


@pytest.mark.parametrize("script", ["dd if=/dev/nst0 bs=64k | tar -xf -\n", "dd if=/dev/st0 bs=32k status=none | wc -c\n"])
def test_a_tape_reader_is_not_useless(script):
    """Issue 13 class 15: a tape written in 64 KiB records is read with 64 KiB reads; `< /dev/nst0` would fail."""
    assert "PL203" not in codes(script, select=("PL201", "PL203"))


def test_another_device_gets_an_unsafe_fix():
    (finding,) = lint("dd if=/dev/ttyS0 status=none | head -1\necho\n", select=("PL203",))
    assert finding.fix.applicability is Applicability.UNSAFE
