"""PL502 sort-uniq: what it reports, what it leaves alone, and fixes proven by running them."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, contract_inputs, fix, known_to_fail, lint, run_script

from pipelint.finding import Applicability


def pl502(script: str | bytes, path: str = "script.bash") -> list:
    return [finding for finding in lint(script, path) if finding.code == "PL502"]


@pytest.mark.parametrize(
    "script",
    [
        "sort words.txt | uniq",
        "sort | uniq",
        "sort -r words.txt | uniq",
        "sort words.txt -r | uniq",
        "sort -s -S 10M -T /tmp words.txt | uniq",
        "sort --parallel=2 --buffer-size 1M words.txt | uniq",
        "sort -- -odd-name words.txt | uniq",
        'sort "my file.txt" *.log "$@" | uniq',
        "LC_ALL=C sort words.txt | uniq",
        "cut -d, -f2 data.csv | sort | uniq | head -n 3",
        "sort words.txt | uniq > seen.txt",
        "sort words.txt 2>/dev/null | uniq",
        "sort -u words.txt | uniq",
        'names=$(sort words.txt | uniq)',
        "while read -r w; do echo \"$w\"; done < words.txt | sort | uniq",
    ],
)
def test_reports(script):
    assert_lint(script, "PL502")


@pytest.mark.parametrize(
    "script",
    [
        # uniq doing more than dropping repeats: the classic counting idiom stays.
        "sort words.txt | uniq -c | sort -rn",
        "sort words.txt | uniq -d",
        "sort words.txt | uniq -u",
        "sort -f words.txt | uniq -i",
        "sort words.txt | uniq - out.txt",
        "sort words.txt | uniq < data.csv",
        # sort comparing something else than the whole line.
        "sort -k2 data.csv | uniq",
        "sort -t, -k1,1 data.csv | uniq",
        "sort -n words.txt | uniq",
        "sort -f words.txt | uniq",
        "sort -V words.txt | uniq",
        "sort -h words.txt | uniq",
        "sort -b words.txt | uniq",
        "sort -rn words.txt | uniq",
        "sort --key=2 data.csv | uniq",
        "sort --ignore-case words.txt | uniq",
        # sort writing something else, or elsewhere.
        "sort -o sorted.txt words.txt | uniq",
        "sort -m a.txt b.txt | uniq",
        "sort -z words.txt | uniq",
        "sort -c words.txt | uniq",
        "sort words.txt > sorted.txt | uniq",
        "sort $sort_opts words.txt | uniq",
        # Redirects and operators the fix could not keep.
        "sort words.txt | uniq 2>/dev/null",
        "sort words.txt |& uniq",
        "sort words.txt | uniq |& cat",
        "uniq() { command uniq -c; }\nsort words.txt | uniq",
        "sort words.txt | uniq\nuniq() { command uniq -c; }",
        "alias uniq='uniq -c'\nsort words.txt | uniq",
        "function sort { command sort -r; }\nsort words.txt | uniq",
        # CRLF: bash runs `uniq\r`, no uniq at all.
        "sort words.txt | uniq\r\necho done\r",
        "sort words.txt | uniq > seen.txt\r",
        # Idioms that only look alike.
        "sort words.txt | sort | uniq -c",
        "uniq words.txt",
        "sort -u words.txt",
        "sudo sort words.txt | uniq",
        "sort words.txt | tr a-z A-Z | uniq",
    ],
)
def test_leaves_alone(script):
    assert "PL502" not in codes(script)


@pytest.mark.parametrize(
    ("script", "expected", "safety"),
    [
        ("sort words.txt | uniq\n", "sort -u words.txt\n", Applicability.UNSAFE),
        ("sort words.txt -r | uniq | head -1\n", "sort -u words.txt -r | head -1\n", Applicability.UNSAFE),
        ("LC_ALL=C sort words.txt | uniq\necho\n", "LC_ALL=C sort -u words.txt\necho\n", Applicability.SAFE),
        ("LC_ALL=POSIX sort words.txt | uniq\necho\n", "LC_ALL=POSIX sort -u words.txt\necho\n", Applicability.SAFE),
        ("LC_ALL='C' sort words.txt | uniq\necho\n", "LC_ALL='C' sort -u words.txt\necho\n", Applicability.SAFE),
        ("LC_COLLATE=C sort words.txt | uniq\necho\n", "LC_COLLATE=C sort -u words.txt\necho\n", Applicability.UNSAFE),
        ("LC_ALL=en_US.UTF-8 sort words.txt | uniq\necho\n", "LC_ALL=en_US.UTF-8 sort -u words.txt\necho\n", Applicability.UNSAFE),
        ("sort -u words.txt | uniq\necho\n", "sort -u words.txt\necho\n", Applicability.SAFE),
        ("sort --unique words.txt | uniq > o.txt\necho\n", "sort --unique words.txt > o.txt\necho\n", Applicability.SAFE),
        # The status is seen (the script's own, `$?`, set -e, if): sort's 2 for a missing file replaces uniq's 0.
        ("sort -u words.txt | uniq\n", "sort -u words.txt\n", Applicability.UNSAFE),
        ("LC_ALL=C sort words.txt | uniq\necho $?\n", "LC_ALL=C sort -u words.txt\necho $?\n", Applicability.UNSAFE),
        ("set -e\nsort -u words.txt | uniq\necho\n", "set -e\nsort -u words.txt\necho\n", Applicability.UNSAFE),
        ("if sort -u words.txt | uniq; then :; fi\n", "if sort -u words.txt; then :; fi\n", Applicability.UNSAFE),
        # Reading a pipe, sort has nothing to fail on.
        ("cut -c1 words.txt | sort -u | uniq\n", "cut -c1 words.txt | sort -u\n", Applicability.SAFE),
        ("n=$(sort -u words.txt | uniq | wc -l)\n", "n=$(sort -u words.txt | wc -l)\n", Applicability.SAFE),
        # PIPESTATUS and pipefail see the stages.
        ('sort -u | uniq | wc -l; echo "${PIPESTATUS[*]}"\n', 'sort -u | wc -l; echo "${PIPESTATUS[*]}"\n', Applicability.UNSAFE),
        ("set -o pipefail\nsort -u | uniq | head -1\n", "set -o pipefail\nsort -u | head -1\n", Applicability.UNSAFE),
        # Under `set -u` an unset "$f" ends the script once sort runs in the current shell (fuzz seed 2412).
        ('set -u\nsort -u "$f" | uniq >> o\necho\n', 'set -u\nsort -u "$f" >> o\necho\n', Applicability.UNSAFE),
        ('set -u\nsort -u "$f" | uniq | wc -l\necho\n', 'set -u\nsort -u "$f" | wc -l\necho\n', Applicability.SAFE),
        ('set -u\nset +u\nsort -u "$f" | uniq >> o\necho\n', 'set -u\nset +u\nsort -u "$f" >> o\necho\n', Applicability.SAFE),
        # A sourced file may define sort or uniq.
        (". ./lib.sh\nsort -u | uniq | wc -l\n", ". ./lib.sh\nsort -u | wc -l\n", Applicability.UNSAFE),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = pl502(script)
    assert finding.fix.applicability is safety
    assert fix(script, unsafe=True).decode() == expected


def test_messages_and_titles():
    (plain,) = pl502("sort words.txt | uniq\necho done")
    assert plain.message.startswith("`sort | uniq` copies every line through a pipe")
    assert plain.fix.title == "Let `sort -u` drop the duplicates"
    assert plain.help == "The fix is unsafe: outside the C locale `sort -u` drops lines that only collate equal."
    (redundant,) = pl502("sort -u words.txt | uniq\necho done")
    assert redundant.message == "`uniq` after `sort -u` finds no duplicates left to drop"
    assert redundant.fix.title == "Remove the `uniq` stage"


# Run by real bash (and dash below) before and after the fix, unsafe fixes included
# (the harness runs with LC_ALL=C, where sort -u and uniq agree).
TRICKY = [
    "sort words.txt | uniq\n",
    "sort words.txt -r | uniq\n",
    "sort -r -- words.txt 'my file.txt' | uniq\n",
    "cut -d, -f2 data.csv | sort | uniq | head -n 2\n",
    "sort words.txt \\\n  | uniq \\\n  | tr a-z A-Z\n",
    "sort words.txt | uniq > seen.txt\ncat seen.txt\n",
    "sort words.txt 2>/dev/null | uniq >> seen.txt\ncat seen.txt\n",
    'names=$(sort words.txt | uniq); echo "$names"\n',
    'echo "$(sort -S 1M words.txt data.csv | uniq)"\n',
    "if sort words.txt | uniq | grep -q beta; then echo has-beta; fi\n",
    "dedupe() { sort \"$@\" | uniq; }\ndedupe words.txt words.txt\n",
    "sort -u words.txt | uniq\n",
    "LC_ALL=C sort latin.txt words.txt | uniq\n",
    "sort < words.txt | uniq\n",
    "sort <<EOF | uniq\nb\na\nb\nEOF\necho after\n",
]

# Cases the strict harness shows breaking issue 13's contract: strict xfails until the rule's fix lands.
ISSUE_13_BASH: dict[str, str] = {}
ISSUE_13_DASH: dict[str, str] = {}


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13_BASH))
def test_fix_keeps_behaviour_in_bash(script, tmp_path):
    fixed = fix(script, "script.bash", unsafe=True, select=("PL502",))
    assert fixed != script.encode() and b"uniq" not in fixed.replace(b"--unique", b"")
    inputs = contract_inputs(script.encode(), fixed, "script.bash", ("PL502",))
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", inputs=inputs)


@pytest.mark.parametrize("script", known_to_fail(TRICKY, ISSUE_13_DASH))
def test_fix_keeps_behaviour_in_dash(script, tmp_path):
    source = b"#!/bin/sh\n" + script.encode()
    fixed = fix(source, "script.sh", unsafe=True, select=("PL502",))
    assert fixed != source
    assert_same_behaviour(source, fixed, tmp_path, "dash", inputs=contract_inputs(source, fixed, "script.sh", ("PL502",)))


def test_why_the_fix_is_unsafe_in_other_locales(en_us_locale, tmp_path):
    """Documented: 🥱 and 🥲 collate equal in glibc 2.36's en_US.UTF-8, so sort -u keeps one."""
    setup = f"export LOCPATH='{en_us_locale}' LC_ALL=en_US.UTF-8\nprintf '\\360\\237\\245\\262\\n\\360\\237\\245\\261\\n\\360\\237\\245\\262\\n' > faces.txt\n"
    script = (setup + "sort faces.txt | uniq | wc -l\n").encode()
    fixed = fix(script, unsafe=True)
    assert fixed.endswith(b"sort -u faces.txt | wc -l\n")
    before, after = run_script(script, tmp_path / "a"), run_script(fixed, tmp_path / "b")
    if before.stdout.strip() == after.stdout.strip():
        pytest.skip("this glibc collates the two faces apart")
    assert (before.stdout.strip(), after.stdout.strip()) == (b"3", b"1")


