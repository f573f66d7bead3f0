"""PL501 grep-count: what it reports, what it leaves alone, and fixes proven by running them."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, contract_inputs, fix, known_to_fail, lint, run_script

from pipelint.finding import Applicability


def pl501(script: str | bytes, path: str = "script.bash") -> list:
    return [finding for finding in lint(script, path) if finding.code == "PL501"]


@pytest.mark.parametrize(
    "script",
    [
        "grep 500 access.log | wc -l",
        "grep -v 500 access.log | wc -l",
        "grep 500 | wc -l",
        "grep 500 < access.log | wc -l",
        "grep -i -e post -e get access.log | wc -l",
        "grep -f words.txt access.log | wc -l",
        "grep --regexp=500 -- access.log | wc -l",
        "grep 500 access.log -i | wc -l",
        "grep -m 2 500 access.log | wc -l",
        "grep -Fx alpha words.txt | wc -l",
        "egrep '50[0-9]' access.log | wc -l",
        "/usr/bin/grep 500 access.log | wc --lines",
        'grep "$pattern" "$file" | wc -l',
        "LC_ALL=C grep 500 access.log | wc -l",
        "grep 500 access.log | wc -l > count.txt",
        "grep 500 access.log 2>/dev/null | wc -l",
        "cut -d' ' -f1 access.log | grep 10. | wc -l | tr -d ' '",
        'n=$(grep 500 access.log | wc -l)',
        'echo "errors: $(grep 500 access.log | wc -l)"',
        "if [ $(grep 500 access.log | wc -l) -gt 1 ]; then echo many; fi",
        "count() { grep \"$1\" access.log | wc -l; }",
    ],
)
def test_reports(script):
    assert_lint(script, "PL501")


@pytest.mark.parametrize(
    "script",
    [
        # Options that change what is counted (ShellCheck SC2126 exempts them too).
        "grep -o 500 access.log | wc -l",
        "grep -l 500 *.log | wc -l",
        "grep -L 500 *.log | wc -l",
        "grep -r TODO src | wc -l",
        "grep -R TODO . | wc -l",
        "grep -A 1 500 access.log | wc -l",
        "grep -B1 500 access.log | wc -l",
        "grep --context=2 500 access.log | wc -l",
        "grep -2 500 access.log | wc -l",
        "grep -c 500 access.log | wc -l",
        "grep -vo 500 access.log | wc -l",
        "grep -q 500 access.log | wc -l",
        "grep -H 500 access.log | wc -l",
        "grep -z 500 access.log | wc -l",
        "grep -d skip 500 access.log | wc -l",
        "grep --exclude='*.gz' 500 access.log | wc -l",
        "grep --only 500 access.log | wc -l",
        # Several files, or operands that may expand to several.
        "grep 500 access.log words.txt | wc -l",
        "grep 500 *.log | wc -l",
        "grep 500 $logs | wc -l",
        'grep 500 "$@" | wc -l',
        "grep $opts 500 access.log | wc -l",
        # wc doing more than counting the pipe's lines.
        "grep 500 access.log | wc -c",
        "grep 500 access.log | wc",
        "grep 500 access.log | wc -lw",
        "grep 500 access.log | wc -l -",
        "grep 500 access.log | wc -l words.txt",
        "grep 500 access.log | wc -l < words.txt",
        # Redirects and operators the fix could not keep.
        "grep 500 access.log > hits.txt | wc -l",
        "grep 500 access.log | wc -l 2>/dev/null",
        "grep 500 access.log |& wc -l",
        "grep 500 access.log | wc -l |& cat",
        "grep() { command grep -h \"$@\"; }\ngrep 500 access.log | wc -l",
        # Real idioms that only look alike.
        "ps aux | grep -c nginx",
        "wc -l < access.log",
        "grep 500 access.log | sort | wc -l",
        "sudo grep 500 /var/log/syslog | wc -l",
        "git grep -n TODO | wc -l",
        "zgrep 500 access.log.gz | wc -l",
        "grep",
    ],
)
def test_leaves_alone(script):
    assert "PL501" not in codes(script)


@pytest.mark.parametrize(
    ("script", "expected", "safety"),
    [
        ("grep 500 access.log | wc -l\n", "grep -c 500 access.log\n", Applicability.UNSAFE),
        ("n=$(grep 500 access.log | wc -l)\n", "n=$(grep -c 500 access.log)\n", Applicability.UNSAFE),
        ('echo "$(grep 500 access.log | wc -l)"\n', 'echo "$(grep -c 500 access.log)"\n', Applicability.UNSAFE),  # the file may be binary or missing
        ("echo `grep 500 access.log | wc -l`\n", "echo `grep -c 500 access.log`\n", Applicability.UNSAFE),  # the file may be binary or missing
        ("local n=$(grep 500 access.log | wc -l)\n", "local n=$(grep -c 500 access.log)\n", Applicability.UNSAFE),  # the file may be binary or missing
        ("n=$(grep 500 access.log | wc -l) env\n", "n=$(grep -c 500 access.log) env\n", Applicability.UNSAFE),  # the file may be binary or missing
        ('[ "$(grep 500 access.log | wc -l)" -gt 0 ]\n', '[ "$(grep -c 500 access.log)" -gt 0 ]\n', Applicability.UNSAFE),  # the file may be binary or missing
        ("[[ $(grep 500 access.log | wc -l) -gt 0 ]]\n", "[[ $(grep -c 500 access.log) -gt 0 ]]\n", Applicability.UNSAFE),  # the file may be binary or missing
        ("grep 500 access.log | wc -l | tr -d ' '\n", "grep -c 500 access.log | tr -d ' '\n", Applicability.UNSAFE),  # the file may be binary or missing
        ("$(grep 500 access.log | wc -l)\n", "$(grep -c 500 access.log)\n", Applicability.UNSAFE),
        ('echo "$(grep 500 access.log | wc -l; true)"\n', 'echo "$(grep -c 500 access.log; true)"\n', Applicability.UNSAFE),
        ("grep 500 access.log | wc -l > n.txt\n", "grep -c 500 access.log > n.txt\n", Applicability.UNSAFE),
        ("grep -i 500 access.log -v | wc -l\n", "grep -c -i 500 access.log -v\n", Applicability.UNSAFE),
        ("LC_ALL=C grep 500 | wc -l\n", "LC_ALL=C grep -c 500\n", Applicability.UNSAFE),
        # Text mode on a pipe: the count is the same whatever the bytes (issue 13 class 8).
        ('echo "$(sort f | grep -a 500 | wc -l)"\n', 'echo "$(sort f | grep -c -a 500)"\n', Applicability.SAFE),
        ("sort f | grep --text 500 | wc -l | tr -d ' '\n", "sort f | grep -c --text 500 | tr -d ' '\n", Applicability.SAFE),
        ('echo "$(sort f | grep --binary-files=text 5 | wc -l)"\n', 'echo "$(sort f | grep -c --binary-files=text 5)"\n', Applicability.SAFE),
        ('echo "$(sort f | grep 500 | wc -l)"\n', 'echo "$(sort f | grep -c 500)"\n', Applicability.UNSAFE),  # binary lines
        ('echo "$(grep -a 500 access.log | wc -l)"\n', 'echo "$(grep -c -a 500 access.log)"\n', Applicability.UNSAFE),  # missing
        ('echo "$(sort f | grep -a 500 < g | wc -l)"\n', 'echo "$(sort f | grep -c -a 500 < g)"\n', Applicability.UNSAFE),
        ('echo "$(sort f | grep -a -f pats | wc -l)"\n', 'echo "$(sort f | grep -c -a -f pats)"\n', Applicability.UNSAFE),
        ('echo "$(sort f | grep -a -e 1 access.log | wc -l)"\n', 'echo "$(sort f | grep -c -a -e 1 access.log)"\n', Applicability.UNSAFE),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = pl501(script)
    assert finding.fix.applicability is safety
    assert fix(script, unsafe=True).decode() == expected
    if safety is Applicability.UNSAFE:
        assert fix(script) == script.encode()


def test_message_and_title():
    (finding,) = pl501("egrep 500 access.log | wc -l")
    assert finding.message.startswith("`egrep … | wc -l` pipes every matching line")
    assert finding.fix.title == "Count with `egrep -c`"


# Run by real bash (and dash below) before and after the fix, unsafe fixes included:
# every case selects at least one line, so the exit status of grep -c is 0.
TRICKY = [
    "grep 500 access.log | wc -l\n",
    "grep -v 500 access.log | wc -l\n",
    "grep 'GET /' access.log -i | wc -l\n",
    "grep -e POST -e 404 -- access.log | wc -l\n",
    'grep "alpha" "my file.txt" words.txt 2>/dev/null | wc -l; grep t "my file.txt" | wc -l\n',
    "grep -F -f words.txt words.txt | wc -l\n",
    "grep -m 1 500 access.log | wc -l\n",
    "grep 500 < access.log | wc -l > count.txt\ncat count.txt\n",
    "grep 500 access.log 2>/dev/null \\\n  | wc -l\n",
    "grep 500 access.log |\n    wc -l >> count.txt\ncat count.txt\n",
    'n=$(grep 500 access.log | wc -l); echo "n=$n"\n',
    'echo "none: $(grep nothing access.log | wc -l)"\n',
    '[ "$(grep nothing access.log | wc -l)" -eq 0 ] && echo zero\n',
    "sort words.txt | grep alpha | wc -l\n",
    "grep nothing access.log | wc -l | sed 's/^/count: /'\n",
    "count() { grep \"$1\" access.log | wc -l; }\ncount 500\n",
    "if [ $(grep 404 access.log | wc -l) -gt 0 ]; then echo has404; fi\n",
    "x=$(echo \"$(grep -iv get access.log | wc -l)\"); echo \"$x\"\n",
    "grep caf latin.txt | wc -l\n",
    "LC_ALL=C egrep '50[0-9]' access.log | wc -l\n",
    "grep a <<EOF | wc -l\nalpha\nbeta\ngamma\nEOF\necho after\n",
]

# Cases the strict harness shows breaking issue 13's contract: strict xfails until the rule's fix lands.
# (None left: a fix that opens a file or reads binary-able input is unsafe, so only its success path is promised.)
ISSUE_13_BASH: dict[str, str] = {}
ISSUE_13_DASH: dict[str, str] = {}
ISSUE_13_SAFE: dict[str, str] = {}


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13_BASH))
def test_fix_keeps_behaviour_in_bash(script, tmp_path):
    fixed = fix(script, "script.bash", unsafe=True, select=("PL501",))
    assert fixed != script.encode() and b"grep -c" in fixed or b"egrep -c" in fixed
    inputs = contract_inputs(script.encode(), fixed, "script.bash", ("PL501",))
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", inputs=inputs)


@pytest.mark.parametrize("script", known_to_fail([s for s in TRICKY if "[[" not in s], ISSUE_13_DASH))
def test_fix_keeps_behaviour_in_dash(script, tmp_path):
    source = b"#!/bin/sh\n" + script.encode()
    fixed = fix(source, "script.sh", unsafe=True, select=("PL501",))
    assert fixed != source
    assert_same_behaviour(source, fixed, tmp_path, "dash", inputs=contract_inputs(source, fixed, "script.sh", ("PL501",)))


@pytest.mark.parametrize(
    "script",
    known_to_fail([
        'echo "none: $(sort access.log | grep -a nothing | wc -l)"\n',
        "sort access.log | grep -a nothing | wc -l | cat\n",
        "set -e\nprintf 'x=%s\\n' \"$(sort access.log | grep -a nothing | wc -l)\"\necho done\n",
        "set -e\nlocal_count() { local n=$(sort access.log | grep -a nothing | wc -l); echo $n; }\nlocal_count\n",
        "set -o pipefail\nsort access.log | grep -a nothing | wc -l | cat\necho \"status $?\"\n",
        "printf 'a\\000b\\nab\\ncaf\\351 a\\n' > bin.dat\necho \"bin: $(sort bin.dat | grep -a a | wc -l)\"\n",
    ], ISSUE_13_SAFE),
)
def test_safe_fixes_keep_behaviour_when_nothing_matches(script, tmp_path):
    (finding,) = pl501(script)
    assert finding.fix.applicability is Applicability.SAFE
    fixed = fix(script)
    assert fixed != script.encode()
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


def test_why_a_bare_assignment_is_unsafe(tmp_path):
    """Documented: grep -c exits 1 on no match, so `set -e` now stops the script."""
    script = b'set -e\nn=$(grep nothing access.log | wc -l)\necho "n=$n"\n'
    fixed = fix(script, unsafe=True)
    assert fixed == b'set -e\nn=$(grep -c nothing access.log)\necho "n=$n"\n'
    assert run_script(script, tmp_path / "a").stdout == b"n=0\n"
    after = run_script(fixed, tmp_path / "b")
    assert (after.stdout, after.status) == (b"", 1)
    assert fix(script) == script  # not applied by --fix


def test_why_a_statement_is_unsafe(tmp_path):
    script = b"grep nothing access.log | wc -l\n"
    before, after = run_script(script, tmp_path / "a"), run_script(fix(script, unsafe=True), tmp_path / "b")
    assert (before.stdout, before.status) == (b"0\n", 0)
    assert (after.stdout, after.status) == (b"0\n", 1)


def test_documented_binary_file_difference(tmp_path):
    """In a UTF-8 locale grep hides the Latin-1 line from `wc -l`, but `grep -c` counts it."""
    script = b'echo "$(LC_ALL=C.UTF-8 grep a latin.txt | wc -l)"\n'
    assert fix(script) == script  # so not a safe fix
    fixed = fix(script, unsafe=True)
    assert fixed == b'echo "$(LC_ALL=C.UTF-8 grep -c a latin.txt)"\n'
    assert run_script(script, tmp_path / "a").stdout == b"1\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"2\n"


def test_documented_missing_file_difference(tmp_path):
    """The error path: `wc -l` still prints 0 for a missing file, `grep -c` prints nothing."""
    script = b'echo "[$(grep 500 missing.log | wc -l)]"\n'
    assert fix(script) == script  # so not a safe fix
    fixed = fix(script, unsafe=True)
    assert fixed == b'echo "[$(grep -c 500 missing.log)]"\n'
    assert run_script(script, tmp_path / "a").stdout == b"[0]\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"[]\n"


def test_not_reported_inside_a_parse_error():
    assert "PL501" not in codes("f() { grep 500 access.log | wc -l\n")
    # An ERROR inside grep's arguments: what is left once it is blanked is not what was written.
    assert "PL501" not in codes("grep 500 $(( cat access.log | wc -l\n")
    assert all(f.fix is None for f in pl501("grep 500 access.log | wc -l )\n"))


def test_shellcheck_directive_silences_it():
    assert "PL501" not in codes("true\n# shellcheck disable=SC2126\ngrep 500 access.log | wc -l\n")


def test_crlf_tabs_and_other_bytes_survive_the_fix():
    # CRLF: bash reads `wc -l\r`, and removing wc would hand the \r to grep's file: no finding (issue 13 class 9).
    assert pl501(b"grep\t500 access.log |\twc -l\r\necho after\r\n") == []
    assert fix(b"grep\t500 access.log |\twc -l | cat\r\n", unsafe=True) == b"grep -c\t500 access.log | cat\r\n"
    assert fix(b"# caf\xe9\ngrep \xff access.log | wc -l # \xef\n", unsafe=True) == b"# caf\xe9\ngrep -c \xff access.log # \xef\n"


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True)
        assert fix(once, unsafe=True) == once


def test_useless_cat_and_grep_count_fix_together(tmp_path):
    script = b"cat access.log | grep 500 | wc -l | cat\n"
    fixed = fix(script, unsafe=True)
    assert fixed == b"grep -c 500 < access.log | cat\n"
    assert_same_behaviour(script, fixed, tmp_path, "bash", inputs=contract_inputs(script, fixed))


@pytest.mark.parametrize("source", [b"grep \xff | wc -l\n", b"grep -e | wc -l\n", b"grep -- | wc -l\n", b"| wc -l\n"])
def test_odd_input_gives_no_traceback(source):
    lint(source)


def test_a_computed_option_keeps_it_quiet():
    assert "PL501" not in codes('grep "-$flags" f | wc -l\n')
