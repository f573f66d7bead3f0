"""PL506 xargs-per-item: `xargs -I{} cmd {}` / `xargs -n 1 cmd` start one process per input item
where one `cmd` takes many operands: `xargs cmd` (`-d '\\n'` for the lines `-I` read)."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.command import Command, Option
from pipelint.programs.launchers import launches
from pipelint.programs.table import Trait, program
from pipelint.rule import Context, Rule
from pipelint.rules import evidence
from pipelint.shell import syntax

# The options that make xargs run its command once per input item: a replacement string, or one item
# (one line) per call. `-l` alone is `-L 1`.
_REPLACING = ("-I", "-i", "--replace")
_COUNTS = ("-n", "--max-args", "-L", "--max-lines", "-l")
# Options after which the calls are meant to be one per item: in parallel, asked one by one, on a terminal.
_ONE_BY_ONE_ON_PURPOSE = ("-P", "--max-procs", "-p", "--interactive", "-o", "--open-tty", "--process-slot-var")
# Options that say how items are separated: with one of them, `-I`'s lines need no `-d '\n'`.
_SEPARATORS = ("-0", "--null", "-d", "--delimiter")


def _per_item(xargs: Command) -> list[Option] | None:
    """The options that run the command once per item (`-I{}`, `-n 1`…), or None when xargs batches."""
    found = []
    for option in xargs.options:
        if option.name in _REPLACING:
            found.append(option)
        elif option.name in _COUNTS:
            if option.name == "-l" and option.value in (None, b"1"):
                found.append(option)
            elif option.name != "-l" and option.value == b"1":
                found.append(option)
            else:
                return None  # `-n 50`: batches already; a computed count: unknown
    return found or None


class XargsPerItemRule(Rule):
    code = "PL506"
    name = "xargs-per-item"
    severity = Severity.WARNING
    fix_availability = FixAvailability.NEVER  # advice: how xargs splits its input may differ (see "Fix safety")
    programs = frozenset({b"xargs"})

    def check_command(self, command: Command, context: Context) -> Iterator[Finding]:
        if command.program != b"xargs" or not command.exact or command.has(*_ONE_BY_ONE_ON_PURPOSE):
            return
        per_item = _per_item(command)
        found = launches(command)
        if per_item is None or len(found) != 1 or context.defines(b"xargs"):
            return
        launch = found[0]
        launched = launch.command
        tool = program(launched.program)
        if not tool.has(Trait.OPERANDS_ALIKE) or not launched.exact or launched.wrappers or launched.assignments:
            return
        if context.defines(launched.program):
            return  # the script's own function or alias: what it does with many is unknown
        words = list(launched.arguments)
        replacing = any(option.name in _REPLACING for option in per_item)
        if replacing:
            written = [syntax.literal_value(word) for word in words]
            if not launch.substituted or written[-1:] != [launch.substituted]:
                return  # the item goes elsewhere than last (`cp {} /dst`), or is part of a word (`{}.bak`)
            if any(launch.substituted in syntax.text(word) for word in [launched.program_node, *words[:-1]]):
                return  # used twice (`mv {} {}.old`)
            words = words[:-1]
        if any(option.name in ("-o", "--output") for option in launched.options) or tool.output_operand:
            return  # one output file: many operands would not each get theirs
        name = launched.program.decode("utf-8", "replace")  # type: ignore[union-attr]
        kept = [_written(option) for option in command.options if option not in per_item]
        if replacing and not command.has("-r", "--no-run-if-empty"):
            kept.append("-r")  # -I runs nothing on empty input; without it xargs runs the command once
        if replacing and not command.has(*_SEPARATORS):
            kept.append("-d '\\n'")  # -I takes each line whole: blanks and quotes stay in the item
        called = [syntax.text(launched.program_node).decode("utf-8", "replace")]  # type: ignore[arg-type]
        if tool.many_operands_with and not launched.has(tool.many_operands_with):
            called.append(tool.many_operands_with)
        called += [syntax.text(word).decode("utf-8", "replace") for word in words]
        advice = " ".join(["xargs", *kept, *called])
        shown = syntax.text(command.node).decode("utf-8", "replace").split("\n")[0]
        message = (
            f"`{shown}` starts `{name}` once per input item, where one `{name}` takes them all: "
            f"a process per item, {evidence.XARGS_PER_ITEM}"
        )
        yield self.finding(message, command.node.start_byte, command.node.end_byte, help=f"Let one call take many items: `{advice}`")


def _written(option: Option) -> str:
    """An option of xargs as written (`-0`, `-r`, `-d ,`), its value word included."""
    text = syntax.text(option.node).decode("utf-8", "replace")
    if option.value_node is not None:
        text += " " + syntax.text(option.value_node).decode("utf-8", "replace")
    return text
