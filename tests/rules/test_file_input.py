"""Consumers that read a regular file otherwise than a pipe (issue 25 class 6), for PL001, PL002, PL203.

The program table says which (`ReadsFileDifferently`); the redirect rewrite
decides from it: no finding where the pipe is the point (`tail -f` ends with
it, GNU sort is faster from it), a fix that keeps the output (`gzip -n`), or
an unsafe fix. Each side is shown with the real programs under bash and dash.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from harness import SANDBOX, assert_same_behaviour, codes, context_of, fix, lint, pipeline_roots, run_script

from pipelint.finding import Applicability
from pipelint.programs.pipeline import build
from pipelint.programs.table import PROGRAMS, FileInput
from pipelint.rewrites.stdin_redirect import file_input_differences
from pipelint.shell import syntax

# More than a pipe holds (64 KiB), so a consumer's reads from the pipe come back short.
BIG = "seq 1 100000 > big.txt\n"


def finding_of(script: str, code: str = "PL001", path: str = "script.bash"):
    (finding,) = [f for f in lint(script, path) if f.code == code]
    return finding


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_gzip_gets_n_so_the_header_keeps_no_time(shell, tmp_path):
    script = "cat access.log | gzip > out.gz\necho done\n"
    finding = finding_of(script)
    assert finding.fix.applicability is Applicability.SAFE
    assert finding.fix.title == "Redirect access.log into gzip, adding `-n`"
    fixed = fix(script)
    assert fixed == b"gzip -n > out.gz < access.log\necho done\n"
    path = "script.sh" if shell == "dash" else "script.bash"
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell, path=path)


def test_without_n_gzip_stores_the_file_s_time(tmp_path):
    """The other side: the plain redirect writes other bytes (the sandbox copy keeps access.log's time)."""
    piped = run_script(b"cat access.log | gzip > out.gz\n", tmp_path / "a")
    redirected = run_script(b"gzip < access.log > out.gz\n", tmp_path / "b")
    assert piped.files["out.gz"].content[4:8] == b"\0\0\0\0"  # MTIME: none
    assert redirected.files["out.gz"].content[4:8] != b"\0\0\0\0"
    assert int.from_bytes(redirected.files["out.gz"].content[4:8], "little") == int(os.stat(SANDBOX / "data" / "access.log").st_mtime)


@pytest.mark.parametrize(
    "script",
    ["cat access.log | gzip -N > out.gz\necho done\n", "cat access.log | gzip -n --name > out.gz\necho done\n"],
)
def test_gzip_told_to_store_the_name_gets_an_unsafe_fix(script, tmp_path):
    """`-N` after an added `-n` would win: no option keeps the header, so the fix is unsafe and says why."""
    finding = finding_of(script)
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "modification time" in finding.help
    fixed = fix(script, unsafe=True)
    original, changed = run_script(script.encode(), tmp_path / "a"), run_script(fixed, tmp_path / "b")
    assert original.files["out.gz"].content != changed.files["out.gz"].content


@pytest.mark.parametrize(
    "script",
    [
        "gzip -c access.log > a.gz\ncat a.gz | gzip -d > out\necho done\n",
        "cat access.log | gzip -n > out.gz\necho done\n",
        "cat access.log | xz > out.xz\necho done\n",
    ],
)
def test_compressors_that_write_the_same_bytes_keep_the_plain_safe_fix(script, tmp_path):
    finding = finding_of(script)
    assert finding.fix.applicability is Applicability.SAFE
    assert "adding" not in finding.fix.title
    assert_same_behaviour(script.encode(), fix(script), tmp_path, "bash")


def test_pigz_and_lz4_content_size_get_an_unsafe_fix():
    """pigz stores the time it ran for a pipe (no option reproduces that); lz4 --content-size stores the size."""
    assert "pigz stores" in finding_of("cat f | pigz > out.gz\necho\n").help
    assert finding_of("cat f | pigz -n > out.gz\necho\n").fix.applicability is Applicability.SAFE
    assert "lz4 stores" in finding_of("cat f | lz4 --content-size > out.lz4\necho\n").help
    assert finding_of("cat f | lz4 > out.lz4\necho\n").fix.applicability is Applicability.SAFE


@pytest.mark.parametrize("follow", ["-f", "-F", "--follow", "--follow=name", "-fn 5", "-n 5 -f"])
def test_tail_follow_is_not_reported(follow):
    assert "PL001" not in codes(f"cat app.log | tail {follow}\n")
    assert "PL203" not in codes(f"dd if=app.log status=none | tail {follow}\n")


def test_tail_without_follow_is_reported():
    assert finding_of("cat app.log | tail -n 5\necho\n").fix.applicability is Applicability.SAFE


def test_tail_follow_ends_with_the_pipe_and_follows_the_file(tmp_path):
    """The reason, shown: fed by `cat`, `tail -f` prints and exits; reading the file, it prints what is
    appended to the file afterwards (it waits for more, instead of ending)."""
    log = tmp_path / "app.log"
    log.write_text("".join(f"line {n}\n" for n in range(20)))
    piped = subprocess.run(["bash", "-c", "cat app.log | tail -f"], cwd=tmp_path, capture_output=True, timeout=60)
    assert piped.returncode == 0 and piped.stdout.endswith(b"line 19\n")
    with open(log, "rb") as stdin, subprocess.Popen(["tail", "-f"], stdin=stdin, stdout=subprocess.PIPE) as follower:
        try:
            printed = b""
            while not printed.endswith(b"line 19\n"):
                printed += follower.stdout.read1(4096)
            with open(log, "a") as handle:
                handle.write("appended\n")
            while not printed.endswith(b"appended\n"):
                printed += follower.stdout.read1(4096)
            assert follower.poll() is None
        finally:
            follower.kill()


@pytest.mark.parametrize(
    "script", ["cat words.txt | sort\n", "cat words.txt | sort -r | uniq -c\n", "dd if=words.txt status=none | sort\n"]
)
def test_gnu_sort_reading_a_file_is_not_reported(script):
    """GNU sort sizes its buffer from a regular file: 100 MiB took 1.4× the CPU from `< F`."""
    assert not {"PL001", "PL203"} & set(codes(script))


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_sort_given_its_buffer_size_is_reported_and_fixed(shell, tmp_path):
    script = "cat access.log | sort -S 1M -r\necho after\n"
    assert finding_of(script).fix.applicability is Applicability.SAFE
    path = "script.sh" if shell == "dash" else "script.bash"
    assert_same_behaviour(script.encode(), fix(script, path), tmp_path, shell, path=path)


@pytest.mark.parametrize(
    ("consumer", "why"),
    [
        ("dd of=out bs=1M count=1 status=none", "count="),  # 64 KiB from the pipe, 1 MiB from the file
        ("dd of=out bs=256k skip=1 status=none", "count="),  # skips one short read of the pipe
        ("dd of=out bs=1M", "statistics"),  # `0+2 records in` against `1+1 records in`
        ("dd of=out bs=1M conv=sync status=none", "count="),
    ],
)
def test_dd_that_counts_reads_gets_an_unsafe_fix(consumer, why, tmp_path):
    script = f"{BIG}cat big.txt | {consumer}\necho done\n"
    finding = finding_of(script)
    assert finding.fix.applicability is Applicability.UNSAFE
    assert why in finding.help
    original = run_script(script.encode(), tmp_path / "a")
    changed = run_script(fix(script, unsafe=True), tmp_path / "b")
    assert (original.files["out"].content, original.stderr) != (changed.files["out"].content, changed.stderr)


def test_dd_count_copies_a_pipe_s_short_read(tmp_path):
    """The number in the help: `bs=1M count=1` copies one read of the pipe (at most 64 KiB), or 1 MiB of the file."""
    command = "seq 1 300000 > big.txt; cat big.txt | dd bs=1M count=1 status=none | wc -c; dd bs=1M count=1 status=none < big.txt | wc -c"
    printed = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, check=True, text=True).stdout
    piped, redirected = map(int, printed.split())
    assert piped <= 65536 < redirected == 1 << 20


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize(
    "consumer",
    ["dd of=out status=none", "dd of=out bs=1M count=1 iflag=fullblock status=none", "dd of=out bs=1M iflag=fullblock"],
)
def test_dd_that_reads_whole_blocks_keeps_the_safe_fix(consumer, shell, tmp_path):
    script = f"{BIG}cat big.txt | {consumer}\necho done\n"
    assert finding_of(script).fix.applicability is Applicability.SAFE
    path = "script.sh" if shell == "dash" else "script.bash"
    assert_same_behaviour(script.encode(), fix(script, path), tmp_path, shell, path=path)


