"""tree-sitter-bash parses that are wrong without an ERROR node: found, repaired, and checked as bash reads them.

Every fixed script is run: `bash -n` accepts it, and it prints, exits and
writes what the original does (tests/harness.py, real bash and dash).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harness import assert_same_behaviour, fix, lint
from tree_shape import shape

from pipelint.finding import Note, NoteCause
from pipelint.engine import checker
from pipelint.shell import parse_guards, syntax
from pipelint.engine.config import Settings
from pipelint.engine.linter import process
from pipelint.engine.registry import RULES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPRO = "[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r > k\n[ 1 ]\n"

# tree-sitter-bash #316: each joins the lines from the first `[` to the last `]`.
JOINED_BY_316 = {
    "the repro": REPRO,
    "a quoted operand": '[ "$n" -eq 0 ]\ncat words.txt | wc -l\necho r > k\n[ 1 ]\n',
    "lists on the test lines": "[ 1 -eq 0 ] && echo hi\ncat words.txt | wc -l\necho r > k\n[ 1 ] || echo no\n",
    "more statements between": "[ 1 -eq 0 ]\necho a\ncat words.txt | wc -l\necho b\necho r >> k\nx=1\n[ 1 ]\n",
    "a comment after the test": "[ 1 -eq 0 ] # why\ncat words.txt | wc -l\necho r > k\n[ 1 ]\n",
    "an if after it": "[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r > k\nif [ 1 ]; then :; fi\n",
    "in an if body": "if true; then\n  [ 1 -eq 0 ]\n  cat words.txt | wc -l\n  echo r > k\n  [ 1 ]\nfi\n",
    "in a while body": "while [ ! -f stop ]; do\n  [ 1 -eq 0 ]\n  cat words.txt | wc -l\n  echo r > k\n  [ 1 ]\n  touch stop\ndone\n",
    "in a function": "f() {\n  [ 1 -eq 0 ]\n  cat words.txt | wc -l\n  echo r > k\n  [ 1 ]\n}\nf\n",
    "a stderr redirect": "[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r 2> k\n[ 1 ]\n",
}
# The same shapes tree-sitter-bash reads right: checked the same, and no note.
READ_RIGHT = {
    "an if condition": "if [ 1 -eq 0 ]\nthen\n  echo r > k\nfi\ncat words.txt | wc -l\n[ 1 ]\n",
    "an elif condition": "if false; then :\nelif [ 1 -eq 0 ]\nthen echo r > k\nfi\ncat words.txt | wc -l\n[ 1 ]\n",
    "a while condition": "while [ 1 -eq 0 ]\ndo echo r > k\ndone\ncat words.txt | wc -l\n[ 1 ]\n",
    "test": "test 1 -eq 0\ncat words.txt | wc -l\necho r > k\ntest 1\n",
    "[[ ]]": "[[ 1 -eq 0 ]]\ncat words.txt | wc -l\necho r > k\n[[ 1 ]]\n",
}
# #347: after a pipeline of three stages, the next line's first command became arguments.
JOINED_AFTER_A_PIPELINE = {
    "the repro": "printf 'a\\nx\\n' | grep x | head -30\ncat words.txt | wc -l && cd .\n",
    "a redirect on the next line": "echo a | cat | cat\ncat words.txt 2>/dev/null | wc -l\n",
    "|| on the next line": "echo a | tr a b | sort\ncat words.txt | wc -l || echo failed\n",
}
# #228: `a= b=` and a newline became prefixes of the next command.
JOINED_ASSIGNMENTS = {
    "empty assignments": "a= b=\ncat words.txt | wc -l\n",
    "assignments used later": 'f() {\n  a=1 b=2\n  cat words.txt | wc -l\n  echo "$a$b"\n}\nf\n',
    "a comment after them": "a= b=  # none yet\ncat words.txt | wc -l\n",
}
ALL_JOINED = {
    **{f"#316 {name}": source for name, source in JOINED_BY_316.items()},
    **{f"#347 {name}": source for name, source in JOINED_AFTER_A_PIPELINE.items()},
    **{f"#228 {name}": source for name, source in JOINED_ASSIGNMENTS.items()},
}
SUCCESS_PATH = ()  # assert_same_behaviour's inputs: none taken away


def check(source: str) -> checker.CheckResult:
    return checker.check(source.encode(), [rule() for rule in RULES if rule.enabled_by_default], "script.bash")


def useless_cat_lines(source: str) -> list[int]:
    return [source.encode().count(b"\n", 0, f.start) + 1 for f in lint(source) if f.code == "PL001"]


def line_of(source: str, text: str) -> int:
    return source[: source.index(text)].count("\n") + 1


def described(source: str, note: Note) -> tuple[NoteCause, bool, str | None, tuple[int, int]]:
    """A note's cause, outcome, upstream issue and the 1-based lines it covers."""
    text = source.encode()
    lines = (text.count(b"\n", 0, note.start) + 1, text.count(b"\n", 0, max(note.end - 1, note.start)) + 1)
    return note.cause, note.checked, note.issue, lines


