"""A comment between two stages (`sort f |  # dedupe⏎ uniq`): every pipeline rule still reports;
where its fix would delete the comment, it offers none and says what to do by hand."""

from __future__ import annotations

import pytest
from harness import codes, fix, lint

CASES = [
    ("cat access.log |  # the whole log\n  grep 500\n", "PL001", "Redirect access.log into grep by hand"),
    ('cat "$1" |  # comment\n  grep x\n', "PL001", 'Redirect "$1" into grep by hand'),
    ("cat dump.sql | # load it\n  mysql shop\n", "PL004", "Redirect dump.sql into mysql by hand"),
    ("dd if=dump.sql status=none | # raw\n  mysql shop\n", "PL203", "Redirect dump.sql into mysql by hand"),
    ("sort access.log | # keep it\n  cat > sorted.txt\n", "PL003", "Redirect straight to the file (> sorted.txt) by hand"),
    ("sort access.log | cat | # why\n  wc -l\n", "PL003", "Remove the `cat` stage by hand"),
    ("grep 500 access.log | # count them\n  wc -l\n", "PL501", "Count with `grep -c` by hand"),
    ("sort words.txt |  # dedupe\n  uniq\n", "PL502", "Let `sort -u` drop the duplicates by hand"),
    ('echo "$x" | # one line\n  grep y\n', "PL503", "Give the text to grep as a here-string by hand"),
    ("ls | tee /dev/null | # c\n  wc -l\n", "PL101", None),
    ("sort words.txt | # c\n  sort -r\n", "PL505", None),
]


@pytest.mark.parametrize(("script", "code", "by_hand"), CASES)
def test_reported_without_a_fix_that_would_delete_the_comment(script, code, by_hand):
    (finding,) = [f for f in lint(script) if f.code == code]
    assert finding.fix is None
    if by_hand is not None:
        assert finding.help.startswith(by_hand + ": a comment stands between the stages")
    assert fix(script, unsafe=True).count(b"#") == script.count("#")


@pytest.mark.parametrize(("script", "code", "by_hand"), CASES)
def test_without_the_comment_the_fix_is_there(script, code, by_hand):
    plain = "\n".join(line.split("#")[0].rstrip() if "|" in line else line for line in script.split("\n"))
    plain = plain.replace("|\n  ", "| ")
    (finding,) = [f for f in lint(plain) if f.code == code]
    assert finding.fix is not None, plain
    assert code in codes(script)