@pytest.mark.parametrize(
    ("script", "reads"),
    [
        ("cat access.log | $compress | wc -c\n", "computed"),  # the name is computed: gzip, maybe
        ("cat access.log | sh -c 'gzip > out.gz'\n", "gzip stores"),  # the shell's gzip reads the file
        ("cat access.log | su -c 'exec gzip' nobody\n", "gzip stores"),
        ("cat access.log | { gzip; } | wc -c\n", "gzip stores"),
        ("cat access.log | { read -r a; tail -f; }\n", "tail -f"),
        ("z() { gzip; }\ncat access.log | z | wc -c\n", "gzip stores"),
        ('cat access.log | gzip "-$level" | wc -c\n', "gzip stores"),  # a computed option: -N, maybe
        ("cat access.log | gzip $opts | wc -c\nopts=-N\n", "gzip stores"),
    ],
)
def test_a_consumer_that_may_run_such_a_program_on_the_file(script, reads):
    """The decision, asked directly: every command that would read the file counts (other reasons make
    most of these fixes unsafe too, and the finding's help names the first)."""
    context = context_of(script.encode())
    (root,) = [r for r in pipeline_roots(context.root) if b"access.log" in syntax.text(r)]
    found = file_input_differences(build(root).stages[1], context)
    assert any(reads in difference.fact.because for difference in found), found
    for finding in [f for f in lint(script) if f.code == "PL001"]:  # none where the pipe is the point (tail -f)
        assert finding.fix.applicability is Applicability.UNSAFE


