"""PL304 dump-then-restore: `mysqldump db > f.sql && mysql -h replica db < f.sql` in two passes over the disk."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.programs import compressors
from pipelint.programs.command import read as read_command
from pipelint.programs.remote_commands import Ssh, Upload, host_key, one_line, parse_ssh, parse_upload
from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.facts.script import Step, steps_of
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
    format: compressors.Format | None = None  # compressed on the way: `mysqldump db | gzip > f.gz`
    compressor: Node | None = None  # that compressor's stage


def _piped_dump_output(step: Step, model: Command, context: Context) -> Written | None:
    """`mysqldump db | gzip > db.sql.gz`: the dump, compressed into a file by the stage after it."""
    if len(step.stages) != 2 or step.stages[0] != model.node or any(syntax.redirects_stdout(r) for r in model.redirects):
        return None
    if not has(model.program, Trait.DUMPS_DATABASE) or model.wrappers or not model.exact or model.has(*_NOT_A_STREAM):
        return None
    if any(model.option(name) is not None for name in program(model.program).writes_file_with):
        return None
    compressor = context.command(step.stages[1])
    found = compressors.parse(compressor)
    outputs = [r for r in compressor.redirects if syntax.redirects_stdout(r)]
    if found is None or not found.to_stdout or found.files or len(outputs) != 1:
        return None
    descriptor, operator, destination = syntax.redirect_parts(outputs[0])
    if operator != ">" or descriptor not in (None, 1) or destination is None:
        return None
    return Written(syntax.shape(destination), None, found.format, step.stages[1])


@dataclass(frozen=True)
class Restore:
    """A client reading the dump back: the step, the client, and its command as a stream would run it."""

    step: Step
    client: Command
    stream: str  # the client without the input it read the file by (`mysql -h r db`)


def _decompressed_restore(step: Step, clients: frozenset[bytes], path: str, fmt: compressors.Format,
                          context: Context) -> Restore | None:  # fmt: skip
    """`gunzip < db.sql.gz | mysql -h r db`, `zcat db.sql.gz | mysql …`: the file decompressed into its client."""
    if len(step.stages) != 2:
        return None
    reader, client = (context.command(stage) for stage in step.stages)
    if compressors.decompression_format(reader) != fmt.name or reader.wrappers or not reader.exact:
        return None
    inputs = [r for r in reader.redirects if syntax.redirects_stdin(r)]
    files = [syntax.shape(operand) for operand in reader.operands]
    read = [syntax.shape(syntax.redirect_parts(r)[2]) for r in inputs if r.type == "file_redirect" and syntax.redirect_parts(r)[2]]
    if files + read != [path] or len(inputs) > 1 or (files and not compressors.decompresses_to_stdout(reader)):
        return None
    if client.program not in clients or not client.exact or client.has(*_OTHER_INPUT):
        return None
    if any(syntax.redirects_stdin(r) for r in client.redirects):
        return None
    text = context.source[client.node.start_byte : _extent(step, client)[1]]
    return Restore(step, client, one_line(text))




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
        if not steps:
            return
        written = _piped_dump_output(steps[0], command, context) if len(steps[0].stages) > 1 else _dump_output(command)
        if written is None:
            return
        clients = program(command.program).restored_by
        for index, later in enumerate(steps[1:], start=1):
            if written.format is not None:
                restore = _decompressed_restore(later, clients, written.path, written.format, context)
                if restore is not None:
                    if self._only_use(written, steps, [later], context):
                        yield self._compressed_finding(command, steps[0], written, restore, context)
                    return
            else:
                model = context.command(later.command)
                restore_input = _restore_input(model, clients, written.path) if len(later.stages) == 1 else None
                if restore_input is not None:
                    if self._only_use(written, steps, [later], context):
                        yield self._finding(command, steps[0], written, later, model, restore_input, context)
                    return
            upload = parse_upload(context.command(later.command), through_wrappers=True)
            if upload is None or not any(syntax.shape(source) == written.path for source in upload.sources):
                continue
            landed = upload.landing(written.path)
            for unpack in steps[index + 1 :]:
                ssh = parse_ssh(context.command(unpack.command), through_wrappers=True)
                remote = None if ssh is None else _remote_restore(ssh, upload.host, landed, clients, written.format)
                if remote is None:
                    continue
                if self._only_use(written, steps, [later, unpack], context):
                    yield self._remote_finding(command, steps[0], written, later, upload, unpack, ssh, remote, context)  # type: ignore[arg-type]
                return
            return

    @staticmethod
    def _only_use(written: Written, steps: list[Step], uses: list[Step], context: Context) -> bool:
        name = syntax.basename(written.path.encode().rstrip(b"/")) or written.path.encode()
        spans = [_extent(step, context.command(step.command)) for step in [steps[0], *uses]]
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

    def _compressed_finding(self, dump: Command, dump_step: Step, written: Written, restore: Restore,
                            context: Context) -> Finding:  # fmt: skip
        dump_name = dump.program.decode()  # type: ignore[union-attr]
        client = restore.client.program.decode()  # type: ignore[union-attr]
        line = context.lines.line_of(restore.step.statement.start_byte) + 1
        message = (
            f"`{dump_name}` writes {written.path} in full, compressed, then `{client}` (line {line}) reads it back "
            f"decompressed: two passes over the disk and two over the CPU, one after the other, where a pipe runs "
            f"the dump and the restore at once; {evidence.DUMP_THEN_RESTORE}"
        )
        advice = f"Stream the dump into {client}: `{_dump_text(dump, context)} | {restore.stream}`, if nothing else needs {written.path}"
        return self.finding(message, *_extent(dump_step, dump), help=advice)

    def _remote_finding(self, dump: Command, dump_step: Step, written: Written, copy: Step, upload: Upload,
                        unpack: Step, ssh: Ssh, remote: str, context: Context) -> Finding:  # fmt: skip
        dump_name = dump.program.decode()  # type: ignore[union-attr]
        copy_line = context.lines.line_of(copy.statement.start_byte) + 1
        restore_line = context.lines.line_of(unpack.statement.start_byte) + 1
        message = (
            f"`{dump_name}` writes {written.path} in full, {upload.tool} copies it (line {copy_line}) and ssh restores it "
            f"there (line {restore_line}): three passes one after the other, where a pipe into ssh runs them at once; "
            f"{evidence.DUMP_THEN_RESTORE}"
        )
        host = ssh.command.node.text[: ssh.host.end_byte - ssh.command.node.start_byte]  # type: ignore[union-attr, index]
        target = f"{one_line(host)} {_remote_word(remote)}"
        if written.format is not None:
            fast = {"gzip": "gzip -1 -c", "xz": "xz -T0 -c"}.get(written.format.name, f"{written.format.name} -c")
            stream = f"{_dump_text(dump, context)} | {fast} | {target}"
        else:
            stream = f"{_dump_text(dump, context)} | {target}"
        return self.finding(message, *_extent(dump_step, dump), help=f"Stream the dump to the other host: `{stream}`, if nothing else needs {written.path}")

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


def _dump_text(dump: Command, context: Context) -> str:
    """The dump command as written, without the redirect that sends it to a file."""
    redirects = [r for r in dump.redirects if syntax.redirects_stdout(r)]
    end = max([dump.node.end_byte, *(r.end_byte for r in dump.redirects)])
    extent = (dump.node.start_byte, end)
    text = _cut(context.source, extent, redirects[0]) if redirects else context.source[extent[0] : extent[1]]
    return one_line(text)


def _remote_restore(ssh: Ssh, host: str, landed: list[str], clients: frozenset[bytes],
                    fmt: compressors.Format | None) -> str | None:  # fmt: skip
    """The client command (without its input) when ssh's remote command restores the copied file, alone:
    `mysql db < /tmp/d.sql`, or decompressed into the client (`gunzip < /tmp/d.sql.gz | mysql db`)."""
    if ssh.host is None or host_key(syntax.text(ssh.host)) != host or not ssh.remote:
        return None
    remote = ssh.remote_text()
    root = syntax.parse(remote).root_node
    if root.has_error or len(root.named_children) != 1:
        return None
    steps = steps_of(root)
    if len(steps) != 1:
        return None
    (step,) = steps
    models = [read_command(stage) for stage in step.stages]
    if fmt is None and len(models) == 1:
        client = models[0]
        inputs = [r for r in client.redirects if syntax.redirects_stdin(r)]
        if client.program not in clients or not client.exact or client.has(*_OTHER_INPUT) or len(inputs) != 1:
            return None
        descriptor, operator, source = syntax.redirect_parts(inputs[0])
        if operator != "<" or source is None or syntax.shape(source) not in landed:
            return None
        return one_line(_cut(remote, (step.statement.start_byte, step.statement.end_byte), inputs[0]))
    if fmt is None or len(models) != 2:
        return None
    reader, client = models
    if compressors.decompression_format(reader) != fmt.name or not reader.exact:
        return None
    files = [syntax.shape(o) for o in reader.operands]
    inputs = [syntax.shape(syntax.redirect_parts(r)[2]) for r in reader.redirects if r.type == "file_redirect" and syntax.redirects_stdin(r)]
    if len(files + inputs) != 1 or (files + inputs)[0] not in landed:
        return None
    if client.program not in clients or not client.exact or client.has(*_OTHER_INPUT):
        return None
    if any(syntax.redirects_stdin(r) for r in client.redirects):
        return None
    decompress = fmt.decompress
    return f"{decompress} | {one_line(remote[client.node.start_byte : step.statement.end_byte])}"


def _remote_word(command: str) -> str:
    """The remote command as one ssh argument: single quotes unless it holds one."""
    return shlex.quote(command) if "'" in command or not re.fullmatch(r"[\w@%+=:,./-]+", command) else command


def _cut(source: bytes, extent: tuple[int, int], redirect: Node) -> bytes:
    """The step's text without the redirect and the blanks before it."""
    head = source[extent[0] : redirect.start_byte].rstrip(b" \t")
    return head + source[redirect.end_byte : extent[1]]
