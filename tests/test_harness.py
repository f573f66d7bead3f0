"""The behavioural harness itself: it must catch every change issue 13's contract forbids.

Each test hands assert_same_behaviour an "original" and a hand-made "fix"
that breaks the contract in one way, and expects the harness to say so; and
a few pairs that differ only as the contract allows, which must pass.
"""

from __future__ import annotations


import pytest
from harness import SANDBOX, _variants, assert_same_behaviour, compare_behaviour, run_script, shells_for, unreadable_support
from missing_inputs import (
    CONSUMER_SKIPPED,
    COUNT_NOT_PRINTED,
    DD_CONSUMER_SKIPPED,
    DIRECTORY,
    DUMP_CONSUMER_SKIPPED,
    KNOWN_ALLOWANCES,
    MISSING,
    UNREADABLE,
    absent_inputs,
    allowances_for,
    allowances_of,
    fix_safety_text,
    inputs_read,
)
from stderr_wording import normalise_stderr

from pipelint.engine import registry


def differences(original: str, fixed: str, tmp_path, path="script.bash", rules=("PL001",), inputs=None):
    source = original.encode()
    found = compare_behaviour(
        source,
        fixed.encode(),
        tmp_path / "run",
        shells_for(source, path),
        inputs_read(source) if inputs is None else inputs,
        allowances_for(rules),
    )
    return {(d.shell, d.inputs, d.aspect) for d in found.differences}


@pytest.mark.parametrize(
    ("original", "fixed", "aspect"),
    [
        ("echo hi\n", "echo hi >&2\necho -n\n", "stderr"),
        ("echo hi > out\n", "echo hi > out; chmod 600 out\n", "files"),
        ("echo hi > out\n", "echo hi > out2\n", "files"),
        ("cat words.txt | read -r v\n", "read -r v < words.txt\n", "state"),
        ("cat words.txt | cd src\n", "cd src < words.txt\n", "state"),
        ("true | set -f\n", "set -f\n", "state"),
        ("true | trap 'echo bye' EXIT\n", "trap 'echo bye' EXIT\n", "state"),
        ("true | umask 077\n", "umask 077\n", "state"),
        ("true | alias ll=ls\n", "alias ll=ls\n", "state"),
        ("for i in 1 2; do true | break; done\n", "for i in 1 2; do break; done\n", "state"),
        ("true | f() { :; }\n", "f() { :; }\n", "state"),
        ("cat words.txt | exit 3\necho after\n", "exit 3 < words.txt\necho after\n", "status"),
        ("cat words.txt | wc -l\n", "wc -l < words.txt |\n", "parse"),
    ],
)
def test_catches(original, fixed, aspect, tmp_path):
    assert aspect in {found for _, _, found in differences(original, fixed, tmp_path)}


def test_an_sh_script_also_runs_under_dash(tmp_path):
    # bash's echo takes -e as an option, dash's prints it: only dash sees the change.
    found = differences("#!/bin/sh\nprintf 'x\\n'\n", "#!/bin/sh\necho -e x\n", tmp_path, "script.sh")
    assert found == {("dash", "inputs present", "stdout")}


def test_the_same_script_passes(tmp_path):
    script = b"#!/bin/sh\nsort words.txt | uniq -c > counts\nread -r v < words.txt\necho \"$v\" >&2\n"
    outcome = assert_same_behaviour(script, script, tmp_path, path="script.sh")
    first_word = (SANDBOX / "data" / "words.txt").read_bytes().split(b"\n")[0]
    assert outcome.state is not None and b'declare -- v="' + first_word + b'"' in outcome.state