def bash_accepts(text: bytes) -> bool:
    return subprocess.run(["bash", "-n"], input=text, capture_output=True).returncode == 0


def test_the_316_repro_reports_the_useless_cat_and_says_how_it_was_read():
    result = check(REPRO)
    (finding,) = result.findings
    assert (finding.code, REPRO.encode()[finding.start : finding.end]) == ("PL001", b"cat words.txt")
    assert finding.fix is not None and fix(REPRO) == b"[ 1 -eq 0 ]\nwc -l < words.txt\necho r > k\n[ 1 ]\n"
    assert [described(REPRO, note) for note in result.notes] == [(NoteCause.JOINED, True, "#316", (1, 4))]
    assert result.parse_failures == []  # it parsed; every piece was checked


@pytest.mark.parametrize("source", [*JOINED_BY_316.values(), *READ_RIGHT.values()], ids=[*JOINED_BY_316, *READ_RIGHT])
def test_each_variant_reports_the_useless_cat_on_its_line(source):
    assert useless_cat_lines(source) == [line_of(source, "cat words.txt")]


@pytest.mark.parametrize("source", READ_RIGHT.values(), ids=READ_RIGHT.keys())
def test_shapes_tree_sitter_reads_right_get_no_note(source):
    assert check(source).notes == []


@pytest.mark.parametrize(
    ("source", "issue"),
    [(s, "#316") for s in JOINED_BY_316.values()]
    + [(s, "#347") for s in JOINED_AFTER_A_PIPELINE.values()]
    + [(s, "#228") for s in JOINED_ASSIGNMENTS.values()],
)
def test_each_joined_statement_is_noted_with_its_upstream_issue(source, issue):
    (note,) = check(source).notes
    assert (note.cause, note.checked, note.issue) == (NoteCause.JOINED, True, issue)


@pytest.mark.parametrize("source", [*JOINED_AFTER_A_PIPELINE.values(), *JOINED_ASSIGNMENTS.values()])
def test_the_next_lines_useless_cat_is_found(source):
    assert useless_cat_lines(source) == [line_of(source, "cat words.txt")]


def test_assignments_stay_assignments():
    guarded = parse_guards.guard(b"a=1 b=2\necho hi\n")
    statements = [child.type for child in guarded.tree.root_node.named_children]
    assert statements == ["variable_assignments", "command"]  # not `a=1 b=2 echo hi`


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize("source", ALL_JOINED.values(), ids=ALL_JOINED.keys())
def test_fixes_in_joined_statements_keep_behaviour(source, shell, tmp_path):
    fixed = fix(source, path="script.sh" if shell == "dash" else "script.bash", unsafe=True)
    assert fixed != source.encode() and bash_accepts(fixed)
    # Where the guards put the fix is what is tested here: the success path.
    # With words.txt taken away PL001's fix changes the status (issue 13
    # class 10, a known failure of the rule: tests/rules/test_pl001_useless_cat.py).
    assert_same_behaviour(source.encode(), fixed, tmp_path, shell, inputs=SUCCESS_PATH)


def test_no_fix_rewrites_a_repaired_byte_but_one_may_insert_before_it():
    guarded = parse_guards.guard(REPRO.encode())
    newlines = [offset for offset, character in enumerate(REPRO) if character == "\n"]
    assert guarded.repaired == newlines[:3]  # after `]`, `-l` and `k`; not the last
    for offset in guarded.repaired:
        assert not guarded.allows_edit(offset, offset + 1)
        assert not guarded.allows_edit(offset - 2, offset + 2)
        assert guarded.allows_edit(offset, offset)  # lands before the newline, as in the original
    assert guarded.text.replace(b";", b"\n") == REPRO.encode()


