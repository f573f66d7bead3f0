"""What the provisional lint carries from the last exact lint instead of computing it again over the whole script.

Each carried piece must equal what the exact lint computes (the differential
tests in test_lsp_provisional.py hold the findings to it along random edits);
these tests pin each piece, and the cases where carrying would be wrong and
the provisional lint computes or skips instead.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from differential import exact

from pipelint.facts import script as facts
from pipelint.shell import syntax
from pipelint.engine.config import Settings
from pipelint.lsp import carried, provisional
from pipelint.lsp.reparse import edit_between, reparse

DEFAULT = Settings()


def provisional_of(before: bytes, after: bytes, tmp_path: Path):
    base = exact(before, DEFAULT, tmp_path / "s.sh")
    return provisional.lint(base.base, after, reparse(before, base.tree, after), DEFAULT, tmp_path / "s.sh")


# -- the variable facts: the exact lint's outside the touched statements ------------------------------------


def carried_and_queried(before: bytes, after: bytes, tmp_path: Path):
    """The variable facts of after as the provisional lint rebuilds them from before's exact lint, and as the query finds them."""
    base = exact(before, DEFAULT, tmp_path / "s.sh").base
    assert base is not None
    tree = reparse(before, syntax.parse(before), after)
    area = provisional.touched(base.baseline.statements, provisional.top_level(tree.root_node), edit_between(before, after))
    of = carried.variables_after(base.baseline.variables, area.start, area.end, area.old_end, tree)
    return of(tree.root_node), facts.VariableFacts.of(tree.root_node), tree


def described(found: facts.VariableFacts) -> tuple:
    """What the script facts read of them: assignments by name (span, prefix), other uses, and which assigned names are words."""
    assignments = {
        name: [(node.start_byte, node.end_byte, node.id in found.command_prefixes) for node in nodes]
        for name, nodes in found.assignments.items()
    }
    return assignments, found.other_uses, found.words & set(assignments)


SCRIPT = b"""#!/bin/bash
LOG=/mnt/nfs/a.log
dash=-n
f() {
  local dir="$1"
  count=$(cat "$dir/x" | wc -l)
  echo "$count"
}
echo 1
TMPDIR=/tmp sort big.txt | uniq
for name in a b; do echo "$name"; done
cat $LOG | grep x
"""


@pytest.mark.parametrize(
    "after",
    [
        SCRIPT.replace(b"echo 1\n", b"echo 12345 more\n"),  # before some assignments, after others
        SCRIPT.replace(b"uniq\n", b"uniq -c\n"),  # in the statement with a prefix assignment
        SCRIPT.replace(b'  echo "$count"\n', b'  echo "$count" | cat\n  echo two\n'),  # in a function with assignments
        SCRIPT.replace(b"dash=-n\n", b"dash=-n  \n"),  # the touched statement is an assignment
    ],
    ids=["between", "prefix", "function body", "an assignment"],
)
def test_carried_variable_facts_are_the_querys(after, tmp_path):
    rebuilt, queried, _ = carried_and_queried(SCRIPT, after, tmp_path)
    assert described(rebuilt) == described(queried)
    assert provisional_of(SCRIPT, after, tmp_path) == exact(after, DEFAULT, tmp_path / "s.sh").findings


def test_a_carried_literal_variable_moves_with_the_edit(tmp_path):
    after = SCRIPT.replace(b"echo 1\n", b"echo 12345 more\n")
    rebuilt, queried, tree = carried_and_queried(SCRIPT, after, tmp_path)
    literal = facts.ScriptFacts(tree.root_node, None, variables=lambda root: rebuilt).literal_variables  # type: ignore[arg-type]
    assert dict(literal) == dict(facts.ScriptFacts(tree.root_node, None).literal_variables)  # type: ignore[arg-type]
    assert literal[b"LOG"] == (after.index(b"\ndash"), b"/mnt/nfs/a.log")


@pytest.mark.parametrize(
    ("after", "why"),
    [
        (SCRIPT.replace(b"echo 1\n", b"read LOG\n"), "a word that names an assigned variable"),  # LOG no longer literal
        (SCRIPT.replace(b"echo 1\n", b"LOG=/tmp/b.log\n"), "assignments"),  # LOG assigned twice
        (SCRIPT.replace(b"echo 1\n", b"unset dash\n"), "assignments, options"),  # another use of dash
    ],
)
def test_an_edit_that_changes_the_variable_facts_gets_no_provisional_result(after, why, tmp_path):
    with pytest.raises(provisional.Skipped, match=why):
        provisional_of(SCRIPT, after, tmp_path)


def test_the_query_runs_where_the_carried_facts_do_not_fit(tmp_path):
    after = SCRIPT.replace(b"echo 1\n", b"echo 12345 more\n")
    base = exact(SCRIPT, DEFAULT, tmp_path / "s.sh").base
    tree = reparse(SCRIPT, syntax.parse(SCRIPT), after)
    start, end = after.index(b"echo 12345"), after.index(b"TMPDIR")
    old_end = SCRIPT.index(b"TMPDIR")
    queried = described(facts.VariableFacts.of(tree.root_node))
    # Asked of another tree (the guards' repaired parse): the query's.
    other = syntax.parse(after)
    of = carried.variables_after(base.baseline.variables, start, end, old_end, tree)
    assert described(of(other.root_node)) == described(facts.VariableFacts.of(other.root_node))
    # A span that is no assignment in the new tree (the parse moved): not carried.
    assert base.baseline.variables is not None  # the exact lint's rules read them: kept
    wrong = replace(base.baseline.variables, assignments=((0, 5, False), *base.baseline.variables.assignments))
    assert carried._rebuilt(wrong, start, end, old_end, tree.root_node) is None
    assert described(carried.variables_after(wrong, start, end, old_end, tree)(tree.root_node)) == queried
    # A span across the touched text's edge: not carried.
    across = replace(base.baseline.variables, assignments=((start - 1, start + 1, False),))
    assert carried._rebuilt(across, start, end, old_end, tree.root_node) is None


def test_a_word_assigned_somewhere_is_found_as_a_search_finds_it():
    """`_same_facts` looks for `WORD=` only where WORD occurs (a search over 128 KB cost 0.6 ms a word)."""
    rng = random.Random(5)
    for _ in range(5000):
        text = bytes(rng.choice(b"ab_=[]+ x1\n") for _ in range(rng.randrange(30)))
        word = bytes(rng.choice(b"ab_x1") for _ in range(rng.randrange(1, 3)))
        pattern = re.compile(rb"(?<![A-Za-z0-9_])" + re.escape(word) + rb"(\[[^\]\n]*\])?\+?=")
        assert provisional._found_at_word(pattern, word, text) == bool(pattern.search(text)), (word, text)
