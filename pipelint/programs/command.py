"""One model of a simple command: what program it runs, through which wrappers, with which words.

`read(node)` turns a tree-sitter `command` into a `Command`: the program that
finally runs (`sudo -u pg nice -n 5 psql` runs psql), the wrappers on the way,
the program's options (one per letter of a short cluster, values attached or
taken from the next word, as `programs.py` says), its operands and every
redirect the shell applies to it. Rules ask the model instead of reading words.

A fix that moves a redirect across a wrapper that runs the program as another
user is unsafe: `sudo cat f | x` → `x < f` would open f as the caller
(`Command.runs_as_other_user`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.table import WRAPPERS, OptionSpec, Trait, WrapperSpec, program, spec_for
from pipelint.shell.properties import cached_property


@dataclass(frozen=True)
class Option:
    name: str  # "-c", "-9", "--output"; one per letter of a short cluster
    node: Node  # the word holding it
    value: bytes | None = None  # attached (-oF, --output=F) or the next word's static value
    value_node: Node | None = None  # the next word, when the value was separate
    takes_value: bool = False

    @property
    def is_whole_word(self) -> bool:
        """The option is all its word holds (`-9`, not `-c9`)."""
        return syntax.literal_value(self.node) == self.name.encode()


@dataclass(frozen=True)
class Wrapper:
    name: bytes  # b"sudo"
    node: Node  # its name word
    other_user: bool  # sudo/doas: the program runs as someone else


class Command:
    """A simple command as the shell runs it.

    The program and its wrappers are read at once (every rule asks for them
    first); options, operands, redirects and assignments only when a rule
    asks, since most commands interest no rule beyond their name.
    """

    def __init__(self, node: Node, resolution: _Resolution, redirects: Sequence[Node] | None = None):
        self.node = node  # the tree-sitter `command`
        # Basename of what finally runs; None when computed (`$cmd`, `sudo "$tool"`).
        self.program: bytes | None = resolution.program
        self.program_node: Node | None = resolution.program_node  # the word naming it (to edit it)
        self.wrappers: tuple[Wrapper, ...] = tuple(resolution.wrappers)
        self.arguments: tuple[Node, ...] = tuple(resolution.arguments)  # the program's own words
        self._wrappers_exact = resolution.exact
        if redirects is not None:
            self.redirects = tuple(redirects)

    @cached_property
    def redirects(self) -> tuple[Node, ...]:
        """Every redirect the shell applies to it, in source order (`syntax.applied_redirects`)."""
        return tuple(syntax.applied_redirects(self.node))

    @cached_property
    def assignments(self) -> tuple[Node, ...]:
        """`VAR=x cmd` prefixes (env's VAR=x are the wrapper's)."""
        return tuple(child for child in self.node.children if child.type == "variable_assignment")

    @cached_property
    def _split(self) -> Split:
        if self.program is None:
            return Split(operands=list(self.arguments), exact=False)
        return split_arguments(self.arguments, spec_for(self.program))

    @cached_property
    def options(self) -> tuple[Option, ...]:
        return tuple(self._split.options)

    @cached_property
    def operands(self) -> tuple[Node, ...]:
        return tuple(self._split.operands)

    @property
    def exact(self) -> bool:
        """False when a computed word may be an option (`-$x`, `"$opts"`) or name the program."""
        return self._wrappers_exact and self._split.exact

    def has(self, *names: str) -> bool:
        return any(option.name in names for option in self._split.options)

    def option(self, name: str) -> Option | None:
        """The last occurrence of an option (the one that wins), or None."""
        found = None
        for option in self._split.options:
            if option.name == name:
                found = option
        return found

    @property
    def runs_as_other_user(self) -> bool:
        return any(wrapper.other_user for wrapper in self.wrappers)

    @property
    def may_read_stdin(self) -> bool:
        """It may read standard input: a program not known never to (`NEVER_READS_STDIN`), one asked to
        (`rm -i`), `cat` without a file operand, or one run as another user (`sudo -S` reads the password there)."""
        known = program(self.program)
        if not self.exact or self.runs_as_other_user:
            return True
        if known.has(Trait.COPIES_FILES_OUT):  # `cat f` reads f; `cat`, `cat -`, `cat "$f"` may read stdin
            values = self.operand_values
            return not values or any(value in (None, b"-") for value in values)
        return not known.has(Trait.NEVER_READS_STDIN) or self.has(*known.reads_stdin_with)

    @property
    def operand_values(self) -> list[bytes | None]:
        """Each operand's static value, None where it is computed."""
        return [syntax.literal_value(node) for node in self._split.operands]

    def __repr__(self) -> str:
        return f"Command({syntax.text(self.node)!r})"