# Here-documents tree-sitter-bash ends too early (issue 13, class 11).

FAKE_ENDS = {
    "a tab before EOF under <<": "\tEOF",
    "a blank after EOF": "EOF ",
    "spaces before EOF": "  EOF",
    "EOF;": "EOF;",
    "a carriage return": "EOF\r",
    "EOF joined to the line before": "x\\\nEOF",
}


def job_script(fake_end: str, dash: str = "") -> str:
    """A here-document that writes job.sh; the fake end hides `cat words.txt | uniq` inside the body."""
    return f"cat > job.sh <<{dash}EOF\nbody\n{fake_end}\ncat words.txt | uniq\nEOF\ncat words.txt | wc -l\n"


@pytest.mark.parametrize("fake_end", FAKE_ENDS.values(), ids=FAKE_ENDS.keys())
def test_nothing_is_reported_inside_a_body_bash_has_not_ended(fake_end):
    source = job_script(fake_end)
    assert useless_cat_lines(source) == [source.count("\n")]  # only the last line, after the body
    (note,) = check(source).notes
    assert (note.cause, note.checked) == (NoteCause.HEREDOC_END, True)  # read as bash reads it
    assert described(source, note)[3] == (1, line_of(source, "EOF\ncat words.txt | wc -l"))  # where bash ends it


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize("fake_end", [*FAKE_ENDS.values(), "  EOF"], ids=[*FAKE_ENDS, "spaces under <<-"])
def test_fix_leaves_the_body_bash_reads_unchanged(fake_end, shell, tmp_path):
    source = job_script(fake_end, dash="-" if fake_end == "  EOF" else "")
    fixed = fix(source, unsafe=True)
    body_end = source.index("\nEOF\n") + 5
    assert fixed[:body_end] == source.encode()[:body_end]
    assert fixed.endswith(b"wc -l < words.txt\n") and bash_accepts(fixed)
    # job.sh is among the files compared; the success path, as above.
    assert_same_behaviour(source.encode(), fixed, tmp_path, shell, inputs=SUCCESS_PATH)


def test_a_delimiter_tree_sitter_cannot_read_is_read_for_it():
    source = ": <<=cut\n\n=head1 NAME\n\ncat words.txt | uniq > out\n\n=cut\ncat words.txt | wc -l\n"
    result = check(source)
    assert result.parse_failures == []  # tree-sitter alone reports an ERROR at `<<=cut`
    assert useless_cat_lines(source) == [8]


def test_an_empty_delimiter_keeps_its_body_out_of_the_check():
    source = "cat <<''\ncat words.txt | uniq\n\ncat words.txt | wc -l\n"
    assert useless_cat_lines(source) == [4]


def test_a_command_substitution_in_an_unquoted_body_is_code_but_not_edited():
    source = "cat <<EOF\n$(cat words.txt | uniq)\nEOF\n"
    (finding,) = [f for f in lint(source) if f.code == "PL001"]
    assert finding.fix is None and fix(source) == source.encode()


def test_what_cannot_be_repaired_is_a_parse_failure_and_not_checked():
    # bash: `cat <<EOF | cat words.txt | wc -l`; tree-sitter ends the pipeline at the body.
    source = "cat <<EOF |\nhello\nEOF\ncat words.txt | wc -l\ncat data.csv | wc -l\n"
    result = check(source)
    assert useless_cat_lines(source) == [5]
    assert [(f.start, f.end) for f in result.parse_failures] == [(4, source.index("\ncat data"))]
    (note,) = result.notes
    assert (note.cause, note.checked) == (NoteCause.HEREDOC_END, False)  # the statement and its body: not checked


def test_a_repair_that_breaks_the_parse_is_given_up():
    # `fi fi`: tree-sitter took the first `fi` for an argument of tail, and
    # hid the syntax error bash reports. Splitting there shows it: nothing there is trusted.
    source = "if true; then\n make | tee /mnt/nfs/x.log | tail -1\nfi fi\n"
    assert check(source).findings == []


def test_joined_statements_in_what_is_salvaged_from_an_error_are_not_trusted():
    source = "if true; then\n  a= b=\n  cat words.txt | wc -l\n  echo (\nfi\n"
    result = check(source)
    assert result.findings == [] and result.parse_failures
    assert [described(source, note) for note in result.notes] == [(NoteCause.JOINED, False, "#228", (2, 3))]


