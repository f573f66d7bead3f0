"""PL303 double-compression: `gzip -c f | ssh -C host …` compresses the same bytes twice."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from pipelint.programs import compressors, transit
from pipelint.shell import syntax
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.programs.command import Command, Option
from pipelint.programs.remote_commands import Ssh, parse_ssh, parse_upload
from pipelint.programs.table import Trait, has, named
from pipelint.rule import Context, Rule

# The stages whose output may be compressed data, by their name as written (a wrapped
# compressor, `sudo gzip`, is not read as one): every other stage is passed over at once.
_SOURCES = named(Trait.COMPRESSOR) | named(Trait.TAR) | named(Trait.COPIES_FILES_OUT) | {b"dd"}


def _compressed_name(value: bytes) -> bool:
    return value.lower().endswith(tuple(suffix.encode() for suffix in compressors.COMPRESSED_SUFFIXES))


def compressed_source(stage: Stage) -> str | None:
    """What makes the stage's output compressed data, for the message; None if it is not."""
    if stage.name not in _SOURCES or syntax.has_assignments(stage.command):
        return None
    if any(syntax.redirects_stdout(r) for r in stage.all_redirects):
        return None
    found = compressors.parse(stage.command_model)
    if found is not None and found.to_stdout:
        return f"the output of `{found.tool}`"
    if compressors.tar_compression(stage.command_model) is not None:
        return "the output of `tar` with a compressor"
    tar = stage.command_model
    if tar is not None and tar.program == b"tar" and not tar.wrappers:
        if tar.has("--zstd", "-I", "--use-compress-program"):
            return "the output of `tar` with a compressor"
    values = [syntax.literal_value(a) for a in stage.arguments]
    if stage.name == b"dd":
        files = [v[3:] for v in values if v is not None and v.startswith(b"if=")]
    elif has(stage.name, Trait.COPIES_FILES_OUT):
        files = [v for v in values if v is not None and not v.startswith(b"-")]
        if len(files) != len(values) - sum(1 for v in values if v is not None and v.startswith(b"-")):
            return None  # a computed operand
    else:
        return None
    if files and all(_compressed_name(f) for f in files):
        return ", ".join(f.decode("utf-8", "replace") for f in files)
    return None


def _feeds_ssh(pipeline: Pipeline, index: int) -> tuple[Stage, Ssh] | None:
    for stage in pipeline.stages[index + 1 :]:
        if stage.is_simple:
            ssh = parse_ssh(stage.command_model)
            if ssh is not None:
                if any(syntax.redirects_stdin(r) for r in stage.all_redirects):
                    return None  # it reads that file, not the pipe (check_command looks at it)
                return stage, ssh
        if not (transit.is_buffer(stage) and not stage.all_redirects):
            return None
    return None


# rsync's compression options besides -z: with any of them the author tuned it; leave it be.
_RSYNC_TUNING = ("--compress-level", "--zl", "--compress-choice", "--zc", "--new-compress", "--old-compress")


def _removal(option: Option, source: bytes) -> list[Edit]:
    """Edits that take one compression option out, keeping the other letters of its word."""
    node = option.node
    word = syntax.text(node)
    if option.name == "-o" or option.name.startswith("--"):
        start = node.prev_sibling.end_byte if node.prev_sibling is not None else node.start_byte
        end = option.value_node.end_byte if option.value_node is not None else node.end_byte
        return [Edit(start, end, b"")]
    letter = option.name[1:].encode()
    if word == b"-" + letter:
        return [Edit(node.prev_sibling.end_byte, node.end_byte, b"")]
    index = word.index(letter, 1)
    return [Edit(node.start_byte + index, node.start_byte + index + 1, b"")]


def _skipped_by_rsync(name: bytes, command: Command) -> bool:
    """An explicit `--skip-compress=gz/xz` naming the suffix: the author's stated intent.

    rsync's built-in list does not count: the rsync of Debian 12 (3.5.0) says
    in rsync(1) that "no compression method currently supports per-file
    compression changes, so this option has no effect"; its zstd, lz4 and
    zlibx compress every file of the transfer, .gz included.
    """
    suffix = name.rsplit(b".", 1)[-1].lower()
    for option in command.options:
        if option.name == "--skip-compress" and option.value is not None:
            if suffix in option.value.lower().split(b"/"):
                return True
    return False


