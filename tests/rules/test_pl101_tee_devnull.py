"""PL101 tee-devnull: what it reports, what it leaves alone, and fixes proven by running them."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, fix, lint, run_script

from pipelint.finding import Applicability


@pytest.mark.parametrize(
    "script",
    [
        "grep 500 access.log | tee /dev/null | wc -l",
        "grep 500 access.log | tee -a /dev/null | wc -l",
        "grep 500 access.log | tee /dev/null -a | wc -l",
        "grep 500 access.log | tee --append /dev/null | wc -l",
        "grep 500 access.log | tee -i -- /dev/null | wc -l",
        "grep 500 access.log | tee '/dev/null' | wc -l",
        'grep 500 access.log | tee "/dev/null" /dev/null | wc -l',
        "grep 500 access.log | tee | wc -l",
        "grep 500 access.log | /usr/bin/tee /dev/null | wc -l",
        "grep 500 access.log | tee /dev/null 2>/dev/null | wc -l",
        "grep 500 access.log | tee /dev/null",
        "grep 500 access.log | tee /dev/null > out.txt",
        "tee /dev/null | wc -l",
        "n=$(grep 500 access.log | tee /dev/null | wc -l)",
        "f() { sort | tee /dev/null | uniq; }",
    ],
)
def test_reports(script):
    assert_lint(script, "PL101")


@pytest.mark.parametrize(
    "script",
    [
        # The everyday tee: a log next to the output, or root writing a file.
        "make 2>&1 | tee build.log",
        "echo '127.0.0.1 db' | sudo tee -a /etc/hosts > /dev/null",
        "echo '127.0.0.1 db' | tee -a /etc/hosts > /dev/null",
        "grep 500 access.log | tee /dev/null run.log | wc -l",
        'grep 500 access.log | tee "$log" | wc -l',
        "grep 500 access.log | tee $log | wc -l",
        "grep 500 access.log | tee >(sha256sum) | wc -l",
        "grep 500 access.log | tee --help | wc -l",
        'grep 500 access.log | tee "-$flags" /dev/null | wc -l',
        "grep 500 access.log | tee /dev/null < words.txt | wc -l",
        "grep 500 access.log | tee /dev/null > copy.txt | wc -l",
        "grep 500 access.log | tee /dev/null >&2 | wc -l",
        "grep 500 access.log | TMPDIR=/x tee /dev/null | wc -l",
        "tee /dev/null < access.log",
        "grep 500 access.log | tee /dev/stderr | wc -l",
    ],
)
def test_leaves_alone(script):
    assert "PL101" not in codes(script)


@pytest.mark.parametrize(
    ("script", "expected", "safety"),
    [
        ("grep 500 access.log | tee /dev/null | wc -l\n", "grep 500 access.log | wc -l\n", Applicability.SAFE),
        ("grep 500 access.log | tee -a /dev/null 2>/dev/null | wc -l\n", "grep 500 access.log | wc -l\n", Applicability.SAFE),
        ("grep 500 access.log | tee -p /dev/null | wc -l\n", "grep 500 access.log | wc -l\n", Applicability.UNSAFE),
        ("grep 500 access.log | tee --output-error=exit /dev/null | wc -l\n", "grep 500 access.log | wc -l\n", Applicability.UNSAFE),
        ("grep 500 access.log | tee /dev/null\n", "grep 500 access.log\n", Applicability.UNSAFE),
        ("grep 500 access.log | tee /dev/null >> out.txt\n", "grep 500 access.log >> out.txt\n", Applicability.UNSAFE),
        ("tee /dev/null | wc -l\n", "wc -l\n", Applicability.UNSAFE),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = lint(script, select=("PL101",))
    assert finding.fix.applicability is safety
    assert fix(script, unsafe=True, select=("PL101",)).decode() == expected
    if safety is Applicability.UNSAFE:
        assert fix(script, unsafe=False, select=("PL101",)).decode() == script


@pytest.mark.parametrize(
    "script",
    [
        "grep 500 access.log | tee /dev/null |  # a copy for later\n  wc -l\n",
        "grep 500 access.log |& tee /dev/null\n",
        "grep 500 access.log > x.txt | tee /dev/null\n",
        "grep 500 access.log | tee /dev/null > a.txt 2> b.txt\n",
        "tee /dev/null 2>/dev/null | wc -l\n",
    ],
)
def test_reported_without_a_fix(script):
    (finding,) = [f for f in lint(script) if f.code == "PL101"]
    assert finding.fix is None


# Each case is run by real bash before and after the (safe) fix.
TRICKY = [
    "grep 500 access.log | tee /dev/null | wc -l\n",
    "grep 500 access.log | tee -a /dev/null | tr 0-9 a-j\n",
    "sort words.txt | tee /dev/null -a -i | uniq -c\n",
    "sort 'my file.txt' | tee -- '/dev/null' | head -1\n",
    "sort words.txt \\\n  | tee /dev/null \\\n  | wc -l\n",
    "sort words.txt |\n  tee /dev/null |\n  wc -l\n",
    "sort words.txt | tee /dev/null 2>/dev/null | wc -l > out.txt\necho done\n",
    'n=$(sort words.txt | tee /dev/null | wc -l); echo "$n"\n',
    'echo "$(grep -c 500 access.log | tee /dev/null | tr 0-9 a-j)"\n',
    "if grep 500 access.log | tee /dev/null | grep -q 404; then echo both; else echo one; fi\n",
    "grep 500 access.log |& tee /dev/null | wc -l\n",
    "grep zzz access.log | tee /dev/null | wc -l; echo \"status $?\"\n",
    "yes | tee /dev/null | head -3\n",
    "sort words.txt | tee /dev/null | tee | wc -c\n",
]


@pytest.mark.parametrize("script", TRICKY)
def test_fix_keeps_behaviour_in_bash(script, tmp_path):
    fixed = fix(script, "script.bash", select=("PL101",))
    assert fixed != script.encode(), "expected a safe fix"
    assert b"tee" not in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


@pytest.mark.parametrize("script", [s for s in TRICKY if "|&" not in s])
def test_fix_keeps_behaviour_in_dash(script, tmp_path):
    source = b"#!/bin/sh\n" + script.encode()
    fixed = fix(source, "script.sh", select=("PL101",))
    assert fixed != source
    assert_same_behaviour(source, fixed, tmp_path, "dash")


@pytest.mark.parametrize(
    "script",
    [
        "grep 500 access.log | tee /dev/null > out.txt\n",
        "grep 500 access.log | tee -a /dev/null >> out.txt\n",
        "sort words.txt | tee /dev/null\n",
    ],
)
def test_unsafe_last_stage_fix_keeps_output_and_files(script, tmp_path):
    fixed = fix(script, unsafe=True, select=("PL101",))
    assert b"tee" not in fixed
    # Unsafe: on the error path the exit status becomes the previous stage's (Fix safety).
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", inputs=())


def test_last_stage_fix_changes_the_exit_status(tmp_path):
    """Documented under Fix safety: why the last-stage fix is unsafe."""
    script = b'grep zzz access.log | tee /dev/null\necho "status $?"\n'
    fixed = fix(script, unsafe=True, select=("PL101",))
    assert fixed == b'grep zzz access.log\necho "status $?"\n'
    assert run_script(script, tmp_path / "a").stdout == b"status 0\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"status 1\n"


def test_tee_p_keeps_draining_after_its_reader_exits(tmp_path):
    """Documented under Fix safety: why `tee -p` makes the fix unsafe."""
    script = b"i=0; while [ $i -lt 5000 ]; do echo $i; i=$((i+1)); done | tee -p /dev/null | head -1 > /dev/null\n"
    script += b"echo done\n"
    producer_side_effect = script.replace(b"echo $i;", b"echo $i; echo $i > last.txt;")
    before = run_script(producer_side_effect, tmp_path / "a")
    after = run_script(fix(producer_side_effect, unsafe=True, select=("PL101",)), tmp_path / "b")
    assert before.stdout == after.stdout == b"done\n"
    assert before.files["last.txt"] != after.files["last.txt"]  # the producer ran to the end only with tee -p


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True)
        assert fix(once, unsafe=True) == once


def test_not_reported_inside_a_parse_error():
    assert "PL101" not in codes("grep 500 access.log | tee /dev/null | wc -l )\n")
    assert "PL101" not in codes("if true; then\n grep 500 access.log | tee /dev/null | wc -l\nfi fi\n")


def test_no_fix_for_a_statement_salvaged_from_a_parse_error():
    (finding,) = lint("{ grep 500 access.log | tee /dev/null | wc -l; )\n", select=("PL101",))
    assert finding.code == "PL101" and finding.fix is None


# Issue 13: what removing a middle `tee /dev/null` may change besides the copy.

UNSAFE_MIDDLE = [
    # Class 6: the stage's own redirect creates a file; pipefail and PIPESTATUS see its status.
    "sort words.txt | tee /dev/null 2>err.txt | uniq -c\n",
    "sort words.txt | tee /dev/null 2>>err.txt | uniq -c\n",
    "set -o pipefail\nsort words.txt | tee /dev/null | head -1\necho \"status $?\"\n",
    'sort words.txt | tee /dev/null | wc -l; echo "${PIPESTATUS[*]}"\n',
    # Class 16: a producer with side effects after its output, and a reader that stops early.
    "{ echo a; sleep .3; echo b; touch done; } | tee /dev/null | head -1\n",
    "for w in a b c; do echo $w; echo $w >> seen.txt; done | tee /dev/null | head -n 1\n",
    "tar -cvf - src | tee /dev/null | head -c 10 > /dev/null\n",
    "{ echo a; echo b; touch done; } | tee /dev/null | grep -q a\n",
    # Class 4: a sourced file may define tee.
    ". ./lib.sh\nsort words.txt | tee /dev/null | wc -l\n",
]


@pytest.mark.parametrize("script", UNSAFE_MIDDLE)
def test_middle_removal_is_unsafe_where_the_script_can_tell(script):
    (finding,) = lint(script, select=("PL101",))
    assert finding.fix.applicability is Applicability.UNSAFE, finding.help
    assert finding.help.startswith("The fix is unsafe: "), finding.help


SAFE_MIDDLE = [
    # A producer whose only effect is its output, or readers that read to the end.
    "sort words.txt | tee /dev/null | head -1\n",
    "sort words.txt | tee /dev/null | grep -q alpha\n",
    "{ echo a; sleep .3; echo b; touch done; } | tee /dev/null | wc -l\n",
    "for w in a b c; do echo $w; echo $w >> seen.txt; done | tee /dev/null | sort | uniq -c\n",
    "sort words.txt | tee /dev/null 2>&1 | uniq -c\n",
    "set -o pipefail\nsort words.txt | tee /dev/null | wc -l\necho after\n",
    "set -e\nsort words.txt | tee /dev/null | wc -l\necho after\n",
]


@pytest.mark.parametrize("script", SAFE_MIDDLE)
def test_middle_removal_stays_safe_and_keeps_behaviour(script, tmp_path):
    (finding,) = lint(script, select=("PL101",))
    assert finding.fix.applicability is Applicability.SAFE
    fixed = fix(script, select=("PL101",))
    assert b"tee" not in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")
    source = b"#!/bin/sh\n" + script.encode()
    assert_same_behaviour(source, fix(source, "script.sh", select=("PL101",)), tmp_path, "dash")


def test_why_a_removed_stage_changes_when_the_producer_dies(tmp_path):
    """Documented (class 16): without tee's slack the producer meets SIGPIPE before `touch done`."""
    script = b"{ echo a; sleep .3; echo b; touch done; } | tee /dev/null | head -1\n"
    fixed = fix(script, unsafe=True, select=("PL101",))
    assert fixed == b"{ echo a; sleep .3; echo b; touch done; } | head -1\n"
    assert "done" in run_script(script, tmp_path / "a").files
    assert "done" not in run_script(fixed, tmp_path / "b").files