@pytest.mark.parametrize(
    "script",
    ["cat access.log | { gzip -n; } | wc -c\n", "cat access.log | sh -c 'wc -l'\n", "z() { wc -c; }\ncat access.log | z\n",
     'cat access.log | gzip -n "$level" | wc -c\n'],
)  # fmt: skip
def test_consumers_that_read_the_file_as_the_pipe(script):
    context = context_of(script.encode())
    (root,) = [r for r in pipeline_roots(context.root) if b"access.log" in syntax.text(r)]
    assert file_input_differences(build(root).stages[1], context) == []


def test_a_compound_gzip_shown_by_running(tmp_path):
    script = b"cat access.log | { gzip; } | wc -c > n\ncat access.log | { gzip; } > out.gz\necho done\n"
    original = run_script(script, tmp_path / "a")
    changed = run_script(fix(script, unsafe=True), tmp_path / "b")
    assert original.files["out.gz"].content != changed.files["out.gz"].content


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_here_document_into_gzip_gets_n(shell, tmp_path):
    """PL002: bash puts a large here-document in a temporary file, which gzip would take the time of."""
    body = "".join(f"line {n}\n" for n in range(12000))  # past a pipe's 64 KiB
    script = f"cat <<EOF | gzip > out.gz\n{body}EOF\necho done\n"
    finding = finding_of(script, "PL002", "script.sh" if shell == "dash" else "script.bash")
    assert finding.fix.applicability is Applicability.SAFE and "adding `-n`" in finding.fix.title
    path = "script.sh" if shell == "dash" else "script.bash"
    fixed = fix(script, path)
    assert fixed.startswith(b"gzip -n ")
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell, path=path)


def test_every_fact_is_well_formed():
    """Each fact of the table names what changes, and one it keeps by an option says which."""
    facts = [fact for entry in PROGRAMS.values() for fact in entry.file_input]
    assert {fact.how for fact in facts} == set(FileInput)
    for fact in facts:
        assert fact.because and not fact.because.endswith(".")
        assert fact.kept_by is None or fact.how is FileInput.OUTPUT


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
