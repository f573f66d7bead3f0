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
        "diff <(cat access.log | uniq) words.txt",
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
        # The script's exit status is the pipeline's: a missing file changes it (issue 13 class 10).
        ("cat access.log | grep 500\n", "grep 500 < access.log\n", Applicability.UNSAFE),
        ("cat access.log | grep 500\necho done\n", "grep 500 < access.log\necho done\n", Applicability.SAFE),
        ('cat "my file.txt" | wc -l\n', 'wc -l < "my file.txt"\n', Applicability.UNSAFE),
        ('cat "my file.txt" | wc -l\necho done\n', 'wc -l < "my file.txt"\necho done\n', Applicability.SAFE),
        ('set -e\ncat "my file.txt" | wc -l\necho done\n', 'set -e\nwc -l < "my file.txt"\necho done\n', Applicability.UNSAFE),
        ('cat f | wc -l\necho "rc=$?"\n', 'wc -l < f\necho "rc=$?"\n', Applicability.UNSAFE),
        # Only tested: grep exits non-zero on empty input as the failed redirect does; wc does not.
        ("if cat f | grep -q x; then echo y; fi\n", "if grep -q x < f; then echo y; fi\n", Applicability.SAFE),
        ("if cat f | wc -l; then echo y; fi\n", "if wc -l < f; then echo y; fi\n", Applicability.UNSAFE),
        # A `$(…)` captures what the consumer prints on empty input: wc prints 0, head nothing.
        ('n=$(cat f | wc -l)\necho "$n"\n', 'n=$(wc -l < f)\necho "$n"\n', Applicability.UNSAFE),
        ('echo "$(cat f | head -1)"\n', 'echo "$(head -1 < f)"\n', Applicability.SAFE),
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
        # After the consumer's own redirects: with f missing, out is still created, as before.
        ("cat f | tr a b > out\necho\n", "tr a b > out < f\necho\n", Applicability.SAFE),
        # Before a copy of stdin, which must copy f as it copied the pipe.
        ("cat f | uniq 3<&0 > out\necho\n", "uniq < f 3<&0 > out\necho\n", Applicability.SAFE),
        # wc prints 0 on empty input, which out no longer gets (tree-sitter-bash hangs `> out` on the list).
        ("true && cat f | wc -l > out\ncat out\n", "true && wc -l > out < f\ncat out\n", Applicability.UNSAFE),
        ("true && cat f | grep x > out\ncat out\n", "true && grep x > out < f\ncat out\n", Applicability.SAFE),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = lint(script)
    assert finding.fix.applicability is safety
    assert fix(script, unsafe=True).decode() == expected


# Each case is run by real bash (or dash for .sh) before and after the fix.
# A pipeline whose status the script hands on (its last command) gets an
# unsafe fix (UNSAFE_WHERE_SEEN below); `echo after` keeps these safe.
TRICKY = [
    "cat access.log | grep 500\necho after\n",
    'cat "my file.txt" | tr a-z A-Z\necho after\n',
    "cat 'my file.txt' | sort -S 1M -r\necho after\n",  # GNU sort given its buffer size: no slower from a file
    "cat access.log | \\\n    grep -c 500\necho after\n",
    "cat access.log | grep 500 > out.txt\necho done\n",
    # tree-sitter-bash hangs this redirect on the whole `&&` list: out.txt is not "used afterwards".
    "true && cat access.log | grep 500 > out.txt\necho done\n",
    # grep prints nothing on empty input: out.txt is created empty either way, and read later.
    "cat access.log | grep 500 > out.txt\ncat out.txt; echo after\n",
    'n=$(cat access.log | head -1); echo "$n"\n',
    'echo "$(cat "$(echo access.log)" | grep 500)"\n',
    "if cat access.log | grep -q 404; then echo found; fi\n",
    "cat access.log | grep 404 && echo found\necho after\n",
    "count() { cat \"$1\" | wc -l; echo counted; }\ncount access.log\n",
    "cat latin.txt | od -c\necho after\n",
    "cat access.log | cut -d' ' -f1 | uniq -c | sort -rn\n",
    "cat access.log | while read -r line; do echo \"got $line\"; done | tail -1\n",
    "printf '%s\\n' \"$(cat access.log | head -1)\"\n",
    "diff <(cat access.log | uniq -c) <(uniq -c access.log) && echo same\n",
    # f is never set: cat opens the empty name and fails, tr runs on nothing and out is created empty.
    'cat "$f" | tr a-z A-Z > out.txt\necho after\n',
    "for i in 2; do cat \"$f\" | tr a-z A-Z >> out.txt; echo \"i=$i\"; done\n",
    # errexit turned off again, or confined to a subshell: nothing sees the status (facts.option_at).
    "set -e\nset +e\ncat access.log | wc -l\necho after\n",
    "( set -e; echo in )\ncat access.log | wc -l\necho after\n",
    "n=$(set -e; echo 1)\ncat access.log | wc -l\necho \"$n\"\n",
    "set -e\nfor i in 1 2; do set +e; cat access.log | wc -l; set -e; done\necho after\n",
    # nounset off again, or the consumer still in a subshell of its own.
    'set -u\nset +u\ncat "$f" | uniq\necho after\n',
    'set -u\ncat "$f" | uniq | uniq -c\necho after\n',
]

