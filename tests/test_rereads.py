"""What tree-sitter-bash 0.25.1 cannot parse at all, read another way where every rule then reads it as bash does.

Only inside ERROR nodes (a clean script pays nothing), and only shapes whose
meaning a same-length text keeps (shell/parse_guards.py `_rereads`,
docs/parsing.md):

- `<>` is read as `<` on the same descriptor;
- a here-string on a descriptor (`3<<<"$PW"`, bash and ksh) as that
  descriptor's input from a computed word: the command's stdin is still the pipe;
- an expansion tree-sitter-bash cannot parse (`${b:$len:$max}`,
  `$((0x${c}%4294967295))`) as `${___#}`, a computed word no rule sees through.

Tested both ways: the statement's other findings are reported, what bash does
with the statement is what the rules conclude (real bash runs), nothing that
may set a variable or run a command is hidden, and no fix edits the statement
while fixes elsewhere are made and keep behaviour.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harness import assert_same_behaviour, fix, lint

from pipelint.engine import checker
from pipelint.engine.config import Settings
from pipelint.engine.linter import process
from pipelint.engine.registry import RULES
from pipelint.finding import NoteCause
from pipelint.output.common import note_groups
from pipelint.shell import parse_guards, syntax
from pipelint.shell.dialect import Dialect

# Each is valid bash tree-sitter-bash 0.25.1 puts an ERROR in (seen in scripts Debian installs).
READ = {
    "<> on a descriptor": ('exec 3<> "$f"\n', "read-write", b'exec 3<  "$f"\n'),
    "<> on stdin, stdout and stderr": (
        "exec 0<> /dev/console 1<> /dev/console 2<> /dev/console\n",
        "read-write",
        b"exec 0<  /dev/console 1<  /dev/console 2<  /dev/console\n",
    ),
    "a here-string on a descriptor": ('b 3<<<"$PW"\n', "here-string", b"b 3< ${__#}\n"),
    "a short one": ("b 3<<<x\n", "here-string", b"b 3< $_\n"),
    "substring bounds from expansions": ("a=${b:$len:$max}\n", "expansion", b"a=${__________#}\n"),
    "hexadecimal digits from an expansion": ("h=$((0x${c}%4294967295))\n", "expansion", b"h=${__________________#}\n"),
    "a nested expansion and an escape in an alternative": (
        'printf "${T:+t = ${T}\\n}"\n',
        "expansion",
        b'printf "${____________#}"\n',
    ),
    "a base from an expansion": ("echo $((16#$start))\n", "expansion", b"echo ${__________#}\n"),
    "& in a replacement": ("o=${1//&/\\&amp;}\n", "expansion", b"o=${__________#}\n"),
}
# Valid bash left unread: the reading would hide a command run, a variable set, a `-` default, or several words.
LEFT = {
    "a command substitution in the word": 'b 3<<<"$(cat pw)"\n',
    "an assignment in a substring bound": "x=${y:$z:${w:=1}}\n",
    "an increment in arithmetic": "echo $((i++ + 0x${c}))\n",
    "an assignment in arithmetic": "echo $((n=0x${c}))\n",
    "an array's elements": 'cat "${a[@]:$i:2}" | grep x\n',
    "a default that begins with -": 'cat "${f:--${T}\\n}" | grep x\n',
}
DEFAULT = [rule() for rule in RULES if rule.enabled_by_default]


def check(source: str, path: str = "script.bash") -> checker.CheckResult:
    return checker.check(source.encode(), DEFAULT, path)


def found(source: str, path: str = "script.bash") -> list[tuple[str, str, bool]]:
    """(code, text, has a fix) of each finding."""
    return [(f.code, source.encode()[f.start : f.end].decode(), f.fix is not None) for f in lint(source, path)]


def bash(script: str, cwd) -> str:
    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, check=False).stdout


@pytest.mark.parametrize(("source", "shape", "reading"), READ.values(), ids=READ.keys())
def test_each_is_read_with_the_same_length_and_no_error(source, shape, reading):
    assert syntax.parse(source.encode()).root_node.has_error  # what this is about
    guarded = parse_guards.guard(source.encode())
    assert guarded.text == reading and len(reading) == len(source.encode())
    assert not guarded.tree.root_node.has_error
    assert [reread.shape for reread in guarded.rereads] == [shape] * len(guarded.rereads) and guarded.rereads
    (note,) = {(n.cause, n.checked) for n in check(source).notes}
    assert note == (NoteCause.REREAD, True)


@pytest.mark.parametrize("source", LEFT.values(), ids=LEFT.keys())
def test_what_may_set_a_variable_or_run_a_command_is_not_read(source):
    guarded = parse_guards.guard(source.encode())
    assert guarded.rereads == [] and guarded.tree.root_node.has_error
    assert check(source).parse_failures  # a parse failure (a note where the shell accepts the script)


def test_a_here_string_in_sh_stays_a_parse_failure():
    """dash rejects it: the parse error stays what the user sees."""
    guarded = parse_guards.guard(b'b 3<<<"$PW"\n', Dialect.SH)
    assert guarded.rereads == [] and guarded.tree.root_node.has_error


def test_a_clean_script_is_not_looked_at():
    source = b'exec 3< "$f"\ncat words.txt | wc -l\necho "${b:1:2}"\n'
    guarded = parse_guards.guard(source)
    assert (guarded.rereads, guarded.rounds, guarded.text) == ([], 0, source)


# The statement's other findings, and what bash does with it.


def test_the_statement_is_checked_but_gets_no_fix():
    assert found('cat words.txt | tr a b 3<> lock\n') == [("PL001", "cat words.txt", False)]
    assert found('cat words.txt | wc -l 3<<<"$PW"\n') == [("PL001", "cat words.txt", False)]
    assert found('cat "${name:$i:1}" | grep x\n') == [("PL001", 'cat "${name:$i:1}"', False)]
    assert found('cat words.txt | grep "${T:+t = ${T}\\n}"\n') == [("PL001", "cat words.txt", False)]


def test_a_fix_next_to_it_is_made_and_keeps_behaviour(tmp_path):
    for source in (
        'x=$((0x${c:-1f}%7)); cat words.txt | wc -l\necho "$x"\n',
        "exec 3<> lock\ncat words.txt | wc -l\necho hi >&3\ncat lock\n",
        'n=abcdef; i=2; m=${n:$i:2}\ncat words.txt | wc -l\necho "$m"\n',
    ):
        fixed = fix(source, unsafe=True)
        assert fixed != source.encode() and b"wc -l < words.txt" in fixed and b"#}" not in fixed
        assert_same_behaviour(source.encode(), fixed, tmp_path, "bash", inputs=())
    posix = "exec 3<> lock\ncat words.txt | wc -l\necho hi >&3\ncat lock\n"
    assert_same_behaviour(posix.encode(), fix(posix, path="script.sh", unsafe=True), tmp_path, "dash", inputs=())


def test_stdin_is_what_bash_gives_the_command(tmp_path):
    """A here-string or `<>` on descriptor 3 leaves stdin the pipe: cat feeds wc, and is useless.

    On descriptor 0 it replaces stdin.
    """
    (tmp_path / "words.txt").write_text("a\nb\n")
    (tmp_path / "lock").write_text("")
    assert bash('cat words.txt | wc -l 3<<<"$PW"', tmp_path).strip() == "2"
    assert bash("cat words.txt | wc -l 3<> lock", tmp_path).strip() == "2"
    assert found('cat words.txt | wc -l 3<<<"$PW"\n')[0][0] == "PL001"
    assert found("cat words.txt | wc -l 3<> lock\n")[0][0] == "PL001"
    assert bash("cat words.txt | wc -l 0<> lock", tmp_path).strip() == "0"
    assert found("cat words.txt | wc -l 0<> lock\n") == []  # wc reads lock: nothing to say about cat


def test_stdout_on_read_write_is_replaced():
    """`1<> f`: descriptor 1 is f, as `1> f` would make it (a `<` on 1 replaces stdout too)."""
    for source in (b"tee x 1<> out", b"tee x 1< out", b"tee x 1> out"):
        (redirect,) = [n for n in syntax.walk(parse_guards.guard(source).tree.root_node) if n.type == "file_redirect"]
        assert syntax.redirects_stdout(redirect) and not syntax.redirects_stdin(redirect)


def test_an_opaque_word_is_as_many_words_as_the_expansion():
    """Quoted: one word, so `cat "${n:$i:1}"` is a useless cat; unquoted: maybe several, as `cat ${n:1}` is not."""
    assert [code for code, *_ in found('cat "${n:$i:1}" | grep x\n')] == ["PL001"]
    assert found("cat ${n:$i:1} | grep x\n") == found("cat ${n:1:1} | grep x\n") == []


def test_no_edit_lands_in_the_statement():
    source = b"a=1\nexec 3<> lock\nb=2\n"
    guarded = parse_guards.guard(source)
    (reread,) = guarded.rereads
    start, end = reread.statement
    assert source[start:end] == b"exec 3<> lock"
    assert not guarded.allows_edit(start, start) and not guarded.allows_edit(end, end)  # nor at its ends
    assert not guarded.allows_edit(start + 2, start + 3)
    assert guarded.allows_edit(0, 3) and guarded.allows_edit(end + 1, end + 4)


def test_the_note_is_said_with_verbose():
    source = b"exec 3<> lock\ncat words.txt | wc -l\nx=${b:$i:1}\n"
    report = process(source, "u.bash", Settings(), Path("u.bash"))
    assert note_groups(report, verbose=False) == []  # a repair that lost nothing: not said by default
    (group,) = note_groups(report, verbose=True)
    assert group.text == (
        "tree-sitter-bash cannot parse lines 1, 3; pipelint read them as bash does (`<>` as `<` on its "
        "descriptor, an expansion as a computed word), checked them, and offers no fix there"
    )
