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
    "sort words.txt 2>/dev/null | cat > out.txt\n",
    "grep 500 access.log \\\n  | cat \\\n  | wc -l\n",
    "sort words.txt | cat | cat | uniq\n",
    'n=$(sort -u words.txt | cat | wc -l); echo "$n"\n',
    "cat access.log | cat | cat > out.txt\n",
]

# Cases the strict harness shows breaking issue 13's contract: strict xfails until the rule's fix lands.
ISSUE_13_BASH = {
    'sort words.txt 2>/dev/null | cat > out.txt\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    'cat access.log | cat | cat > out.txt\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
}
ISSUE_13_DASH = {
    'sort words.txt 2>/dev/null | cat > out.txt\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    'cat access.log | cat | cat > out.txt\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
}


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13_BASH))
def test_fix_keeps_behaviour(script, tmp_path):
    fixed = fix(script)
    assert b"| cat |" not in fixed and b"| cat >" not in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13_DASH))
def test_fix_keeps_behaviour_in_dash(script, tmp_path):
    source = b"#!/bin/sh\n" + script.encode()
    assert_same_behaviour(source, fix(source, "script.sh"), tmp_path, "dash")


def test_fixes():
    assert fix("sort words.txt | cat | uniq\n") == b"sort words.txt | uniq\n"
    assert fix("sort words.txt | cat > out.txt\n") == b"sort words.txt > out.txt\n"
    assert fix("sort words.txt | cat | cat | uniq\n") == b"sort words.txt | uniq\n"


def test_loop_left_alone_is_unsafe(tmp_path):
    script = "n=0\nwhile read -r l; do n=$((n+1)); done < words.txt | cat > out.txt\necho \"$n\"\n"
    (finding,) = [f for f in lint(script) if f.code == "PL003"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert fix(script) == script.encode()


def test_bare_trailing_cat_is_not_reported():
    assert_lint("git log --oneline | cat\n")
