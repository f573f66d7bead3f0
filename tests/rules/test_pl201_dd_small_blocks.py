"""PL201 dd-small-blocks: copies with 512-byte (or other small) blocks, and the bs=1M fix run for real."""

from __future__ import annotations

import pytest
from harness import (
    assert_fixed_and_same,
    assert_lint,
    assert_same_behaviour,
    codes,
    fix,
    fix_all,
    lint,
    lint_all,
    run_script,
)

from pipelint.programs import dd_operands
from pipelint.finding import Applicability


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("512", 512), ("1", 1), ("10c", 10), ("1w", 2), ("3b", 1536), ("64K", 65536), ("64k", 65536),
        ("64kB", 64000), ("64KB", 64000), ("1KiB", 1024), ("1M", 1 << 20), ("1MB", 1000000),
        ("1MiB", 1 << 20), ("4G", 4 << 30), ("1T", 1 << 40), ("2x512", 1024), ("2x64K", 128 << 10),
        ("1m", 1 << 20),  # BSD and busybox spelling
        ("", None), ("x", None), ("1.5M", None), ("0", None), ("0x10", None), ("1Mb", None), ("-1", None),
    ],
)  # fmt: skip
def test_size_suffixes(text, size):
    assert dd_operands.parse_size(text) == size


@pytest.mark.parametrize(
    "script",
    [
        "dd if=data.csv of=copy.csv",
        "dd if=data.csv of=copy.csv bs=4k",
        "dd if=data.csv of=copy.csv bs=64000",
        "dd if=data.csv of=copy.csv bs=64kB",
        "dd if=data.csv of=copy.csv ibs=1M",  # obs stays 512
        "dd if=data.csv of=copy.csv ibs=512 obs=1M",
        "dd if=disk.img of=/dev/sdb status=progress",
        "sudo dd if=disk.iso of=/dev/sdb",
        "sudo -u $user dd if=data.csv of=copy.csv",
        "nice -n 19 dd if=disk.iso of=/dev/sdb bs=4k",
        "/bin/dd if=data.csv of=copy.csv",
        "gzip -dc disk.img.gz | dd of=/dev/sdb",
        "gzip -dc disk.img.gz | dd of=/dev/sdb bs=4096 conv=fsync",
        "ssh host 'cat /dev/sda' | dd of=sda.img",
        "dd if=/dev/sda | gzip > sda.img.gz",  # alone here; with PL203 on, PL203 takes it
        "dd < data.csv > copy.csv",
        "dd if=data.csv > copy.csv",
        'dd if="my file.txt" of="copy file.txt"',
        "dd if=data.csv of=copy.csv count=1000 iflag=count_bytes",
        "dd if=data.csv of=copy.csv conv=sync",
        "n=$(dd if=data.csv of=copy.csv 2>&1)",
    ],
)
def test_reports(script):
    assert "PL201" in codes(script, select=("PL201",))


@pytest.mark.parametrize(
    "script",
    [
        # Block size with a meaning: boot sectors, keys, swap files.
        "dd if=/dev/sda of=mbr.bin bs=512 count=1",
        "dd if=/dev/urandom of=secret.key bs=32 count=1",
        "dd if=/dev/zero of=/swapfile bs=1M count=1024",
        "dd if=/dev/zero of=disk.img bs=1 count=0 seek=10G",
        "dd if=data.csv of=copy.csv skip=2",
        "dd if=data.csv of=copy.csv seek=2",
        "dd if=data.csv of=copy.csv count=10 iflag=skip_bytes",  # count still in blocks
        # Big enough already.
        "dd if=disk.img of=/dev/sdb bs=4M status=progress",
        "dd if=disk.img of=/dev/sdb bs=64K",
        "dd if=disk.img of=/dev/sdb ibs=1M obs=1M",
        # Not a copy between files or pipes.
        "dd if=data.csv",
        "dd of=copy.csv",
        "dd bs=1 count=1",
        "dd --help",
        "dd --version | head -1",
        # Computed or invalid sizes and flags.
        'dd if=data.csv of=copy.csv bs="$BS"',
        "dd if=data.csv of=copy.csv bs=1Mx",
        'dd if=data.csv of=copy.csv conv="$CONV"',
        "dd if=data.csv of=copy.csv if=other.csv",
        "LC_ALL=C dd if=data.csv of=copy.csv",
        # A whole-file reader into a pipe is PL203's.
        "dd if=data.csv | wc -c",
        # Inside what did not parse.
        "case x in\n dd if=data.csv of=copy.csv\nesac\n",
        "x=$(dd if=data.csv of=copy.csv\n",
    ],
)
def test_leaves_alone(script):
    assert "PL201" not in codes(script)


