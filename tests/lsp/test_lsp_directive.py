"""Where "Disable PLxxx for this command" puts its directive, checked in-process.

Each case applies the edit, lints again with every rule, and checks that
exactly the one finding is gone; the scripts run the same under bash.
"""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour, lint

from pipelint.shell import syntax
from pipelint.finding import apply_edits
from pipelint.finding import Edit
from pipelint.lsp import directive
from pipelint.lsp.directive import disable_edit


def disable(script: str, line: int, code: str = "PL001"):
    source = script.encode()
    (finding,) = [f for f in lint(source) if f.code == code and source.count(b"\n", 0, f.start) == line]
    found = disable_edit(source, syntax.parse(source), finding.code, finding.start)
    return source, finding, found


@pytest.mark.parametrize(
    ("script", "line", "expected"),
    [
        (  # a top-level command after another
            "echo start\ncat access.log | grep 500\n",
            1,
            "echo start\n# pipelint: disable=PL001\ncat access.log | grep 500\n",
        ),
        (  # in an if body, with its indentation
            "echo start\nif true; then\n  cat access.log | grep 500\nfi\n",
            2,
            "echo start\nif true; then\n  # pipelint: disable=PL001\n  cat access.log | grep 500\nfi\n",
        ),
        (  # in an elif body and an else body
            "echo start\nif false; then\n  :\nelif true; then\n\tcat access.log | grep 500\nelse\n  :\nfi\n",
            4,
            "echo start\nif false; then\n  :\nelif true; then\n\t# pipelint: disable=PL001\n\tcat access.log | grep 500\nelse\n  :\nfi\n",
        ),
        (
            "echo start\nif false; then\n  :\nelse\n  cat access.log | grep 500\nfi\n",
            4,
            "echo start\nif false; then\n  :\nelse\n  # pipelint: disable=PL001\n  cat access.log | grep 500\nfi\n",
        ),
        (  # in an if condition: the directive goes before the whole if
            "echo start\nif cat access.log | grep -q 500; then\n  echo found\nfi\n",
            1,
            "echo start\n# pipelint: disable=PL001\nif cat access.log | grep -q 500; then\n  echo found\nfi\n",
        ),
        (  # in a loop body
            "echo start\nfor i in 1 2; do\n  cat access.log | grep -c 500\ndone\n",
            2,
            "echo start\nfor i in 1 2; do\n  # pipelint: disable=PL001\n  cat access.log | grep -c 500\ndone\n",
        ),
        (  # before a while-read loop it feeds
            "echo start\ncat words.txt | while read -r w; do\n  echo \"$w\"\ndone\n",
            1,
            "echo start\n# pipelint: disable=PL001\ncat words.txt | while read -r w; do\n  echo \"$w\"\ndone\n",
        ),
        (  # in a case item
            "echo start\ncase x in\n  x)\n    cat access.log | grep 500\n    ;;\nesac\n",
            3,
            "echo start\ncase x in\n  x)\n    # pipelint: disable=PL001\n    cat access.log | grep 500\n    ;;\nesac\n",
        ),
        (  # in a subshell
            "echo start\n(\n  cat access.log | grep 500\n)\n",
            2,
            "echo start\n(\n  # pipelint: disable=PL001\n  cat access.log | grep 500\n)\n",
        ),
        (  # inside $(…): the assignment is the statement
            "echo start\nn=$(cat access.log | wc -l)\necho \"$n\"\n",
            1,
            "echo start\n# pipelint: disable=PL001\nn=$(cat access.log | wc -l)\necho \"$n\"\n",
        ),
        (  # an && list is one statement
            "echo start\ntrue && cat access.log | grep 500\n",
            1,
            "echo start\n# pipelint: disable=PL001\ntrue && cat access.log | grep 500\n",
        ),
        (  # sharing a line with the previous command: moved to its own line
            "echo start; cat access.log | grep 500\n",
            0,
            "echo start;\n# pipelint: disable=PL001\ncat access.log | grep 500\n",
        ),
        (  # a one-line function body
            "echo start\nf() { cat access.log | grep 500; }\nf\n",
            1,
            "echo start\nf() {\n# pipelint: disable=PL001\ncat access.log | grep 500; }\nf\n",
        ),
        (  # CRLF line ends stay CRLF
            "echo start\r\ncat access.log | grep 500\r\n",
            1,
            "echo start\r\n# pipelint: disable=PL001\r\ncat access.log | grep 500\r\n",
        ),
        (  # an existing directive right above gets the code
            "echo start\n# pipelint: disable=PL003\ncat access.log | grep 500\n",
            2,
            "echo start\n# pipelint: disable=PL003,PL001\ncat access.log | grep 500\n",
        ),
        (  # … also across a plain comment, as the engine reads it
            "echo start\n# pipelint: disable=PL003\n# the log is small\ncat access.log | grep 500\n",
            3,
            "echo start\n# pipelint: disable=PL003,PL001\n# the log is small\ncat access.log | grep 500\n",
        ),
        (  # a trailing comment on the line above is left alone
            "echo start  # pipelint: disable=PL003\ncat access.log | grep 500\n",
            1,
            "echo start  # pipelint: disable=PL003\n# pipelint: disable=PL001\ncat access.log | grep 500\n",
        ),
        (  # a trailing directive on the finding's own line covers only that line: not merged into
            "echo start\ncat access.log | grep 500  # pipelint: disable=PL003\n",
            1,
            "echo start\n# pipelint: disable=PL001\ncat access.log | grep 500  # pipelint: disable=PL003\n",
        ),
    ],
)
def test_directive_placement(script, line, expected, tmp_path):
    source, finding, found = disable(script, line)
    assert found is not None
    assert not found.file_wide
    disabled = apply_edits(source, [found.edit])
    assert disabled.decode() == expected
    before = [(f.code, f.message) for f in lint(source) if f != finding]
    assert [(f.code, f.message) for f in lint(disabled)] == before
    assert len(syntax.error_ranges(syntax.parse(disabled).root_node)) == 0
    assert_same_behaviour(source, disabled, tmp_path, "bash")