# Where the script sees the pipeline's status or captures the consumer's output
# on empty input, a missing or directory input changes what it does: unsafe.
UNSAFE_WHERE_SEEN = [
    "cat access.log | grep 500\n",
    'cat "my file.txt" | tr a-z A-Z\n',
    'n=$(cat access.log | wc -l); echo "$n"\n',
    'echo "$(cat "$(echo access.log)" | grep -c 500)"\n',
    'count() { cat "$1" | wc -l; }\ncount access.log\n',
    "set -e\ncat access.log | wc -l\necho after\n",
    "cat access.log | wc -l\necho \"rc=$?\"\n",
    "cat access.log | wc -l || echo failed\necho after\n",
    # Where `set +e` proves nothing: a function turns errexit on again, a loop runs `set -e` first.
    "set -e\nf() { set -e; }\nset +e\nf\ncat access.log | wc -l\necho after\n",
    "set +e\nfor i in 1 2; do cat access.log | wc -l; set -e; done\necho after\n",
    "set -e\nif false; then set +e; fi\ncat access.log | wc -l\necho after\n",
]
ISSUE_13_BASH: dict = {}
ISSUE_13_DASH: dict = {}


@pytest.mark.parametrize("script", UNSAFE_WHERE_SEEN)
def test_fix_is_unsafe_where_a_missing_input_would_show(script, tmp_path):
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert fix(script) == script.encode()
    # The reason is real: with the input taken away, bash behaves differently.
    fixed = fix(script, unsafe=True)
    with pytest.raises(AssertionError):
        assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", rules=("PL001",))


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


