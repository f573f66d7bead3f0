"""Provisional diagnostics: after an edit, lint only the top-level statements it touched.

The rules' walk over a 5,000-line script takes 0.4-0.6 s (docs/editors.md,
"How fast"); an edit usually changes one statement.  So on a change the
server first asks for a provisional lint (`lint`): the whole script is parsed
(incrementally) and its facts are the whole script's, but the rules see only
the candidates of the top-level statements (children of `program`) the edit
touched, with the comments around them and the statement before them
(`checker.Only`, `touched`); the findings of every other statement are
carried over from the last exact lint of the document, moved by the edit's
length.  The exact lint of the same text
follows, as before, and replaces them.

Of the engine's whole-script steps, the variable facts are not run again
over the whole script (bench_lsp.py, a character typed mid-file in 5,000
lines: 57-64 → 36-40 ms): they are rebuilt from the exact lint's
(`carried.py`, which says why each piece equals the query's): assignments
outside the touched statements found again by their moved span, those inside
by the query on the touched statements alone, the other uses and words
carried, proved unchanged by `_same_facts` below. The candidates' query (and
the parse guards' walk) still run over the whole script:
the captures feed the script's facts (options, mounts, aliases, sourcing, the
steps of each block) and PL301/PL304 everywhere, and a subset of them is
exact only while no reader of the captures looks past it.

This is exact only where nothing a finding of an untouched statement depends
on changed.  What a finding reads outside its own statement, and what is
checked here (when in doubt: no provisional result, the exact lint only):

- the parse: no ERROR or MISSING node before or after, nothing the parse
  guards repaired, and every statement outside the touched ones the same
  node span (shifted) in both parses; no here-document (`<<`) in the touched
  text, which may reach over statements; the touched text, parsed alone (as
  the facts below are read), ends its statements where the script's parse does;
- the script's facts (`facts.ScriptFacts`, `Context.functions`): the touched
  text before and after the edit must define the same functions, make the
  same assignments, use the same variable names as other than expansions,
  hold the same words that name an assigned variable, and run the same
  commands that set options, traps, aliases, mounts or run other code
  (`set`, `trap`, `shopt`, `.`, `source`, `eval`, `alias`, `mount`, …) or
  call a function of the script, in the same places (`_summary`,
  `_same_facts`); texts some rules look for anywhere (`trap`, `alias`,
  `PIPESTATUS`) must be there in both or neither;
- suppression directives: none in the touched text (a directive before the
  first command covers the file); none anywhere when PL900 (unused-directive)
  runs, whose findings on a directive depend on every statement it covers;
- the shebang and the dialect: the first line unchanged, the same dialect;
- the statement before the touched ones, whose findings may depend on the
  next statement (`$?` read next, the script's last status): linted again,
  unless it is a function definition (its body's statuses are its return
  status); no finding depends on the statement before its own but through
  the facts and directives above;
- names rules look for in the rest of the script (whether `tee debug.log`'s
  file is mentioned again, whether a file a pipeline writes is read later):
  none of them may overlap the edit (`searched_names`, made by the exact lint);
- PL301, PL303 and PL304 follow steps across statements (PL301 and PL304 quote line numbers):
  they run on the whole script (`EVERYWHERE`); one of their findings not
  found again at the same place skips (it was in an embedded script, which
  only the touched statements' are linted again);
- the settings: the same as the exact lint's; no rule crashed in either.

`tests/lsp/test_lsp_provisional.py` holds it against the exact lint along
random edits (`tests/benchmarks/provisional_differential.py` at scale).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from tree_sitter import Node, Query, QueryCursor, Tree

from pipelint.engine import checker, linter
from pipelint.facts import script as facts
from pipelint.shell import syntax
from pipelint.engine import registry
from pipelint.engine.config import Settings
from pipelint.shell.dialect import Dialect
from pipelint.finding import Edit, Finding
from pipelint.engine.linter import FileReport
from pipelint.lsp import carried
from pipelint.lsp.reparse import TextChange
from pipelint.lsp.reparse import edit_between
from pipelint.programs import command as commands_model
from pipelint.programs.table import WRAPPERS, Trait, named

# Rules whose findings read other statements (a step after this one, a line number): run on the whole script.
EVERYWHERE = frozenset(rule.code for rule in registry.RULES if rule.reads_other_statements)

# Directives (suppression, dialect): a directive before the first command covers the file.
_DIRECTIVES = (b"pipelint", b"shellcheck")
# The rule whose findings on a directive depend on the findings of every statement the directive covers.
UNUSED_DIRECTIVES = next(rule.code for rule in registry.RULES if rule.uses("check_directive"))
_HEREDOC = re.compile(rb"(?<!<)<<(?!<)")

# Commands whose effect reaches other statements: what the script facts read (options, traps, aliases,
# sourced or evaluated code, mounts), and what changes the shell every later statement runs in (its
# descriptors, its directory, its builtins).
_REACHING = facts.COMMANDS_READ | named(Trait.SHAPES_LATER_COMMANDS)
_SUMMARY_QUERY = """
(function_definition name: (_) @function)
(variable_assignment) @assignment
(command) @command
"""
_DESTINATIONS_QUERY = "(file_redirect destination: (_) @destination)"

Statement = tuple[int, int, str]  # a child of `program`: start, end, and its kind (_kind)
Moved = tuple[Finding, int]  # a finding, and how many bytes it moved by


@functools.cache
def _query(text: str) -> Query:
    return Query(syntax.language(), text)


@dataclass(frozen=True)
class Baseline:
    """What a provisional lint of a later text needs from the exact lint of this one (made in the worker)."""

    statements: tuple[Statement, ...]
    names: frozenset[bytes]  # `searched_names`
    dialect: Dialect
    variables: carried.Variables | None  # the variable facts the exact lint read, for a later text's (carried.py)


COMMENT, FUNCTION, OTHER = "comment", "function", "other"


def top_level(root: Node) -> tuple[Statement, ...]:
    return tuple((node.start_byte, node.end_byte, _kind(node)) for node in root.named_children)


def _kind(node: Node) -> str:
    """A comment has no findings; a function definition's do not depend on the statement after it
    (a status inside its body is its return status, `exit_status.status_use`); other statements' may."""
    return COMMENT if node.type == "comment" else FUNCTION if node.type == "function_definition" else OTHER


