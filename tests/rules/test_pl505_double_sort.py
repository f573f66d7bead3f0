"""PL505 double-sort: what it reports, what it leaves alone, and fixes proven by running real sorts."""

from __future__ import annotations

import subprocess

import pytest
from harness import assert_lint, assert_same_behaviour, codes, contract_inputs, fix, lint, run_script

from pipelint.finding import Applicability

# Lines that tie under keys, case folding and numbers, with a duplicate: where a second sort could keep
# the first one's order, these show it.
TIES = r"printf 'b 2\nB 10\na 2\nb 2\nA 1\nab 3\n  c 1\nb 02\n' > ties.txt" + "\n"


def pl505(script: str | bytes, path: str = "script.bash") -> list:
    return [finding for finding in lint(script, path) if finding.code == "PL505"]


@pytest.mark.parametrize(
    "script",
    [
        "sort words.txt | sort -r",
        "sort words.txt | sort",
        "sort -r words.txt | sort -n -k2",
        "sort -s words.txt | sort -f",
        "sort -rs words.txt | sort --reverse --numeric-sort",
        "sort words.txt -r | sort -t , -k 2,2",
        "sort words.txt | sort -u",
        "sort words.txt | sort -s -r",
        "sort words.txt | sort --sort=numeric",
        "sort words.txt | sort -S 10M -T /tmp --parallel=2 -r",
        "sort words.txt | sort -r -o out.txt",
        "sort | sort -r",
        "sort < words.txt | sort -r",
        'sort "my file.txt" "$@" | sort -r',
        "sort words.txt 2>/dev/null | sort -r",  # reported; no fix (the 2> would cover the second sort)
        "/usr/bin/sort words.txt | sort -r",  # reported; no fix (two command words)
        "cut -d, -f2 data.csv | sort | sort -r | head -n 3",
        "sort words.txt | sort -r > out.txt",
        "names=$(sort words.txt | sort -r)",
    ],
)
def test_reports(script):
    assert_lint(script, "PL505")


@pytest.mark.parametrize(
    "script",
    [
        # The first sort's order could show through a tie (its keys, in a locale where lines collate equal).
        "sort -n words.txt | sort -r",
        "sort -k2 words.txt | sort",
        "sort -f words.txt | sort",
        "sort -V words.txt | sort",
        "sort -b words.txt | sort",
        # The first sort drops lines, or sends nothing down the pipe.
        "sort -u words.txt | sort -r",
        "sort -o out.txt words.txt | sort -r",
        "sort words.txt > out.txt | sort -r",
        "sort words.txt 2>&1 | sort -r",
        "sort -m a b | sort -r",
        "sort -z words.txt | sort -z",
        "sort +1 words.txt | sort",  # GNU sort's old `-k 2`
        # The second sort keeps ties in input order, or is not a sort of its input alone.
        "sort words.txt | sort -s -k1,1",
        "sort words.txt | sort -u -f",
        "sort words.txt | sort -k1,1 -u",
        "sort words.txt | sort -R",
        "sort words.txt | sort --sort=random",
        "sort words.txt | sort --sort=ran",
        "sort words.txt | sort -m",
        "sort words.txt | sort -c",
        "sort words.txt | sort -r other.txt",
        "sort words.txt | sort -r -",
        "sort words.txt | sort --rev",  # an abbreviation the option table cannot read
        "sort words.txt | sort --debug",
        # Not the two programs, or not as written.
        "sort words.txt |& sort -r",
        "sort words.txt | uniq | sort -r",
        "sudo sort words.txt | sort -r",
        "sort words.txt | nice sort -r",
        "LC_ALL=C sort words.txt | sort -r",
        "sort words.txt | LC_ALL=en_US.UTF-8 sort -r",
        'sort words.txt | sort "-$order"',
        'sort $opts words.txt | sort -r',
        "sort() { command sort -r \"$@\"; }\nsort words.txt | sort",
        "alias sort='sort -u'\nsort words.txt | sort -r",
        "sort words.txt\nsort -r words.txt",
    ],
)
def test_leaves_alone(script):
    assert "PL505" not in codes(script)


SAFE, UNSAFE = Applicability.SAFE, Applicability.UNSAFE