def test_lc_all_c_makes_it_safe_whatever_the_environment(en_us_locale, tmp_path):
    setup = f"export LOCPATH='{en_us_locale}' LC_ALL=en_US.UTF-8\nprintf '\\360\\237\\245\\262\\n\\360\\237\\245\\261\\n\\360\\237\\245\\262\\n' > faces.txt\n"
    script = (setup + "LC_ALL=C sort faces.txt | uniq\necho done\n").encode()
    fixed = fix(script)  # safe: applied by --fix
    assert fixed.endswith(b"LC_ALL=C sort -u faces.txt\necho done\n")
    assert_same_behaviour(script, fixed, tmp_path, "bash")


def test_not_reported_inside_a_parse_error():
    assert "PL502" not in codes("f() { sort words.txt | uniq\n")
    # An ERROR inside sort's arguments: what is left once it is blanked is not what was written.
    assert "PL502" not in codes("sort -r $(( cat words.txt | uniq\n")
    assert all(f.fix is None for f in pl502("sort words.txt | uniq )\n"))


def test_grep_count_and_sort_uniq_fix_in_one_pipeline(tmp_path):
    script = b"grep a words.txt | sort | uniq | wc -l\n"
    fixed = fix(script, unsafe=True)
    assert fixed == b"grep a words.txt | sort -u | wc -l\n"
    assert_same_behaviour(script, fixed, tmp_path, "bash", inputs=contract_inputs(script, fixed))


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True)
        assert fix(once, unsafe=True) == once


@pytest.mark.parametrize("source", [b"sort -S | uniq\n", b"sort \xff | uniq\n", b"sort -k | uniq\n", b"| uniq\n"])
def test_odd_input_gives_no_traceback(source):
    lint(source)


def test_a_computed_option_keeps_it_quiet():
    assert "PL502" not in codes('sort "-$o" f | uniq\n')