def test_ten_thousand_generated_lines_are_split_and_checked():
    # No timing here: tests/benchmarks/count_swallowed.py measures it.
    block = '[ "$n" -eq 0 ]\ncat words.txt | wc -l\necho r > k\na= b=\n[ -f x ] && echo y >> log\n'
    source = block * 2000
    result = check(source)
    assert len(result.findings) == 2000 and all(f.code == "PL001" for f in result.findings)
    assert result.parse_failures == [] and len(result.notes) == 2000


def test_a_here_document_the_guards_cannot_repair_is_one_parse_failure():
    # tree-sitter-bash ends the body at `cat words.txt |`'s line and reports an
    # ERROR inside what the guards also distrust: one record, not two.
    source = 'for i in 1 2; do cat <<"EOF" | wc -l; echo "i=$i"; done\na | b\ncat words.txt |\nEOF\necho end\n'
    result = check(source)
    assert len(result.parse_failures) == 1 and result.findings == []
    assert (result.notes[0].cause, result.notes[0].checked) == (NoteCause.HEREDOC_END, False)


def test_the_guards_apply_to_the_script_inside_sh_c(tmp_path):
    # The embedded-shell linting calls the checker on the inner text: #316 is repaired there too.
    inner = REPRO.rstrip("\n")
    script = f"#!/bin/bash\nsh -c '{inner}'\n"
    (finding,) = process(script.encode(), "outer.bash", Settings(), None).findings
    report = process(script.encode(), "outer.bash", Settings(), None, fix=True)
    assert finding.code == "PL001" and script.encode()[finding.start : finding.end] == b"cat words.txt"
    assert report.final_source == script.replace("cat words.txt | wc -l", "wc -l < words.txt").encode()
    assert_same_behaviour(script.encode(), report.final_source, tmp_path, "bash", inputs=SUCCESS_PATH)


REPAIRED_IN_ROUNDS = {
    **ALL_JOINED,
    **{f"fake end {name}": job_script(end) for name, end in FAKE_ENDS.items()},
    "generated lines": '[ "$n" -eq 0 ]\ncat words.txt | wc -l\necho r > k\na= b=\n[ -f x ] && echo y >> log\n' * 300,
    "the fixtures joined into one": "".join(p.read_text() for p in sorted(FIXTURES.glob("*sh"))) * 8,
}


@pytest.mark.parametrize("source", REPAIRED_IN_ROUNDS.values(), ids=REPAIRED_IN_ROUNDS.keys())
def test_each_round_parses_incrementally_into_the_tree_a_fresh_parse_gives(source):
    """The rounds re-parse from the last tree edited (`Tree.edit`), not from scratch: the same tree, node for node."""
    guarded = parse_guards.guard(source.encode())
    assert shape(guarded.tree) == shape(syntax.parse(guarded.text))


# Repaired scripts a syntax error is left in, from the fix fuzzer: re-parsed from the
# edited tree, tree-sitter recovered from the error otherwise than a fresh parse does.
STILL_BROKEN_AFTER_REPAIR = {
    "a brace glued to a word in a loop": (
        '#!/bin/bash\nset -u\nn=0\nfor i in 1 2; do cat <<"EOF" |\n  two  spaces\nEOF\n'
        'tr a-z A-Z | mysql shop | cat > out; {echo "i=$i"; done\necho "end v=${v-unset} n=${n-unset}"\n'
    ),
    "a stray parenthesis in a function": (
        '#!/bin/sh\nn=0\nrun() { cat <<"EOF" |\nb a\nhello\ncat words.txt | uniq\nEOF\n'
        'tee -a /dev/null | tr a-z A-Z | return 5 )> out; echo "in=$?"; }\nrun; echo "out=$?"\n'
    ),
}


@pytest.mark.parametrize("source", STILL_BROKEN_AFTER_REPAIR.values(), ids=STILL_BROKEN_AFTER_REPAIR.keys())
def test_a_repaired_script_still_broken_gets_the_tree_a_fresh_parse_gives(source):
    """What is reported must not depend on how the tree was reached (syntax.parse parses such a tree again)."""
    guarded = parse_guards.guard(source.encode())
    assert guarded.rounds > 0 and guarded.tree.root_node.has_error
    assert shape(guarded.tree) == shape(syntax.parse(guarded.text))