def test_a_file_error_may_be_worded_differently():
    assert normalise_stderr(b"cat: 'my file.txt': No such file or directory\n") == normalise_stderr(
        b"/tmp/x/run.script: line 3: my file.txt: No such file or directory\n"
    )
    assert normalise_stderr(b"dash.script: 3: cannot open my file.txt: No such file\n") == b"my file.txt: No such file or directory\n"
    # A builtin names itself, and the line bash numbers moves with a here-document (fuzz seed 2417, script 8499).
    assert normalise_stderr(b"s.script: line 11: cd: src: No such file or directory\n") == normalise_stderr(
        b"s.script: line 8: cd: src: No such file or directory\n"
    ) == b"src: No such file or directory\n"
    # coreutils quotes a control character as the shell would; bash writes the byte (fuzz seed 2417, script 12326).
    assert normalise_stderr(b"cat: 'words.txt'$'\\r': No such file or directory\n") == normalise_stderr(
        b"s.script: line 4: words.txt\r: No such file or directory\n"
    ) == b"words.txt\r: No such file or directory\n"
    assert normalise_stderr(b"cat: 'a'$'\\001''b\\c': No such file or directory\n") == b"a\x01b\\c: No such file or directory\n"
    assert normalise_stderr(b"cat: 'a b'\\''c': Is a directory\n") == b"a b'c: Is a directory\n"
    assert normalise_stderr(b"cat: \"it's\": Is a directory\n") == b"it's: Is a directory\n"
    # A name that only looks quoted in part is left as it is.
    assert normalise_stderr(b"s.script: line 2: a\\b: No such file or directory\n") == b"a\\b: No such file or directory\n"
    # With an input taken away, the consumer's standard input is that input…
    assert normalise_stderr(b"cat: d: Is a directory\n", "d") == normalise_stderr(b"wc: 'standard input': Is a directory\n", "d")
    # find hands on `./d`: the same file.
    assert normalise_stderr(b"cat: ./d: Is a directory\n", "d") == normalise_stderr(b"wc: 'standard input': Is a directory\n", "d")
    # …but an error about another file stays one.
    assert normalise_stderr(b"cat: d: Is a directory\n", "d") != normalise_stderr(b"grep: src: Is a directory\n", "d")
    # `cat "$HOME/d"` names it by its absolute path, HOME being the folder the script runs in.
    assert normalise_stderr(b"cat: /tmp/x/run/d: Is a directory\n", "d", b"/tmp/x/run") == normalise_stderr(
        b"sort: read failed: -: Is a directory\n", "d", b"/tmp/x/run"
    )
    assert normalise_stderr(b"cat: /tmp/y/d: Is a directory\n", "d", b"/tmp/x/run") != b"d: Is a directory\n"
    # uniq loses errno and names no reason; its standard input is the folder taken away.
    assert normalise_stderr(b"cat: d: Is a directory\n", "d") == normalise_stderr(b"uniq: error reading '-'\n", "d")
    assert normalise_stderr(b"uniq: error reading 'x'\n", "d") == b"uniq: error reading 'x'\n"
    # An unreadable input, as cat, dd, bash and dash word it.
    unreadable = b"words.txt: Permission denied\n"
    assert normalise_stderr(b"cat: words.txt: Permission denied\n") == unreadable
    assert normalise_stderr(b"dd: failed to open 'words.txt': Permission denied\n") == unreadable
    assert normalise_stderr(b"/tmp/x/run.script: line 3: words.txt: Permission denied\n") == unreadable
    assert normalise_stderr(b"/tmp/x/run.script: 3: cannot open words.txt: Permission denied\n") == unreadable
    assert normalise_stderr(b"cat: 'my file.txt': Permission denied\n") == b"my file.txt: Permission denied\n"
    # …and it stays a different error from a missing one.
    assert normalise_stderr(b"cat: words.txt: No such file or directory\n") != unreadable


def test_timings_are_not_compared(tmp_path):
    assert_same_behaviour(b"time sleep 0.01\n", b"time sleep 0.02\n", tmp_path, inputs=())


def test_missing_input_passes_only_what_the_rule_document_allows(tmp_path):
    original = "cat words.txt | grep a > out\necho end\n"
    fixed = "grep a < words.txt > out\necho end\n"
    # PL001's Fix safety: the consumer does not run, so `out` is not created.
    found = differences(original, fixed, tmp_path, rules=("PL001",))
    assert not {aspect for shell, inputs, aspect in found if inputs == "words.txt missing"}
    # The same difference is not allowed to a rule whose document does not say so.
    assert ("bash", "words.txt missing", "files") in differences(original, fixed, tmp_path, rules=("PL101",))


def test_missing_input_observed_by_the_script_is_a_difference(tmp_path):
    found = differences("cat words.txt | wc -l\necho \"rc=$?\"\n", "wc -l < words.txt\necho \"rc=$?\"\n", tmp_path)
    assert ("bash", "words.txt missing", "stdout") in found
    assert ("bash", "inputs present", "stdout") not in found