def test_an_unset_variable_under_nounset_makes_the_fix_unsafe(tmp_path):
    """Under `set -u` an unset "$f" in the redirect ends a POSIX shell (dash, `bash --posix`), where it
    ended cat's subshell before; bash itself only fails the command."""
    script = b'#!/bin/sh\nset -u\ncat "$f" | uniq\necho after\n'
    (finding,) = [f for f in lint(script, "script.sh") if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    with pytest.raises(AssertionError, match="dash"):
        assert_same_behaviour(script, fix(script, "script.sh", unsafe=True), tmp_path, "dash", path="script.sh")


def test_a_special_builtin_consumer_makes_the_fix_unsafe(tmp_path):
    """`: < missing` ends dash (a failed redirect on a POSIX special builtin), `cat missing | :` did not (fuzz seed 2413)."""
    script = b'#!/bin/sh\nfor i in 2; do cat missing.txt | : out; echo "i=$i"; done\n'
    (finding,) = [f for f in lint(script, "script.sh") if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    with pytest.raises(AssertionError, match="dash"):
        assert_same_behaviour(script, fix(script, "script.sh", unsafe=True), tmp_path, "dash", path="script.sh")
    assert "special builtin" in (finding.help or "")
    # Still in a pipeline, `:` runs in a subshell of its own: only that ends.
    (longer,) = [f for f in lint(b"#!/bin/sh\ncat f | : | wc -l\necho\n", "script.sh") if f.code == "PL001"]
    assert "special builtin" not in (longer.help or "")


def test_a_missing_file_changes_only_the_error_path(tmp_path):
    """Documented under Fix safety: the shell reports it and the consumer does not run.

    Here the script reads `$?`, so the fix is unsafe (--unsafe-fixes applies it).
    """
    from harness import run_script

    script = b'cat missing.txt | wc -l\necho "status $?"\n'
    fixed = fix(script, unsafe=True)
    assert fixed == b'wc -l < missing.txt\necho "status $?"\n'
    assert run_script(script, tmp_path / "a").stdout == b"0\nstatus 0\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"status 1\n"


def test_non_utf8_bytes_survive_the_fix():
    source = b"# caf\xe9 \xff\xfe\ncat access.log | grep 500 # na\xefve\necho\n"
    assert fix(source) == b"# caf\xe9 \xff\xfe\ngrep 500 < access.log # na\xefve\necho\n"


def test_crlf_and_tabs_survive_the_fix():
    # A `\r` then blanks is a word of its own to the shell: the redirect can go before the blanks.
    assert fix(b'cat "a\tb" |\tgrep\t500 \r\necho after\r\n') == b'grep\t500 < "a\tb" \r\necho after\r\n'


@pytest.mark.parametrize(
    "script", [b"cat access.log | grep 500\r\necho after\r\n", b"cat access.log | wc -l\r\necho after\r\n"]
)
def test_no_fix_moves_a_crlf_carriage_return(script, tmp_path):
    """Issue 13 class 9: `grep 500\r` greps for `500\r`; `grep 500 < access.log\r` would open `access.log\r`."""
    (finding,) = lint(script)
    assert finding.fix is None
    assert fix(script, unsafe=True) == script


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


@pytest.mark.parametrize(
    "script",
    [
        'cat "$*" | wc -l\necho\n',  # every argument joined: rarely one existing file (issue 13 class 10)
        'cat "~/x" | wc -l\necho\n',  # a quoted tilde is no home directory
        'file=${1:--}\ncat "$file" | tr a-z A-Z\necho\n',  # `-` means stdin to cat (class 13)
        'x=-n\ncat "$x" | wc -l\necho\n',
        ". ./lib.sh\ncat f | wc -l\necho\n",  # the sourced file could define cat (class 4)
    ],
)
def test_operands_and_names_that_make_the_fix_unsafe(script):
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE


@pytest.mark.parametrize(
    "script",
    ["cat \\- | wc -l\n", "cat \\-n f | wc -l\n", 'cat "${1:--}" | wc -l\n', "cat() { tac \"$@\"; }\ncat f | wc -l\n",
     "alias cat='cat -n'\ncat f | wc -l\n", "function cat { tac; }\ncat f | wc -l\n"],
)
def test_stdin_options_and_the_script_s_own_cat_are_not_reported(script):
    assert "PL001" not in codes(script)


@pytest.mark.parametrize(
    "script",
    [
        "for i in 1 2; do cat f | break; done\n",
        "for i in 1 2; do cat f | continue; done\n",
        "f() { cat x | return 3; }\n",
        "cat f | command -p read v\n",
        "cat f | builtin read v\n",
        "cat f | \\exit\n",
        "cat f | command cd /\n",
        "cat f | [[ ${v:=x} ]]\n",
        "cat f | : ${v:=set}\necho \"$v\"\n",  # fuzz seed 2415 (PL002's twin): the expansion assigns
        "cat f | head -n ${n=2}\necho \"$n\"\n",
        "cat f | head -n $((n += 2))\necho \"$n\"\n",
        "cat f | echo $((i++)) > /dev/null\necho \"$i\"\n",
        "cat f | time wc -l 2>/dev/null\necho\n",
        'cat f | echo "got: $(head -1)"\necho\n',
        'cat f | X="$(head -1)" env\necho\n',
        "cat f | (head -n 1; wc -l)\necho\n",
        "cat f | { head -n 1; wc -l; } | sort\necho\n",
    ],
)
def test_consumers_that_change_with_the_redirect_get_an_unsafe_fix(script):
    """Issue 13 classes 3, 5, 12, 14: the finding's help says what would change."""
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert finding.help and finding.help.startswith("The fix is unsafe: ")


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize("script", ["cat f | : ${v:=set}\necho \"v=$v\"\n", "cat f | head -n $((n += 1))\necho \"n=$n\"\n"])
def test_an_expansion_that_assigns_would_assign_in_the_current_shell(script, shell, tmp_path):
    """Issue 13 class 3, shown by running: after the redirect fix the variable is set for the lines after."""
    from harness import run_script

    (tmp_path / "f").write_text("a\nb\n")
    source = script.encode() if shell == "bash" else b"#!/bin/sh\n" + script.encode()
    before = run_script(source, tmp_path, shell)
    after = run_script(fix(source, "s.bash" if shell == "bash" else "s.sh", unsafe=True), tmp_path, shell)
    assert before.stdout != after.stdout  # `v=` / `n=` before, `v=set` / `n=1` after


@pytest.mark.parametrize(
    "script", ["cat f | head -n $((1 + 1))\necho\n", "cat f | [[ $((n + 1)) -gt 0 ]]\necho\n", "cat f | head -n ${n:-2}\necho\n"]
)
def test_expansions_that_only_read_keep_the_fix_safe(script, tmp_path):
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.SAFE
    assert_same_behaviour(script.encode(), fix(script), tmp_path, "bash")


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_an_unquoted_variable_holding_one_word_gets_a_safe_quoted_fix(shell, tmp_path):
    """Issue 10 (ShellCheck SC2002 reports it too): `cat $f` → `< "$f"`."""
    script = b"f=access.log\ncat $f | wc -l\necho after\n"
    source = script if shell == "bash" else b"#!/bin/sh\n" + script
    path = "script.bash" if shell == "bash" else "script.sh"
    fixed = fix(source, path)
    assert fixed.endswith(b'f=access.log\nwc -l < "$f"\necho after\n')
    assert_same_behaviour(source, fixed, tmp_path, shell, path=path)


@pytest.mark.parametrize(
    "script",
    [
        "cat $1 | wc -l\necho after\n",  # an argument may hold blanks or globs
        "for f in *.txt; do cat $f | wc -l; done\necho after\n",  # a file name may hold blanks
        'f=access.log\nIFS=.\ncat $f | wc -l\necho after\n',  # IFS splits it
        "x=-n\ncat $x | wc -l\necho after\n",  # one word, but `cat -n` numbers stdin (fuzz seed 92)
        'file=${1:--}\ncat $file | wc -l\necho after\n',  # `-` is stdin to cat
    ],
)
def test_an_unquoted_variable_that_may_split_or_be_an_option_gets_an_unsafe_fix(script, tmp_path):
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert b'< "$' in fix(script, unsafe=True)


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_variable_joined_to_plain_text_gets_the_whole_word_quoted(shell, tmp_path):
    """`cat /backups/$db.sql | mysql`, as ops scripts write it (ShellCheck's SC2002 reports it too)."""
    script = b"d=src\ncat $d/hello.txt | wc -l\ncat ${d}/$f | wc -c\necho after\n"
    source = b"f=hello.txt\n" + script if shell == "bash" else b"#!/bin/sh\nf=hello.txt\n" + script
    path = "script.bash" if shell == "bash" else "script.sh"
    fixed = fix(source, path)
    assert fixed.endswith(b'd=src\nwc -l < "$d/hello.txt"\nwc -c < "${d}/$f"\necho after\n')
    assert_same_behaviour(source, fixed, tmp_path, shell, path=path, inputs=("src/hello.txt",))


@pytest.mark.parametrize(
    "script",
    [
        "cat $BACKUPS/dump.sql | wc -l\necho after\n",  # set outside the script: may hold blanks
        "d=src\nf=$1\ncat $d/$f | wc -l\necho after\n",  # one of the two may split
        "f=access.log\ncat $f 2>err | wc -l\necho after\n",  # the fix would not create err
    ],
)
def test_an_unquoted_word_that_may_not_be_one_file_gets_an_unsafe_fix(script):
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE


@pytest.mark.parametrize(
    "script",
    ["cat $d/*.log | wc -l\n", "cat ~/$f | wc -l\n", "cat $d/{a,b} | wc -l\n", "cat x/${d:-y}/z | wc -l\n", "cat $d\\ x | wc -l\n"],
)
def test_unquoted_words_that_quoting_would_change_are_not_reported(script):
    assert "PL001" not in codes(script)


def test_a_value_with_a_blank_is_two_operands_not_one_file(tmp_path):
    """`f="my file.txt"; cat $f`: cat reads `my` and `file.txt`; `< "$f"` would read another file: not reported."""
    assert "PL001" not in codes('f="my file.txt"\ncat $f | wc -l\n')
    assert "PL001" not in codes('d="my dir"\ncat $d/x.txt | wc -l\n')


@pytest.mark.parametrize("script", ["cat $@ | wc -l\n", "cat $* | wc -l\n", "cat ${a[@]} | wc -l\n", "cat ${f:-x} | wc -l\n"])
def test_unquoted_expansions_of_several_words_are_not_reported(script):
    assert "PL001" not in codes(script)


@pytest.mark.parametrize(
    "script", ["alias wc='wc -c'\n( cat f | wc | cat > out )\n", "wc() { command wc -c; }\ncat f | wc | sort\necho\n"]
)
def test_a_consumer_the_script_defines_gets_an_unsafe_fix(script):
    """Issue 13 class 4, for the consumer: an alias or function of that name may act differently first in line."""
    (finding,) = [f for f in lint(script, "x.sh") if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE


@pytest.mark.parametrize(
    "script",
    [
        "cat access.log | grep 500 2>/dev/null >> out.txt\necho after\n",  # grep's `Is a directory` goes to /dev/null
        "n=$(cat access.log | uniq -c 2>err)\necho \"$n\"\n",  # …into err, where cat's went to the script's stderr
        "cat access.log | wc -l | sort\necho after\n",  # wc's `0` on empty input would not reach sort
    ],
)
def test_where_the_consumer_s_own_messages_or_output_would_go_elsewhere_the_fix_is_unsafe(script, tmp_path):
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE


@pytest.mark.parametrize(
    "script",
    [
        "cat words.txt | uniq > words.txt\necho done\n",
        "cat ./words.txt | uniq >> \"words.txt\"\necho done\n",
        "cat words.txt | tee words.txt > /dev/null\necho done\n",
    ],
)
def test_a_consumer_that_writes_its_own_input_gets_an_unsafe_fix(script):
    """`cat f | uniq > f` races the truncation and keeps f about half the time; `uniq > f < f` always empties it."""
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "writes the file it would read" in finding.help


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_the_fix_would_empty_a_file_the_consumer_writes_while_reading(shell, tmp_path):
    """Shown by running: the redirect fix loses words.txt every time (the pipe does so only when cat loses the race)."""
    from harness import run_script

    source = b"cat words.txt | uniq > words.txt\necho done\n"
    source = source if shell == "bash" else b"#!/bin/sh\n" + source
    after = run_script(fix(source, "s.bash" if shell == "bash" else "s.sh", unsafe=True), tmp_path, shell)
    assert after.files["words.txt"].content == b""


@pytest.mark.parametrize(
    "script",
    [
        # fuzz seed 2430, script 534: bash says line 4 of the fixed script, line 2 of the original.
        'set -u\necho "got $(cat -- "$x" | while read -r l; do exit 6; done | cat > out)"\necho after\n',
        'set -u\ncat "$x" | while read -r l\ndo :\ndone | cat\necho after\n',  # `done < "$x"`: its own line
    ],
)
def test_a_word_that_may_fail_in_a_loops_redirect_makes_the_fix_unsafe(script, tmp_path):
    (finding,) = [f for f in lint(script) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    with pytest.raises(AssertionError, match="line"):  # the same error, reported on another line
        assert_same_behaviour(script.encode(), fix(script, unsafe=True), tmp_path, "bash", rules=("PL001",))


def test_a_word_that_may_fail_in_a_simple_commands_redirect_keeps_the_fix_safe(tmp_path):
    script = 'set -u\necho "got $(cat -- "$x" | sort | cat > out)"\necho after\n'
    fixed = fix(script)
    assert fixed != script.encode()
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


# Under pipefail the script sees cat killed by SIGPIPE when the consumer stops reading early.
BIG = "seq 1 200000 > big.txt\n"  # past the pipe's 64 KiB: cat is still writing when grep has its answer


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_consumer_that_stops_early_under_pipefail_gets_an_unsafe_fix(shell, tmp_path):
    """`if cat big | grep -q 1` takes the else branch under pipefail (cat exits 141); `grep -q 1 < big` does not."""
    from harness import run_script

    pipefail = "set -o pipefail\n" if shell == "bash" else ""  # dash has no pipefail: the fix stays safe there
    script = (BIG + pipefail + "if cat big.txt | grep -q 1; then echo yes; else echo no; fi\n").encode()
    path = "s.bash" if shell == "bash" else "s.sh"
    (finding,) = [f for f in lint(script.decode(), path) if f.code == "PL001"]
    if shell == "dash":
        assert finding.fix.applicability is Applicability.SAFE
        assert_same_behaviour(script, fix(script, path), tmp_path, shell, path=path)
        return
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "SIGPIPE" in finding.help
    assert run_script(script, tmp_path / "a").stdout == b"no\n"
    assert run_script(fix(script, path, unsafe=True), tmp_path / "b").stdout == b"yes\n"


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize("trap", ["trap '' PIPE", 'trap "" SIGPIPE', "trap -- '' 13"])
def test_a_consumer_that_stops_early_where_sigpipe_is_ignored_gets_an_unsafe_fix(shell, trap, tmp_path):
    """Ignoring SIGPIPE, cat lives on and says `cat: write error: Broken pipe`; `head < big.txt` has no reader to complain."""
    from harness import run_script

    script = (BIG + trap + "\ncat big.txt | head -n 1\necho done\n").encode()
    path = "s.bash" if shell == "bash" else "s.sh"
    (finding,) = [f for f in lint(script.decode(), path) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "SIGPIPE" in finding.help
    if shell == "dash" and "SIGPIPE" in trap:
        return  # dash says `trap: SIGPIPE: bad trap` and ignores nothing: unsafe errs on the careful side
    assert b"Broken pipe" in run_script(script, tmp_path / "a", shell).stderr
    assert b"Broken pipe" not in run_script(fix(script, path, unsafe=True), tmp_path / "b", shell).stderr


def test_a_trap_on_other_signals_keeps_the_safe_fix(tmp_path):
    script = (BIG + "trap 'rm -f tmp' EXIT INT\ncat big.txt | head -n 1\necho done\n").encode()
    (finding,) = [f for f in lint(script.decode()) if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.SAFE
    assert_same_behaviour(script, fix(script), tmp_path, "bash")


@pytest.mark.parametrize(
    "script",
    [
        "files=$*; cat $files | wc -l\n",
        'files="$@"\ncat $files | wc -l\n',
        'files="a.log b.log"; cat $files | wc -l\n',
        'f="my file.txt"\ncat $f | wc -l\necho after\n',  # split into two operands
        'for f in *.log; do files="$files $f"; done; cat $files | wc -l\n',
        "logs=(a.log b.log); all=${logs[*]}; cat $all | wc -l\n",
        "files+=x.log; cat $files | wc -l\n",
        'f="${1:-a.log b.log}"; cat $f | wc -l\n',
    ],
)
def test_a_variable_that_holds_a_list_is_several_operands(script):
    """Unquoted, a variable some assignment gives several words is several files for cat: not one to redirect."""
    assert "PL001" not in codes(script)


@pytest.mark.parametrize(
    "script",
    [
        "f=$(mktemp); cat $f | wc -l\n",  # a substitution's blanks are the inner command's
        'files="a.log b.log"; cat "$files" | wc -l\n',  # quoted: one operand, whatever it holds
        "f=access.log; cat $f | wc -l\n",
        "cat $dir/$name.log | grep x\n",  # one word, though tree-sitter-bash splits it (#315)
    ],
)
def test_variables_that_hold_one_word_still_report(script):
    assert "PL001" in codes(script)


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_split_word_fix_reads_the_same_file(shell, tmp_path):
    script = 'dir=.; name=access; cat $dir/$name.log | grep -c 500\n'
    fixed = fix(script, path="script.sh", unsafe=True)
    assert fixed == b'dir=.; name=access; grep -c 500 < "$dir/$name.log"\n'
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell, path="script.sh", inputs=())


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_program_named_by_a_variable(shell, tmp_path):
    """`command=cat` set once at the top, then `$command f |`: the same cat; the fix removes its use."""
    script = 'command="cat"\n$command access.log | grep -c 500\necho after\n'
    (finding,) = [f for f in lint(script, path="script.sh") if f.code == "PL001"]
    assert finding.fix.applicability is Applicability.SAFE
    fixed = fix(script, path="script.sh")
    assert fixed == b'command="cat"\ngrep -c 500 < access.log\necho after\n'
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell, path="script.sh")
