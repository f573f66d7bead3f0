"""PL002 useless-cat-heredoc."""

from __future__ import annotations

import pytest
from harness import assert_lint, assert_same_behaviour, codes, fix, lint

from pipelint.finding import Applicability


@pytest.mark.parametrize(
    "script",
    [
        "cat <<EOF | grep b\na\nb\nEOF\n",
        "cat <<'EOF' | grep b\n$a\nb\nEOF\n",
        "cat <<-EOF | grep b\n\ta\n\tb\n\tEOF\n",
        'cat <<<"$x" | tr a b\n',
        "x=$(cat <<EOF | wc -l\na\nb\nEOF\n)\n",
    ],
)
def test_reports(script):
    assert_lint(script, "PL002")


@pytest.mark.parametrize(
    "script",
    [
        "cat <<EOF\nhello\nEOF\n",
        "cat file <<EOF | wc -l\nx\nEOF\n",
        "cat <<EOF > out.txt\nx\nEOF\n",
        "cat <<EOF | wc -l < words.txt\nx\nEOF\n",
    ],
)
def test_leaves_alone(script):
    assert "PL002" not in codes(script)


TRICKY = [
    "cat <<EOF | grep b\na\nb\nEOF\n",
    "cat <<'EOF' | grep -c '\\$'\n$HOME\nplain\nEOF\n",
    "cat <<-EOF | sort\n\tz\n\ta\n\tEOF\necho after\n",
    "cat <<EOF | sort | uniq -c > out.txt\nb\na\nb\nEOF\ncat out.txt\n",
    "n=$(cat <<EOF | wc -l\na\nb\nEOF\n)\necho \"$n\"\n",
    "f() {\n  cat <<EOF | tr a-z A-Z\nhello $1\nEOF\n}\nf world\n",
    'x="a b"\ncat <<<"$x" | tr a-z A-Z\n',
    "cat <<EOF | grep b 2>/dev/null\nb\nEOF\n",
    # Under `set -u` the body may fail to expand: the here-document goes after `> out.txt`, which is
    # still created (fuzz seed 2414); the failed expansion ends no shell (both expand bodies apart).
    "set -u\ncat <<EOF | sort > out.txt\n$v\nEOF\necho after\n",
    "set -u\ncat <<EOF | sort | uniq > out.txt\n$v\nEOF\necho after\n",
]


def test_a_body_that_may_fail_to_expand_goes_after_the_consumer_s_redirects():
    assert fix("set -u\ncat <<EOF | sort > out.txt\n$v\nEOF\necho\n") == b"set -u\nsort > out.txt <<EOF\n$v\nEOF\necho\n"
    assert fix("cat <<EOF | sort > out.txt\n$v\nEOF\necho\n") == b"sort <<EOF > out.txt\n$v\nEOF\necho\n"


@pytest.mark.parametrize("script", TRICKY)
def test_fix_keeps_behaviour(script, tmp_path):
    fixed = fix(script)
    assert fixed != script.encode()
    assert_same_behaviour(script.encode(), fixed, tmp_path, "bash")


@pytest.mark.parametrize("script", [s for s in TRICKY if "<<<" not in s])
def test_fix_keeps_behaviour_in_dash(script, tmp_path):
    source = b"#!/bin/sh\n" + script.encode()
    fixed = fix(source, "script.sh")
    assert fixed != source
    assert_same_behaviour(source, fixed, tmp_path, "dash")


def test_body_stays_byte_for_byte():
    source = b"cat <<'EOF' | grep -v x\n caf\xe9\t$x \\\nEOF\n"
    assert fix(source) == b"grep -v x <<'EOF'\n caf\xe9\t$x \\\nEOF\n"


def test_consumer_continuing_after_the_body_gets_no_fix():
    # tree-sitter-bash cannot parse this valid form at all; whatever it makes
    # of it, nothing may be moved.
    findings = lint("cat <<EOF | while read -r l\na\nEOF\ndo echo \"$l\"; done\n")
    assert all(f.fix is None for f in findings)


def test_two_heredocs_on_one_line_get_no_fix():
    findings = lint("cat <<A | paste - /dev/fd/3 3<<B\na\nA\nb\nB\n")
    assert all(f.fix is None for f in findings)


def test_while_loop_consumer_is_unsafe():
    (finding,) = lint("cat <<EOF | while read -r l; do n=$l; done\na\nEOF\n")
    assert finding.fix.applicability is Applicability.UNSAFE


def test_herestring_is_not_moved_in_sh():
    findings = lint('#!/bin/sh\ncat <<<"$x" | tr a b\n', "x.sh")
    assert [f.fix for f in findings] == [None]