def test_a_folder_in_place_of_an_input_is_compared_too(tmp_path):
    # `wc -l < words.txt` runs and fails to read; `cat words.txt | wc -l` counts nothing and succeeds.
    found = differences("cat words.txt | wc -l > /dev/null\necho \"rc=$?\"\n", "wc -l < words.txt > /dev/null\necho \"rc=$?\"\n", tmp_path)
    assert ("bash", "words.txt a directory", "stdout") in found


def _needs_unreadable_inputs():
    support = unreadable_support()
    if support.prefix is None:
        pytest.skip(f"unreadable inputs: {support.how}")


def test_only_a_file_is_made_unreadable():
    _needs_unreadable_inputs()
    assert list(_variants(("words.txt", "src"))) == [
        None, ("words.txt", MISSING), ("words.txt", DIRECTORY), ("words.txt", UNREADABLE), ("src", MISSING),
    ]


def test_the_unreadable_variant_refuses_the_input_and_still_writes(tmp_path):
    """The file stays, mode 000, and the script cannot read it (root or not), yet writes what it did."""
    _needs_unreadable_inputs()
    script = b"cat words.txt; echo \"rc=$?\"; sort > out < words.txt; echo \"rc=$?\"; echo done > log\n"
    for shell, redirect_failed in (("bash", b"rc=1"), ("dash", b"rc=2")):
        outcome = run_script(script, tmp_path / "run", shell, take_away=("words.txt", UNREADABLE))
        assert outcome.stdout == b"rc=1\n" + redirect_failed + b"\n", shell
        assert normalise_stderr(outcome.stderr) == b"words.txt: Permission denied\n" * 2, shell
        assert outcome.files["words.txt"].mode == 0 and outcome.files["words.txt"].content == (SANDBOX / "data" / "words.txt").read_bytes()
        assert outcome.files["out"].content == b"" and outcome.files["log"].content == b"done\n"


def test_an_unreadable_input_observed_by_the_script_is_a_difference(tmp_path):
    # `cat` fails and `wc` counts nothing (rc=0); the redirect fails and `wc` never runs (rc=1).
    _needs_unreadable_inputs()
    original, fixed = "#!/bin/sh\ncat words.txt | wc -l; echo rc=$?\n", "#!/bin/sh\nwc -l < words.txt; echo rc=$?\n"
    found = differences(original, fixed, tmp_path, path="script.sh")
    for shell in ("bash", "dash"):
        assert (shell, "words.txt unreadable", "stdout") in found
        assert (shell, "words.txt missing", "stdout") in found
        assert (shell, "inputs present", "stdout") not in found


def test_an_unreadable_input_passes_what_the_rule_document_allows(tmp_path):
    """PL001's Fix safety: the consumer does not run, so `out` is not created."""
    _needs_unreadable_inputs()
    original, fixed = "#!/bin/sh\ncat words.txt | grep a > out\necho end\n", "#!/bin/sh\ngrep a < words.txt > out\necho end\n"
    assert not differences(original, fixed, tmp_path, path="script.sh")
    # The same difference is not allowed to a rule whose document does not say so.
    found = differences(original, fixed, tmp_path, path="script.sh", rules=("PL101",))
    assert {("bash", "words.txt unreadable", "files"), ("dash", "words.txt unreadable", "files")} <= found


@pytest.mark.parametrize(
    ("before", "after", "allowed"),
    [
        (b"0\nend\n", b"end\n", True),
        (b"rc=0\n", b"rc=1\n", False),
        (b"end\n", b"end\nmore\n", False),
        # One block, dropped where it stood, once or each time the consumer ran…
        (b"a\nmysql [shop]\n0\nb\n", b"a\nb\n", True),
        (b"0\ni=1\n0\ni=2\n", b"i=1\ni=2\n", True),
        (b"i=1\n0\ni=2\n0\n", b"i=1\n0\ni=2\n", True),
        # …but not any subsequence: two different blocks, or lines in another order.
        (b"0\ni=1\n5\ni=2\n", b"i=1\ni=2\n", False),
        (b"x\na\ny\nb\n", b"x\ny\n", False),
        (b"a\nb\nc\n", b"c\nb\n", False),
        # A block of several lines, or the same one twice, is what one consumer prints (black box:
        # which lines it printed the harness cannot know, only that they form one repeated block).
        (b"a\nb\nc\nd\n", b"a\nd\n", True),
        (b"a\nb\na\nc\n", b"b\nc\n", True),
    ],
)
def test_the_consumer_skipped_allowance_is_narrow(before, after, allowed):
    assert CONSUMER_SKIPPED.output(before, after) is allowed


