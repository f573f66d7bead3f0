"""PL503 echo-pipe: what it reports, what it leaves alone, and fixes proven by running them."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, fix, lint, run_script

from pipelint.finding import Applicability


def pl503(script: str | bytes, path: str = "script.bash") -> list:
    return [finding for finding in lint(script, path) if finding.code == "PL503"]


@pytest.mark.parametrize(
    "script",
    [
        'echo "$x" | tr a-z A-Z',
        "echo 'a b' | wc -w",
        "echo hello | rev",
        'echo "$(date)" | cut -c1-3',
        'echo "${names[0]}" | tr a b',
        "echo $'a\\tb' | cut -f2",
        "echo \"$1\" | sed 's/a/b/'",
        "printf '%s\\n' \"$x\" | grep -c a",
        'printf "%s\\n" "$x" | md5sum',
        'upper=$(echo "$name" | tr a-z A-Z)',
        'if echo "$x" | grep -q "^#"; then echo comment; fi',
        'echo "$line" | while read -r a b; do echo "$b"; done',
        'echo "$x" | base64 -d > out.bin',
        'echo "$x" |& cat',
    ],
)
def test_reports(script):
    assert_lint(script, "PL503")


@pytest.mark.parametrize(
    "script",
    [
        # Idioms a here-string would change or cannot express.
        'echo $x | tr -s " "',
        'echo -n "$x" | md5sum',
        'echo -e "a\\tb" | cut -f2',
        "echo -- x | cat",
        'echo "$a" "$b" | paste - -',
        "echo | cat",
        "echo *.txt | wc -w",
        'echo "$@" | wc -w',
        'printf "%s" "$x" | wc -c',
        "printf '%s\\n' a b | sort",
        "printf \"$fmt\" \"$x\" | cat",
        'echo "$x" | mysql shop < dump.sql',
        'echo "$password" | sudo -S true <<< x',
        "yes | head -n 3",
        "/bin/echo \"$x\" | tr a b",
        "sudo echo \"$x\" | tr a b",
        'LC_ALL=C echo "$x" | tr a b',
        'echo "$x" 2>/dev/null | tr a b',
        'echo "$x" > f.txt | tr a b',
        "echo() { printf '[%s]\\n' \"$*\"; }\necho \"$x\" | tr a b",
        'cat f | echo "$x"',
        'tr a b <<< "$x"',
        'echo "$x" <(true) | cat',
    ],
)
def test_leaves_alone(script):
    assert "PL503" not in codes(script)


@pytest.mark.parametrize(
    "source",
    [
        b'#!/bin/sh\necho "$x" | tr a b\n',
        b'#!/usr/bin/env dash\nprintf \'%s\\n\' "$x" | tr a b\n',
    ],
)
def test_never_in_sh_scripts(source):
    assert "PL503" not in codes(source, "script")
    assert "PL503" not in codes(source.split(b"\n", 1)[1], "script.sh")


def test_ksh_has_here_strings():
    # zsh has them too, but pipelint does not lint zsh scripts (test_cli_conventions.py); `--shell bash` does.
    assert "PL503" in codes('#!/bin/ksh\necho "$x" | tr a b\n', "script")


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ('echo "$x" | tr a b\n', 'tr a b <<< "$x"\n'),
        ("echo 'a  b' | wc -w\n", "wc -w <<< 'a  b'\n"),
        ("printf '%s\\n' \"$x\" | grep -c a\n", 'grep -c a <<< "$x"\n'),
        ('echo "$x" | tr a b | wc -c\n', 'tr a b <<< "$x" | wc -c\n'),
        ('echo "$x" | tr a b > out.txt\n', 'tr a b <<< "$x" > out.txt\n'),
        ('y=$(echo "$x" | tr a b)\n', 'y=$(tr a b <<< "$x")\n'),
        ('echo "$x" |\n  tr a b\n', 'tr a b <<< "$x"\n'),
        ('echo "$l" | while read -r a; do n=$a; done\n', 'while read -r a; do n=$a; done <<< "$l"\n'),
    ],
)
def test_fix_is_always_unsafe(script, expected):
    (finding,) = pl503(script)
    assert finding.fix.applicability is Applicability.UNSAFE
    assert fix(script) == script.encode()
    assert fix(script, unsafe=True).decode() == expected


def test_message_and_title():
    (finding,) = pl503('printf \'%s\\n\' "$x" | sha1sum')
    assert finding.message == (
        "`printf … |` forks a subshell only to feed one line to sha1sum: a here-string needs no extra process"
    )
    assert finding.fix.title == "Give the text to sha1sum as a here-string"


# Run by real bash before and after the fix.
TRICKY = [
    'x="a  b\tc"; echo "$x" | tr a-z A-Z\n',
    "echo 'it''s \"quoted\"' | od -c\n",
    "x='back\\slash \\n'; echo \"$x\" | od -c\n",
    "printf '%s\\n' \"-n\" | od -c\n",
    "x=-e; printf '%s\\n' \"$x\" | cat\n",
    'x=$(cat words.txt); echo "$x" | sort | uniq -c\n',
    'upper=$(echo "$(head -n1 words.txt)" | tr a-z A-Z); echo "$upper"\n',
    'p=/var/log/app.log; echo "${p##*/}" | wc -c\n',
    "echo $'tab\\there' | cut -f2\n",
    'if echo "alpha" | grep -q al; then echo yes; fi\n',
    'echo "alpha" \\\n  | tr a-z A-Z \\\n  > out.txt\ncat out.txt\n',
    'f() { echo "$1" | rev; }\nf hello\n',
    'for w in one two; do echo "$w" | tr o 0; done\n',
    'echo "x" | cat >> words.txt\ncat words.txt\n',
    "echo ''\"\" | od -c\n",
    'n=0; echo "alpha" | while read -r w; do n=1; done | cat; echo "n=$n"\n',
    'echo "ünïcödé" | wc -c\n',
]


@pytest.mark.parametrize("script", TRICKY)
def test_fix_keeps_behaviour_in_bash(script, tmp_path):
    fixed = fix(script, "script.bash", unsafe=True, select=("PL503",))
    assert fixed != script.encode() and b"<<<" in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


def test_why_echo_is_unsafe_option_like_values(tmp_path):
    """Documented: `echo "$x"` swallows x=-n; the here-string passes it through."""
    script = b'x=-n; echo "$x" | od -c\n'
    fixed = fix(script, unsafe=True)
    assert fixed == b'x=-n; od -c <<< "$x"\n'
    assert run_script(script, tmp_path / "a").stdout == b"0000000\n"
    assert b"-   n  \\n" in run_script(fixed, tmp_path / "b").stdout


def test_why_echo_is_unsafe_xpg_echo(tmp_path):
    script = b"shopt -s xpg_echo\necho 'a\\tb' | od -c\n"
    before, after = run_script(script, tmp_path / "a"), run_script(fix(script, unsafe=True), tmp_path / "b")
    assert b"\\t" in before.stdout and b"\\t" not in after.stdout


def test_why_the_loop_keeps_its_variables(tmp_path):
    """Documented: the consumer leaves its subshell when it was the only other stage."""
    script = b'n=0; echo alpha | while read -r w; do n=1; done; echo "n=$n"\n'
    fixed = fix(script, unsafe=True)
    assert fixed == b'n=0; while read -r w; do n=1; done <<< alpha; echo "n=$n"\n'
    assert run_script(script, tmp_path / "a").stdout == b"n=0\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"n=1\n"


def test_not_reported_inside_a_parse_error():
    # The broken part of an ERROR node: nothing is reported.
    assert "PL503" not in codes('case x in echo "$x" | tr a b\n')
    # A complete statement the checker salvages from an ERROR node is reported, never fixed.
    assert all(f.fix is None for f in pl503('{ echo "$x" | tr a b; )\n'))
    assert all(f.fix is None for f in pl503('f() { echo "$x" | tr a b\n'))  # bash: unexpected end of file
    assert all(f.fix is None for f in pl503('echo "$x" | tr a b )\n'))
    # An ERROR inside the echo's argument: what is left once it is blanked is not what was written.
    assert "PL503" not in codes("echo $(( cat words.txt | sort\n")
    assert all(f.fix is None for f in pl503('echo "$x" | tr a b )\n'))
    # An ERROR inside the echo's argument: what is left once it is blanked is not what was written.
    assert "PL503" not in codes("echo $(( cat words.txt | sort\n")


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True)
        assert fix(once, unsafe=True) == once


@pytest.mark.parametrize("source", [b'echo "\xff" | tr a b\n', b"echo '\n", b'printf "%s\\n" | cat\n', b"echo | \n"])
def test_odd_input_gives_no_traceback(source):
    lint(source)


@pytest.mark.parametrize(
    ("body", "reported"),
    [
        ('echo "$d" | grep -q s', True),
        ('if ! x; then echo "$err" | grep -q s; fi', True),
        ('if ! x; then echo "$err" | grep -q s; continue; fi', True),  # the loop goes on
        ('if echo "$d" | grep -q x; then exit 1; fi', True),  # the condition runs every time
        ('( echo "$d" | grep -q s; exit 1 )', True),  # a subshell's exit leaves the subshell
        ('if x; then echo "$d" | grep s; elif y; then exit 1; fi', True),  # another branch exits
        # An error path: what runs before `exit`, `break` or `return` runs once, then the loop ends.
        ('if ! x "$d"; then echo "$err" | grep -q s; exit 1; fi', False),
        ('echo "$d" | grep x; break', False),
        ('if x; then :; else echo "$d" | grep s; exit 1; fi', False),
        ('case $d in a) echo "$d" | grep s; exit 2;; esac', False),
        ('{ echo "$d" | grep s; return 1; }', False),
    ],
)
def test_in_the_default_set_only_where_it_runs_per_iteration(body, reported):
    from harness import lint_all

    script = f"#!/bin/bash\nfor d in $ds; do {body}; done\n"
    assert ("PL503" in [f.code for f in lint_all(script, "x.bash")]) is reported
