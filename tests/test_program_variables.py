"""Programs named by a variable the script sets once to a literal (`command="cat"; $command "$1" | mysql db`):
`ScriptFacts.program_named_by` is the one answer, and every rule reads it through the command model."""

from __future__ import annotations

import pytest
from harness import assert_same_behaviour, codes, context_of, fix

from pipelint.shell import syntax


def named(script: str) -> bytes | None:
    context = context_of(script.encode())
    commands = [node for node in syntax.walk(context.root) if node.type == "command"]
    return context.facts.program_named_by(commands[-1])


@pytest.mark.parametrize(
    ("script", "program"),
    [
        ('command="cat"\n$command f', b"cat"),
        ("CAT=/bin/cat\n${CAT} f", b"cat"),
        ('MYSQL=mysql\n"$MYSQL" db', b"mysql"),
        ("readonly GZ=gzip\n$GZ -c f", b"gzip"),
        ("export SSH=ssh\nf() { $SSH h true; }\nf", None),  # the last command is `f`
        ("SSH=ssh\nf() { $SSH h true; }", b"ssh"),
    ],
)
def test_a_variable_set_once_at_the_top_to_one_word(script, program):
    assert named(script) == program


@pytest.mark.parametrize(
    "script",
    [
        "if x; then CAT=cat; fi\n$CAT f",  # it may not have run
        "f() { CAT=cat; }\n$CAT f",
        "$CAT f\nCAT=cat",  # set after the use
        "CAT=cat\nCAT=tac\n$CAT f",  # set twice
        'CAT="cat -v"\n$CAT f',  # two words: `cat` with an option
        ". ./config.sh\nCAT=cat\n$CAT f",  # a sourced file may set it again
        "CAT=cat\nIFS=a\n$CAT f",  # unquoted and IFS set: split
        "CAT=cat\n$CAT.sh f",  # more than the variable
        "CAT=cat\n${CAT:-tac} f",
        "CAT=$(which cat)\n$CAT f",
        "CAT=cat\nread CAT\n$CAT f",
    ],
)
def test_anything_else_is_not_read(script):
    assert named(script) is None


def test_rules_that_start_from_a_program_see_it():
    assert "PL004" in codes('command="cat"; $command "$1" | mysql db\n')
    assert "PL301" in codes("GZ=gzip\n$GZ -c f > f.gz\nscp f.gz h:/x/\n")
    assert "PL303" in codes("SCP=scp\n$SCP -C a.gz h:\n")
    assert "PL502" in codes("SORT=sort\n$SORT words.txt | uniq\n")
    assert codes("if x; then command=cat; fi; $command \"$1\" | mysql db\n") == []


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_a_fix_on_the_named_program_keeps_behaviour(shell, tmp_path):
    """PL502 edits the stage `$SORT` names (`$SORT -u`): the variable still names sort when it runs."""
    script = "SORT=sort\nLC_ALL=C $SORT words.txt | uniq\necho after\n"
    fixed = fix(script, path="script.sh")
    assert fixed == b"SORT=sort\nLC_ALL=C $SORT -u words.txt\necho after\n"
    assert_same_behaviour(script.encode(), fixed, tmp_path, shell, path="script.sh", rules=("PL502",))