class DoubleCompressionRule(Rule):
    code = "PL303"
    name = "double-compression"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS
    programs = named(Trait.REMOTE_SHELL) | named(Trait.COPIES_TO_HOSTS)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        for index, stage in enumerate(pipeline.stages[:-1]):
            what = compressed_source(stage)
            if what is None:
                continue
            target = _feeds_ssh(pipeline, index)
            if target is not None:
                finding = self._finding(target[1], what, context)
                if finding is not None:
                    yield finding

    def check_command(self, command: Command, context: Context) -> Iterator[Finding]:
        """`ssh -C host cmd < backup.tar.gz`: the same double work without a pipe; `scp -C`, `rsync -z`."""
        if has(command.program, Trait.COPIES_TO_HOSTS):
            finding = self._copy_finding(command, context)
            if finding is not None:
                yield finding
            return
        ssh = parse_ssh(command)
        if ssh is None:
            return
        for redirect in ssh.command.redirects:
            if redirect.type != "file_redirect" or not syntax.redirects_stdin(redirect):
                continue
            destination = syntax.redirect_parts(redirect)[2]
            value = None if destination is None else syntax.literal_value(destination)
            if value is not None and _compressed_name(value):
                finding = self._finding(ssh, value.decode("utf-8", "replace"), context)
                if finding is not None:
                    yield finding

    def _copy_finding(self, command: Command, context: Context) -> Finding | None:
        """`scp -C f.gz host:` / `rsync -z f.gz host:`: every file sent is compressed already."""
        upload = parse_upload(command)
        if upload is None or context.redefines(command.program):
            return None
        names = [syntax.literal_value(source) for source in upload.sources]
        if not names or any(name is None or not _compressed_name(name) for name in names):
            return None  # a plain file, a folder or a computed name among them: compression may pay
        if command.program == b"rsync":
            if command.has(*_RSYNC_TUNING) or any(_skipped_by_rsync(name, command) for name in names):  # type: ignore[arg-type]
                return None
            options = [o for o in command.options if o.name in ("-z", "--compress")]
        else:
            options = Ssh(command, None, ()).compression_options()
        if not options or len({o.name for o in options}) != len(options):
            return None  # `-zz` (rsync's old zlib stream), `-CC`: asked for on purpose, or odd enough to leave
        files = ", ".join(name.decode("utf-8", "replace") for name in names)  # type: ignore[union-attr]
        return self._removal_finding(command.program.decode(), options, files, context)  # type: ignore[union-attr]

    def _finding(self, ssh: Ssh, what: str, context: Context) -> Finding | None:
        if context.redefines(b"ssh"):
            return None  # the script's (or a sourced file's) `ssh` function or alias gets `-C`, and may want it
        options = ssh.compression_options()
        if not options:
            return None
        nodes: dict[int, Node] = {}
        for option in options:
            nodes.setdefault(option.node.start_byte, option.node)
        if any(syntax.text(n).count(b"C") > 1 for n in nodes.values() if not syntax.text(n).startswith(b"-o")):
            return None  # `-CC`: odd enough to leave alone
        return self._removal_finding("ssh", options, what, context)

    def _removal_finding(self, tool: str, options: list[Option], what: str, context: Context) -> Finding:
        """The finding on the compression options, with the safe fix that removes them."""
        edits = [edit for option in options for edit in _removal(option, context.source)]
        spelled = " and ".join(sorted({"-o Compression=yes" if o.name == "-o" else o.name for o in options}))
        fix = self.fix(f"Remove `{spelled}` from {tool}", Applicability.SAFE, *edits)
        start = min(o.node.start_byte for o in options)
        end = max((o.value_node or o.node).end_byte for o in options)
        return self.finding(
            f"`{tool} {spelled}` compresses {what}, which is already compressed: "
            "CPU spent on both ends for no smaller transfer",
            start,
            end,
            fix,
        )