def test_a_consumer_whose_words_assign_gets_an_unsafe_fix():
    """Fuzz seed 2415, script 27517: `: ${v:=set} <<-"EOF"` would set v in the current shell (issue 13 class 3)."""
    script = 'set -e\ncat <<-"EOF" | : ${v:=set} 2>/dev/null\nhello\nEOF\necho "v=${v-unset}"\n'
    (finding,) = [f for f in lint(script) if f.code == "PL002"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert fix(script) == script.encode()


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_body_that_may_fail_to_expand_keeps_its_error_out_of_the_consumers_stderr(shell, tmp_path):
    """Fuzz seed 2416, script 2009: under `set -u`, `tee /dev/null 2>/dev/null <<EOF` would send the body's
    "v: unbound variable" to /dev/null, where `cat <<EOF | tee /dev/null 2>/dev/null` showed it."""
    script = "set -u\ncat <<EOF | tee /dev/null 2>/dev/null | wc -l\n$v\nEOF\necho after\n"
    before, after = _runs_of_an_unsafe_fix(script, shell, tmp_path)
    assert b"v" in before.stderr and after.stderr == b""  # what made it unsafe, shown


def _runs_of_an_unsafe_fix(script: str, shell: str, tmp_path):
    """The script (`#!/bin/sh` for dash) and its PL002 fix, run; the fix must be unsafe."""
    from harness import run_script

    source = script.encode() if shell == "bash" else b"#!/bin/sh\n" + script.encode()
    path = "s.bash" if shell == "bash" else "s.sh"
    (finding,) = [f for f in lint(source, path) if f.code == "PL002"]
    assert finding.fix.applicability is Applicability.UNSAFE
    return run_script(source, tmp_path, shell), run_script(fix(source, path, unsafe=True, select=("PL002",)), tmp_path, shell)


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize(
    "script",
    [
        "set -u\ncat <<EOF | wc -l\n$v\nEOF\necho after\n",  # wc answers empty input with 0
        "set -u\nn=$(cat <<EOF | tar -tf -\n$v\nEOF\n)\necho \"n=$n\"\n",  # fuzz seed 2419, script 32249
        "set -u\ncat <<EOF | sort > out.txt\n$v\nEOF\necho \"rc=$?\"\n",  # the status is the shell's
    ],
)
def test_a_body_that_may_fail_to_expand_skips_a_consumer_that_shows_it(script, shell, tmp_path):
    """Under `set -u` a body that fails to expand skips the consumer, which ran on empty input in the pipe.
    No input is missing, so nothing allows the difference: unsafe where it shows, and shown by running."""
    before, after = _runs_of_an_unsafe_fix(script, shell, tmp_path)
    assert (before.stdout, before.stderr) != (after.stdout, after.stderr)


@pytest.mark.parametrize("consumer", ["head -n 1", "true", "grep -q line"])
def test_a_consumer_that_stops_early_under_pipefail_gets_an_unsafe_fix(consumer, tmp_path):
    """`set -eo pipefail; cat <<EOF | head -n 1` ends the script: cat dies of SIGPIPE writing a body past the
    pipe's 64 KiB (and about half the time for a short one: fuzz seed 2439). `head -n 1 <<EOF` does not."""
    from harness import run_script

    body = "".join(f"line {i}\n" for i in range(20000))
    script = f"set -eo pipefail\ncat <<EOF | {consumer}\n{body}EOF\necho after\n".encode()
    (finding,) = [f for f in lint(script.decode()) if f.code == "PL002"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "SIGPIPE" in finding.help
    assert b"after" not in run_script(script, tmp_path / "a").stdout
    assert b"after" in run_script(fix(script, unsafe=True), tmp_path / "b").stdout


@pytest.mark.parametrize("consumer", ["wc -l", "sort", "grep line"])
def test_a_consumer_that_reads_to_the_end_keeps_its_safe_fix_under_pipefail(consumer, tmp_path):
    body = "".join(f"line {i}\n" for i in range(20000))
    script = f"set -eo pipefail\ncat <<EOF | {consumer}\n{body}EOF\necho after\n".encode()
    (finding,) = [f for f in lint(script.decode()) if f.code == "PL002"]
    assert finding.fix.applicability is Applicability.SAFE
    assert_same_behaviour(script, fix(script), tmp_path, "bash")


def test_a_later_stage_that_stops_early_makes_the_fix_unsafe_too():
    """`cat <<EOF | tee -a log | true`: tee reads to the end, but dies of SIGPIPE when true exits, and cat may
    with it (fuzz seed 2441). The fixed `tee -a log <<EOF | true` races too, at other odds: of 200 runs under
    `set -eo pipefail` with a one-line body, the original ended the script 52 times, the fixed one 199."""
    script = "set -eo pipefail\nn=$(cat << EOF | tee -a /dev/null | true\ncat words.txt | sort\nEOF\n)\necho \"n=$n\"\n"
    (finding,) = [f for f in lint(script) if f.code == "PL002"]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "a stage after it" in finding.help