def test_whole_file_reader_is_pl203_not_pl201():
    assert_lint("dd if=data.csv | wc -c", "PL203")
    assert_lint("dd if=dump.sql bs=4k | mysql shop", "PL203")
    # With PL203 switched off, the small blocks are still worth a word.
    assert codes("dd if=data.csv | wc -c", select=("PL201",)) == ["PL201"]


@pytest.mark.parametrize(
    ("script", "expected", "safety"),
    [
        # dd's "N+M records in/out" lines change with bs: seen on a terminal too (issue 13 class 7).
        ("dd if=data.csv of=copy.csv\n", "dd if=data.csv of=copy.csv bs=1M\n", Applicability.UNSAFE),
        ("dd if=data.csv of=copy.csv bs=4k status=none\n", "dd if=data.csv of=copy.csv bs=1M status=none\n", Applicability.SAFE),
        ("dd if=data.csv of=copy.csv ibs=512 obs=4k\n", "dd if=data.csv of=copy.csv bs=1M\n", Applicability.UNSAFE),
        ("dd obs=4k if=data.csv ibs=1M of=copy.csv\n", "dd bs=1M if=data.csv of=copy.csv\n", Applicability.UNSAFE),
        ("dd < data.csv > copy.csv\n", "dd bs=1M < data.csv > copy.csv\n", Applicability.UNSAFE),
        ("dd if=data.csv of=copy.csv 2>/dev/null\n", "dd if=data.csv of=copy.csv bs=1M 2>/dev/null\n", Applicability.SAFE),
        ("dd if=data.csv of=copy.csv 2>dd.log\n", "dd if=data.csv of=copy.csv bs=1M 2>dd.log\n", Applicability.UNSAFE),
        ("dd if=data.csv of=copy.csv 2>&1 | tail -1\n", "dd if=data.csv of=copy.csv bs=1M 2>&1 | tail -1\n", Applicability.UNSAFE),
        ("dd if=data.csv of=copy.csv |& tail -1\n", "dd if=data.csv of=copy.csv bs=1M |& tail -1\n", Applicability.UNSAFE),
        ("dd if=data.csv of=copy.csv &>/dev/null\n", "dd if=data.csv of=copy.csv bs=1M &>/dev/null\n", Applicability.SAFE),
        ("dd if=data.csv of=copy.csv status=noxfer\n", "dd if=data.csv of=copy.csv status=noxfer bs=1M\n", Applicability.UNSAFE),
        ("dd if=data.csv of=copy.csv 2>/dev/null 2>&1\n", "dd if=data.csv of=copy.csv bs=1M 2>/dev/null 2>&1\n", Applicability.UNSAFE),
        ("dd if=data.csv of=copy.csv 2>/dev/null 2>dd.log\n", "dd if=data.csv of=copy.csv bs=1M 2>/dev/null 2>dd.log\n", Applicability.UNSAFE),
        ("dd if=data.csv of=copy.csv 2>dd.log 2>/dev/null\n", "dd if=data.csv of=copy.csv bs=1M 2>dd.log 2>/dev/null\n", Applicability.SAFE),
        # if= names holding `=`: only the first `=` splits key from value
        ("dd if=a=b of=c=d status=none\n", "dd if=a=b of=c=d status=none bs=1M\n", Applicability.SAFE),
        # a sourced file may define dd
        (". ./lib.sh\ndd if=data.csv of=copy.csv status=none\n", ". ./lib.sh\ndd if=data.csv of=copy.csv status=none bs=1M\n", Applicability.UNSAFE),
    ],
)
def test_fix_and_its_safety(script, expected, safety):
    (finding,) = lint(script, select=("PL201",))
    assert finding.fix.applicability is safety
    assert fix(script, unsafe=True, select=("PL201",)).decode() == expected


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ("dd if=data.csv of=copy.csv count=3 iflag=count_bytes\n", "count= is given"),
        ("dd if=data.csv of=copy.csv conv=sync\n", "conv=sync works per block"),
        ("dd if=data.csv of=copy.csv conv=noerror,notrunc\n", "conv=noerror works per block"),
        ("dd if=data.csv of=copy.csv cbs=80 conv=unblock\n", "conv=unblock works per block"),
        ("dd if=data.csv of=/dev/nst0\n", "of= is a tape"),
        ("dd if=data.csv of=copy.csv iflag=weird\n", "unknown"),
    ],
)
def test_display_only_when_the_block_size_matters(script, reason):
    (finding,) = lint(script, select=("PL201",))
    assert finding.fix.applicability is Applicability.DISPLAY_ONLY
    assert reason in finding.fix.title
    assert fix(script, unsafe=True, select=("PL201",)).decode() == script


