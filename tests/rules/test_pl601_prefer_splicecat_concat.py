"""PL601 prefer-splicecat-concat: off by default; reports, leaves alone, and fixes proven with the real splicecat."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import SANDBOX, assert_same_behaviour, codes, fix, lint, run_script

from pipelint.engine.config import Settings
from pipelint.finding import Applicability

# Off by default, so every lint here selects it by name.
ONLY = ("PL601",)


def pl601(script: str | bytes, path: str = "script.bash") -> list:
    return lint(script, path, select=ONLY)


def test_off_by_default_and_on_with_extend_select():
    assert "PL601" not in {rule.code for rule in Settings().enabled_rules()}
    assert "PL601" in {rule.code for rule in Settings(extend_select=("PL6",)).enabled_rules()}
    script = "cat access.log words.txt | grep -c a"
    assert "PL601" not in codes(script, select=None)
    assert "PL601" in codes(script, select=None, extend_select=("PL6",))


def test_cli_extend_select_reports_it(tmp_path):
    from click.testing import CliRunner

    from pipelint.cli.main import cli

    script = tmp_path / "job.bash"
    script.write_text("cat access.log words.txt | grep -c a\n")
    quiet = CliRunner().invoke(cli, ["check", "--output-format", "concise", str(script)])
    assert "PL601" not in quiet.output
    loud = CliRunner().invoke(cli, ["check", "--output-format", "concise", "--extend-select", "PL6", str(script)])
    assert "PL601" in loud.output and loud.exit_code == 1


def test_rule_command_says_how_to_get_splicecat():
    from click.testing import CliRunner

    from pipelint.cli.main import cli

    shown = CliRunner().invoke(cli, ["rule", "PL601"]).output
    assert "`pip install .` in a clone of pipelint builds it" in " ".join(shown.split())
    assert "cmake -S runtime -B build && cmake --build build && install -m755 build/splicecat /usr/local/bin/" in shown


@pytest.mark.parametrize(
    "script",
    [
        "cat a.log b.log | grep -c a",
        "cat -- a.log b.log | wc -l",
        "cat a.log - b.log | sort",
        'cat "my file.txt" \'other file\' | wc -c',
        "cat *.log | grep 500",
        'cat "$@" | gzip -c > all.gz',
        'cat "${parts[@]}" | sha256sum',
        "cat $files | wc -l",
        "/bin/cat a.log b.log | wc -l",
        "cat a.log b.log 2>/dev/null | wc -l",
        "LC_ALL=C cat a.log b.log | wc -l",
        'n=$(cat a.log b.log | wc -l)',
        "cat part.* | tar -xf -",
        "cat a.log b.log | tee all.log | wc -l",
    ],
)
def test_reports(script):
    (finding,) = pl601(script)
    assert finding.fix.applicability is Applicability.UNSAFE


@pytest.mark.parametrize(
    "script",
    [
        "cat access.log | grep 500",  # PL001: `grep 500 < access.log`
        'cat "$f" | wc -l',
        "cat | wc -l",
        "cat - | wc -l",
        "cat -n a.log b.log | less",
        "cat -A a.log b.log | head",
        'cat "-$flags" a.log b.log | wc -l',
        "cat a.log b.log > all.log",
        "cat a.log b.log >> all.log",
        "cat a.log b.log",
        "cat a.log b.log > all.log | wc -l",
        "cat a.log b.log |& grep error",
        "cat <(sort a) <(sort b) | uniq",
        "sudo cat a.log b.log | wc -l",
        "command cat a.log b.log | wc -l",
        "zcat a.gz b.gz | wc -l",
        "cat() { command cat -v \"$@\"; }\ncat a.log b.log | wc -l",
        "cat <<EOF | wc -l\nx\nEOF\n",
        "wc -l a.log b.log",
        "sort a.log b.log | cat",
    ],
)
def test_leaves_alone(script):
    assert "PL601" not in codes(script, select=ONLY)


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("cat a.log b.log | wc -l\n", "splicecat a.log b.log | wc -l\n"),
        ("/usr/bin/cat -- a.log b.log | wc -l\n", "splicecat -- a.log b.log | wc -l\n"),
        ("LC_ALL=C cat a b 2>/dev/null | sort\n", "LC_ALL=C splicecat a b 2>/dev/null | sort\n"),
        ("x | cat a - | y\n", "x | splicecat a - | y\n"),
    ],
)
def test_fix(script, expected):
    assert fix(script, select=ONLY) == script.encode()  # unsafe: never applied by --fix
    assert fix(script, unsafe=True, select=ONLY).decode() == expected


def test_message_and_title():
    (finding,) = pl601("cat a b c | wc -l")
    assert finding.message.startswith("`cat` copies 3 files through user space into the pipe: `splicecat` splices them")
    assert finding.fix.title == "Concatenate with `splicecat`"
    (glob,) = pl601("cat *.log | wc -l")
    assert glob.message.startswith("`cat` copies its files")


def test_the_harness_runs_the_real_splicecat(real_splicecat, tmp_path):
    """The stand-in in tests/sandbox/bin must not answer for it in the tests below."""
    outcome = run_script(b"command -v splicecat; splicecat --version\n", tmp_path / "run", extra_path=real_splicecat)
    where, version = outcome.stdout.decode().splitlines()
    assert Path(where).parent == real_splicecat[0] and Path(where).parent != SANDBOX / "bin"
    assert version.startswith("splicecat ")


# Run by real bash (dash below) before and after the fix, with the real splicecat.
TRICKY = [
    "cat access.log words.txt | wc -l\n",
    "cat -- words.txt access.log | sort | uniq -c\n",
    "cat 'my file.txt' \"my file.txt\" | tr a-z A-Z\n",
    "echo from-stdin | cat words.txt - data.csv | cat -n\n",
    "cat *.txt | sort\n",
    "set -- words.txt data.csv; cat \"$@\" | od -c | tail -n 2\n",
    "cat words.txt missing.txt data.csv 2>/dev/null | wc -c; echo \"status $?\"\n",
    "set -o pipefail 2>/dev/null; cat missing.txt words.txt 2>/dev/null | wc -l; echo \"status $?\"\n",
    "cat access.log latin.txt \\\n  | od -c \\\n  | head -n 3\n",
    'n=$(cat words.txt words.txt | sort -u | wc -l); echo "$n"\n',
    "cat words.txt access.log | head -c 20; echo\n",
    "cat backup.tar backup.tar | tar -tf - | sort\n",
    "cat src/* words.txt | wc -l > n.txt\n",
    "for f in words.txt data.csv; do cat \"$f\" \"$f\" | wc -l; done\n",
    "cat access.log words.txt | tee copy.txt | wc -l\n",
]


@pytest.mark.parametrize("script", TRICKY)
def test_fix_keeps_behaviour_in_bash(script, tmp_path, real_splicecat):
    fixed = fix(script, "script.bash", unsafe=True, select=ONLY)
    assert b"splicecat" in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", real_splicecat)


@pytest.mark.parametrize("script", TRICKY)
def test_fix_keeps_behaviour_in_dash(script, tmp_path, real_splicecat):
    source = b"#!/bin/sh\n" + script.encode()
    fixed = fix(source, "script.sh", unsafe=True, select=ONLY)
    assert b"splicecat" in fixed
    assert_same_behaviour(source, fixed, tmp_path, "dash", real_splicecat)


def test_a_big_file_arrives_whole(tmp_path, real_splicecat):
    """Large enough for several 1 MiB splices and pipe refills."""
    script = b"head -c 5000000 /dev/urandom > big.bin\ncat big.bin big.bin | cksum\ncat big.bin big.bin | cat | cksum\n"
    lines = run_script(script, tmp_path / "a", extra_path=real_splicecat).stdout.splitlines()
    assert lines[0] == lines[1]
    fixed = fix(script, unsafe=True, select=ONLY)
    assert fixed.count(b"splicecat big.bin big.bin |") == 2
    after = run_script(fixed, tmp_path / "b", extra_path=real_splicecat).stdout.splitlines()
    assert after[0] == after[1] and after[0].split()[1] == b"10000000"


def test_why_it_is_unsafe_without_splicecat(tmp_path):
    """Documented: on a machine without splicecat the consumer reads nothing."""
    fixed = fix(b"cat words.txt data.csv | wc -l\n", unsafe=True, select=ONLY)
    no_splicecat = tmp_path / "empty-bin"
    no_splicecat.mkdir()
    (no_splicecat / "splicecat").write_text("#!/bin/sh\necho \"sh: splicecat: not found\" >&2\nexit 127\n")
    (no_splicecat / "splicecat").chmod(0o755)
    assert run_script(fixed, tmp_path / "run", extra_path=(no_splicecat,)).stdout == b"0\n"


def test_not_reported_inside_a_parse_error():
    assert "PL601" not in codes("case x in cat a.log b.log | wc -l\n", select=ONLY)
    assert "PL601" not in codes("cat a.log $(( b.log | wc -l\n", select=ONLY)
    assert all(f.fix is None for f in pl601("cat a.log b.log | wc -l )\n"))


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True, select=ONLY)
        assert fix(once, unsafe=True, select=ONLY) == once


@pytest.mark.parametrize("source", [b"cat \xff \xfe | wc\n", b"cat a b |\n", b"cat -- | x\n", b"| cat a b | x\n"])
def test_odd_input_gives_no_traceback(source):
    lint(source)


# Issue 25 class 11: the exit status under pipefail, and one file left to PL001.
EARLY_STOP = "seq 1 20000 > a.txt\ncp a.txt b.txt\ncat a.txt b.txt | head -n 1\necho \"rc=$? ${PIPESTATUS[*]}\"\n"


@pytest.mark.parametrize("observer", ["set -o pipefail\n", ""])
def test_an_early_stop_changes_the_status_where_the_script_sees_cat_s(observer, tmp_path, real_splicecat):
    """Past the pipe's 64 KiB (a.txt and b.txt: 217 KB) `cat` dies of SIGPIPE; splicecat's 1 MiB pipe holds it all."""
    script = (observer + EARLY_STOP).encode()
    (finding,) = pl601(script)
    assert "exit status" in finding.help  # PIPESTATUS shows cat's status even without pipefail
    before = run_script(script, tmp_path / "a", extra_path=real_splicecat)
    assert before.stdout.endswith(b"rc=141 141 0\n" if observer else b"rc=0 141 0\n")
    # splicecat nearly always has both files in its pipe before head exits; now and then head exits between
    # its two splices and it dies of SIGPIPE too: the status after the fix is a race, which 0 shows it lost.
    fixed = fix(script, unsafe=True, select=ONLY)
    outputs = (run_script(fixed, tmp_path / f"b{n}", extra_path=real_splicecat).stdout for n in range(8))
    assert any(out.endswith(b"rc=0 0 0\n") for out in outputs)


@pytest.mark.parametrize(
    "script",
    [
        "set -o pipefail\nseq 1 20000 > a.txt\ncp a.txt b.txt\ncat a.txt b.txt | wc -l\necho \"rc=$?\"\n",  # wc reads all
        "seq 1 20000 > a.txt\ncp a.txt b.txt\ncat a.txt b.txt | head -n 1\necho \"rc=$?\"\n",  # nothing sees cat's status
    ],
)
def test_where_nothing_sees_the_reader_killed_the_status_is_kept(script, tmp_path, real_splicecat):
    (finding,) = pl601(script)
    assert finding.help is None
    fixed = fix(script, unsafe=True, select=ONLY)
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash", real_splicecat, inputs=())


@pytest.mark.parametrize("script", ["cat $1 | wc -l\necho\n", "cat $dump | mysql shop\necho\n"])
def test_one_operand_that_may_be_one_file_is_left_to_pl001(script):
    """Both rules fired on `cat $1 | sort`, and the splicecat rewrite won over the redirect."""
    both = codes(script, select=("PL001", "PL004", "PL601"))
    assert "PL601" not in both and len(both) == 1
    assert codes(script, select=ONLY) == ["PL601"]  # with PL001 and PL004 off, the copy is still worth saying
    fixed = fix(script, unsafe=True, select=("PL001", "PL004", "PL601"))
    assert b"splicecat" not in fixed and b'< "$' in fixed


def test_the_cli_applies_the_redirect_not_splicecat(tmp_path):
    from click.testing import CliRunner

    from pipelint.cli.main import cli

    script = tmp_path / "job.bash"
    script.write_text("cat $1 | wc -l\necho\n")
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--extend-select", "PL6", "--fix", "--unsafe-fixes", str(script)])
    assert result.exit_code == 0, result.output
    assert script.read_text() == 'wc -l < "$1"\necho\n'
