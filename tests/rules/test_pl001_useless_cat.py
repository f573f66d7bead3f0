"""PL001 useless-cat: what it reports, what it leaves alone, and fixes proven by running them."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, fix, known_to_fail, lint

from pipelint.finding import Applicability


@pytest.mark.parametrize(
    "script",
    [
        "cat access.log | grep 500",
        'cat "my file.txt" | wc -l',
        "cat 'my file.txt' | wc -l",
        'cat "$HOME/access.log" | wc -l',
        "cat ~/access.log | wc -l",
        "cat -- access.log | wc -l",
        "/bin/cat access.log | wc -l",
        'n=$(cat access.log | wc -l)',
        "diff <(cat access.log | sort) words.txt",
        "if cat access.log | grep -q 500; then echo yes; fi",
        "while cat access.log | grep -q 500; do break; done",
        "f() { cat access.log | grep 500; }",
        "cat access.log |& grep 500",
        "cat access.log | while read -r line; do echo \"$line\"; done",
        'cat "$(echo access.log)" | wc -l',
    ],
)
def test_reports(script):
    assert_lint(script, "PL001")


@pytest.mark.parametrize(
    "script",
    [
        "sudo cat access.log | grep 500",
        "command cat access.log | grep 500",
        "cat -n access.log | grep 500",
        "cat access.log words.txt | wc -l",
        "cat | wc -l",
        "cat - | wc -l",
        "cat *.log | wc -l",
        "cat {a,b}.log | wc -l",
        "cat $file | wc -l",
        'cat "$@" | wc -l',
        'cat "${files[@]}" | wc -l',
        "cat access.log",
        "cat access.log | wc -l < words.txt",
        "cat access.log | wc -l <<< x",
        "LC_ALL=C cat access.log | wc -l",
        "echo access.log | cat",
        "cat access.log 2>&1 >/dev/null | wc -l",
        "cat access.log >&2 | wc -l",
    ],
)
def test_leaves_alone(script):
    assert "PL001" not in codes(script)


def test_dump_consumer_is_pl004_not_pl001():
    assert_lint("cat dump.sql | mysql shop", "PL004")


@pytest.mark.parametrize(
    ("script", "expected", "safety"),
    [
        ("cat access.log | grep 500\n", "grep 500 < access.log\n", Applicability.SAFE),
        ('cat "my file.txt" | wc -l\n', 'wc -l < "my file.txt"\n', Applicability.SAFE),
        ("cat access.log | grep 500 | sort\n", "grep 500 < access.log | sort\n", Applicability.SAFE),
        ("cat access.log 2>/dev/null | wc -l\n", "wc -l < access.log\n", Applicability.UNSAFE),
        ("cat access.log |& wc -l\n", "wc -l < access.log\n", Applicability.UNSAFE),
        (
            "cat access.log | while read -r l; do n=1; done\n",
            "while read -r l; do n=1; done < access.log\n",
            Applicability.UNSAFE,
        ),
        (
            "cat access.log | while read -r l; do n=1; done | sort\n",
            "while read -r l; do n=1; done < access.log | sort\n",
            Applicability.SAFE,
        ),
        ("cat access.log | read -r first\n", "read -r first < access.log\n", Applicability.UNSAFE),
        ("cat $(echo access.log) | wc -l\n", "wc -l < $(echo access.log)\n", Applicability.UNSAFE),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = lint(script)
    assert finding.fix.applicability is safety
    assert fix(script, unsafe=True).decode() == expected


# Each case is run by real bash (or dash for .sh) before and after the fix.
TRICKY = [
    "cat access.log | grep 500\n",
    'cat "my file.txt" | tr a-z A-Z\n',
    "cat 'my file.txt' | sort -r\n",
    "cat access.log \\\n  | grep 500 \\\n  | wc -l\n",
    "cat access.log | \\\n    grep -c 500\n",
    "cat access.log | grep 500 > out.txt\necho done\n",
    "cat access.log | grep 500 2>/dev/null >> out.txt\n",
    'n=$(cat access.log | wc -l); echo "$n"\n',
    'echo "$(cat "$(echo access.log)" | grep -c 500)"\n',
    "if cat access.log | grep -q 404; then echo found; fi\n",
    "count() { cat \"$1\" | wc -l; }\ncount access.log\n",
    "cat latin.txt | od -c\n",
    "cat access.log | grep 500\r\necho after\r\n",
    "cat access.log | sort | uniq -c | sort -rn\n",
    "cat access.log | while read -r line; do echo \"got $line\"; done | tail -1\n",
    "printf '%s\\n' \"$(cat access.log | head -1)\"\n",
    "diff <(cat access.log | sort) <(sort access.log) && echo same\n",
]

# Cases the strict harness shows breaking issue 13's contract: strict xfails until the rule's fix lands.
ISSUE_13_BASH = {
    'cat access.log | grep 500\n': 'issue 13 class 10: input a directory: status differs',
    'cat "my file.txt" | tr a-z A-Z\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    "cat 'my file.txt' | sort -r\n": 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    'cat access.log | \\\n    grep -c 500\n': 'issue 13 class 10: input a directory: status differs',
    'cat access.log | grep 500 2>/dev/null >> out.txt\n': 'issue 13 class 10: input a directory: status differs',
    'n=$(cat access.log | wc -l); echo "$n"\n': 'issue 13 class 10: input missing: stdout, state differ',
    'echo "$(cat "$(echo access.log)" | grep -c 500)"\n': 'issue 13 class 10: input missing: stdout differs',
    'count() { cat "$1" | wc -l; }\ncount access.log\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    'cat latin.txt | od -c\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    'cat access.log | grep 500\r\necho after\r\n': "issue 13 class 9: a CRLF script: the fix moves the `\\r` off the file name's word",
}
ISSUE_13_DASH = {
    'cat access.log | grep 500\n': 'issue 13 class 10: input missing: status differs (under dash only); input a directory: status differs',
    'cat "my file.txt" | tr a-z A-Z\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    "cat 'my file.txt' | sort -r\n": 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    'cat access.log | \\\n    grep -c 500\n': 'issue 13 class 10: input missing: status differs (under dash only); input a directory: status differs',
    'cat access.log | grep 500 2>/dev/null >> out.txt\n': 'issue 13 class 10: input missing: status differs (under dash only); input a directory: status differs',
    'n=$(cat access.log | wc -l); echo "$n"\n': 'issue 13 class 10: input missing: stdout, state differ',
    'echo "$(cat "$(echo access.log)" | grep -c 500)"\n': 'issue 13 class 10: input missing: stdout differs',
    'count() { cat "$1" | wc -l; }\ncount access.log\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
    'cat latin.txt | od -c\n': 'issue 13 class 10: input missing: status differs; input a directory: status differs',
}


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13_BASH))
def test_fix_keeps_behaviour_in_bash(script, tmp_path):
    fixed = fix(script, "script.bash", unsafe=False)
    assert fixed != script.encode(), "expected a safe fix"
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


@pytest.mark.parametrize("script", known_to_fail([s for s in TRICKY if "<(" not in s and "\r" not in s], ISSUE_13_DASH))
def test_fix_keeps_behaviour_in_dash(script, tmp_path):
    source = b"#!/bin/sh\n" + script.encode()
    fixed = fix(source, "script.sh")
    assert fixed != source
    assert_same_behaviour(source, fixed, tmp_path, "dash")


def test_a_missing_file_changes_only_the_error_path(tmp_path):
    """Documented under Fix safety: the shell reports it and the consumer does not run."""
    from harness import run_script

    script = b'cat missing.txt | wc -l\necho "status $?"\n'
    fixed = fix(script)
    assert fixed == b'wc -l < missing.txt\necho "status $?"\n'
    assert run_script(script, tmp_path / "a").stdout == b"0\nstatus 0\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"status 1\n"


def test_non_utf8_bytes_survive_the_fix():
    source = b"# caf\xe9 \xff\xfe\ncat access.log | grep 500 # na\xefve\n"
    assert fix(source) == b"# caf\xe9 \xff\xfe\ngrep 500 < access.log # na\xefve\n"


def test_crlf_and_tabs_survive_the_fix():
    assert fix(b'cat "a\tb" |\tgrep\t500\r\necho after\r\n') == b'grep\t500 < "a\tb"\r\necho after\r\n'


def test_sh_script_fix_adds_no_bashism():
    source = b"#!/bin/sh\ncat access.log |& grep 500\n"
    assert all(f.fix is None or b"|&" not in b"".join(e.content for e in f.fix.edits) for f in lint(source, "x.sh"))


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True)
        assert fix(once, unsafe=True) == once


def test_no_fix_next_to_a_parse_error():
    findings = lint("cat access.log | grep 500 )\n")
    assert all(f.fix is None for f in findings)


def test_a_computed_option_is_not_taken_for_the_file():
    # `cat "-$x" f`: with x=n it numbers lines; `< "-$x"` would read a file named -n.
    assert "PL001" not in codes('cat "-$x" | grep y\n')


def test_a_comment_between_the_stages_keeps_the_finding_but_has_no_fix():
    (finding,) = lint("cat f | # the log\ngrep x\n")
    assert finding.code == "PL001" and finding.fix is None