@dataclass
class Split:
    """A command line read by an OptionSpec."""

    options: list[Option] = field(default_factory=list)
    operands: list[Node] = field(default_factory=list)
    exact: bool = True
    stopped_at: int | None = None  # with stop_at_operand: the index of the first operand


def split_arguments(words: Sequence[Node], spec: OptionSpec, *, stop_at_operand: bool = False) -> Split:
    """Options and operands of words, as getopt would read them with spec.

    GNU permutation unless spec says POSIX order; `--` ends the options.
    stop_at_operand: stop at the first operand (a wrapper's command) and say where.
    """
    split = Split()
    index = 0
    options_done = False
    while index < len(words):
        node = words[index]
        index += 1
        value = syntax.literal_value(node)
        if options_done:
            split.operands.append(node)
        elif value == b"--":
            options_done = True
            if stop_at_operand:
                split.stopped_at = index
                return split
        elif value is not None and value.startswith(b"--"):
            index = _long_option(split, spec, words, index, node, value)
        elif value is not None and value.startswith(b"-") and value != b"-":
            index = _short_cluster(split, spec, words, index, node, value[1:])
        elif index == 1 and spec.old_style_first_word and value:
            index = _old_style_cluster(split, spec, words, index, node, value)
        elif value is None and _computed_option(split, spec, node):
            continue  # `-u$USER`, `--port=$PORT`: the option is known, its value computed
        else:
            if value is None and syntax.text(node).lstrip(b"\"'").startswith(b"-"):
                split.exact = False  # `-$level`, `"$opts"`: an option or several, unknown
            if stop_at_operand:
                split.stopped_at = index - 1
                return split
            split.operands.append(node)
            options_done = spec.options_end_at_operand and not (
                spec.options_after_first_operand and len(split.operands) == 1
            )
    return split


def _next_value(words: Sequence[Node], index: int) -> tuple[Node | None, int]:
    if index < len(words):
        return words[index], index + 1
    return None, index


def _long_option(split: Split, spec: OptionSpec, words: Sequence[Node], index: int, node: Node, word: bytes) -> int:
    name_bytes, equals, attached = word.partition(b"=")
    name = name_bytes.decode("utf-8", "surrogateescape")
    if equals:
        split.options.append(Option(name, node, attached, None, True))
    elif name in spec.long_with_value:
        value_node, index = _next_value(words, index)
        value = None if value_node is None else syntax.literal_value(value_node)
        split.options.append(Option(name, node, value, value_node, True))
    else:
        split.options.append(Option(name, node, takes_value=name in spec.long_optional_value))
    return index


def _computed_option(split: Split, spec: OptionSpec, node: Node) -> bool:
    """Read a word that expands something as an option, when its static start says which one and that the
    rest is its value: `-u$USER`, `-p"$PASS"`, `--port=$PORT` (`mysqldump -u$U db`). False for any
    other word (`-$level`, `-v$x`, `"$opts"`), which stays an operand."""
    start = syntax.static_prefix(node)
    if start.startswith(b"--"):
        name, equals, _ = start.partition(b"=")
        if not equals or len(name) < 3:
            return False  # `--$x`, `--pass$x`: the option itself is computed
        split.options.append(Option(name.decode("utf-8", "surrogateescape"), node, None, None, True))
        return True
    if not start.startswith(b"-") or len(start) < 2:
        return False
    before = len(split.options)
    _short_cluster(split, spec, (), 0, node, start[1:], computed_rest=True)
    if split.options[before:] and split.options[-1].takes_value:
        return True
    del split.options[before:]  # every letter a flag: the expansion may add more, or anything
    return False


def _short_cluster(
    split: Split, spec: OptionSpec, words: Sequence[Node], index: int, node: Node, letters: bytes,
    computed_rest: bool = False,
) -> int:  # fmt: skip
    """The options of `-abc`; computed_rest: the word goes on with an expansion after letters (`-u$U`)."""
    position = 0
    while position < len(letters):
        letter = letters[position : position + 1].decode("latin-1")
        position += 1
        if spec.digit_options and letter.isdigit():
            while position < len(letters) and letters[position : position + 1].isdigit():
                letter += letters[position : position + 1].decode()
                position += 1
            split.options.append(Option("-" + letter, node))
        elif letter in spec.short_attached_value:
            rest = letters[position:]
            value = None if computed_rest else rest or None
            split.options.append(Option("-" + letter, node, value, None, bool(rest) or computed_rest))
            break  # `mysql -pSECRET`: the rest of the cluster was the value; `-p` alone takes none
        elif letter in spec.short_with_value:
            rest = letters[position:]
            if computed_rest:
                split.options.append(Option("-" + letter, node, None, None, True))
            elif rest:
                split.options.append(Option("-" + letter, node, rest, None, True))
            else:
                value_node, index = _next_value(words, index)
                value = None if value_node is None else syntax.literal_value(value_node)
                split.options.append(Option("-" + letter, node, value, value_node, True))
            break  # the rest of the cluster was the value
        else:
            split.options.append(Option("-" + letter, node))
    return index


