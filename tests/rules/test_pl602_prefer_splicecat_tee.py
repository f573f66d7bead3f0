"""PL602 prefer-splicecat-tee: off by default; reports, leaves alone, and fixes proven with the real splicecat."""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour, codes, fix, lint, run_script

from pipelint.engine.config import Settings
from pipelint.finding import Applicability


# Off by default, so every lint here selects it by name.
ONLY = ("PL602",)


def pl602(script: str | bytes, path: str = "script.bash") -> list:
    return lint(script, path, select=ONLY)


def test_off_by_default_and_on_with_extend_select():
    assert "PL602" not in {rule.code for rule in Settings().enabled_rules()}
    assert "PL602" in {rule.code for rule in Settings(extend_select=("PL6",)).enabled_rules()}
    assert "PL602" in {rule.code for rule in Settings(extend_select=("prefer-splicecat-tee",)).enabled_rules()}


@pytest.mark.parametrize(
    "script",
    [
        "make 2>&1 | tee build.log | grep -c error",
        "sort words.txt | tee sorted.txt | uniq -c",
        "producer | tee -a run.log | consumer",
        "producer | tee --append run.log | consumer",
        "producer | tee a.log b.log | consumer",
        "producer | tee run.log -a | consumer",
        'producer | tee "$LOG_DIR/run.log" | consumer',
        "producer | tee 'my log.txt' | consumer",
        "producer | tee ~/run.log | consumer",
        "producer | tee -- -odd.log | consumer",
        "producer |& tee run.log | consumer",
        "producer | tee run.log 2>/dev/null | consumer",
        "a | b | tee mid.log | c | d",
        'out=$(producer | tee run.log | consumer)',
        "producer | /usr/bin/tee run.log | consumer",
    ],
)
def test_reports(script):
    (finding,) = pl602(script)
    assert finding.fix.applicability is Applicability.UNSAFE


@pytest.mark.parametrize(
    "script",
    [
        # At an end of the pipeline: no pipe on one side for tee(2).
        "producer | tee run.log",
        "producer | tee run.log > /dev/null",
        "tee run.log < input.txt | consumer",
        # Options splicecat does not have, and operands it could not keep apart.
        "producer | tee -i run.log | consumer",
        "producer | tee -p run.log | consumer",
        "producer | tee --output-error=warn run.log | consumer",
        "producer | tee -ai run.log | consumer",
        "producer | tee | consumer",
        "producer | tee $logs | consumer",
        "producer | tee *.log | consumer",
        'producer | tee "$@" | consumer',
        "producer | tee >(gzip > run.gz) | consumer",
        'producer | tee "-$opt" run.log | consumer',
        # Other rules' business, or redirects and operators the fix could not keep.
        "producer | tee /dev/null | consumer",
        "producer | tee run.log |& consumer",
        "producer | tee run.log > copy.log | consumer",
        "producer | tee run.log < other.txt | consumer",
        "producer | sudo tee /etc/motd | consumer",
        "tee() { command tee -a \"$@\"; }\nproducer | tee run.log | consumer",
        # Idioms that only look alike.
        "echo 'x' | sudo tee -a /etc/hosts > /dev/null",
        "git log | tee-like run.log | less",
        "producer | pee cat cat | consumer",
    ],
)
def test_leaves_alone(script):
    assert "PL602" not in codes(script, select=ONLY)


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("a | tee log | b\n", "a | splicecat --tee log | b\n"),
        ("a | tee -a log | b\n", "a | splicecat --append --tee log | b\n"),
        ("a | tee log --append | b\n", "a | splicecat --tee log --append | b\n"),
        ("a | tee x.log 'y z.log' | b\n", "a | splicecat --tee x.log --tee 'y z.log' | b\n"),
        ("a | tee -- -x.log | b\n", "a | splicecat --tee -x.log | b\n"),
        ("a | tee -a -- x.log --append | b\n", "a | splicecat --append --tee x.log --tee --append | b\n"),
        ("a |\n  tee \\\n    log |\n  b\n", "a |\n  splicecat \\\n    --tee log |\n  b\n"),
        ("a | tee log 2>/dev/null | b\n", "a | splicecat --tee log 2>/dev/null | b\n"),
    ],
)
def test_fix(script, expected):
    assert fix(script, select=ONLY) == script.encode()  # unsafe: never applied by --fix
    assert fix(script, unsafe=True, select=ONLY).decode() == expected


def test_message_and_title():
    (finding,) = pl602("a | tee x.log 'y z.log' | b")
    assert finding.message.startswith("`tee` copies the stream through user space to reach x.log, 'y z.log':")
    assert finding.fix.title == "Tee with `splicecat --tee`"


def test_the_rule_command_says_how_to_get_splicecat():
    from click.testing import CliRunner

    from pipelint.cli.main import cli

    shown = CliRunner().invoke(cli, ["rule", "PL602"]).output
    assert "`pip install .` in a clone of pipelint builds it" in " ".join(shown.split()) and "cmake -S runtime -B build" in shown


