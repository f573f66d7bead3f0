"""PL003 pass-through-cat."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, fix, known_to_fail, lint

from pipelint.finding import Applicability


@pytest.mark.parametrize(
    "script",
    [
        "sort words.txt | cat | uniq",
        "sort words.txt | cat > out.txt",
        "sort words.txt | cat >> out.txt",
        "sort words.txt |& cat | uniq",
        "x=$(sort words.txt | cat | head -1)",
        "a | b | cat | c",
    ],
)
def test_reports(script):
    assert "PL003" in codes(script)


@pytest.mark.parametrize(
    "script",
    [
        "git log | cat",
        "systemctl status | cat",
        "sort words.txt | cat -n | head",
        "sort words.txt | cat - extra.txt | head",
        "sort words.txt | cat 2>/dev/null",
        "sort words.txt > sorted.txt | cat > out.txt",
        "sort words.txt | cat > out.txt 2>&1",
        "sort words.txt | cat >&2",
        "sort words.txt |& cat > out.txt",
    ],
)
def test_leaves_alone(script):
    assert "PL003" not in codes(script)


TRICKY = [
    "sort words.txt | cat | uniq -c\n",
    "sort words.txt | cat > out.txt\ncat out.txt\n",
    "sort words.txt | cat >> out.txt\nsort words.txt | cat >> out.txt\ncat out.txt\n",
    "sort words.txt 2>/dev/null | cat > out.txt\necho after\n",
    "grep 500 access.log \\\n  | cat \\\n  | wc -l\n",
    "sort words.txt | cat | cat | uniq\n",
    'n=$(sort -u words.txt | cat | wc -l); echo "$n"\n',
    "cat access.log | cat | cat > out.txt\necho after\n",
    # issue 13 class 2: the file goes before a `2>&1` meant to follow it
    "ls missing.txt words.txt 2>&1 | cat > out.txt\necho after\n",
    # issue 10: `cat -` is the same pass-through
    "sort words.txt | cat - | uniq -c\n",
    "sort words.txt | cat - > out.txt\necho after\n",
]
ISSUE_13_BASH: dict = {}
ISSUE_13_DASH: dict = {}

# The status of the pipeline (or of the removed stage) is seen, the previous
# command's words may fail to expand, or the script defines `cat`: unsafe or none.
UNSAFE = [
    "sort words.txt 2>/dev/null | cat > out.txt\n",
    "grep nothing words.txt | cat > out.txt\necho \"rc=$?\"\n",
    "set -e\ngrep nothing words.txt | cat > out.txt\necho after\n",
    "sort words.txt | cat | uniq\necho \"${PIPESTATUS[*]}\"\n",
    "set -o pipefail\nsort missing.txt | cat | uniq\necho \"rc=$?\"\n",
    "set -u\n( sort \"$x\" | cat > out.txt )\necho after\n",
    "sort \"${x:?}\" | cat > out.txt\necho after\n",
    # The EXIT trap runs when the stage's subshell ends, after `trap`'s own redirect (fuzz seed 2412).
    "tee | trap 'echo trapped' EXIT | cat > out.txt\necho end\n",
    "f() { trap 'echo bye' EXIT; }\nsort words.txt | f | cat > out.txt\necho end\n",
]


@pytest.mark.parametrize("script", UNSAFE)
def test_fix_is_unsafe_where_the_difference_shows(script, tmp_path):
    (finding,) = [f for f in lint(script) if f.code == "PL003"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert fix(script) == script.encode()


def test_the_exit_trap_reason_is_real(tmp_path):
    script = b"#!/bin/sh\ntee | trap 'echo trapped' EXIT | cat > out.txt\necho end\n"
    with pytest.raises(AssertionError, match="out.txt"):
        assert_same_behaviour(script, fix(script, "script.sh", unsafe=True), tmp_path, "dash", path="script.sh")


@pytest.mark.parametrize(
    "script",
    ["alias cat='cat -n'\nsort words.txt | cat > out.txt\necho\n", "cat() { tac; }\nsort words.txt | cat | uniq\n"],
)
def test_the_script_s_own_cat_is_not_reported(script):
    assert "PL003" not in codes(script)


def test_redirect_goes_before_a_dup():
    assert fix("ls a b 2>&1 | cat > out.txt\necho\n") == b"ls a b > out.txt 2>&1\necho\n"


def test_crlf_cat_is_no_cat():
    assert "PL003" not in codes("sort words.txt | cat\r\n")
    assert "PL003" not in codes("sort words.txt | cat \r\n")


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13_BASH))
def test_fix_keeps_behaviour(script, tmp_path):
    fixed = fix(script)
    assert b"| cat |" not in fixed and b"| cat >" not in fixed and b"| cat - " not in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13_DASH))
def test_fix_keeps_behaviour_in_dash(script, tmp_path):
    source = b"#!/bin/sh\n" + script.encode()
    assert_same_behaviour(source, fix(source, "script.sh"), tmp_path, "dash")


def test_fixes():
    assert fix("sort words.txt | cat | uniq\n") == b"sort words.txt | uniq\n"
    assert fix("sort words.txt | cat > out.txt\necho\n") == b"sort words.txt > out.txt\necho\n"
    assert fix("sort words.txt | cat | cat | uniq\n") == b"sort words.txt | uniq\n"


def test_loop_left_alone_is_unsafe(tmp_path):
    script = "n=0\nwhile read -r l; do n=$((n+1)); done < words.txt | cat > out.txt\necho \"$n\"\n"
    (finding,) = [f for f in lint(script) if f.code == "PL003"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert fix(script) == script.encode()


def test_bare_trailing_cat_is_not_reported():
    assert_lint("git log --oneline | cat\n")


@pytest.mark.parametrize(
    "script",
    [
        # fuzz seed 2432, script 19823: head gets both lines in one piece through cat, one without it.
        "ls missing.txt words.txt 2>&1 | cat | ( head -n 1; wc -l )\n",
        "printf 'a\\nb\\n' | cat | { read -r first; cat; }\n",
        "printf 'a\\nb\\n' | cat | while read -r l; do head -c 1; done\n",
        "twice() { head -n 1; wc -l; }\nls missing.txt words.txt 2>&1 | cat | twice\n",
    ],
)
def test_a_next_stage_that_shares_its_input_makes_the_fix_unsafe(script):
    (finding,) = [f for f in lint(script) if f.code == "PL003"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "shares what it reads" in finding.fix.title + (finding.help or "")



def test_a_next_stage_with_one_reader_keeps_the_fix_safe(tmp_path):
    script = "printf 'a\\nb\\n' | cat | while read -r l; do echo \"got $l\"; done\n"
    (finding,) = [f for f in lint(script) if f.code == "PL003"]
    assert finding.fix.applicability is Applicability.SAFE
    assert_same_behaviour(script.encode(), fix(script), tmp_path, "bash")
