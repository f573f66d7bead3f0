"""Where a shell option (`errexit`, `pipefail`, `nounset`) may be in force in a script.

A fix that changes a pipeline's status is safe only where nothing observes
it, and `set -e` or `set -o pipefail` observes it (issue 13's contract). The
answer errs on "in force"; it says "not in force" only where that is provable:

- no command before the offset may turn the option on: `set -e`, `set -o
  pipefail`, the shebang's `#!/bin/bash -e`, a host's `bash -eo pipefail`,
  an ERR trap (for errexit), or `. FILE`, `source`, `eval`, `set $OPTS`,
  which may turn on anything;
- a `set -e` inside `( … )`, `$( … )` or `<( … )` is confined to that
  subshell: statements outside it never see it;
- a `set +e` (`set +o pipefail`, `set +u`) turns the option off for the
  statements after it in its block, until something may turn it on again.
  Only where the off surely runs before the statement, each time the
  statement runs: `set +e` is a statement of the block itself (not behind
  `&&`, not in an `if` condition, not in a branch the statement is not in),
  the statement is not in a function defined after it (the function runs
  when called), and between the two nothing may turn the option on again:
  no `set -e`, no call of a script function while some function turns it
  on, and for a loop around the statement, the rest of the loop's body too
  (the next iteration runs it first). A script that sources files or runs
  `eval` gets no such proof: the code it runs may define functions or an
  ERR trap. An ERR trap runs under `set +e` as well, so it is never undone.

Inside a function body any option the script turns on anywhere may be in
force: a function runs where it is called.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.programs.table import Trait, has
from pipelint.shell import syntax
from pipelint.shell.options import ANY, read_set_words, read_shopt_words, shebang_options

# Nodes whose body runs in a child shell: options set inside stay there.
_SUBSHELLS = frozenset({"subshell", "command_substitution", "process_substitution"})
_LOOPS = frozenset({"while_statement", "for_statement", "c_style_for_statement"})
# Nodes whose named children run one after another in the same shell, and the fields that are none of them.
BLOCKS = frozenset(
    {"program", "compound_statement", "do_group", "subshell", "if_statement", "elif_clause", "else_clause", "case_item"}
)
NOT_STATEMENTS = frozenset({"condition", "value", "name"})
BLOCKS_WITH_FIELDS = frozenset({"if_statement", "elif_clause", "case_item"})  # the blocks where they are


@dataclass(frozen=True)
class _TurnOn:
    """A command that may turn an option on."""

    at: int  # where the command starts
    first_run: int  # from where it may be in force: the start of its outermost loop in its shell, else `at`
    shell: tuple[int, int] | None  # the `( … )`/`$( … )` it is confined to, if any
    in_function: bool  # it runs where its function is called
    undone_by_off: bool = True  # `set +e` undoes `set -e`, not an ERR trap


@dataclass(frozen=True)
class _TurnOff:
    """A `set +e` statement of a block: the option is off after it, up to `reach` (the rest of its branch)."""

    end: int
    reach: int


def builtin_run(command: Node) -> tuple[bytes | None, list[Node]]:
    """The builtin a command runs in the current shell, and that builtin's words.

    `set -e` runs `set`; so do `builtin set -e`, `command set -e`, `command -p
    set -e`, bash's keyword `time set -e`, and `\\set -e`, `'set' -e`: quotes
    and backslashes in a name only stop alias expansion. `command -v set`
    runs nothing. None for a computed name.
    """
    name = syntax.command_word(command)
    words = syntax.arguments(command)
    while has(name, Trait.RUNS_BUILTINS):
        while words and (syntax.literal_value(words[0]) or b"").startswith(b"-"):
            option = syntax.literal_value(words[0])
            words = words[1:]
            if option == b"--":
                break
            if option in (b"-v", b"-V"):
                return None, []  # `command -v set` only says what `set` is
        if not words or b"$" in syntax.text(words[0]) or b"`" in syntax.text(words[0]):
            return None, []
        name, words = syntax.lookup_name(words[0]), words[1:]
    return name, words


class ShellOptions:
    """The commands of one script that turn options on and off, and where each may be in force."""

    def __init__(
        self,
        root: Node,
        commands: list[Node],
        functions: list[Node],
        loops: list[Node],
        from_start: Iterable[str],
        program_of: Callable[[Node], bytes | None] = lambda node: syntax.basename(syntax.command_name(node)),
        unseen_code_first: bool = False,
    ):
        self._turn_ons: dict[str, list[_TurnOn]] = {}
        self._turn_offs: dict[str, list[_TurnOff]] = {}
        self._functions = [(node.start_byte, node.end_byte) for node in functions]
        # The outermost functions' spans, in order: whether an offset is in one is a bisection,
        # not a scan of every function per question (a 6.5 MB script has thousands).
        self._function_starts, self._function_ends = _outermost(self._functions)
        self._function_nest = _Nest(self._functions)
        self._loop_nest = _Nest((node.start_byte, node.end_byte) for node in loops)
        self._options: dict[str, _Option] = {}  # built on the first question about each option
        # `. FILE`, `source`, `eval`, or code run first (BASH_ENV): no `set +e` proves anything (an ERR trap stays)
        self._runs_other_code = unseen_code_first
        for name in from_start:
            self._turn_ons.setdefault(name, []).append(_TurnOn(0, 0, None, False))
        shebang = root.text[: root.text.find(b"\n")] if root.text.startswith(b"#!") else b""
        for name in shebang_options(shebang).on:
            self._turn_ons.setdefault(name, []).append(_TurnOn(0, 0, None, False))
        function_names = {syntax.text(name) for node in functions if (name := node.child_by_field_name("name")) is not None}
        self._calls: list[int] = []  # starts of commands that call a script function, in order
        for node in commands:
            program = program_of(node)
            if program in function_names:
                self._calls.append(node.start_byte)
            words = None
            if program is None or b"\\" in program or has(program, Trait.RUNS_BUILTINS):
                program, words = builtin_run(node)  # `builtin set -e`, `command set -e`, `\\set -e`, `'set' -e`
            # A command that runs code the script does not show (`. FILE`, `eval`) may turn on any option.
            if has(program, Trait.SETS_OPTIONS) or has(program, Trait.RUNS_OTHER_CODE):
                self._read_command(node, program, words)
        self._calls.sort()
        self._set_in_functions = {name for name, found in self._turn_ons.items() if any(t.in_function for t in found)}

    def _read_command(self, node: Node, program: bytes, arguments: list[Node] | None = None) -> None:
        arguments = syntax.arguments(node) if arguments is None else arguments
        words = [syntax.literal_value(word) for word in arguments]
        if has(program, Trait.RUNS_OTHER_CODE):
            self._runs_other_code = True
            self._add_turn_on(ANY, node)
        elif program == b"trap":  # an ERR trap runs on every failing command, as errexit stops on it
            if b"ERR" in words:
                self._add_turn_on("errexit", node, undone_by_off=False)
        elif program == b"shopt":  # `shopt -so pipefail`, `shopt -s lastpipe` (a `shopt -u` is not followed)
            read = read_shopt_words(words)
            for name in read.on | ({ANY} if read.unknown else set()):
                self._add_turn_on(name, node)
        else:
            read = read_set_words(words)
            for name in read.on | ({ANY} if read.unknown else set()):
                self._add_turn_on(name, node)
            if read.off and not read.on and not read.unknown:
                self._add_turn_off(read.off, node)

    def _add_turn_on(self, name: str, node: Node, undone_by_off: bool = True) -> None:
        first_run, shell, in_function = node.start_byte, None, False
        current = node.parent
        while current is not None:
            if current.type in _SUBSHELLS:
                shell = (current.start_byte, current.end_byte)
                break  # loops around the subshell start it afresh each time
            if current.type in _LOOPS:
                first_run = current.start_byte  # the next iteration runs what comes before it in the body
            in_function |= current.type == "function_definition"
            current = current.parent
        self._turn_ons.setdefault(name, []).append(_TurnOn(node.start_byte, first_run, shell, in_function, undone_by_off))

    def _add_turn_off(self, names: frozenset[str], node: Node) -> None:
        statement, block = node, node.parent
        if block is not None and block.type == "redirected_statement":
            statement, block = block, block.parent
        if block is None or block.type not in BLOCKS:
            return  # behind `&&`, `||`, `!`, in a pipeline: it may not run
        if block.type in BLOCKS_WITH_FIELDS and any(
            child == statement for field in NOT_STATEMENTS for child in block.children_by_field_name(field)
        ):
            return  # `if set +e; then` (a program's 100,000 statements are not asked)
        reach = block.end_byte
        if block.type == "if_statement":  # only an if holds the branches that run instead of it
            sibling = statement.next_sibling
            while sibling is not None and sibling.type not in ("elif_clause", "else_clause"):
                sibling = sibling.next_sibling
            if sibling is not None:
                reach = sibling.start_byte  # a branch that runs only when the one holding `set +e` did not
        for name in names:
            self._turn_offs.setdefault(name, []).append(_TurnOff(statement.end_byte, reach))

    def in_force(self, name: str, offset: int) -> bool:
        """Whether option `name` may be on when the statement at offset runs.

        A question costs binary searches and walks up nested spans, not a look at
        every command that turns an option on or off: with one per `set -e` /
        `set +e` pair of a script, the old scans made 4,000 pairs take over 300 s.
        """
        option = self._option(name)
        in_function = self._in_function(offset)
        if not (option.any_on() if in_function else option.may_be_on_at(offset)):
            return False
        if self._runs_other_code or any(option.may_be_on(turn_on, offset, in_function) for turn_on in option.never_undone):
            return True
        # Of the `set +e` that reach offset, the last one to run proves the most: whatever
        # may turn the option on again after it, or wrap offset in a function or a loop,
        # does so after each earlier one too (their stretches nest, as their blocks do).
        off = next(option.offs.holding(offset), None)
        return off is None or not self._turned_off_by(off[0], name, offset, option, in_function)

    def _option(self, name: str) -> _Option:
        option = self._options.get(name)
        if option is None:
            ons = self._turn_ons.get(name, []) + self._turn_ons.get(ANY, [])
            option = self._options[name] = _Option(ons, self._turn_offs.get(name, []))
        return option

    def _in_function(self, offset: int) -> bool:
        index = bisect.bisect_right(self._function_starts, offset) - 1
        return index >= 0 and offset < self._function_ends[index]

    def _turned_off_by(self, off_end: int, name: str, offset: int, option: _Option, in_function: bool) -> bool:
        """`set +e` ending at off_end surely runs before the statement at offset, and nothing may turn the option on between."""
        if any(start >= off_end for start, _ in self._function_nest.holding(offset)):
            return False  # offset is in a function defined after `set +e`: it runs when called
        # A loop around offset that starts after `set +e` runs all of its body before the next iteration.
        until = max((end for start, end in self._loop_nest.holding(offset) if start >= off_end), default=offset)
        if option.turned_on_between(off_end, until, offset, in_function):
            return False
        if name in self._set_in_functions or ANY in self._set_in_functions:
            index = bisect.bisect_left(self._calls, off_end)
            if index < len(self._calls) and self._calls[index] < until:
                return False  # a call of a script function, and some function turns the option on
        return True


class _Nest:
    """Spans that nest or lie apart, as a tree's nodes do, and which of them hold an offset.

    Sorted by start, each span knows the innermost span around it; the spans
    holding an offset are then the last span starting at or before it and
    that span's outer ones: a bisection and a walk as deep as the nesting.
    """

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self._spans = sorted(set(spans), key=lambda span: (span[0], -span[1]))  # outer first at equal starts
        self._starts = [start for start, _ in self._spans]
        self._outer: list[int] = []  # index of the innermost span around each, or -1
        open_spans: list[int] = []
        for index, (start, end) in enumerate(self._spans):
            while open_spans and self._spans[open_spans[-1]][1] < end:
                open_spans.pop()  # ends before this one does: not around it
            self._outer.append(open_spans[-1] if open_spans else -1)
            open_spans.append(index)

    def holding(self, offset: int) -> Iterator[tuple[int, int]]:
        """The spans with start <= offset < end, innermost first."""
        index = bisect.bisect_right(self._starts, offset) - 1
        while index >= 0:
            span = self._spans[index]
            if offset < span[1]:
                yield span
            index = self._outer[index]


class _Option:
    """The commands that turn one option on, and the `set +…` that turn it off, sorted for questions at an offset."""

    def __init__(self, ons: list[_TurnOn], offs: list[_TurnOff]) -> None:
        self._ons = sorted(ons, key=lambda turn_on: turn_on.at)
        self._ats = [turn_on.at for turn_on in self._ons]
        # Those not confined to a subshell, and those confined, by the subshell.
        self._free = [turn_on for turn_on in self._ons if turn_on.shell is None]
        self._free_ats = [turn_on.at for turn_on in self._free]
        self._first_free_run = min((turn_on.first_run for turn_on in self._free), default=None)
        self._confined: dict[tuple[int, int], list[_TurnOn]] = {}
        for turn_on in self._ons:
            if turn_on.shell is not None:
                self._confined.setdefault(turn_on.shell, []).append(turn_on)
        self._shells = _Nest(self._confined)
        self.never_undone = [turn_on for turn_on in self._ons if not turn_on.undone_by_off]
        self.offs = _Nest((off.end, off.reach) for off in offs)

    @staticmethod
    def may_be_on(turn_on: _TurnOn, offset: int, in_function: bool) -> bool:
        """Whether the command may have turned the option on for the statement at offset."""
        if in_function:
            return True  # a function runs where it is called
        if turn_on.first_run > offset:
            return False
        return turn_on.shell is None or turn_on.shell[0] <= offset < turn_on.shell[1]

    def any_on(self) -> bool:
        return bool(self._ons)

    def may_be_on_at(self, offset: int) -> bool:
        """Some command may have turned the option on for the statement at offset (outside functions)."""
        if self._first_free_run is not None and self._first_free_run <= offset:
            return True
        return any(
            turn_on.first_run <= offset for shell in self._shells.holding(offset) for turn_on in self._confined[shell]
        )

    def turned_on_between(self, start: int, end: int, offset: int, in_function: bool) -> bool:
        """A command at start <= at < end may turn the option on for the statement at offset."""
        if in_function:
            index = bisect.bisect_left(self._ats, start)
            return index < len(self._ats) and self._ats[index] < end
        index = bisect.bisect_left(self._free_ats, start)
        # Up to offset each one may (it runs first); past it, inside a loop around offset, those whose loop started before.
        while index < len(self._free) and self._free_ats[index] < end:
            if self._free[index].first_run <= offset:
                return True
            index += 1
        return any(
            start <= turn_on.at < end and turn_on.first_run <= offset
            for shell in self._shells.holding(offset)
            for turn_on in self._confined[shell]
        )


def _outermost(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The starts and ends of the spans not inside another, in order."""
    starts: list[int] = []
    ends: list[int] = []
    for start, end in sorted(spans):
        if ends and start < ends[-1]:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    return starts, ends
