"""Redirects tree-sitter-bash attaches wrongly, read as bash applies them.

#233: `grep 2>/dev/null -q pat f` parses as a redirect to `/dev/null -q pat f`;
bash gives the redirect one word and grep the rest.
#345: `cd b && make 2>/dev/null` parses as `(cd b && make) 2>/dev/null`; bash
applies the redirect to make alone.
"""

from __future__ import annotations

import subprocess

import pytest
from harness import assert_same_behaviour, fix, lint

from pipelint.programs import command
from pipelint.programs import pipeline
from pipelint.shell import syntax


def commands(source: bytes) -> dict[bytes, command.Command]:
    root = syntax.parse(source).root_node
    return {syntax.command_name(node): command.read(node) for node in syntax.walk(root) if node.type == "command"}


def texts(nodes) -> list[bytes]:
    return [syntax.text(node) for node in nodes]


@pytest.mark.parametrize(
    ("source", "name", "arguments"),
    [
        (b"grep 2>/dev/null -q pat f\n", b"grep", [b"-q", b"pat", b"f"]),
        (b"x y <x a b c\n", b"x", [b"y", b"a", b"b", b"c"]),
        (b"cat <f a >g b\n", b"cat", [b"a", b"b"]),
        (b'echo >&2 "no such file" "$f"\n', b"echo", [b'"no such file"', b'"$f"']),
        (b"cat >out <<EOF a\nx\nEOF\n", b"cat", [b"a"]),
        (b"a | sort 2>/dev/null -u f | uniq\n", b"sort", [b"-u", b"f"]),
    ],
)
def test_words_after_a_redirect_are_the_commands(source, name, arguments):
    model = commands(source)[name]
    assert texts(model.arguments) == arguments
    for redirect in model.redirects:
        _, _, destination = syntax.redirect_parts(redirect)
        assert destination is None or syntax.text(destination) not in arguments  # one word each: the first


def test_the_options_and_operands_of_such_a_command():
    grep = commands(b"grep 2>/dev/null -q pat f\n")[b"grep"]
    assert grep.has("-q") and texts(grep.operands) == [b"pat", b"f"]


def test_rules_read_the_operands_after_the_redirect():
    # `cat <words.txt a` reads a, not its stdin: no useless cat to report.
    assert not [f for f in lint("cat <words.txt data.csv | wc -l\n") if f.code == "PL001"]
    (finding,) = lint("grep 2>/dev/null GET access.log | wc -l\n", select=("PL501",))
    assert finding.code == "PL501"


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_fix_of_a_command_with_a_redirect_in_the_middle_keeps_behaviour(tmp_path, shell):
    original = b"grep 2>/dev/null GET access.log | wc -l\nsort 2>/dev/null -r words.txt | uniq\n"
    fixed = fix(original, unsafe=True, select=("PL501", "PL502"))
    assert fixed == b"grep -c 2>/dev/null GET access.log\nsort -u 2>/dev/null -r words.txt\n"
    # Unsafe fixes: their rule documents say what changes when an input is missing; the success path is kept.
    assert_same_behaviour(original, fixed, tmp_path, shell, inputs=())


def test_a_redirect_after_a_list_is_its_last_commands():
    root = syntax.parse(b"cd b && make 2>/dev/null\n").root_node
    found = {syntax.text(n): texts(syntax.applied_redirects(n)) for n in syntax.walk(root) if n.type == "command"}
    assert found == {b"cd b": [], b"make": [b"2>/dev/null"]}


def test_a_redirect_after_a_list_reaches_the_last_stage_of_its_pipeline():
    root = syntax.parse(b"a || cat f | wc -l 2>/dev/null\n").root_node
    (node,) = [n for n in syntax.walk(root) if n.type == "pipeline"]
    built = pipeline.build(node)
    assert [texts(stage.all_redirects) for stage in built.stages] == [[], [b"2>/dev/null"]]


@pytest.mark.parametrize(
    "original",
    [
        "true && grep x missing.txt | wc -l 2>/dev/null\n",
        "false || sort missing.txt | uniq 2>/dev/null\n",
    ],
)
def test_a_fix_does_not_move_the_last_commands_redirect_onto_another(tmp_path, original):
    # Before #345 was read right, `grep x f | wc -l 2>/dev/null` after `&&`
    # became `grep -c x f 2>/dev/null`: grep's error about a missing file vanished.
    fixed = fix(original, unsafe=True, select=("PL501", "PL502"))
    stderr = [
        subprocess.run(["bash", "-c", text], capture_output=True, cwd=tmp_path).stderr
        for text in (original, fixed.decode())
    ]
    assert stderr[0] and stderr[0] == stderr[1]