def test_message_names_the_block_size_and_the_evidence():
    (finding,) = lint("dd if=data.csv of=copy.csv\n", select=("PL201",))
    assert "512-byte blocks (dd's default)" in finding.message and "3.2 TiB" in finding.message
    (finding,) = lint("dd if=data.csv of=copy.csv bs=8K\n", select=("PL201",))
    assert "8 KiB blocks" in finding.message


def test_conv_sync_really_depends_on_the_block_size(tmp_path):
    """Why conv=sync is display-only: a short read is padded to the input block size."""
    script = b"dd if=data.csv of=copy.csv conv=sync 2>/dev/null; wc -c < copy.csv\n"
    fixed = script.replace(b"conv=sync", b"conv=sync bs=1M")
    assert run_script(script, tmp_path / "a").stdout == b"512\n"
    assert run_script(fixed, tmp_path / "b").stdout == b"1048576\n"


# Each case runs under real bash and dash before and after the fix.
TRICKY = [
    "dd if=data.csv of=copy.csv status=none\n",
    "head -c 5000 data.csv > big.csv; dd if=big.csv of=copy.csv 2>/dev/null; cmp big.csv copy.csv\n",
    "dd if=src of=copy 2>/dev/null; echo \"status $?\"\n",  # a directory
    "dd if=a=b of=c=d status=none; echo \"status $?\"\n",  # missing, with `=` in the name
    "dd if=data.csv of=copy.csv 2>/dev/null\n",
    "dd if=data.csv of=copy.csv status=none; cat copy.csv\n",
    "dd if=latin.txt of=copy.txt bs=16 status=none\n",
    "dd if=words.txt of=copy.txt conv=notrunc,fsync status=none\n",
    "dd if=data.csv of=copy.csv ibs=1 obs=4 2>/dev/null\n",
    'dd if="my file.txt" of="copy of my file.txt" 2>/dev/null\n',
    "dd \\\n  if=data.csv \\\n  of=copy.csv 2>/dev/null\n",
    "dd < data.csv > copy.csv 2>/dev/null\n",
    "sort words.txt | dd of=sorted.txt 2>/dev/null\n",
    "sort words.txt | dd 2>/dev/null | wc -c\n",
    "dd if=data.csv status=none | tr a-z A-Z | dd of=upper.csv status=none\n",
    'n=$(dd if=data.csv status=none | wc -c); echo "$n"\n',
    "dd if=data.csv of=copy.csv conv=ucase 2>/dev/null\n",
    "dd if=backup.tar of=copy.tar 2>/dev/null && tar -tf copy.tar\n",
    "dd if=missing.csv of=copy.csv 2>/dev/null; echo \"status $?\"\n",
]


@pytest.mark.parametrize("script", TRICKY)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_fix_keeps_behaviour(script, shell, tmp_path):
    path = "script.sh" if shell == "dash" else "script.bash"
    fixed = fix(script, path, select=("PL201",))
    assert fixed != script.encode(), "expected a safe fix"
    assert b"bs=1M" in fixed
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell)


def test_why_statistics_on_stderr_make_it_unsafe(tmp_path):
    """The "records in/out" counts change with bs whenever the input is over 512 bytes."""
    script = b"head -c 5000 /dev/zero > big.bin\ndd if=big.bin of=copy.bin\n"
    fixed = fix(script, unsafe=True, select=("PL201",))
    assert fix(script, select=("PL201",)) == script
    before, after = run_script(script, tmp_path / "a"), run_script(fixed, tmp_path / "b")
    assert b"9+1 records in" in before.stderr and b"0+1 records in" in after.stderr