def test_why_its_own_redirect_matters(tmp_path):
    """Documented (class 6): `2>err.txt` created the file; without the stage nothing does."""
    script = b"sort words.txt | tee /dev/null 2>err.txt | uniq -c\n"
    fixed = fix(script, unsafe=True, select=("PL101",))
    assert fixed == b"sort words.txt | uniq -c\n"
    assert "err.txt" in run_script(script, tmp_path / "a").files
    assert "err.txt" not in run_script(fixed, tmp_path / "b").files


def test_why_pipestatus_matters(tmp_path):
    script = b'sort words.txt | tee /dev/null | wc -l > /dev/null; echo "${PIPESTATUS[*]}"\n'
    fixed = fix(script, unsafe=True, select=("PL101",))
    assert run_script(script, tmp_path / "a").stdout == b"0 0 0\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"0 0\n"


@pytest.mark.parametrize(
    "script",
    [
        "tee() { command tee \"$@\"; }\nsort words.txt | tee /dev/null | wc -l\n",
        "sort words.txt | tee /dev/null | wc -l\nfunction tee { cat; }\n",
        "shopt -s expand_aliases\nalias tee='tee -a'\nsort words.txt | tee /dev/null | wc -l\n",
    ],
)
def test_not_reported_when_the_script_defines_tee(script):
    assert "PL101" not in codes(script)


@pytest.mark.parametrize(
    "script",
    [
        "sort words.txt | tee /dev/null\r\n",
        "sort words.txt | tee\r\n",
        "sort words.txt | tee /dev/null \r\n",
    ],
)
def test_crlf_last_word_is_not_dev_null(script):
    """bash reads `/dev/null\\r` (or a word `\\r`): that tee writes a file."""
    assert "PL101" not in codes(script)


@pytest.mark.parametrize(
    "script",
    [
        "sort words.txt | tee /dev/null | wc -l\r\necho done\r\n",
        "{ echo a; echo b; } | tee /dev/null | head -n 1; echo \"ps=${PIPESTATUS[*]}\"\r\n",
        # Not `… | head -1\r` last: head rejects `-1\r` at once, and whether tee then
        # dies before or after the producer's `echo b` is a race in the original itself.
        "{ echo a; sleep .3; echo b; touch done; } | tee /dev/null | head -1; echo end\r\n",
    ],
)
def test_crlf_scripts_keep_behaviour(script, tmp_path):
    fixed = fix(script, select=("PL101",))
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")
