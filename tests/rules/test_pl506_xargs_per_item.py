"""PL506 xargs-per-item: a process per input item where one call takes them all; the advice run for real."""

from __future__ import annotations

import re

import pytest
from harness import codes, lint, run_script

from pipelint.engine.config import Settings


def advice(script: str) -> str:
    (finding,) = [f for f in lint(script) if f.code == "PL506"]
    assert finding.fix is None
    match = re.fullmatch(r"Let one call take many items: `(.*)`", finding.help)
    assert match, finding.help
    return match.group(1)


@pytest.mark.parametrize(
    ("script", "one_call"),
    [
        ("ls | xargs -I arg1 basename arg1\n", "xargs -r -d '\\n' basename -a"),
        ("ls | xargs -I{} basename {}\n", "xargs -r -d '\\n' basename -a"),
        ("ls | xargs -I% basename -s .txt %\n", "xargs -r -d '\\n' basename -a -s .txt"),
        ('find . -name "*.log" -print0 | xargs -0 -I{} rm {}\n', "xargs -0 -r rm"),
        ("ls | xargs -n 1 sha256sum\n", "xargs sha256sum"),
        ("ls | xargs -n1 rm -f\n", "xargs rm -f"),
        ("ls | xargs --max-args=1 gzip -9\n", "xargs gzip -9"),
        ("ls | xargs -L 1 touch\n", "xargs touch"),
        ("ls | xargs -l basename\n", "xargs basename -a"),
        ("ls | xargs -r -I{} chmod 644 {}\n", "xargs -r -d '\\n' chmod 644"),
        ("ls | xargs -i rm {}\n", "xargs -r -d '\\n' rm"),
        ("ls | xargs -t -n 1 cat\n", "xargs -t cat"),
    ],
)
def test_reports_with_the_one_call_spelled_out(script, one_call):
    assert advice(script) == one_call


def test_message_cites_the_measurement():
    (finding,) = [f for f in lint("ls | xargs -I{} basename {}\n") if f.code == "PL506"]
    assert "starts `basename` once per input item" in finding.message and "2.9 s" in finding.message


def test_in_the_default_set():
    assert "PL506" in {rule.code for rule in Settings().enabled_rules()}


@pytest.mark.parametrize(
    "script",
    [
        "ls | xargs rm\n",  # batches already
        "ls | xargs -n 50 rm\n",
        "ls | xargs -n $N rm\n",
        "ls | xargs -P4 -n1 gzip\n",  # in parallel on purpose
        "ls | xargs -p -n1 rm\n",  # asks for each
        "ls | xargs -I{} cp {} /dst\n",  # the item is not last
        "ls | xargs -I{} mv {} {}.old\n",
        "ls | xargs -I{} rm {}.bak\n",
        "ls | xargs -n1 echo\n",  # several operands print on one line
        "ls | xargs -I{} grep x {}\n",  # grep prefixes file names when given several
        "ls | xargs -n1 wc -l\n",  # wc adds a total
        'ls | xargs -I{} sh -c "rm {}"\n',
        "ls | xargs -n1 sudo rm\n",
        "ls | xargs -n1 zstd -o out.zst\n",
        "rm() { command rm -i \"$@\"; }\nls | xargs -n1 rm\n",
    ],
)
def test_leaves_alone(script):
    assert "PL506" not in codes(script)


@pytest.mark.parametrize(
    "script",
    [
        "ls src | xargs -I{} basename {}\n",
        "ls src | xargs -I arg1 basename arg1\n",
        "cd src && ls | xargs -n 1 sha256sum\n",
        "cd src && ls | xargs -I{} cat {}\n",
        "printf '' | xargs -I{} basename {}\n",  # empty input: nothing runs either way
    ],
)
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_the_one_call_prints_the_same(script, shell, tmp_path):
    head, _, tail = script.rpartition("xargs ")
    one_call = head + advice(script) + tail[tail.index("\n") :]
    before = run_script(script.encode(), tmp_path / "before", shell)
    after = run_script(one_call.encode(), tmp_path / "after", shell)
    assert (before.status, before.stdout, before.stderr) == (after.status, after.stdout, after.stderr)
