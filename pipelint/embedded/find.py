"""Shell text that a command of the script runs: `sh -c '…'`, `ssh host '…'`, `bash <<EOF` and their kin.

`find_regions(commands, …)` returns, for one parsed script, the inner scripts
its commands run, each a `regions.Region` whose pieces point into the
script. Which commands run which text is shell_runners.py's part (through
wrappers and launchers); here the text becomes a Region. The linter lints
each region like a script of its own and maps what it finds back (linter.py).

Words become inner text by the shell's quote removal (`words_region`): the
contents of '…' verbatim, of "…" with `\\$ \\` \\" \\\\` unescaped, of a bare
word with its backslashes removed. Expansions belong to the OUTER shell: a
plain `$name`/`${name}` stays as written (the inner script sees some value
there), anything else (`$(…)`, `$((…))`, `${x:-…}`) becomes an opaque
placeholder word, so that its text is not linted twice. Placeholders and the
blanks that join several words map to no byte of the script: an edit there
has nowhere to go. Here-document bodies have rules of their own (heredoc_scripts.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.shell.dialect import Dialect
from pipelint.embedded.heredoc_scripts import heredoc_region
from pipelint.programs.launchers import DROPPED, PASSED
from pipelint.embedded.regions import Quoting, Region, RegionBuilder
from pipelint.shell.options import Environment
from pipelint.facts.script import ScriptFacts
from pipelint.embedded.regions import stdout_crosses_link
from pipelint.embedded.shell_runners import FINDERS, LEADS, InnerScript, scripts_run_by

__all__ = ["FINDERS", "LEADS", "MAX_DEPTH", "find_regions", "known_words", "words_region"]

# How deep regions may nest (`ssh h "sh -c '…'"` is two): enough for real scripts, bounded for hostile ones.
MAX_DEPTH = 3

_DOUBLE_QUOTE_ESCAPES = frozenset(b'$`"\\')


def _add_word(builder: RegionBuilder, node: Node, quoted: bool = False) -> bool:
    """Append what the shell makes of one word; False when it cannot be told (`$'…'` escapes and the like)."""
    kind = node.type
    start = node.start_byte
    if kind == "raw_string":
        builder.copy(syntax.text(node)[1:-1], start + 1, Quoting.SINGLE)
        return True
    if kind == "string":
        return _add_double_quoted(builder, node)
    if kind in ("word", "number"):
        _add_escaped(builder, syntax.text(node), start, Quoting.UNQUOTED, frozenset(b"\\"), quoted)
        return True
    if kind == "concatenation":
        return all(_add_word(builder, part, quoted) for part in node.children)
    if kind in ("simple_expansion", "expansion", "command_substitution", "arithmetic_expansion"):
        builder.expansion(syntax.text(node))
        return True
    return False  # $'…', $"…", process substitution, brace expansion: not worth guessing


def _add_double_quoted(builder: RegionBuilder, node: Node) -> bool:
    cursor = node.start_byte + 1
    end = node.end_byte - 1
    source_of = syntax.text(node)
    for child in node.named_children:
        if child.start_byte > cursor:
            _add_escaped(builder, source_of[cursor - node.start_byte : child.start_byte - node.start_byte], cursor, Quoting.DOUBLE, _DOUBLE_QUOTE_ESCAPES, True)
        if child.type == "string_content":
            _add_escaped(builder, syntax.text(child), child.start_byte, Quoting.DOUBLE, _DOUBLE_QUOTE_ESCAPES, True)
        else:
            builder.expansion(syntax.text(child))
        cursor = child.end_byte
    if end > cursor:
        _add_escaped(builder, source_of[cursor - node.start_byte : end - node.start_byte], cursor, Quoting.DOUBLE, _DOUBLE_QUOTE_ESCAPES, True)
    return True


def _add_escaped(builder: RegionBuilder, data: bytes, outer: int, quoting: Quoting, escapable: frozenset[int], quoted: bool) -> None:
    """Copy data, dropping the backslash of each escape the shell removes (and backslash-newlines)."""
    run_start = 0
    index = 0
    while index < len(data):
        if data[index] == 0x5C and index + 1 < len(data):  # backslash
            following = data[index + 1]
            if following == 0x0A or not quoted or following in escapable:
                builder.copy(data[run_start:index], outer + run_start, quoting)
                if following != 0x0A:
                    builder.copy(bytes([following]), outer + index + 1, Quoting.ESCAPED)
                index += 2
                run_start = index
                continue
        index += 1
    builder.copy(data[run_start:], outer + run_start, quoting)


def words_region(
    words: Sequence[Node], dialect: Dialect, origin: str, substituted: bytes = b"", prefix: bytes = b"", **facts: object
) -> Region | None:
    """The inner script several words make when joined by blanks (as `ssh` and `sh -c` do), or None.

    substituted: text a launcher replaces in the words first (`{}`); it maps nowhere.
    prefix: what the first word holds before the script (`--command=`), left out.
    """
    builder = RegionBuilder(substituted)
    for index, word in enumerate(words):
        if index:
            builder.invent(b" ")
        if not _add_word(builder, word):
            return None
    if prefix:
        if not builder.text.startswith(prefix):
            return None
        builder.drop(len(prefix))
    anchor = words[0].start_byte if words else 0
    return builder.region(dialect, origin, anchor, **facts)


def _region_of(script: InnerScript, inherited: Environment) -> Region | None:
    facts = {
        "options": script.options,
        "stdout_over_network": script.stdout_over_network,
        "stdin_over_network": script.stdin_over_network,
        "environment": (inherited if script.inherits_environment else ()) + script.environment,
        "script_on_stdin": script.redirect is not None,
    }
    redirect = script.redirect
    if redirect is None:
        return words_region(script.words, script.dialect, script.origin, script.substituted, script.prefix, **facts)
    if redirect.type == "heredoc_redirect":
        return heredoc_region(redirect, script.dialect, script.origin, **facts)
    word = redirect.named_children[-1] if redirect.named_children else None
    return None if word is None else words_region([word], script.dialect, script.origin, **facts)


# `$name`, `${name}`: an outer expansion whose value the outer script may show.
_OUTER_NAME = re.compile(rb"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
# Expansions whose value is a number, whatever it is: `$((…))`, `$#`, `$?`, `$$`, `$!`, `${#name}`.
_OUTER_NUMBER = re.compile(rb"\$\(\(.*\)\)|\$[#?$!]|\$\{#[A-Za-z_][A-Za-z0-9_]*\}", re.DOTALL)


def known_words(facts: ScriptFacts) -> Callable[[bytes, int], bool]:
    """`known_word` for find_regions: a number (`$((…))`, `$#`), or `$name` at offset is one plain word the
    script assigned before (`facts.holds_one_word`), of characters that need no quoting and not an option
    (`DIR=/srv/app`)."""

    def known(written: bytes, offset: int) -> bool:
        if _OUTER_NUMBER.fullmatch(written):
            return True
        match = _OUTER_NAME.fullmatch(written)
        if match is None:
            return False
        name = match.group(1) or match.group(2)
        if not facts.holds_one_word(name, offset):
            return False
        value = facts.literal_variables[name][1]
        return Quoting.UNQUOTED.holds(value) and not value.startswith(b"-")

    return known


def find_regions(
    commands: Iterable[Node],
    read: Callable[[Node], Command],
    depth: int = 0,
    remote_dialect: Dialect = Dialect.SH,
    parent: Region | None = None,
    status_seen: Callable[[Node], bool] | None = None,
    environment: Environment = (),
    known_word: Callable[[bytes, int], bool] | None = None,
) -> list[Region]:
    """The inner scripts these command nodes run (none below MAX_DEPTH); read gives a node's model.

    remote_dialect: the shell of ssh's and `su -c`'s scripts (setting `remote-shell`).
    parent: the region these commands are in; a script whose output is
    parent's output crosses the network when parent's does (`ssh h "sh -c '…'"`).
    status_seen: whether the outer script sees a command node's exit status
    (`exit_status.command_status_observed`); unknown counts as seen.
    environment: the startup variables the commands' shell exports (its own region's, the script's
    `export SHELLOPTS`): a shell they start here inherits them.
    known_word: whether an outer `$name` at a command's offset is known to be one plain word (a
    literal the outer script assigned): no unknown code then in the inner text (`Region.outer_code`).
    """
    if depth >= MAX_DEPTH:
        return []
    found = []
    for node in commands:
        if syntax.basename(syntax.command_name(node)) not in LEADS:
            continue
        for script in scripts_run_by(read(node), remote_dialect):
            region = _region_of(script, environment)
            if region is None:
                continue
            if known_word is not None and region.outer_code:
                unknown = tuple(code for code in region.outer_code if not known_word(code[1], node.start_byte))
                region = replace(region, outer_code=unknown)
            if parent is not None and stdout_crosses_link(node, parent) and not region.stdout_over_network:
                region = replace(region, stdout_over_network=True)
            if script.status == DROPPED or (script.status == PASSED and status_seen is not None and not status_seen(node)):
                region = replace(region, status_handed_on=False)
            found.append(region)
    return found