# Run by real bash (dash below) before and after the fix, with the real splicecat;
# the harness compares stdout, exit status and every file left behind (the logs).
TRICKY = [
    "sort words.txt | tee sorted.txt | uniq -c\n",
    "sort words.txt | tee -a words.txt | wc -l\n",
    "cp access.log log.txt; cat access.log | tee --append log.txt | wc -c; cat log.txt\n",
    "grep 500 access.log | tee a.log 'my log.txt' | wc -l\n",
    "sort words.txt | tee -- -dash.log | wc -l\n",
    "sort words.txt | tee out.log -a | tee -a out.log | wc -l\n",
    "cat backup.tar | tee copy.tar | tar -tf - | sort\n",
    "sort words.txt \\\n  | tee sorted.txt \\\n  | uniq\n",
    'n=$(sort data.csv | tee sorted.csv | wc -l); echo "$n"\n',
    "sort words.txt | tee missing-dir/x.log ok.log 2>/dev/null | wc -l; echo \"status $?\"\n",
    "set -o pipefail 2>/dev/null; sort words.txt | tee missing-dir/x.log 2>/dev/null | wc -l; echo \"status $?\"\n",
    "yes 0123456789abcdef | head -c 3000000 > big.bin; cat big.bin | tee big.copy | cksum; cmp big.bin big.copy && echo same\n",
    "log() { sed 's/^/> /' | tee -a \"$1\" | cat; }\nsort words.txt | log run.log\n",
    "sort words.txt | tee ~/home.log | wc -l\n",
]


@pytest.mark.parametrize("script", TRICKY)
def test_fix_keeps_behaviour_in_bash(script, tmp_path, real_splicecat):
    fixed = fix(script, "script.bash", unsafe=True, select=ONLY)
    assert b"splicecat --" in fixed
    # An unsafe fix: its error path is what Fix safety describes (and `sort f | tee -a f` races there).
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", real_splicecat, inputs=())


@pytest.mark.parametrize("script", TRICKY)
def test_fix_keeps_behaviour_in_dash(script, tmp_path, real_splicecat):
    source = b"#!/bin/sh\n" + script.encode()
    fixed = fix(source, "script.sh", unsafe=True, select=ONLY)
    assert b"splicecat --" in fixed
    assert_same_behaviour(source, fixed, tmp_path, "dash", real_splicecat, inputs=())


def test_the_documented_example_runs_with_the_real_splicecat(tmp_path, real_splicecat):
    """tests/test_rule_docs.py may meet the stand-in; this runs the document's fix with the real one."""
    script = b'sort words.txt | tee -a sorted.txt "my file.txt" | uniq -c\n'
    fixed = fix(script, unsafe=True, select=ONLY)
    assert fixed == b'sort words.txt | splicecat --append --tee sorted.txt --tee "my file.txt" | uniq -c\n'
    outcome = assert_same_behaviour(script, fixed, tmp_path, "bash", real_splicecat)
    assert "sorted.txt" in outcome.files and outcome.stdout.count(b"alpha") == 1


def test_pl102_points_here_only_when_enabled(tmp_path):
    """PL102 (tee to a slow mount) names splicecat --tee when PL602 is on."""
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text("36 25 0:32 / /mnt/nfs rw,relatime - nfs4 server:/export rw\n")
    script = "producer | tee /mnt/nfs/run.log | consumer\n"
    from pipelint.engine import checker

    settings_on = Settings(select=("PL102", "PL602"))
    settings_off = Settings(select=("PL102",))
    on = checker.check(script.encode(), [r() for r in settings_on.enabled_rules()], "x.bash", settings_on, str(mountinfo))
    off = checker.check(script.encode(), [r() for r in settings_off.enabled_rules()], "x.bash", settings_off, str(mountinfo))
    pl102_on = [f for f in on.findings if f.code == "PL102"]
    pl102_off = [f for f in off.findings if f.code == "PL102"]
    if not pl102_on:
        pytest.skip("PL102 does not treat this mountinfo line as slow")
    assert "splicecat --tee" in pl102_on[0].message and "PL602" in pl102_on[0].message
    assert "splicecat" not in pl102_off[0].message
    assert [f.code for f in on.findings].count("PL602") == 1


def test_not_reported_inside_a_parse_error():
    assert "PL602" not in codes("case x in a | tee log | b\n", select=ONLY)
    assert "PL602" not in codes("a | tee log $(( x | b\n", select=ONLY)
    assert all(f.fix is None for f in pl602("a | tee log | b )\n"))


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True, select=ONLY)
        assert fix(once, unsafe=True, select=ONLY) == once


@pytest.mark.parametrize("source", [b"a | tee \xff | b\n", b"a | tee -- | b\n", b"a | tee -a | b\n", b"| tee x |\n"])
def test_odd_input_gives_no_traceback(source):
    lint(source)


def test_runs_are_real(tmp_path, real_splicecat):
    """A fix that names splicecat must run the real one here, not the stand-in."""
    outcome = run_script(b"splicecat --stats < words.txt > /dev/null 2> stats.txt; grep -c 'stats:' stats.txt\n", tmp_path / "r", extra_path=real_splicecat)
    assert int(outcome.stdout) >= 1