@pytest.mark.parametrize(
    "script, expected, safety",
    [
        ("sort words.txt | sort -r\necho done\n", "sort -r words.txt\necho done\n", SAFE),
        ("sort -r words.txt | sort -n -k2\necho done\n", "sort -n -k2 words.txt\necho done\n", SAFE),
        ("sort words.txt -r | sort\necho done\n", "sort words.txt\necho done\n", SAFE),
        ("sort -rs words.txt | sort -f\necho done\n", "sort -f words.txt\necho done\n", SAFE),
        ("sort < words.txt | sort -u\necho done\n", "sort -u < words.txt\necho done\n", SAFE),
        ("sort words.txt | sort -r > out.txt\necho done\n", "sort -r words.txt > out.txt\necho done\n", SAFE),
        ("cut -c1 words.txt | sort | sort -r | head -n 2\n", "cut -c1 words.txt | sort -r | head -n 2\n", SAFE),
        ("sort words.txt | sort -t , -k '2,2'\necho done\n", "sort -t , -k '2,2' words.txt\necho done\n", SAFE),
        # What the script can see changes: the fix is there, unsafe, and its help says why.
        ("sort words.txt | sort -r\n", "sort -r words.txt\n", UNSAFE),  # the script's status
        ("set -e\nsort words.txt | sort -r\necho done\n", "set -e\nsort -r words.txt\necho done\n", UNSAFE),
        ("sort words.txt | sort -r && echo ok\n", "sort -r words.txt && echo ok\n", UNSAFE),
        ("sort words.txt | sort -r -o out.txt\necho done\n", "sort -r -o out.txt words.txt\necho done\n", UNSAFE),
        ("sort words.txt | sort -r\necho \"${PIPESTATUS[0]}\"\n", "sort -r words.txt\necho \"${PIPESTATUS[0]}\"\n", UNSAFE),
        (". ./lib.sh\nsort words.txt | sort -r\necho done\n", ". ./lib.sh\nsort -r words.txt\necho done\n", UNSAFE),
        # No fix: the edit would change which program runs or where the second sort's messages go.
        ("/usr/bin/sort words.txt | sort -r\necho done\n", None, None),
        ("sort words.txt 2>/dev/null | sort -r\necho done\n", None, None),
        ("sort words.txt | sort -r 2>/dev/null | head -n 1\n", None, None),
        ("sort words.txt | # the newest first\n  sort -r\necho done\n", None, None),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = pl505(script)
    if safety is None:
        assert finding.fix is None
        assert finding.help.startswith("Sort once")
        return
    assert finding.fix.applicability is safety
    assert fix(script, unsafe=True, select=("PL505",)).decode() == expected
    if safety is UNSAFE:
        assert finding.help.startswith("The fix is unsafe: ")
    else:
        assert finding.help is None


def test_messages_and_titles():
    (finding,) = pl505("sort words.txt | sort -r\necho done\n")
    assert finding.message == "the data is sorted twice: the second `sort` alone decides the order"
    assert finding.fix.title == "Sort once with the second sort's options"
    source = b"x=1\nsort words.txt | sort -r\necho done\n"
    (finding,) = pl505(source)
    assert source[finding.start : finding.end] == b"sort words.txt | sort -r"


# Scripts whose fix must behave as the original under a real shell, inputs taken away included for the
# safe ones (contract_inputs).
TRICKY = [
    "sort words.txt | sort -r\necho done\n",
    "sort words.txt | sort -r > out.txt\ncat out.txt\n",
    TIES + "sort ties.txt | sort -n -k2\necho done\n",
    TIES + "sort -r ties.txt | sort -f\necho done\n",
    TIES + "sort ties.txt | sort -u\necho done\n",
    TIES + "sort -s ties.txt | sort -r -u\necho done\n",
    TIES + "sort ties.txt | sort -t ' ' -k2,2n -k1,1\necho done\n",
    TIES + "sort ties.txt | sort -b -d\necho done\n",
    TIES + "cut -c1 ties.txt | sort | sort -r | head -n 2\n",
    "sort words.txt missing.txt | sort -r\necho done\n",
    "sort words.txt | sort -r -o out.txt\necho done\ncat out.txt\n",
    "set -e\nsort words.txt | sort -r\necho done\n",
    "sort words.txt | sort -r\n",
]


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize("script", TRICKY)
def test_fix_keeps_behaviour(script, shell, tmp_path):
    path = "script.sh" if shell == "dash" else "script.bash"
    source = (b"#!/bin/sh\n" if shell == "dash" else b"") + script.encode()
    fixed = fix(source, path, unsafe=True, select=("PL505",))
    assert fixed != source
    inputs = contract_inputs(source, fixed, path, ("PL505",))
    assert_same_behaviour(source, fixed, tmp_path, shell, path=path, inputs=inputs, rules=("PL505",))


def test_an_unsafe_fix_changes_only_what_its_help_says(tmp_path):
    """`sort missing | sort -r` exits 0 (the second sort's status); `sort -r missing` exits 2."""
    script = b"sort missing.txt | sort -r\n"
    (finding,) = pl505(script)
    assert "exit status" in finding.help
    fixed = fix(script, unsafe=True, select=("PL505",))
    before, after = run_script(script, tmp_path / "a"), run_script(fixed, tmp_path / "b")
    assert (before.stdout, before.stderr) == (after.stdout, after.stderr)
    assert (before.status, after.status) == (0, 2)


# Second-sort options, each with and without a first `-r`: wherever PL505 reports, real GNU sort must print
# the same bytes for the pipeline and for the one sort; the locale test runs them under en_US.UTF-8 too.
SECOND_OPTIONS = ["", "-r", "-u", "-s", "-f", "-n -k2", "-u -r", "-s -k1,1", "-u -f", "-k2,2 -k1,1r", "-b -i", "-V", "-M"]
FIRST_OPTIONS = ["", "-r", "-s", "-n", "-f", "-V"]


def _sorted_both_ways(first: str, second: str, workdir, environment: str) -> tuple[bytes, bytes]:
    """The bytes `sort FIRST ties.txt | sort SECOND` and `sort SECOND ties.txt` print under environment."""
    script = f"{environment}\n{TIES}sort {first} ties.txt | sort {second}\necho ===\nsort {second} ties.txt\n"
    outcome = run_script(script.encode(), workdir)
    twice, once = outcome.stdout.split(b"===\n")
    return twice, once


@pytest.mark.parametrize("second", SECOND_OPTIONS)
@pytest.mark.parametrize("first", FIRST_OPTIONS)
def test_reported_only_where_one_sort_prints_the_same(first, second, en_us_locale, tmp_path):
    reported = "PL505" in codes(f"sort {first} ties.txt | sort {second}\n")
    for name, environment in [("C", "export LC_ALL=C"), ("en_US", f"export LOCPATH='{en_us_locale}' LC_ALL=en_US.UTF-8")]:
        twice, once = _sorted_both_ways(first, second, tmp_path / name, environment)
        if reported:
            assert twice == once, (name, twice, once)


def test_why_a_first_sort_with_keys_is_not_reported(en_us_locale, tmp_path):
    """Bytes that are not UTF-8 collate equal in glibc's en_US.UTF-8: the second sort keeps `sort -V`'s order."""
    environment = f"export LOCPATH='{en_us_locale}' LC_ALL=en_US.UTF-8"
    script = f"{environment}\nprintf 'x\\377\\nx\\376\\n' > bytes.txt\nsort -V bytes.txt | sort\necho ===\nsort bytes.txt\n"
    twice, once = run_script(script.encode(), tmp_path).stdout.split(b"===\n")
    if twice == once:
        pytest.skip("this glibc collates the two bytes apart")
    assert (twice, once) == (b"x\xfe\nx\xff\n", b"x\xff\nx\xfe\n")
    assert "PL505" not in codes("sort -V bytes.txt | sort\n")


def test_gnu_sort_reads_a_plus_operand_as_a_key(tmp_path):
    """Why `sort +1 f | sort` is left alone: here `+1` is `-k 2`, not a file."""
    done = subprocess.run(["sort", "+1"], input=b"b a\na b\n", capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("this sort takes +1 for a file")
    assert done.stdout == b"b a\na b\n"


def test_fixing_twice_equals_fixing_once():
    once = fix("sort words.txt | sort | sort -r\necho done\n", select=("PL505",))
    assert once == b"sort -r words.txt\necho done\n"
    assert fix(once, select=("PL505",)) == once


@pytest.mark.parametrize("source", [b"sort -k | sort\n", b"sort \xff | sort -r\n", b"sort | sort -o\n", b"| sort\n"])
def test_odd_input_gives_no_traceback(source):
    lint(source)