def exact_lint(
    source: bytes, display_name: str, settings: Settings, path: Path | None, tree: Tree, language_id: str | None = None
) -> tuple[FileReport, Baseline | None]:
    """`linter.process` of a script, and the baseline for later provisional lints (made in the worker)."""
    kept = carried.Kept()
    report = linter.process(source, display_name, settings, path, language_id=language_id, tree=tree, variables=kept)
    return report, baseline(source, tree, report, kept.of(tree))


def baseline(
    source: bytes, tree: Tree, report: FileReport, variables: carried.Variables | None = None
) -> Baseline | None:
    """The exact lint's baseline for later provisional lints; None when none may start from it.

    variables: the variable facts the exact lint read (`exact_lint`), if it did.
    """
    root = tree.root_node
    if report.host is not None or root.has_error or report.parse_failures or report.notes or report.crashes:
        return None
    return Baseline(top_level(root), searched_names(source, root), report.dialect, variables)


def searched_names(source: bytes, root: Node) -> frozenset[bytes]:
    """Names some rule looks for anywhere in the script, as text (a superset).

    Where a file a pipeline writes is mentioned again (`stdin_redirect`:
    every redirect's destination), and `tee`'s files (PL103: each argument
    of a command that holds `tee`, and its base name).
    """
    names: set[bytes] = set()
    for node in QueryCursor(_query(_DESTINATIONS_QUERY)).captures(root).get("destination", []):
        names.add(syntax.text(node))
    for match in re.finditer(rb"tee", source):
        node = root.descendant_for_byte_range(match.start(), match.end())
        while node is not None and node.type not in ("command", "program"):
            node = node.parent
        if node is None or node.type != "command":
            continue
        for word in syntax.arguments(node):
            for value in (syntax.literal_value(word), syntax.text(word)):
                if value:
                    names.add(value)
                    names.add(syntax.basename(value.rstrip(b"/")) or b"")
    names.discard(b"")
    return frozenset(names)


@dataclass(frozen=True)
class Base:
    """The last exact lint of a document: its text, findings and baseline."""

    source: bytes
    findings: Sequence[Finding]
    baseline: Baseline
    settings: Settings