def test_first_command_directive_covers_the_file_and_says_so():
    source, _, found = disable("#!/bin/sh\n# build the report\ncat access.log | grep 500\ncat words.txt | wc -l\n", 2)
    assert found.file_wide
    assert apply_edits(source, [found.edit]).startswith(b"#!/bin/sh\n# build the report\n# pipelint: disable=PL001\n")


def test_an_edit_is_offered_only_when_the_engine_agrees_it_covers_the_finding(monkeypatch):
    # Whatever the placement logic computes, the edited text is parsed again
    # and `suppression.collect` must confirm the comment covers the finding.
    # Force a placement inside a here-document body: its "comment" is text.
    source = b"echo start\ncat <<EOF | grep 500\nbody\nEOF\ncat access.log | grep 500\n"
    inside_heredoc = source.index(b"body")
    monkeypatch.setattr(
        directive, "_insertion", lambda src, statement, code: Edit.insert(inside_heredoc, directive.directive_text(code) + b"\n")
    )
    offset = source.index(b"cat access.log")
    assert disable_edit(source, syntax.parse(source), "PL001", offset) is None


def test_the_unforced_placement_of_the_same_script_is_accepted():
    source = b"echo start\ncat <<EOF | grep 500\nbody\nEOF\ncat access.log | grep 500\n"
    offset = source.index(b"cat access.log")
    found = disable_edit(source, syntax.parse(source), "PL001", offset)
    assert apply_edits(source, [found.edit]).endswith(b"EOF\n# pipelint: disable=PL001\ncat access.log | grep 500\n")


def test_no_edit_inside_a_parse_error():
    source = b"echo start\nif true; then cat access.log | grep 500 )\nfi\n"
    offset = source.index(b"cat access.log")
    assert disable_edit(source, syntax.parse(source), "PL001", offset) is None
