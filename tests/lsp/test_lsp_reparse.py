"""The server's incremental parse (reparse.py) against a fresh parse, on many random edits.

Each script is edited 40 times in a row, each version's tree made from the
previous version's incremental tree (so any drift would add up), and compared
node by node with tree-sitter's fresh parse of the same bytes, then through
the parse guards, whose repaired tree is what hover and "disable" read.
"""

from __future__ import annotations

import random

import pytest
from large_script import large_script
from lsp_client import REPOSITORY

from pipelint.shell import parse_guards, syntax
from pipelint.shell.dialect import detect
from pipelint.lsp.documents import DocumentText
from pipelint.lsp.reparse import TextChange, edit_between, reparse

SCRIPTS = {
    "large": large_script(600),
    "heredocs": (
        "#!/bin/bash\ncat <<EOF | grep x\nline $HOME\nEOF\nmysql db <<-'SQL'\n\tselect 1;\n\tSQL\n"
        "cat <<A <<B\na\nA\nb\nB\necho \"$(cat f | wc -l)\" 'q' `date`\n"
    ),
    "crlf": "#!/bin/sh\r\ncat a | grep b\r\nif true; then\r\n  sort w | cat\r\nfi\r\necho 'é' \\\r\n  done\r\n",
    **{path.name: path.read_text() for path in sorted((REPOSITORY / "fixtures").glob("*sh"))},
}

# Pieces that change how far a construct reaches: quotes, here-document
# operators and delimiters, substitutions, line continuations, comments.
PIECES = [
    "\n", " ", "x", "'", '"', "`", "$(", ")", "{", "}", "(", "|", "||", "&&", ";", "#", "\\\n", "\r",
    "<<EOF\n", "EOF\n", "<<-'X'\n", "\tX\n", "cat f | grep y\n", "if true; then\n", "fi\n", "done", "é", "😀",
    "case $x in a) echo;; esac\n", "$((1+", "))", "[[ -n $v ]]", "f() {\n", "${v:-",
]


def shape(tree) -> list[tuple]:
    """Every node: its type, bytes, points and flags; two trees of one text are the same parse if these are."""
    found, cursor, descending = [], tree.walk(), True
    while True:
        if descending:
            node = cursor.node
            found.append((node.type, cursor.field_name, node.start_byte, node.end_byte, node.start_point, node.end_point,
                          node.is_missing, node.is_error, node.has_error))
        if descending and cursor.goto_first_child():
            continue
        if cursor.goto_next_sibling():
            descending = True
            continue
        if not cursor.goto_parent():
            return found
        descending = False


def random_edit(source: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(source) + 1)
    cut = rng.choice([0, 0, 1, rng.randrange(1, 40)])
    piece = "".join(rng.choice(PIECES) for _ in range(rng.choice([0, 1, 1, 2, 3]))).encode()
    return source[:at] + piece + source[at + cut :]


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_incremental_parses_equal_fresh_ones_along_random_edits(name):
    rng = random.Random(f"reparse-{name}")
    source = SCRIPTS[name].encode()
    tree = syntax.parse(source)
    for step in range(40):
        edited = random_edit(source, rng)
        tree = reparse(source, tree, edited)
        source = edited
        fresh = syntax.parse(source)
        assert shape(tree) == shape(fresh), f"step {step}"
        dialect = detect(source, f"{name}.sh")
        assert shape(parse_guards.guard(source, dialect, tree).tree) == shape(parse_guards.guard(source, dialect).tree)


def test_the_old_tree_is_left_as_it_was():
    old = b"cat a | grep b\n"
    tree = syntax.parse(old)
    before = shape(tree)
    reparse(old, tree, b"echo hi\n" + old)
    assert shape(tree) == before


def test_a_document_parses_from_the_last_version_that_was_parsed(tmp_path):
    first = DocumentText("untitled:a", 1, "cat a | grep b\n")
    first.tree  # noqa: B018
    second = DocumentText("untitled:a", 2, "echo\ncat a | grep b\n", base=first.handover())
    third = DocumentText("untitled:a", 3, "echo\ncat a | grep c\n", base=second.handover())  # second never parsed
    assert third.base == (first.source, first.parse)
    assert shape(third.tree) == shape(parse_guards.guard(third.source).tree)
    assert third.base is None  # used, then let go


@pytest.mark.parametrize(
    ("old", "new", "edit"),
    [
        (b"aa", b"aaa", TextChange(2, 2, 3)),
        (b"abc", b"abd", TextChange(2, 3, 3)),
        (b"abcabc", b"abc", TextChange(3, 6, 3)),
        (b"", b"q", TextChange(0, 0, 1)),
        (b"xyz", b"", TextChange(0, 3, 0)),
    ],
)
def test_the_edit_is_the_span_between_common_prefix_and_suffix(old, new, edit):
    assert edit_between(old, new) == edit
    assert old[: edit.start] + new[edit.start : edit.new_end] + old[edit.old_end :] == new


def full_lint(source: bytes, tmp_path):
    from pipelint.engine.linter import process
    from pipelint.lsp.documents import settings_for

    path = tmp_path / "edited.sh"
    return process(source, f"file://{path}", settings_for(path, tmp_path).settings, path, language_id="shellscript")


@pytest.mark.parametrize(
    ("name", "edits"),
    [*((name, 25) for name in SCRIPTS if name != "large"), ("large", 10), ("bench", 3)],
)
def test_a_lint_from_the_incremental_parse_equals_a_full_lint(tmp_path, name, edits):
    """What the worker publishes after each of a run of random edits: identical to `pipelint check`'s lint."""
    from pipelint.lsp.documents import LAST_PARSES, LintJob, lint_document

    rng = random.Random(f"lint-{name}")
    source = (large_script(5000) if name == "bench" else SCRIPTS[name]).encode()
    uri = f"file://{tmp_path}/edited.sh"
    reused = LAST_PARSES.reused
    for step in range(edits + 1):
        result = lint_document(LintJob(uri, source, "shellscript", tmp_path))
        full = full_lint(source, tmp_path)
        assert result.report.findings == full.findings, f"step {step}"
        assert (result.report.parse_failures, result.report.notes) == (full.parse_failures, full.notes), f"step {step}"
        source = random_edit(source, rng)
    assert LAST_PARSES.reused - reused == edits  # every lint after the first started from the last parse