def test_the_consumer_skipped_allowance_on_stderr():
    """Stderr lines come sorted: any of them may go, none may come."""
    assert CONSUMER_SKIPPED.allows_errors(b"a: x\nb: y\nc: z\n", b"b: y\n")
    assert not CONSUMER_SKIPPED.allows_errors(b"a: x\n", b"a: x\nb: y\n")


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ('cat "my file.txt" | wc -l', ("my file.txt",)),
        ("wc -l < words.txt > out", ("words.txt",)),
        ("dd if=access.log bs=512 | wc -c", ("access.log",)),
        ('cat "$HOME/words.txt" ~/access.log | tee data.csv', ("access.log", "words.txt")),
        ("sort src/hello.txt > out; echo missing.txt", ("src/hello.txt",)),
    ],
)
def test_inputs_read(script, expected):
    assert inputs_read(script.encode()) == expected


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("cat missing.txt | wc -l", ("missing.txt",)),
        ('cat "$f" | wc -l', ("",)),  # f is never set: cat opens the empty name
        ('cat "$1" | wc -l', ("",)),  # the harness passes no arguments
        ("wc -l < nowhere/x", ("nowhere/x",)),
        ('f=words.txt; cat "$f" | wc -l', ()),
        ('arr=(x)\ncat "$x" | od -c', ("",)),  # a word of an array sets no x (fuzz seed 2430, script 19991)
        ('arr=(x $(x=1))\ncat "$x" | od -c', ("",)),  # nor does one in a subshell of its value
        ('arr=(x)\nread -r x\ncat "$x" | od -c', ()),
        ("for f in a; do cat \"$f\"; done", ()),
        ("cat words.txt -n - /etc/hostname | wc -l", ()),
        ("dd if=gone.img bs=1M | wc -c; echo gone.txt", ("gone.img",)),
        ("sort missing.txt | wc -l", ()),  # sort is no reader the rules remove
        ("cat src | sort", ("src",)),  # a folder of the sandbox: never a file
    ],
)
def test_absent_inputs(script, expected):
    assert absent_inputs(script.encode()) == expected


def test_a_never_present_input_gets_the_allowances_in_every_run(tmp_path):
    """`missing.txt` is missing even with the sandbox's inputs present: the contract's missing-input clause applies."""
    original = "cat missing.txt | mysql shop\necho after\n"
    fixed = "mysql shop < missing.txt\necho after\n"
    assert not differences(original, fixed, tmp_path, rules=("PL004",))
    assert ("bash", "inputs present", "stdout") in differences(original, fixed, tmp_path, rules=("PL101",))


def test_the_rule_documents_grant_the_allowances():
    """Each rule document's "Fix safety" quotes what its fix may change with an input missing."""
    granted = {code: allowances_of(code) for code in sorted(registry.BY_CODE)}
    assert {code: found for code, found in granted.items() if found} == {
        "PL001": (CONSUMER_SKIPPED,),
        "PL004": (DUMP_CONSUMER_SKIPPED,),
        "PL203": (DD_CONSUMER_SKIPPED,),
        "PL501": (COUNT_NOT_PRINTED,),
    }
    assert set(KNOWN_ALLOWANCES) <= {allowance for found in granted.values() for allowance in found}  # none unused
    for code, found in granted.items():
        if found:  # the harness applies them to an unreadable input as to a missing one: the document says so
            assert "unreadable" in fix_safety_text(code), code


def test_dd_s_if_dash_and_a_redirect_from_dash_name_a_file_no_run_provides():
    """dd does not read `if=-` as standard input, and `< \\-` opens a file `-`: absent in every run
    (fuzz seed 2420, script 4974: `dd if=\\- … | wc -l > out` → `wc -l > out < \\-`). cat's `-` is stdin."""
    from missing_inputs import absent_inputs

    assert absent_inputs(b"dd if=\\- bs=1M status=none | wc -l > out\n") == ("-",)
    assert absent_inputs(b"wc -l > out < \\-\n") == ("-",)
    assert absent_inputs(b"cat \\- | wc -l\n") == ()
    assert absent_inputs(b"cat - | wc -l\n") == ()