@dataclass(frozen=True)
class Touched:
    """The text linted again: [start, end) of the new text, [start, old_end) of the old one."""

    start: int
    end: int
    old_end: int

    @property
    def delta(self) -> int:
        return self.end - self.old_end


class Skipped(Exception):
    """No provisional result: why (shown in the server's trace, counted by the differential test)."""


def touched(before: Sequence[Statement], after: Sequence[Statement], edit: TextChange) -> Touched:
    """The top-level statements the edit touches, the comments around them, and the statement before.

    before, after: the statements of the old and the new text. Every other
    statement keeps its span (moved by the edit's length after it): the
    parse outside the touched text is the same.

    The statement before is linted again where its findings may depend on
    the next statement (`$?` read next, the script's last status:
    `exit_status`), unless it is a function definition. The one after
    needs it not: no finding looks back at the statement before its own,
    but through the script's facts (compared) and directives in comments
    (none may be in the touched text, and those around it are in it).
    """
    delta = edit.new_end - edit.old_end
    # Statements before the edit (a statement that ends where the edit starts is touched: typing goes on its end).
    same = 0
    while same < min(len(before), len(after)) and before[same] == after[same] and before[same][1] < edit.start:
        same += 1
    kept = 0  # statements after the edit, the same moved by delta
    while (
        kept < min(len(before), len(after)) - same
        and before[-1 - kept][0] > edit.old_end
        and _moved(before[-1 - kept], delta) == after[-1 - kept]
    ):
        kept += 1
    first = same  # back over the comments before, to the statement before unless it is a function
    while first > 0 and after[first - 1][2] == COMMENT:
        first -= 1
    if first > 0 and after[first - 1][2] == OTHER:
        first -= 1
    end = len(after) - kept  # on over the comments after
    while end < len(after) and after[end][2] == COMMENT:
        end += 1
    old_end = len(before) - (len(after) - end)
    # In the new text's offsets; an old statement's end moves with the edit, its start does not need to.
    spans = [(s, e) for s, e, _ in after[first:end]] + [(s, e + delta) for s, e, _ in before[first:old_end]]
    start = min([edit.start] + [s for s, _ in spans])
    stop = max([edit.new_end] + [e for _, e in spans])
    if any(e > start for _, e, _ in after[:first]) or any(s < stop for s, _, _ in after[end:]):
        raise Skipped("statements overlap the touched ones")
    return Touched(start, stop, stop - delta)


def _moved(statement: Statement, delta: int) -> Statement:
    return (statement[0] + delta, statement[1] + delta, statement[2])


@dataclass(frozen=True)
class _Summary:
    """What of a text (whole top-level statements) the facts of the whole script are made of."""

    functions: tuple[bytes, ...]  # names defined
    assignments: tuple[tuple[bytes, str], ...]  # each assignment's text, and its parent's type
    other_uses: frozenset[bytes]  # variable names used otherwise than assigned or expanded (`for NAME`, `local NAME`)
    words: frozenset[bytes]  # every word (`read NAME`): compared where they may name an assigned variable
    reaching: tuple[tuple[bytes, tuple], ...]  # commands whose effect reaches other statements, and where they run
    commands: Counter  # the names of the other commands: compared where they may call a function of the script
    markers: tuple[bool, ...]  # which of `facts.TEXT_MARKERS` the text holds


def _summary(text: bytes, statements: Sequence[Statement]) -> _Summary:
    """statements: the text's top-level statements as the whole script's parse has them (from the text's start).

    The text is parsed alone: where that parse ends its statements elsewhere,
    it says nothing of the script's (tree-sitter-bash #347 joins `wc -l` and a
    `. ./lib.sh` on the next line when the text ends right after them).
    """
    if any(directive in text for directive in _DIRECTIVES):
        raise Skipped("a directive in the touched text")
    if _HEREDOC.search(text):
        raise Skipped("a here-document in the touched text")
    root = syntax.parse(text).root_node
    if root.has_error:
        raise Skipped("the touched text does not parse on its own")
    if top_level(root) != tuple(statements):
        raise Skipped("the touched text parses otherwise on its own")
    found = QueryCursor(_query(_SUMMARY_QUERY)).captures(root)
    functions = tuple(sorted(syntax.text(node) for node in found.get("function", [])))
    assignments = tuple(
        sorted((syntax.text(node), node.parent.type if node.parent else "") for node in found.get("assignment", []))
    )
    variables = facts.VariableFacts.of(root)  # as the script facts read them: what carried.py carries needs them equal
    other_uses, words = frozenset(variables.other_uses), frozenset(variables.words)
    reaching, commands = [], Counter()
    for node in sorted(found.get("command", []), key=lambda node: node.start_byte):
        name = syntax.basename(syntax.command_word(node))  # `\\set -e` sets options as `set -e` does
        if name is None:
            name = b"$"  # a computed name: may be any command
        if name in _REACHING or name == b"$" or (name in WRAPPERS and commands_model.read(node).program in _REACHING):
            reaching.append((syntax.text(node), _ancestry(node)))
        else:
            commands[name] += 1
    markers = tuple(marker in text for marker in facts.TEXT_MARKERS)
    return _Summary(functions, assignments, other_uses, words, tuple(reaching), commands, markers)