@pytest.mark.parametrize(
    "script",
    ["dd if=data.csv of=copy.csv conv=sparse status=none\n", "dd if=data.csv of=copy.csv conv=notrunc,sparse status=none\n"],
)
def test_sparse_output_is_display_only(script):
    """conv=sparse seeks over each all-NUL output block: the holes follow the block size (issue 13 class 7)."""
    (finding,) = lint(script, select=("PL201",))
    assert finding.fix.applicability is Applicability.DISPLAY_ONLY
    assert "conv=sparse works per block" in finding.fix.title


def test_the_scripts_own_dd_and_a_crlf_last_word_are_left_alone():
    assert "PL201" not in codes("dd() { command dd status=none \"$@\"; }\ndd if=data.csv of=copy.csv\n", select=("PL201",))
    assert "PL201" not in codes("alias dd='dd status=none'\ndd if=data.csv of=copy.csv\n", select=("PL201",))
    # bash reads `of=copy.csv\r`: an appended ` bs=1M` would land after the \r-less word it sees.
    assert "PL201" not in codes("dd if=data.csv of=copy.csv\r\n", select=("PL201",))
    assert "PL201" in codes("dd if=data.csv status=none | wc -c\r\n", select=("PL201",))


def test_fixing_twice_equals_fixing_once():
    for script in TRICKY:
        once = fix(script, unsafe=True)
        assert fix(once, unsafe=True) == once


def test_no_fix_for_a_statement_salvaged_from_a_parse_error():
    (finding,) = lint("dd if=data.csv of=copy.csv )\n", select=("PL201",))
    assert finding.code == "PL201" and finding.fix is None


def test_a_here_document_is_no_bulk_copy():
    # syntax.applied_redirects gives dd the here-document wherever tree-sitter
    # puts it; a few lines of the script are not worth a finding.
    assert "PL201" not in codes("dd of=x <<EOF\nhi\nEOF\n")
    assert "PL201" not in codes("dd of=x <<< hi | cat\n")
    assert "PL201" in codes("dd of=x < in.bin\n")


def test_wrappers_with_positional_words_are_seen_through():
    assert "PL201" in codes("timeout 5 dd if=a of=b bs=512\n")
    assert "PL201" in codes("chrt -f 10 dd if=a of=b\n")


@pytest.mark.parametrize(
    "script",
    [
        'dd < "$1" bs=1 skip="$2" count="$3" 2> /dev/null | grep -E x\n',
        "dd < data.csv bs=1 skip=2 count=3 2>/dev/null | od -c\n",
        "dd < data.csv > copy.csv bs=512 count=1\n",
    ],
)
def test_operands_after_a_redirect_are_dd_operands(script):
    """bash gives `bs=1 count=3` after `< f` to dd; tree-sitter hangs them on the redirect
    (found in initramfs-tools' unmkinitramfs, where a safe bs=1M was offered)."""
    assert "PL201" not in codes(script, select=("PL201",))


def test_dd_on_the_remote_side_of_ssh(tmp_path):
    """`ssh h "dd if=/dev/sda of=/mnt/x.img"`: the remote command is a script like any other."""
    script = 'ssh h "dd if=/dev/sda of=/mnt/x.img"\n'
    (finding,) = lint_all(script)
    assert finding.code == "PL201" and script.encode()[finding.start : finding.end] == b"dd if=/dev/sda of=/mnt/x.img"
    # dd's records in/out lines come back over ssh's stderr: an unsafe fix (issue 13 class 7).
    assert fix_all(script) == script.encode()
    assert fix_all(script, unsafe=True).decode() == 'ssh h "dd if=/dev/sda of=/mnt/x.img bs=1M"\n'
    setup = "mkdir -p remote-h && cp data.csv remote-h/\n"
    copy = setup + 'ssh h "dd if=data.csv of=copy.csv status=none && cat copy.csv" | wc -c\n'
    expected = copy.replace("status=none", "status=none bs=1M")
    outcome = assert_fixed_and_same(copy, expected, tmp_path, "dash")
    assert "remote-h/copy.csv" in outcome.files