def _old_style_cluster(
    split: Split, spec: OptionSpec, words: Sequence[Node], index: int, node: Node, letters: bytes
) -> int:
    """`tar czfb - 20`: letters that take a value take the following words, in order."""
    for letter in letters.decode("latin-1"):
        if letter in spec.short_with_value:
            value_node, index = _next_value(words, index)
            value = None if value_node is None else syntax.literal_value(value_node)
            split.options.append(Option("-" + letter, node, value, value_node, True))
        else:
            split.options.append(Option("-" + letter, node))
    return index


@dataclass
class _Resolution:
    """The walk through wrappers: where it ended."""

    program: bytes | None
    program_node: Node | None
    arguments: Sequence[Node]
    wrappers: list[Wrapper] = field(default_factory=list)
    exact: bool = True


def _through_wrappers(resolution: _Resolution) -> _Resolution:
    """Follow `sudo -u U`, `env A=1`, `timeout 5`… to the program they run."""
    while resolution.program is not None and resolution.program in WRAPPERS:
        wrapper = WRAPPERS[resolution.program]
        after = _wrapped_words(resolution.arguments, wrapper)
        if after is None:  # `sudo $opts cmd`, `env -S '…'`: the program cannot be told
            resolution.program, resolution.exact = None, False
            return resolution
        if not after:  # `command -v x`, `exec 3>f`, `nohup`: the wrapper is what runs
            return resolution
        word = after[0]
        resolution.wrappers.append(Wrapper(resolution.program, resolution.program_node, wrapper.other_user))
        resolution.program = syntax.basename(syntax.literal_value(word))
        resolution.program_node = word
        resolution.arguments = after[1:]
        if resolution.program is None:
            resolution.exact = False
    return resolution


def _wrapped_words(words: Sequence[Node], wrapper: WrapperSpec) -> Sequence[Node] | None:
    """The words from the wrapped program's name on; () when it wraps nothing; None when unknowable."""
    split = split_arguments(words, wrapper.options, stop_at_operand=True)
    if not split.exact or any(option.name in wrapper.unknowable for option in split.options):
        return None
    if split.stopped_at is None or any(option.name in wrapper.options.query_options for option in split.options):
        return ()
    rest = words[split.stopped_at + wrapper.positional :]
    while wrapper.assignments and rest and _is_assignment_word(rest[0]):
        rest = rest[1:]
    return rest  # a computed first word (`sudo "$cmd"`) leaves the program unknown


def _is_assignment_word(node: Node) -> bool:
    value = syntax.literal_value(node)
    if value is None:
        return False
    name, equals, _ = value.partition(b"=")
    return bool(equals) and name.replace(b"_", b"a").isalnum() and not name[:1].isdigit()


def read_words(node: Node, words: Sequence[Node]) -> Command | None:
    """The model of the command line that words give, which node's program launches.

    `docker exec C sh -c '…'` launches `sh -c '…'`, `xargs -0 sudo sh -c '…'`
    launches `sudo sh -c '…'` (wrappers are seen through here too). The
    model's node and redirects are the launcher's. None when words is empty.
    """
    if not words:
        return None
    first = words[0]
    start = _Resolution(syntax.basename(syntax.literal_value(first)), first, words[1:])
    start.exact = start.program is not None
    return Command(node, _through_wrappers(start))


def read(
    node: Node, redirects: Sequence[Node] | None = None, wrapped: bool | None = None, program: bytes | None = None
) -> Command:
    """The model of a simple command node; redirects, when the caller knows them already.

    redirects must be what `syntax.applied_redirects(node)` would give (a
    pipeline `Stage` passes its own, which agree with it). program: the
    basename the command's name runs when the caller knows it though the name
    is computed (`$command` set once to `cat`: `ScriptFacts.program_named_by`).
    """
    name = node.child_by_field_name("name")
    literal = syntax.basename(syntax.command_name(node))
    start = _Resolution(literal or program, name, syntax.arguments(node, wrapped, redirects))
    return Command(node, _through_wrappers(start), redirects)