def _within(statements: Sequence[Statement], start: int, end: int) -> list[Statement]:
    """The statements inside [start, end), from start."""
    return [(s - start, e - start, kind) for s, e, kind in statements if start <= s and e <= end]


def _same_facts(old: _Summary, new: _Summary, texts: tuple[bytes, ...]) -> None:
    """Skipped unless the two texts give the whole script the same facts; texts: where else names may be defined."""
    if (old.functions, old.assignments, old.other_uses, old.reaching, old.markers) != (
        new.functions, new.assignments, new.other_uses, new.reaching, new.markers
    ):  # fmt: skip
        raise Skipped("the touched text changes the script's facts: functions, assignments, options, …")
    # A word only counts where some assignment names it (`facts.literal_variables`).
    for word in old.words ^ new.words:
        pattern = re.compile(rb"(?<![A-Za-z0-9_])" + re.escape(word) + rb"(\[[^\]\n]*\])?\+?=")
        if any(_found_at_word(pattern, word, text) for text in texts):
            raise Skipped("the touched text changes the script's facts: a word that names an assigned variable")
    # A command only counts where it calls a function of the script (`shell_options`).
    changed = (old.commands - new.commands) + (new.commands - old.commands)
    for name in changed:
        escaped = re.escape(name)
        pattern = re.compile(rb"(?<![^\s;&|(){}])" + escaped + rb"[ \t]*\([ \t]*\)|\bfunction[ \t]+" + escaped + rb"(?![^\s;&|(){}])")
        if any(pattern.search(text) for text in texts):
            raise Skipped("the touched text changes the script's facts: a call of a function of the script")


def _found_at_word(pattern: re.Pattern[bytes], word: bytes, text: bytes) -> bool:
    """`pattern.search(text)` for a pattern that starts with word (after a lookbehind): tried where word
    occurs only. A search tries every offset (its lookbehind first), 0.6 ms per word on 128 KB."""
    at = text.find(word)
    while at != -1:
        if pattern.match(text, at):
            return True
        at = text.find(word, at + 1)
    return False


def _ancestry(node: Node) -> tuple[tuple[str, str | None], ...]:
    """The node's ancestors' types, and under which field each holds the next: where it runs."""
    path = []
    child, parent = node, node.parent
    while parent is not None:
        index = next((i for i, c in enumerate(parent.children) if c == child), -1)
        path.append((parent.type, parent.field_name_for_child(index) if index >= 0 else None))
        child, parent = parent, parent.parent
    return tuple(path)


def _overlaps_edit(name: bytes, text: bytes, start: int, end: int) -> bool:
    """name occurs in text over a byte of [start, end), or across `start` when nothing was (an insertion's place)."""
    low = max(0, start - len(name) + 1)
    high = min(len(text), max(end, start + 1) + len(name) - 1)
    return text.find(name, low, high) != -1


def _shifted(finding: Finding, delta: int) -> Finding:
    if not delta:
        return finding
    fix = finding.fix
    if fix is not None:
        fix = replace(fix, edits=tuple(Edit(e.start + delta, e.end + delta, e.content) for e in fix.edits))
    return replace(finding, start=finding.start + delta, end=finding.end + delta, fix=fix)


def _extent(finding: Finding) -> tuple[int, int]:
    """Every byte the finding or its fix touches."""
    if finding.fix is None or not finding.fix.edits:
        return finding.start, finding.end
    low, high = finding.fix.span
    return min(finding.start, low), max(finding.end, high)


