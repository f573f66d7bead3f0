import subprocess

import pytest
from harness import assert_lint, codes, fix, lint

from pipelint.engine.config import Settings
from pipelint.engine.registry import BY_CODE


@pytest.mark.parametrize(
    "source",
    [
        "sort names.txt | head -n 1\n",
        "sort names.txt | head -n1\n",
        "sort names.txt | head -1\n",
        "sort names.txt | head --lines=1\n",
        "sort names.txt | head --lines 1\n",
        "sort -u names.txt | head -n 1\n",
        "sort -rn -k2 data | head -n 1\n",
        "sort 2>/dev/null names.txt | head -n 1\n",
        "grep x f | sort | head -n 1 | tr a b\n",
    ],
)
def test_reports_sort_then_head(source):
    assert_lint(source, "PL504")


def test_finding_spans_both_stages_and_gives_advice_only():
    source = "x=1; sort names.txt | head -n 1 > first.txt\n"
    (finding,) = lint(source)
    assert source[finding.start : finding.end] == "sort names.txt | head -n 1"
    assert finding.fix is None and "awk" in finding.help


def test_plain_sort_gets_the_awk_line_keyed_sort_a_general_advice():
    (plain,) = lint("sort -u names.txt | head -n 1\n")
    (keyed,) = lint("sort -n names.txt | head -n 1\n")
    assert 'if (NR)' in plain.help and "LC_ALL=C" in plain.help
    assert "key" in keyed.help and "if (NR)" not in keyed.help


@pytest.mark.parametrize(
    "source",
    [
        "sort names.txt | head -n 5\n",
        "sort names.txt | head\n",
        "sort names.txt | head -c 1\n",  # a byte, not a line
        "sort names.txt | head -n 1 other.txt\n",  # head reads its own file
        "sort names.txt | head -n 1 < other.txt\n",
        "sort -o x names.txt | head -n 1\n",
        "sort --output=x names.txt | head -n 1\n",
        "sort names.txt > x | head -n 1\n",
        "sort -c names.txt | head -n 1\n",
        "sort -m a b | head -n 1\n",  # a merge is already one pass
        "sort -R names.txt | head -n 1\n",  # a shuffle: shuf -n 1
        "sort --sort=random names.txt | head -n 1\n",
        'sort "-$o" f | head -n1\n',
        'sort f | head "-$n" 1\n',
        "sudo sort f | head -n 1\n",
        "sort f | sudo head -n 1\n",
        "sort f | tr a b | head -n 1\n",
        "head -n 1 f | sort\n",
        "sort() { command sort -r \"$@\"; }\nsort f | head -n 1\n",
        "alias head='head -n 5'\nsort f | head -n 1\n",
    ],
)
def test_leaves_alone(source):
    assert "PL504" not in codes(source)


def test_advice_only_fix_leaves_the_text():
    source = "sort names.txt | head -n 1\n"
    assert fix(source, unsafe=True) == source.encode()


def test_opt_in_in_the_pl5_group():
    rule = BY_CODE["PL504"]
    assert not rule.enabled_by_default and not rule.default_in_loops
    source = "sort names.txt | head -n 1\n"
    assert "PL504" not in codes(source, select=tuple(rule.code for rule in Settings().enabled_rules()))
    assert "PL504" in codes(source, select=("PL5",))


@pytest.mark.parametrize("lines", ["zeta\nalpha\nbeta\n", "10\n9\n100\n", "", "b\n\na\n", "same\nsame\n"])
def test_the_advice_keeps_the_line_sort_keeps(lines, tmp_path):
    """The awk line of the help prints what `LC_ALL=C sort | head -n 1` prints, empty input included."""
    (finding,) = lint("sort f | head -n 1\n")
    awk_line = finding.help.split("`")[1].replace(" FILE", " f")
    (tmp_path / "f").write_text(lines)
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}
    run = lambda command: subprocess.run(["sh", "-c", command], cwd=tmp_path, env=env, capture_output=True, check=True)
    assert run(awk_line).stdout == run("sort f | head -n 1").stdout

