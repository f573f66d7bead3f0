"""Which shell a script is for."""

from __future__ import annotations

import pytest
from harness import fix, lint

from pipelint.engine import checker
from pipelint.shell import dialect
from pipelint.cli import discovery
from pipelint.shell.dialect import Dialect, detect
from pipelint.finding import Applicability, Edit, FixAvailability, Severity
from pipelint.lsp.documents import is_shell_document
from pipelint.rule import Rule


@pytest.mark.parametrize(
    ("source", "path", "dialect"),
    [
        (b"#!/bin/bash\n", "x", Dialect.BASH),
        (b"#!/usr/bin/env bash\n", "x", Dialect.BASH),
        (b"#!/usr/bin/env -S bash -e\n", "x", Dialect.BASH),
        (b"#!/bin/sh\n", "x.bash", Dialect.SH),
        (b"#! /bin/dash\n", "x", Dialect.SH),
        (b"#!/bin/ksh\n", "x", Dialect.KSH),
        (b"echo\n", "x.bash", Dialect.BASH),
        (b"echo\n", "x.sh", Dialect.SH),
        (b"echo\n", None, Dialect.SH),
        (b"#!/bin/sh\n# shellcheck shell=bash\n", "x", Dialect.BASH),
        (b"#!/bin/bash\n# pipelint: shell=sh\n", "x", Dialect.SH),
    ],
)
def test_detect(source, path, dialect):
    assert detect(source, path) is dialect



# One table of shells: detection, discovery and the language server agree.
@pytest.mark.parametrize("extension", sorted(dialect.EXTENSIONS))
def test_every_discovered_extension_has_its_dialect(tmp_path, extension):
    script = tmp_path / f"x{extension}"
    script.write_bytes(b"echo\n")
    assert discovery.is_shell_script(script)
    assert is_shell_document(None, script, b"echo\n")
    assert detect(b"echo\n", str(script)) is dialect.EXTENSIONS[extension]


@pytest.mark.parametrize("shell", sorted(dialect.SHELLS))
def test_every_shell_is_discovered_by_shebang_exactly_when_the_table_says(tmp_path, shell):
    source = f"#!/usr/bin/{shell}\necho\n".encode()
    script = tmp_path / "script"
    script.write_bytes(source)
    discovered = dialect.SHELLS[shell].discovered
    assert discovery.is_shell_script(script) is discovered
    assert is_shell_document(None, script, source) is discovered
    assert is_shell_document(shell, None, b"") is discovered  # the editor's languageId
    linted = dialect.SHELLS[shell].dialect
    assert detect(source, "script") is (linted or Dialect.SH)
    assert detect(f"# shellcheck shell={shell}\necho\n".encode(), "script.bash") is (linted or Dialect.SH)
    assert dialect.unlinted_shell(source, "script") == (None if linted else shell)


def test_language_ids_are_the_discovered_shells_and_vs_code_s_name():
    assert dialect.LANGUAGE_IDS - {"shellscript"} == dialect.DISCOVERED_SHELLS
    assert {"shellscript", "sh", "bash", "ksh", "dash"} <= dialect.LANGUAGE_IDS


@pytest.mark.parametrize(
    ("name", "source", "shell"),
    [
        ("a.zsh", b"echo\n", "zsh"),
        ("b", b"#!/bin/zsh\necho\n", "zsh"),
        ("c", b"#!/usr/bin/env zsh\necho\n", "zsh"),
        ("d.fish", b"echo\n", "fish"),
        ("e", b"#!/usr/bin/env fish\necho\n", "fish"),
        ("f.csh", b"echo\n", "csh"),
        ("g", b"#!/bin/tcsh\necho\n", "tcsh"),
        ("h.zsh", b"#!/bin/bash\necho\n", None),  # the shebang says more than the name
    ],
)
def test_scripts_of_shells_that_are_not_sh_are_never_picked_nor_linted(tmp_path, name, source, shell):
    (tmp_path / name).write_bytes(source)
    picked = [p.name for p in discovery.walk_scripts(tmp_path, lambda path: False)]
    assert picked == ([] if shell else [name])
    assert dialect.unlinted_shell(source, name) == shell


def test_a_shell_directive_says_more_than_the_shebang():
    source = b"#!/bin/zsh\n# shellcheck shell=bash\necho\n"
    assert dialect.unlinted_shell(source, "x") is None and detect(source, "x") is Dialect.BASH


def test_busybox_shebang_names_its_applet():
    assert dialect.shebang_shell(b"#!/bin/busybox sh\n") == "sh"
    assert detect(b"#!/bin/busybox ash\ncat f | grep x\n", "x") is Dialect.SH


# The bashism guard judges parsed syntax, not bytes.
def test_a_quoted_bracket_pair_keeps_its_fix_in_sh():
    script = 'cat "a[[b" | wc -l\necho done\n'  # not last: the fix is safe
    (finding,) = lint(script, "script.sh")
    assert finding.fix is not None
    assert fix(script, "script.sh").decode() == 'wc -l < "a[[b"\necho done\n'


class _AddsText(Rule):
    code = "PL995"
    name = "adds-text"
    severity = Severity.INFO
    fix_availability = FixAvailability.ALWAYS

    def __init__(self, text: bytes):
        self.text = text

    def check_command(self, command, context):
        end = command.node.end_byte
        yield self.finding("x", command.node.start_byte, end, self.fix("Add", Applicability.SAFE, Edit.insert(end, self.text)))


@pytest.mark.parametrize(
    ("added", "kept"),
    [
        (b" <<< x", False),
        (b" &> f", False),
        (b" <(true)", False),
        (b" $'a'", False),
        (b"; [[ -n x ]]", False),
        (b" |& cat", False),
        (b" '<<<'", True),
        (b' "a[[b"', True),
        (b" '$'", True),
        (b" # |& <(", True),
    ],
)
def test_fixes_that_add_bash_syntax_to_sh_are_dropped(added, kept):
    for path, guarded in (("x.sh", True), ("x.bash", False)):
        (finding,) = checker.check(b"true\n", [_AddsText(added)], path).findings
        assert (finding.fix is not None) is (kept or not guarded), (added, path)


def test_bash_syntax_the_fix_leaves_alone_does_not_count_but_rewriting_it_does():
    source = b"tr a b <<< x | wc -l\n"
    assert not dialect.adds_bashism(source, [Edit(15, 20, b"wc -c '<<<'")])  # the here-string is untouched
    assert dialect.adds_bashism(source, [Edit(0, 12, b"tr a b <<< y")])  # written again by the fix
    assert dialect.adds_bashism(source, [Edit.insert(21, b"tr <<< y\n")])  # one more