def lint(base: Base, source: bytes, tree: Tree, settings: Settings, path: Path | None) -> list[Finding]:
    """The findings of source, linting only what an edit from base.source touched; Skipped when not exact.

    tree: tree-sitter's parse of source (incremental from the last one's, in the worker).
    """
    return [_shifted(finding, delta) for finding, delta in lint_moved(base, source, tree, settings, path)]


def lint_moved(base: Base, source: bytes, tree: Tree, settings: Settings, path: Path | None) -> list[Moved]:
    """`lint`'s findings as (finding, bytes to move it by): the carried ones are not copied (the worker
    needs only where each one is now, for the diagnostics' JSON)."""
    if settings != base.settings:
        raise Skipped("the settings changed")
    if linter.host_kind(settings, path) is not None:
        raise Skipped("not a script")
    old = base.source
    if UNUSED_DIRECTIVES in settings.enabled_codes(path) and any(
        directive in text for text in (old, source) for directive in _DIRECTIVES
    ):
        raise Skipped("PL900 runs: whether a directive disables something depends on every statement it covers")
    edit = edit_between(old, source)
    if edit is None:
        raise Skipped("no change")
    root = tree.root_node
    if root.has_error:
        raise Skipped("the new text does not parse")
    after = top_level(root)
    area = touched(base.baseline.statements, after, edit)
    first_line = old.find(b"\n")
    if area.start <= (first_line if first_line >= 0 else len(old)) and old.split(b"\n", 1)[0] != source.split(b"\n", 1)[0]:
        raise Skipped("the first line changed")
    old_text, new_text = old[area.start : area.old_end], source[area.start : area.end]
    old_statements = _within(base.baseline.statements, area.start, area.old_end)
    new_statements = _within(after, area.start, area.end)
    _same_facts(_summary(old_text, old_statements), _summary(new_text, new_statements), (source, old_text))
    for name in base.baseline.names:
        if _overlaps_edit(name, old, edit.start, edit.old_end) or _overlaps_edit(name, source, edit.start, edit.new_end):
            raise Skipped("the edit changes a name some rule looks for in the whole script")
    only = checker.Only(((area.start, area.end),), EVERYWHERE)
    # The whole script's variable facts: the exact lint's outside the touched statements (carried.py).
    kept = base.baseline.variables
    variables = carried.variables_after(kept, area.start, area.end, area.old_end, tree) if kept is not None else None
    result = linter.lint(source, settings, path, tree=tree, only=only, variables=variables)
    if result.parse_failures or result.notes or result.crashes:
        raise Skipped("the new text needs the parse guards, or a rule crashed")
    if result.dialect is not base.baseline.dialect:
        raise Skipped("the dialect changed")
    return _merged(base.findings, result.findings, area)


def _merged(before: Sequence[Finding], fresh: Sequence[Finding], area: Touched) -> list[Moved]:
    """The fresh findings of the touched text (and of EVERYWHERE), and the old ones of the rest, moved."""
    found: list[Moved] = []
    for finding in fresh:
        start, end = _extent(finding)
        inside = area.start <= start and end <= area.end
        if not inside and finding.code not in EVERYWHERE:
            raise Skipped(f"{finding.code} reports outside the touched text")
        found.append((finding, 0))
    everywhere = {(finding.code, finding.start, finding.end) for finding in fresh if finding.code in EVERYWHERE}
    for finding in before:
        start, end = _extent(finding)
        inside = area.start <= start and end <= area.old_end
        across = not inside and (start < area.old_end and area.start < end or start == end == area.start)
        if finding.code in EVERYWHERE:
            # Linted again on the whole script (its message may name another line now); but one in an
            # embedded script outside the touched text was not: the whole script's lint must report there.
            delta = area.delta if start >= area.old_end else 0
            if not inside and not across and (finding.code, finding.start + delta, finding.end + delta) not in everywhere:
                raise Skipped(f"{finding.code} no longer reports there, or reported in an embedded script")
            continue
        if inside:
            continue  # in the touched text: linted again
        if across:
            raise Skipped("a finding reaches into the touched text")
        found.append((finding, area.delta if start >= area.old_end else 0))
    found.sort(key=lambda moved: (moved[0].start + moved[1], moved[0].code))
    return found
