"""PL301 serialized-transfer: `gzip f; scp f.gz host:; ssh host gunzip f.gz` in three steps."""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.programs import compressors
from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.programs.command import Command, Option
from pipelint.programs.command import read as read_command
from pipelint.facts.script import Step
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.shell.positions import LineIndex
from pipelint.programs.remote_commands import (
    Download, Ssh, Upload, host_key, one_line, parse_download, parse_sftp, parse_ssh, parse_upload,
)  # fmt: skip
from pipelint.programs.table import Trait, has, named, program
from pipelint.rule import Context, Rule
from pipelint.shell.syntax import shape

_PUT = re.compile(rb"^\s*put\s+(?:-[a-zA-Z]+\s+)*(\S+)(?:\s+(\S+))?\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Compressed:
    step: Step
    compression: compressors.Compression
    source: str  # the input as written: a file, or the commands piped into the compressor
    path: str  # the compressed file, as `shape` gives it
    piped: bool = False  # source is the stages before the compressor (`mysqldump db | gzip > f`)

    def stream(self) -> str:
        """The compression as one stream to stdout, at a fast level."""
        if self.piped:
            return f"{self.source} | {_fast(self)}"
        return f"{_fast(self)} {self.source}"


def _compressed(step: Step, model: Command, source: bytes) -> Compressed | None:
    """The step compresses one file, or what a pipe feeds it, into another: which, and where the result goes."""
    found = compressors.parse(model)
    if found is None or model.has("-r", "--recursive", "-S", "--suffix"):
        return None
    stdin = [r for r in model.redirects if syntax.redirects_stdin(r)]
    stdout = [r for r in model.redirects if syntax.redirects_stdout(r)]
    files = [f for f in found.files if syntax.literal_value(f) != b"-"]
    piped = len(step.stages) > 1
    if piped and (step.command != model.node or files or stdin):
        return None  # the compressor is the last stage, and reads the pipe
    if found.to_stdout:
        if len(stdout) != 1 or syntax.redirect_parts(stdout[0])[1] != ">":
            return None
        target = syntax.redirect_parts(stdout[0])[2]
        if target is None:
            return None
        if piped:
            producer = source[step.statement.start_byte : model.node.start_byte].rstrip().removesuffix(b"|").rstrip()
            text = one_line(producer.decode("utf-8", "replace"))
            return Compressed(step, found, text, shape(target), piped=True)
        if len(files) == 1 and not stdin:
            origin = files[0]
        elif not files and len(stdin) == 1:
            origin = syntax.redirect_parts(stdin[0])[2]
        else:
            return None
        if origin is None:
            return None
        return Compressed(step, found, syntax.text(origin).decode("utf-8", "replace"), shape(target))
    if len(files) != 1 or stdout or piped:
        return None
    origin = files[0]
    path = shape(found.output) if found.output is not None else shape(origin) + found.format.suffix
    return Compressed(step, found, syntax.text(origin).decode("utf-8", "replace"), path)


def _uploads(model: Command, path: str) -> Upload | None:
    upload = parse_upload(model, through_wrappers=True)
    if upload is not None:
        return upload if any(shape(s) == path for s in upload.sources) else None
    sftp = parse_sftp(model)
    if sftp is None:
        return None
    host, directory = sftp
    for redirect in model.redirects:
        for match in _PUT.finditer(syntax.fed_text(redirect)):
            local = match.group(1).replace(b'"', b"").replace(b"'", b"").decode("utf-8", "replace")
            if local == path:
                remote = (match.group(2) or b"").decode("utf-8", "replace")
                target = posixpath.join(directory, remote) if remote else directory + ("/" if directory else "")
                return Upload("sftp", [], host_key(host.encode()), host, target)
    return None


def _decompresses(ssh: Ssh, upload: Upload, remote_files: list[str], fmt: str) -> str | None:
    """The decompressed file's path when ssh decompresses the uploaded file, else None.

    The remote command is read as the script spells it (`"$1.gz"` stays `$1.gz`),
    so a file named through a variable on both lines still matches.
    """
    if ssh.host is None or host_key(syntax.text(ssh.host)) != upload.host or not ssh.remote:
        return None
    # What the remote shell gets: each word's value (its inner quotes kept for the
    # remote shell), or its shape where only run time knows it (`"/tmp/$1.gz"`).
    remote = ssh.remote_text()
    suffix = compressors.FORMATS[fmt].suffix
    for node in syntax.walk(syntax.parse(remote).root_node):
        if node.type != "command":
            continue
        model = read_command(node)  # the remote command's own tree: not this file's cache
        if compressors.decompression_format(model) != fmt:
            continue
        # Words as written: the remote command keeps `$1` for the remote shell.
        operands = [_written(operand) for operand in model.operands]
        named = [f for f in remote_files if f in operands]
        if not named:
            continue
        if compressors.decompresses_to_stdout(model) and _stdout_target(model) is None:
            continue  # `xzcat a.xz | psql app`: the data goes on down a pipe, into no file
        output_option = model.option("-o") or model.option("--output")
        output = None if output_option is None else _written_value(output_option)
        if output is None and program(model.program).output_operand and len(operands) == 2:
            output = operands[1]
        output = output or _stdout_target(model)
        if output is None and named[0].endswith(suffix):
            output = named[0][: -len(suffix)]
        if output:
            return output
    return None


def _written(node: Node) -> str:
    return syntax.text(node).decode("utf-8", "replace")


def _written_value(option: Option) -> str | None:
    if option.value_node is not None:
        return _written(option.value_node)
    return None if option.value is None else option.value.decode("utf-8", "replace")


def _stdout_target(model: Command) -> str | None:
    for redirect in model.redirects:
        if syntax.redirects_stdout(redirect):
            destination = syntax.redirect_parts(redirect)[2]
            return None if destination is None else shape(destination)
    return None


def _quote(text: str) -> str:
    return text if re.fullmatch(r"[\w@%+=:,./~$-]+", text) else shlex.quote(text)


def _remote_argument(command: str, expands_here: bool) -> str:
    """The remote command as one ssh argument.

    expands_here: its `$` came from words the local shell expands (`"/tmp/$1.gz"`),
    so double quotes keep that. Otherwise every `$` is for the remote shell and
    single quotes keep it from expanding here; double quotes only read better
    when the command holds single quotes and nothing double quotes would touch.
    """
    if expands_here:
        return '"' + re.sub(r'(["\\`])', r"\\\1", command) + '"'
    if "'" in command and not re.search(r'[$`"\\!]', command):
        return '"' + command + '"'
    return shlex.quote(command)


def _fast(compressed: Compressed | str) -> str:
    """The compressor (or a compressor program's name) at a fast level, writing to stdout."""
    tool = compressed if isinstance(compressed, str) else compressed.compression.tool
    return {"gzip": f"{tool} -1 -c", "pigz": "pigz -1 -c", "xz": f"{tool} -T0 -c"}.get(tool, f"{tool} -c")


# tar's own options that say nothing about what is archived: creating, compressing, the file, the chatter.
_TAR_WRITING = frozenset({"-c", "--create", "-f", "--file", "-v", "--verbose", *compressors.TAR_COMPRESSION_OPTIONS})


def _tar_stream(archive: compressors.TarArchive) -> str:
    """The tar command as one stream to stdout without its compressor: `tar -c -C /var www`."""
    words = ["tar", "-c"]
    for option in archive.command.options:
        if option.name in _TAR_WRITING:
            continue
        if option.is_whole_word or option.name.startswith("--"):
            words.append(_written(option.node))
        else:
            words.append(option.name)
        if option.value_node is not None:
            words.append(_written(option.value_node))
    words += [_written(operand) for operand in archive.command.operands]
    return one_line(" ".join(words))


def _tar_extracts(ssh: Ssh, upload: Upload, remote_files: list[str]) -> str | None:
    """`ssh h 'tar xzf /d/a.tgz -C /srv'` extracting the uploaded archive, alone: the folder it extracts
    into, as the remote command writes it ("" for the remote login folder); None for any other command."""
    if ssh.host is None or host_key(syntax.text(ssh.host)) != upload.host or not ssh.remote:
        return None
    remote = ssh.remote_text()
    root = syntax.parse(remote).root_node
    commands = [node for node in syntax.walk(root) if node.type == "command"]
    if len(commands) != 1 or root.has_error or len(root.named_children) != 1:
        return None
    model = read_command(commands[0])
    if not has(model.program, Trait.TAR) or not model.exact or not model.has("-x", "--extract", "--get"):
        return None
    archives = [option for option in model.options if option.name in ("-f", "--file")]
    if len(archives) != 1 or _written_value(archives[0]) not in remote_files or model.operands or model.redirects:
        return None
    folders = [option for option in model.options if option.name in ("-C", "--directory")]
    if len(folders) > 1 or len(model.options) != len(archives) + len(folders) + sum(
        1 for option in model.options if option.name in ("-x", "--extract", "--get", "-v", "--verbose", *compressors.TAR_COMPRESSION_OPTIONS)
    ):
        return None  # other options (`--strip-components`, `-p`): the advice would drop them
    return "" if not folders else (_written_value(folders[0]) or "")


def _ssh_up_to_host(ssh: Ssh) -> str:
    """ssh as written up to the host, so `-p 2222 user@host` and `sshpass -f pw` carry over."""
    node = ssh.command.node
    words = node.text[: ssh.host.end_byte - node.start_byte]  # type: ignore[union-attr]
    return one_line(words.decode("utf-8", "replace").strip())


def _wrappers_of(copy: Command) -> str:
    """What runs the copy (`sshpass -f pw `, `nice -n 19 `), as written, to run ssh the same way."""
    node = copy.node
    return node.text[: copy.program_node.start_byte - node.start_byte].decode("utf-8", "replace")  # type: ignore[union-attr]


def _ssh_options(copy: Command) -> str:
    """scp's port, key and -o options as ssh spells them (`-P 2222` → `-p 2222 `); rsync's none."""
    if copy.program != b"scp":
        return ""
    spelled = {"-P": "-p", "-i": "-i", "-o": "-o"}
    words = [f"{spelled[o.name]} {_quote(o.value.decode('utf-8', 'replace'))}" for o in copy.options
             if o.name in spelled and o.value is not None]  # fmt: skip
    return "".join(word + " " for word in words)


def _remote_script(ssh: Ssh) -> tuple[bytes, bool] | None:
    """The script ssh runs on the other host, and whether the local shell expands in it: its remote
    command's words, or with none a here-document its login shell reads (`ssh -T h <<EOF`)."""
    if ssh.remote:
        return ssh.remote_text(), ssh.expands_here
    fed = [r for r in ssh.command.redirects if syntax.redirects_stdin(r)]
    if len(fed) != 1 or fed[0].type != "heredoc_redirect":
        return None
    start = next((c for c in fed[0].children if c.type == "heredoc_start"), None)
    quoted = start is not None and any(mark in syntax.text(start) for mark in b"'\"\\")
    body = syntax.fed_text(fed[0])
    return body, not quoted and b"$" in body


def _remote_compression(remote: bytes) -> tuple[str, str] | None:
    """`mysqldump db | gzip > /tmp/x.gz` as the script ssh runs remotely: (the script without its
    `> FILE`, its statements joined by `; `, and FILE), when that compressor's file is the only thing
    the remote script makes: it is the last command, and every other one only prepares (`cd`, `mkdir`)."""
    root = syntax.parse(remote).root_node
    statements = [child for child in root.named_children if child.type != "comment"]
    if not statements or root.has_error:
        return None
    commands = [node for statement in statements for node in syntax.walk(statement) if node.type == "command"]
    if not commands:
        return None
    last = commands[-1]
    model = read_command(last)
    found = compressors.parse(model)
    outputs = [r for r in model.redirects if syntax.redirects_stdout(r)]
    if found is None or not found.to_stdout or len(outputs) != 1 or syntax.redirect_parts(outputs[0])[1] != ">":
        return None
    if not statements[-1].start_byte <= last.start_byte < statements[-1].end_byte:
        return None
    earlier = [node for node in commands[:-1] if not _in_pipeline_with(node, last)]
    if not all(has(read_command(node).program, Trait.SETUP_ONLY) for node in earlier):
        return None  # `echo start; … | gzip > f`: that output would join the stream
    destination = syntax.redirect_parts(outputs[0])[2]
    if destination is None:
        return None
    texts = [remote[statement.start_byte : statement.end_byte] for statement in statements[:-1]]
    last_statement = statements[-1]
    head = remote[last_statement.start_byte : outputs[0].start_byte].rstrip(b" \t")
    texts.append(head + remote[outputs[0].end_byte : last_statement.end_byte])
    script = "; ".join(one_line(text.decode("utf-8", "replace")).strip() for text in texts)
    return script, syntax.shape(destination)


def _in_pipeline_with(node: Node, last: Node) -> bool:
    """node is an earlier stage of the pipeline that ends in last (`mysqldump db | gzip`)."""
    parent = last.parent
    while parent is not None and parent.type != "pipeline":
        parent = parent.parent
    return parent is not None and parent.start_byte <= node.start_byte < parent.end_byte


class SerializedTransferRule(Rule):
    code = "PL301"
    name = "serialized-transfer"
    severity = Severity.WARNING
    fix_availability = FixAvailability.NEVER
    reads_other_statements = True  # it follows the steps after the command, and names their lines
    programs = named(Trait.COMPRESSOR) | named(Trait.TAR) | {b"ssh"}  # ssh: the pulls; tar: archives

    def check_command(self, command: Command, context: Context) -> Iterator[Finding]:
        if command.program == b"ssh":
            yield from self._pulls(command, context)
            return
        if has(command.program, Trait.TAR):
            yield from self._archives(command, context)
            return
        if not has(command.program, Trait.COMPRESSOR):
            return  # most commands compress nothing: the statement sequences are never computed
        steps = context.facts.steps_from(command.node)  # this statement and those after it, same shell
        compressed = _compressed(steps[0], command, context.source) if steps else None
        if compressed is None:
            return
        for second, copy in enumerate(steps[1:], start=1):
            upload = _uploads(context.command(copy.command), compressed.path)
            if upload is None:
                continue
            remote_files = upload.landing(compressed.path)
            for unpack in steps[second + 1 :]:
                ssh = parse_ssh(context.command(unpack.command), through_wrappers=True)
                if ssh is None:
                    continue
                output = _decompresses(ssh, upload, remote_files, compressed.compression.format.name)
                if output is not None:
                    yield self._finding(compressed, upload, ssh, copy, unpack, output, context.lines)
                    return
            two_steps = self._two_steps(compressed, upload, steps, copy, context)
            if two_steps is not None:
                yield two_steps
            return

    def _two_steps(self, compressed: Compressed, upload: Upload, steps: list[Step], copy: Step,
                   context: Context) -> Finding | None:  # fmt: skip
        """`gzip -c db.sql > db.gz; scp db.gz host:` with nothing else using db.gz: one stream into `cat >`."""
        return self._copied_once(compressed.path, compressed.stream(), steps, copy, upload, context, "compressed")

    def _archives(self, command: Command, context: Context) -> Iterator[Finding]:
        """`tar czf a.tgz d; scp a.tgz h:/d/` (and `ssh h 'tar xzf /d/a.tgz -C /srv'`): archive, then copy."""
        archive = compressors.tar_archive(command)
        steps = context.facts.steps_from(command.node) if archive is not None else []
        if not steps or steps[0].command != command.node or len(steps[0].stages) > 1:
            return
        path = shape(archive.file)  # type: ignore[union-attr]
        tool = compressors.tar_compressor(archive.option)  # type: ignore[union-attr]
        stream = f"{_tar_stream(archive)} | {_fast(tool)}"  # type: ignore[arg-type]
        for second, copy in enumerate(steps[1:], start=1):
            upload = _uploads(context.command(copy.command), path)
            if upload is None:
                continue
            remote_files = upload.landing(path)
            for unpack in steps[second + 1 :]:
                ssh = parse_ssh(context.command(unpack.command), through_wrappers=True)
                folder = None if ssh is None else _tar_extracts(ssh, upload, remote_files)
                if folder is None:
                    continue
                letters = f"-x{archive.option}f -" if len(archive.option) == 1 else f"{archive.option} -xf -"  # type: ignore[union-attr]
                extract = f"tar {letters}" + (f" -C {_quote(folder)}" if folder else "")
                expands_here = ssh.expands_here  # type: ignore[union-attr]
                one_step = f"{stream} | {_ssh_up_to_host(ssh)} {_remote_argument(extract, expands_here)}"  # type: ignore[arg-type]
                message = (
                    f"{path} is archived and compressed here, copied by {upload.tool} (line {context.lines.line_of(copy.command.start_byte) + 1}) "
                    f"and unpacked by ssh (line {context.lines.line_of(unpack.command.start_byte) + 1}): three passes over the data, "
                    f"one after the other; {evidence.SERIALIZED_TRANSFER}"
                )
                yield self.finding(message, steps[0].statement.start_byte, steps[0].statement.end_byte,
                                   help=f"Archive, compress and stream in one step: `{one_step}`")  # fmt: skip
                return
            finding = self._copied_once(path, stream, steps, copy, upload, context, "archived and compressed")
            if finding is not None:
                yield finding
            return

    def _copied_once(self, path: str, stream: str, steps: list[Step], copy: Step, upload: Upload, context: Context,
                     made: str) -> Finding | None:  # fmt: skip
        """A file made, then copied, and used for nothing else: one stream into `cat >` on the other host."""
        name = posixpath.basename(path)
        if not upload.path or upload.path.endswith("/"):
            remote: str | None = upload.path + name
        elif posixpath.basename(upload.path).endswith(compressors.COMPRESSED_SUFFIXES):
            remote = upload.path  # `host:/srv/db.sql.gz`: a file name, not a folder
        else:
            remote = None  # `host:/srv/backup`: a folder or a new name, only that host knows
        if remote is None or upload.tool == "sftp":
            return None
        kept = [steps[0], copy] + [s for s in steps if context.command(s.command).program == b"rm"]
        spans = [(s.statement.start_byte, s.statement.end_byte) for s in kept]
        if syntax.mentioned_outside(name.encode(), context.source, spans):
            return None  # the file is wanted here too: a local archive, a checksum
        copier = context.command(copy.command)
        target = f"{_wrappers_of(copier)}ssh {_ssh_options(copier)}{upload.host_text} {_remote_argument(f'cat > {_quote(remote)}', '$' in remote)}"
        message = (
            f"{path} is {made} here, then copied by {upload.tool} (line {context.lines.line_of(copy.command.start_byte) + 1}): "
            f"the copy waits for the last byte of the compression; {evidence.SERIALIZED_COPY}"
        )
        statement = steps[0].statement
        return self.finding(message, statement.start_byte, statement.end_byte, help=f"Compress and stream in one step: `{stream} | {target}`")

    def _pulls(self, command: Command, context: Context) -> Iterator[Finding]:
        """`ssh h 'mysqldump db | gzip > /tmp/x.gz'; scp h:/tmp/x.gz .`: compress there, copy after."""
        ssh = parse_ssh(command, through_wrappers=True)
        if ssh is None or ssh.host is None:
            return
        remote = _remote_script(ssh)
        found = None if remote is None else _remote_compression(remote[0])
        if found is None:
            return
        script, path = found
        steps = context.facts.steps_from(command.node)
        for later in steps[1:]:
            download = parse_download(context.command(later.command), through_wrappers=True)
            if download is None or download.host != host_key(syntax.text(ssh.host)) or download.path != path:
                continue
            yield self._pull_finding(ssh, steps[0], script, remote[1], path, download, later, context)  # type: ignore[index]
            return

    def _pull_finding(self, ssh: Ssh, pack: Step, script: str, expands_here: bool, path: str, download: Download,
                      copy: Step, context: Context) -> Finding:  # fmt: skip
        value = syntax.literal_value(download.target)
        local = syntax.shape(download.target) if value is None else value.decode("utf-8", "replace")
        if local in (".", "./") or local.endswith("/"):
            name = posixpath.basename(path)
            whole = re.fullmatch(r"\$(\w+)", name)
            # `scp h:$F .` lands as F's last component, which only the shell can say: `"${F##*/}"`.
            name = f'"${{{whole.group(1)}##*/}}"' if whole else _quote(name)
            local = name if local in (".", "./") else _quote(local) + name
        else:
            local = _quote(local)
        one_step = f"{_ssh_up_to_host(ssh)} {_remote_argument(script, expands_here)} > {local}"
        copy_line = context.lines.position(copy.command.start_byte).line + 1
        message = (
            f"{path} is compressed into a file on the other host, then copied here by {download.tool} "
            f"(line {copy_line}): the copy waits for the last byte of the compression; {evidence.SERIALIZED_COPY}"
        )
        statement = pack.statement
        return self.finding(message, statement.start_byte, statement.end_byte, help=f"Compress and stream in one step: `{one_step}`")

    def _finding(self, compressed: Compressed, upload: Upload, ssh: Ssh, copy: Step, unpack: Step, output: str,
                 lines: LineIndex) -> Finding:  # fmt: skip
        fmt = compressed.compression.format
        remote = f"{fmt.decompress} > {_quote(output)}"
        expands_here = ssh.expands_here
        one_step = f"{compressed.stream()} | {_ssh_up_to_host(ssh)} {_remote_argument(remote, expands_here)}"
        copy_line = lines.position(copy.command.start_byte).line + 1
        unpack_line = lines.position(unpack.command.start_byte).line + 1
        message = (
            f"{compressed.path} is compressed here, copied by {upload.tool} (line {copy_line}) and decompressed "
            f"by ssh (line {unpack_line}): three passes over the data, one after the other; {evidence.SERIALIZED_TRANSFER}"
        )
        statement = compressed.step.statement
        advice = f"Compress and stream in one step: `{one_step}`"
        return self.finding(message, statement.start_byte, statement.end_byte, help=advice)
