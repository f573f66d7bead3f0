"""What the checker salvages from an ERROR node: the complete statements inside it, parsed again.

`syntax.salvage` blanks the rest of each ERROR node and re-parses; where the
ERROR nodes cover less than half the script, from the first tree edited, so
tree-sitter re-uses what lies outside them. Either way the tree must be the
one a fresh parse of the blanked text gives.
"""

from __future__ import annotations

import pytest
from tree_shape import shape

from pipelint import syntax

FUNCTIONS = "".join(f"f{n}() {{\n  cat words.txt | wc -l\n  echo {n} | tr 0-9 a-j\n}}\n" for n in range(200))

BROKEN_FUNCTION = "g() {\n  echo (\n  echo b\n  cat words.txt | wc -l\n}\n"

BROKEN = {
    # tree-sitter wraps the whole file in one ERROR node, the functions after the `if` kept in it: parsed afresh
    "a broken if at the start": "if true; then\n  echo (\n  cat words.txt | wc -l\nfi\n" + FUNCTIONS,
    # from the broken function to the end, a third of the script: re-parsed from the edited tree
    "a broken function": FUNCTIONS * 2 + BROKEN_FUNCTION + FUNCTIONS,
    "a stray parenthesis in the middle": FUNCTIONS + "echo )\n" + FUNCTIONS,
    "a stray parenthesis at the start": "echo )\n" + FUNCTIONS,
    "a stray parenthesis at the end": FUNCTIONS + "echo )\n",
    "several errors": FUNCTIONS * 3 + "echo )\n" + FUNCTIONS + "echo ) ; cat a | b\n" + FUNCTIONS + BROKEN_FUNCTION,
    "an error on a CRLF line": FUNCTIONS.replace("\n", "\r\n") + "echo )\r\n" + FUNCTIONS,
    "non-ASCII text around it": "echo 'été' | wc -c\n" + FUNCTIONS + "echo « )\n" + FUNCTIONS + BROKEN_FUNCTION,
}


def _salvaged(source: str):
    tree = syntax.parse(source.encode())
    errors = syntax.outermost_errors(tree.root_node)
    assert errors, "the example must hold an ERROR node"
    return tree, errors, syntax.salvage(tree, source.encode(), errors)


@pytest.mark.parametrize("source", BROKEN.values(), ids=BROKEN.keys())
def test_the_salvaged_tree_is_the_one_a_fresh_parse_of_the_blanked_text_gives(source):
    _, _, salvaged = _salvaged(source)
    assert shape(salvaged.tree) == shape(syntax.parse(salvaged.text))


@pytest.mark.parametrize("source", BROKEN.values(), ids=BROKEN.keys())
def test_blanking_keeps_the_kept_statements_every_offset_and_every_line_break(source):
    _, errors, (_, blanked, kept) = _salvaged(source)
    original = source.encode()
    assert len(blanked) == len(original)
    assert [i for i, byte in enumerate(blanked) if byte in b"\r\n"] == [i for i, byte in enumerate(original) if byte in b"\r\n"]
    for start, end in kept:
        assert blanked[start:end] == original[start:end]
    inside_kept = {offset for start, end in kept for offset in range(start, end)}
    for error in errors:
        for offset in range(error.start_byte, error.end_byte):
            if offset not in inside_kept and original[offset] not in b"\r\n":
                assert blanked[offset] == 0x20
    outside = [(0, errors[0].start_byte)] + [(a.end_byte, b.start_byte) for a, b in zip(errors, errors[1:])]
    for start, end in outside + [(errors[-1].end_byte, len(original))]:
        assert blanked[start:end] == original[start:end]


def test_the_caller_s_tree_is_left_as_it_was(monkeypatch):
    source = BROKEN["a broken function"]
    tree = syntax.parse(source.encode())
    before = shape(tree)
    reused = []
    parse = syntax.parse
    monkeypatch.setattr(syntax, "parse", lambda text, old=None: reused.append(old is not None) or parse(text, old))
    syntax.salvage(tree, source.encode(), syntax.outermost_errors(tree.root_node))
    assert reused == [True], "a small ERROR in a long script is re-parsed from the edited tree"
    assert shape(tree) == before and not tree.root_node.has_changes


def test_an_error_over_most_of_the_script_is_parsed_afresh(monkeypatch):
    source = BROKEN["a broken if at the start"]
    tree = syntax.parse(source.encode())
    reused = []
    parse = syntax.parse
    monkeypatch.setattr(syntax, "parse", lambda text, old=None: reused.append(old is not None) or parse(text, old))
    syntax.salvage(tree, source.encode(), syntax.outermost_errors(tree.root_node))
    assert reused == [False]
