"""Facts about a whole script, each computed once per file on first use (`Context.facts`).

A rule that needs more than the node in front of it asks here: which
variables hold one literal value (`LOG=/mnt/nfs/b.log`), which filesystems
the script mounts before a given line, which commands run one after another
in the same shell. Nothing is computed for a file whose rules never ask.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from tree_sitter import Node

from pipelint.facts import mounts
from pipelint.shell import syntax
from pipelint.programs import pipeline as pipelines
from pipelint.programs.command import Command
from pipelint.programs.table import WRAPPERS, Trait, has, named, program
from pipelint.shell.properties import cached_property
from pipelint.facts.shell_options import BLOCKS, ShellOptions
from pipelint.facts.static_paths import LiteralVariables, static_path
from pipelint.shell.options import STARTUP_VARIABLES, Environment

# Names whose command may mount or unmount: the programs that do, and the wrappers that may run them.
_MOUNT_LEADS = named(Trait.MOUNTS) | named(Trait.UNMOUNTS) | frozenset(WRAPPERS)
# Texts these facts look for anywhere in the script before reading further: a script without the text
# skips that reading. An edit that adds or removes one changes what other statements see.
_ALIAS_TEXT, _TRAP_TEXT, _PIPESTATUS_TEXT, _IFS_TEXT = b"alias", b"trap", b"PIPESTATUS", b"IFS"
TEXT_MARKERS = (_ALIAS_TEXT, _TRAP_TEXT, _PIPESTATUS_TEXT, _IFS_TEXT, b"source", b"eval", *sorted(STARTUP_VARIABLES))
# The commands whose effect these facts read in other statements: options and traps, aliases, code the
# script runs unseen, mounts. An edit that adds, removes or moves one changes what other statements'
# findings rest on (the language server's provisional lint re-lints everything then).
COMMANDS_READ = (
    named(Trait.SETS_OPTIONS) | named(Trait.RUNS_OTHER_CODE) | named(Trait.MOUNTS) | named(Trait.UNMOUNTS)
    | named(Trait.DEFINES_ALIASES)
)  # fmt: skip

# (offset after the command, the mount it made, or the mount point it unmounted)
MountEvent = tuple[int, mounts.Mount | bytes]


class Meaning(Enum):
    """What a command name runs in a script (`ScriptFacts.meaning`)."""

    PROGRAM = "the program or builtin of that name"
    DEFINED = "a function or alias the script defines"
    UNKNOWN = "maybe a function or alias of code the script runs without showing it (`. FILE`, `eval`)"


@dataclass(frozen=True)
class Step:
    """A statement of a block that is a simple command, or a pipeline of simple commands.

    For a pipeline, command is its last stage (the one whose output the
    statement's redirects take) and stages all of them, in order.
    """

    command: Node
    statement: Node  # the command or pipeline with its redirects: what a finding underlines
    pipeline: tuple[Node, ...] = ()  # a pipeline's stages, first to last; () for a simple command

    @property
    def stages(self) -> tuple[Node, ...]:
        return self.pipeline or (self.command,)


# What the variable facts are made of, captured in one query (syntax.captures).
# A variable name counts as another use (`for NAME in`, `unset NAME`, `local
# NAME`) unless it is assigned, expanded, exported or made readonly.
_VARIABLES_QUERY = """
(variable_assignment) @assignment
(command (variable_assignment) @command_prefix)
(variable_name) @variable
(variable_assignment name: (variable_name) @not_other)
(simple_expansion (variable_name) @not_other)
(expansion (variable_name) @not_other)
(declaration_command "export" (variable_name) @not_other)
(declaration_command "readonly" (variable_name) @not_other)
(word) @word
"""
# The statement facts' captures beyond every `command`: the checker's candidates query holds them too.
STATEMENT_PATTERNS = (
    "(function_definition) @function\n"
    "[(while_statement) (for_statement) (c_style_for_statement)] @loop\n"
    "[" + " ".join(f"({kind})" for kind in sorted(BLOCKS)) + "] @block"
)
_STATEMENTS_QUERY = "(command) @command\n" + STATEMENT_PATTERNS
_EXPANSIONS_QUERY = "[(simple_expansion) (expansion)] @expansion"
_PIPE_SIGNALS = frozenset({b"PIPE", b"SIGPIPE", b"13"})


@dataclass
class VariableFacts:
    """The nodes the variable facts are made of: one query, run only when a rule asks about variables."""

    assignments: dict[bytes, list[Node]] = field(default_factory=dict)
    command_prefixes: set[int] = field(default_factory=set)  # ids of `LOG=x cmd` assignments: for cmd only
    other_uses: set[bytes] = field(default_factory=set)  # `for NAME in`, `unset NAME`, `local NAME`
    words: set[bytes] = field(default_factory=set)  # `read NAME`, `printf -v NAME`, `getopts … NAME`

    @classmethod
    def of(cls, root: Node) -> VariableFacts:
        captured = syntax.captures(syntax.query(_VARIABLES_QUERY), root)
        found = cls()
        for node in captured.get("assignment", []):
            name = node.child_by_field_name("name")
            if name is not None:
                found.assignments.setdefault(syntax.text(name), []).append(node)
        found.command_prefixes = {node.id for node in captured.get("command_prefix", [])}
        not_other = {node.id for node in captured.get("not_other", [])}
        found.other_uses = {syntax.text(node) for node in captured.get("variable", []) if node.id not in not_other}
        found.words = {syntax.text(node) for node in captured.get("word", [])}
        return found


class _OnFirstUse(Mapping):
    """A mapping computed the first time it is read: `static_path` of a literal path never reads it."""

    def __init__(self, compute: Callable[[], dict]):
        self._compute = compute
        self._data: dict | None = None

    @property
    def _values(self) -> dict:
        if self._data is None:
            self._data = self._compute()
        return self._data

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


class ScriptFacts:
    """Script-wide facts about one parsed file."""

    def __init__(
        self,
        root: Node,
        read: Callable[[Node], Command],
        options_from_start: frozenset[str] = frozenset(),
        status_handed_on: bool = True,
        statements: dict[str, list[Node]] | None = None,
        names: dict[int, bytes | None] | None = None,
        variables: Callable[[Node], VariableFacts] | None = None,
        unseen_code_first: bool = False,
    ):
        self.root = root
        # Code the script cannot show runs first in its shell (a `BASH_ENV` file, a `before_script` of another file).
        self._unseen_code_first = unseen_code_first
        # How the variable facts of root are found: the query, unless the caller has them (the language
        # server's provisional lint carries most from the last exact lint: lsp/carried.py).
        self._variables_of = variables if variables is not None else VariableFacts.of
        # Each command's program basename by node id, when the checker's query read them.
        self._names_found = names
        # Captures of `command`, `function`, `loop` and `block` below root, when the checker's query made them.
        self._statements_found = statements
        self._read = read  # the file's cached command reader (`Context.command`)
        # Whether the status of the script's last command is seen (`regions.Region.status_handed_on`).
        self.status_handed_on = status_handed_on
        # Options in force from the first line: a region run by `bash -e -c`, a CI step's `bash -eo pipefail`.
        self._options_from_start = options_from_start

    @cached_property
    def _variables(self) -> VariableFacts:
        return self._variables_of(self.root)

    @cached_property
    def _statements(self) -> dict[str, list[Node]]:
        if self._statements_found is not None:
            return self._statements_found
        return syntax.captures(syntax.query(_STATEMENTS_QUERY), self.root)

    @property
    def _commands(self) -> list[Node]:
        return self._statements.get("command", [])

    def _program(self, command: Node) -> bytes | None:
        """The command's program basename (`syntax.command_name`), as the checker's query read it if it did."""
        names = self._names_found
        if names is not None and command.id in names:
            return names[command.id]
        return syntax.basename(syntax.command_name(command))

    @property
    def literal_variables(self) -> LiteralVariables:
        """Variables set once in the script to a literal and never touched otherwise (found on first read).

        A new mapping each time, not kept here: kept, it would hold this object's
        method and close a cycle that outlives the file's lint with all its facts.
        """
        return _OnFirstUse(lambda: self._literal_variables)

    @cached_property
    def _literal_variables(self) -> dict[bytes, tuple[int, bytes]]:
        found = self._variables
        known: dict[bytes, tuple[int, bytes]] = {}
        for name, nodes in found.assignments.items():
            if len(nodes) != 1 or name in found.other_uses or name in found.words:
                continue
            node = nodes[0]
            value = node.child_by_field_name("value")
            if any(child.type == "+=" for child in node.children):
                continue
            if node.id in found.command_prefixes:
                continue  # `LOG=x cmd` sets it for cmd only
            literal = b"" if value is None else syntax.literal_value(value)
            if literal is not None:
                known[name] = (node.end_byte, literal)
        return known

    @cached_property
    def exported_startup(self) -> Environment:
        """The startup variables (SHELLOPTS, BASHOPTS, BASH_ENV: `shell.options`) the shells this script
        starts may inherit from it, each with its value (None: not known).

        A word naming one anywhere (`export SHELLOPTS`, `declare -x BASH_ENV=f`)
        or an assignment to one (a later `export`, or `set -a`, exports it): the
        cautious reading, without asking which command the word belongs to.
        `export SHELLOPTS` passes the options in force then: not known.
        """
        text = self.root.text
        if not any(name in text for name in STARTUP_VARIABLES):
            return ()  # most scripts: nothing read
        found: list[tuple[bytes, bytes | None]] = []
        for name in STARTUP_VARIABLES:
            assignments = self._variables.assignments.get(name, [])
            for node in assignments:
                value = node.child_by_field_name("value")
                found.append((name, b"" if value is None else syntax.literal_value(value)))
            if text.count(name) > len(assignments):  # `export SHELLOPTS`, `declare -x BASHOPTS`: the value then in force
                found.append((name, None))
        return tuple(sorted(set(found), key=lambda item: (item[0], item[1] or b"")))

    @cached_property
    def aliases(self) -> frozenset[bytes]:
        """Names the script defines with `alias NAME=…` (dash expands aliases in scripts; bash with expand_aliases)."""
        names: set[bytes] = set()
        if _ALIAS_TEXT not in self.root.text:
            return frozenset()  # most scripts: no command to look at
        for node in self._commands:
            if self._program(node) != b"alias":
                continue
            for argument in syntax.arguments(node):
                name, equals, _ = syntax.text(argument).lstrip(b"\"'").partition(b"=")
                if equals and name:
                    names.add(name)
        return frozenset(names)

    @cached_property
    def runs_unseen_code(self) -> bool:
        """The script runs code it does not show (`. FILE`, `source FILE`, `eval`, or code its host runs first in
        the same shell: `embedded.regions.Region.runs_code_first`): that code may define any function, alias or trap."""
        return self._unseen_code_first or any(has(self._program(node), Trait.RUNS_OTHER_CODE) for node in self._commands)

    @cached_property
    def functions(self) -> frozenset[bytes]:
        """Names of the functions the script defines (they run in the current shell)."""
        names = None if self._statements_found is None else self._statements_found.get("function_name", [])
        return syntax.defined_functions(self.root, names)

    @cached_property
    def _comment_starts(self) -> list[int]:
        comments = None if self._statements_found is None else self._statements_found.get("comment_anywhere", [])
        return syntax.comment_starts(self.root, comments)

    def has_comment(self, start: int, end: int) -> bool:
        """A comment begins between the two byte offsets (an edit there would delete it)."""
        starts = self._comment_starts
        index = bisect.bisect_left(starts, start)
        return index < len(starts) and starts[index] < end

    def meaning(self, name: bytes | None) -> Meaning:
        """What a command name runs: the program, a function or alias of the script, or maybe either.

        The one answer to "is this name the program?": a function or alias the
        script defines (before or after the use: a function runs where it is
        called) runs instead; code the script does not show may define one.
        """
        if name is None:
            return Meaning.UNKNOWN
        if name in self.functions or name in self.aliases:
            return Meaning.DEFINED
        return Meaning.UNKNOWN if self.runs_unseen_code else Meaning.PROGRAM

    def holds_one_word(self, name: bytes, offset: int) -> bool:
        """`$name` unquoted at offset expands to exactly one word, unchanged: set once, before, to a literal
        without blanks or glob characters, and the script never sets IFS (issue 10: `cat $f | cmd`)."""
        known = self.literal_variables.get(name)
        if known is None or _IFS_TEXT in self._variables.assignments or _IFS_TEXT in self._variables.other_uses:
            return False
        assigned_at, value = known
        return assigned_at <= offset and bool(value) and not any(ch in value for ch in b" \t\n*?[")

    def holds_a_list(self, name: bytes) -> bool:
        """Some assignment gives the variable several words for an unquoted `$name` to split into: `$*`,
        `$@`, an array's `[@]`/`[*]`, text with a blank (`files="a b"`, `files="$files $f"`), or `+=`.

        `files=$*; cat $files | wc -l` hands cat several files, not one (a `$(…)` is not counted:
        `f=$(mktemp)` holds one word as often as `files=$(ls)` holds many)."""
        return name in self._list_variables

    @cached_property
    def _list_variables(self) -> frozenset[bytes]:
        found = set()
        for name, assignments in self._variables.assignments.items():
            for assignment in assignments:
                if any(child.type == "+=" for child in assignment.children):
                    found.add(name)
                    break
                value = assignment.child_by_field_name("value")
                if value is not None and _holds_words(value):
                    found.add(name)
                    break
        return frozenset(found)

    def program_named_by(self, command: Node) -> bytes | None:
        """The program a command's computed name runs, when it is a variable the script sets once, at its top
        level, before the command, to one literal word: `command=cat; $command "$1" | mysql db` runs cat.

        None for any other name, and when the script runs code it does not show (`. FILE` may set the
        variable again). `$command` unquoted needs what `holds_one_word` says (no IFS set, no blank).
        """
        found = syntax.command_name_variable(command)
        if found is None or self.runs_unseen_code:
            return None
        variable, quoted = found
        known = self.literal_variables.get(variable)
        if known is None or (not quoted and not self.holds_one_word(variable, command.start_byte)):
            return None
        assigned_at, value = known
        if assigned_at > command.start_byte or not value or any(ch in value for ch in b" \t\n*?[\\$`"):
            return None
        (assignment,) = self._variables.assignments[variable]
        statement = assignment.parent
        if statement is not None and statement.type == "declaration_command":
            statement = statement.parent  # `readonly CAT=cat`, `export CAT=cat`
        if statement is None or statement.type != "program":
            return None  # set in a branch, a loop or a function: it may not have run
        return syntax.basename(value)

    def may_hold_dash_word(self, word: Node) -> bool:
        """A variable expanded in word is assigned a value that may begin with `-` (`f=${1:--}`, `x=-n`).

        To `cat` such a word is standard input or an option, not a file (issue 13, class 13).
        """
        # Expansions, then their names: asking a name for its parent walks down from the
        # root, across every statement of a flat script (quadratic on 5,000 lines).
        expansions = (node for node in syntax.walk(word) if node.type in ("simple_expansion", "expansion"))
        names = (child for node in expansions for child in node.children if child.type == "variable_name")
        return any(syntax.text(name) in self._dash_variables for name in names)

    @cached_property
    def _dash_variables(self) -> frozenset[bytes]:
        """The variables some assignment may give a value beginning with `-`: one look at each assignment."""
        found = set()
        for name, assignments in self._variables.assignments.items():
            for assignment in assignments:
                value = assignment.child_by_field_name("value")
                text = b"" if value is None else syntax.text(value)
                if text.lstrip(b"\"'").startswith(b"-") or b"--}" in text:
                    found.add(name)
                    break
        return frozenset(found)

    @cached_property
    def ignores_sigpipe(self) -> bool:
        """Some `trap '' PIPE` (SIGPIPE, 13), or a trap whose action is not known, for that signal.

        A writer whose reader stops then gets an error instead of dying quietly,
        and says so: `cat: write error: Broken pipe`.
        """
        text = self.root.text
        if _TRAP_TEXT not in text or (b"PIPE" not in text and b"13" not in text):
            return False  # most scripts: no command read
        for node in self._commands:
            if self._program(node) != b"trap":
                continue
            words = [syntax.literal_value(word) for word in syntax.arguments(node)]
            if words[:1] == [b"--"]:
                words = words[1:]
            if len(words) > 1 and words[0] in (b"", None) and any(word in _PIPE_SIGNALS for word in words[1:]):
                return True
        return False

    @cached_property
    def reads_pipestatus(self) -> bool:
        """Some expansion reads `PIPESTATUS`: the status of every stage may be seen."""
        if _PIPESTATUS_TEXT not in self.root.text:
            return False  # most scripts: no query at all
        expansions = syntax.captures(syntax.query(_EXPANSIONS_QUERY), self.root).get("expansion", [])
        return any(b"PIPESTATUS" in syntax.text(node) for node in expansions)

    @cached_property
    def _shell_options(self) -> ShellOptions:
        statements = self._statements
        return ShellOptions(
            self.root,
            self._commands,
            statements.get("function", []),
            statements.get("loop", []),
            self._options_from_start,
            self._program,
            self._unseen_code_first,
        )

    def option_at(self, name: str, offset: int) -> bool:
        """Whether `set -o NAME` may be in force at offset (`shell_options`: errs on "in force")."""
        return self._shell_options.in_force(name, offset)

    def errexit_at(self, offset: int) -> bool:
        return self.option_at("errexit", offset)

    def pipefail_at(self, offset: int) -> bool:
        return self.option_at("pipefail", offset)

    @cached_property
    def mounts_made(self) -> list[MountEvent]:
        """`mount -t nfs4 srv:/x /mnt/x`, `sshfs h:/ /mnt/h`, `umount /mnt/x` in the script, in order.

        An unmount only takes back what the script mounted (`mount_table`): in a script that
        mounts nothing, its operands are not read (which would read every variable of the script).
        """
        events: list[MountEvent] = []
        unmounts: list[tuple[Node, Command]] = []
        for node, model in self._mount_commands:
            if has(model.program, Trait.UNMOUNTS):
                unmounts.append((node, model))
                continue
            mount = self._mount(model)
            if mount is not None:
                events.append((node.end_byte, mount))
        for node, model in unmounts if events else ():
            for point in model.operands:
                path = static_path(point, self.literal_variables)
                if path is not None and path.complete and path.value.startswith(b"/"):
                    events.append((node.end_byte, path.value))
        return sorted(events, key=lambda event: event[0])

    @cached_property
    def mounts_slow_filesystem(self) -> bool:
        """Whether the script mounts a slow filesystem (NFS, CIFS, sshfs…) anywhere; no mount point is read."""
        kinds = (_mount_kind(model) for _, model in self._mount_commands)
        return any(kind is not None and mounts.is_slow_filesystem(*kind) for kind in kinds)

    @cached_property
    def _mount_commands(self) -> list[tuple[Node, Command]]:
        """The commands that may mount or unmount, with their models, in order."""
        # Named first: reading every command's model cost PL102 most of its time.
        return [(node, self._read(node)) for node in self._commands if self._program(node) in _MOUNT_LEADS]

    def _mount(self, model: Command) -> mounts.Mount | None:
        """The network mount a `mount`, `mount.nfs4`, `sshfs`… command makes (behind sudo too), or None."""
        kind = _mount_kind(model)
        if kind is None:
            return None
        point = static_path(model.operands[1], self.literal_variables)
        if point is None or not point.complete or not point.value.startswith(b"/"):
            return None
        return mounts.Mount(point.value, *kind)

    def mount_table(self, system: mounts.MountTable, offset: int) -> mounts.MountTable | mounts.MountTableAt:
        """The system's table plus what the script mounted (and did not unmount) before offset."""
        if not self.mounts_made:
            return system
        return mounts.MountTableAt(system, self._script_mounts, offset)

    @cached_property
    def _script_mounts(self) -> mounts.ScriptMounts:
        return mounts.ScriptMounts(self.mounts_made)

    @cached_property
    def _sequences(self) -> dict[int, tuple[list[Step], int]]:
        """For each command that is a step of a block: the block's steps and its index among them."""
        found: dict[int, tuple[list[Step], int]] = {}
        for block in self._statements.get("block", []):
            steps = _steps(block)
            for index, step in enumerate(steps):
                for stage in step.stages:
                    found[stage.id] = (steps, index)
        return found

    def steps_before(self, command: Node) -> list[Step]:
        """The steps before the one command is in its block, in order; [] when it is in none."""
        steps, index = self._sequences.get(command.id, ([], 0))
        return steps[:index]

    def commands_between(self, start: int, end: int) -> list[Node]:
        """Every simple command that starts between the two offsets, nested ones too, in document order."""
        commands = self._commands
        starts = self._command_starts
        return commands[bisect.bisect_left(starts, start) : bisect.bisect_left(starts, end)]

    @cached_property
    def _command_starts(self) -> list[int]:
        return [node.start_byte for node in self._commands]

    def steps_from(self, command: Node) -> list[Step]:
        """The step command is (or is a stage of) and the steps after it in its block, in order; [] when
        it is in none."""
        steps, index = self._sequences.get(command.id, ([], 0))
        return steps[index:]


def _holds_words(value: Node) -> bool:
    """An assignment's value that holds several words once split: `$*`, `"$@"`, `${a[@]}`, a blank."""
    if value.type == "array":
        return len(value.named_children) > 1
    text = bytearray(syntax.text(value))
    for node in syntax.walk(value):
        kind = node.type
        if kind in ("command_substitution", "process_substitution", "arithmetic_expansion"):
            start, end = node.start_byte - value.start_byte, node.end_byte - value.start_byte
            text[start:end] = b"_" * (end - start)  # the inner command's blanks are not the value's
        elif kind in ("simple_expansion", "expansion"):
            written = syntax.text(node).strip()
            if written in (b"$*", b"$@", b"${*}", b"${@}") or b"[@]" in written or b"[*]" in written:
                return True
    return _BLANK.search(bytes(text)) is not None


_BLANK = re.compile(rb"[ \t\n]")


def steps_of(block: Node) -> list[Step]:
    """The steps of a block (a script's root, a function body, a loop's body) in order."""
    return _steps(block)


def _steps(block: Node) -> list[Step]:
    steps: list[Step] = []
    conditions = {child.id for child in block.children_by_field_name("condition")}
    for child in block.children:
        if child.id in conditions or child.type in ("elif_clause", "else_clause"):
            continue
        _add_steps(child, child, steps)
    return steps


def _add_steps(node: Node, statement: Node, steps: list[Step]) -> None:
    if node.type == "command":
        steps.append(Step(node, statement))
    elif node.type == "pipeline":
        _add_pipeline(node, steps)
    elif node.type == "list":
        for child in node.named_children:
            _add_steps(child, child, steps)
    elif node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        if body is not None and body.type == "command":
            steps.append(Step(body, node))
        elif body is not None and body.type == "pipeline":
            _add_pipeline(node, steps)  # `mysqldump db | gzip > f`: the redirect is gzip's
        elif body is not None and body.type == "list":
            # tree-sitter hangs the last command's redirects on the whole list:
            # `a > f && b < f` is `(a > f && b) < f`.
            _add_steps(body, body, steps)


def _add_pipeline(statement: Node, steps: list[Step]) -> None:
    """A pipeline statement of simple commands as one step (`mysqldump db | gzip > f`)."""
    built = pipelines.build(statement)
    if built is None or not all(stage.is_simple for stage in built.stages):
        return
    stages = tuple(stage.command for stage in built.stages)
    steps.append(Step(stages[-1], statement, stages))


def _mount_kind(model: Command) -> tuple[str, str] | None:
    """(filesystem type, source) of what a `mount`, `mount.nfs4`, `sshfs`… command mounts, when known."""
    mounter = program(model.program)
    if not mounter.has(Trait.MOUNTS):
        return None
    fstype = mounter.filesystem  # a helper's own (`mount.nfs4`); `mount` says it with -t, or by the source
    types = model.option("-t") or model.option("--types")
    if types is not None:
        fstype = None if types.value is None else types.value.decode("utf-8", "replace")
    if len(model.operands) != 2:
        return None
    source = syntax.literal_value(model.operands[0])
    source_text = "" if source is None else source.decode("utf-8", "replace")
    if fstype is None:  # `mount srv:/export /mnt/x` is NFS, `mount //srv/share /mnt/x` is CIFS
        fstype = "cifs" if source_text.startswith("//") else "nfs" if ":" in source_text else None
    if fstype is None:
        return None
    return fstype.split(",")[0], source_text
