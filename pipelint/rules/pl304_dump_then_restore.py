"""PL304 dump-then-restore: `mysqldump db > f.sql && mysql -h replica db < f.sql` in two passes over the disk."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.facts.script import Step
from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.programs.table import Trait, has, named, program
from pipelint.rule import Context, Rule

# Options after which the dump is no SQL text one client reads back: per-table
# files (--tab), XML, pg_dump's custom, directory and tar formats (pg_restore
# needs the file: it seeks in it, and -j N restores in parallel from it).
_NOT_A_STREAM = ("-T", "--tab", "-X", "--xml")
# Options with which the client runs something else than its standard input.
_OTHER_INPUT = ("-e", "--execute", "-c", "--command", "-f", "--file")
# The separators that may stand between the two statements the fix joins.
_JOINERS = frozenset(b" \t\n;&")


@dataclass(frozen=True)
class Written:
    """Where a dump goes: the file's shape, and the redirect that writes it (None for `-r FILE`)."""

    path: str
    redirect: Node | None


def _dump_output(model: Command) -> Written | None:
    if not has(model.program, Trait.DUMPS_DATABASE) or model.wrappers or not model.exact or model.has(*_NOT_A_STREAM):
        return None
    if model.program == b"pg_dump":
        fmt = model.option("-F") or model.option("--format")
        if fmt is not None and fmt.value not in (b"p", b"plain"):
            return None  # -Fc, -Fd, -Ft: pg_restore reads them, from the file
    stdout = [r for r in model.redirects if syntax.redirects_stdout(r)]
    options = [model.option(name) for name in sorted(program(model.program).writes_file_with)]
    given = [option for option in options if option is not None]
    if len(stdout) + len(given) != 1:
        return None
    if given:
        option = given[0]
        if option.value_node is not None:
            return Written(syntax.shape(option.value_node), None)
        return None if option.value is None else Written(option.value.decode("utf-8", "replace"), None)
    descriptor, operator, destination = syntax.redirect_parts(stdout[0])
    if operator != ">" or descriptor not in (None, 1) or destination is None:
        return None  # `>>` adds to a file that held something already; `&>` mixes in stderr
    return Written(syntax.shape(destination), stdout[0])


def _restore_input(model: Command, clients: frozenset[bytes], path: str) -> Node | None:
    """The `< FILE` redirect by which the client reads the dump back, or None."""
    if model.program not in clients or not model.exact or model.has(*_OTHER_INPUT):
        return None
    inputs = [r for r in model.redirects if syntax.redirects_stdin(r)]
    if len(inputs) != 1 or inputs[0].type != "file_redirect":
        return None
    descriptor, operator, source = syntax.redirect_parts(inputs[0])
    if operator != "<" or source is None or syntax.shape(source) != path:
        return None
    return inputs[0]


def _extent(step: Step, model: Command) -> tuple[int, int]:
    """The step's bytes with every redirect applied to it: in `a > f && b < f`,
    tree-sitter hangs `< f` on the whole list, outside b's statement."""
    ends = [step.statement.end_byte, *(r.end_byte for r in model.redirects)]
    return step.statement.start_byte, max(ends)


class DumpThenRestoreRule(Rule):
    code = "PL304"
    name = "dump-then-restore"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES  # display-only, where the two statements are next to each other
    reads_other_statements = True  # it follows the steps after the command, and names their lines
    programs = named(Trait.DUMPS_DATABASE)

    def check_command(self, command: Command, context: Context) -> Iterator[Finding]:
        if not has(command.program, Trait.DUMPS_DATABASE):
            return  # most commands dump nothing: the statement sequences are never computed
        steps = context.facts.steps_from(command.node)
        written = _dump_output(command) if steps else None
        if written is None:
            return
        clients = program(command.program).restored_by
        for later in steps[1:]:
            model = context.command(later.command)
            restore = _restore_input(model, clients, written.path)
            if restore is None:
                continue
            if not self._only_use(written, steps, later, context):
                return  # the file is wanted for something else: keep it
            yield self._finding(command, steps[0], written, later, model, restore, context)
            return

    @staticmethod
    def _only_use(written: Written, steps: list[Step], restore: Step, context: Context) -> bool:
        name = syntax.basename(written.path.encode().rstrip(b"/")) or written.path.encode()
        spans = [_extent(steps[0], context.command(steps[0].command)), _extent(restore, context.command(restore.command))]
        if not syntax.mentioned_outside(name, context.source, spans):
            return True  # named by the two steps only: the block's `rm` commands need no reading
        removals = [_extent(s, context.command(s.command)) for s in steps if context.command(s.command).program == b"rm"]
        return not syntax.mentioned_outside(name, context.source, spans + removals)

    def _finding(self, dump: Command, dump_step: Step, written: Written, restore_step: Step, restore: Command,
                 restore_input: Node, context: Context) -> Finding:  # fmt: skip
        dump_name = dump.program.decode()  # type: ignore[union-attr]
        client = restore.program.decode()  # type: ignore[union-attr]
        line = context.lines.position(restore_step.statement.start_byte).line + 1
        streamed = self._streamed(_extent(dump_step, dump), written, _extent(restore_step, restore), restore_input, context)
        message = (
            f"`{dump_name}` writes {written.path} in full, then `{client}` (line {line}) reads it back: "
            f"two passes over the disk, one after the other, where a pipe runs both at once; {evidence.DUMP_THEN_RESTORE}"
        )
        fix: Fix | None = None
        advice = f"Stream the dump into {client}: `{dump_name} … | {client} …`, if nothing else needs {written.path}"
        if streamed is not None:
            start, end, text = streamed
            fix = self.fix(f"Stream the dump into `{client}`", Applicability.DISPLAY_ONLY, Edit(start, end, text))
            advice = None
        return self.finding(message, *_extent(dump_step, dump), fix, help=advice)

    @staticmethod
    def _streamed(dump: tuple[int, int], written: Written, restore: tuple[int, int], restore_input: Node,
                  context: Context) -> tuple[int, int, bytes] | None:  # fmt: skip
        """`dump | restore` in place of both statements, when only `;`, `&&` or a newline stands between them."""
        source = context.source
        between = source[dump[1] : restore[0]]
        if written.redirect is None or not between or set(between) - _JOINERS or b"&&" not in between and b"&" in between:
            return None
        if context.has_comment(dump[0], restore[1]) or b"\\\n" in source[dump[0] : restore[1]]:
            return None
        dump_text = _cut(source, dump, written.redirect)
        restore_text = _cut(source, restore, restore_input)
        return dump[0], restore[1], dump_text + b" | " + restore_text


def _cut(source: bytes, extent: tuple[int, int], redirect: Node) -> bytes:
    """The step's text without the redirect and the blanks before it."""
    head = source[extent[0] : redirect.start_byte].rstrip(b" \t")
    return head + source[redirect.end_byte : extent[1]]
