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
from pipelint.facts.static_paths import static_path
from pipelint.rule import Context, Rule

# The stages whose output may be compressed data, by their name as written (a wrapped
# compressor, `sudo gzip`, is not read as one): every other stage is passed over at once.
_SOURCES = named(Trait.COMPRESSOR) | named(Trait.TAR) | named(Trait.COPIES_FILES_OUT) | {b"dd"}


_SUFFIXES = tuple(suffix.encode() for suffix in compressors.COMPRESSED_SUFFIXES)


def _compressed_name(value: bytes) -> bool:
    return value.lower().endswith(_SUFFIXES)


def _compressed_glob(node: Node) -> bool:
    """`/b/*.gz`, `"$DIR"/db-*.sql.gz`: a glob whose every match has a compressed name (none: no match)."""
    if node.type not in ("word", "concatenation"):
        return False
    last = node.named_children[-1] if node.type == "concatenation" else node
    if last.type != "word":
        return False
    tail = syntax.text(last).rsplit(b"/", 1)[-1]
    star = tail.rfind(b"*")
    if star == -1 or any(ch in tail for ch in b"?[{\\"):
        return False
    return _compressed_name(tail) and b"." in tail[star:] and _compressed_name(tail[star + 1 :])


def _source_name(node: Node, context: Context) -> bytes | None:
    """The name a copied file has as far as the script says: literal, a variable set once to a literal
    (`F=/b/db.sql.gz; rsync -z "$F" h:`), or a glob of compressed names (`/b/*.gz`, shown as written)."""
    value = syntax.literal_value(node)
    if value is not None:
        return value
    known = static_path(node, context.facts.literal_variables)
    if known is not None and known.complete:
        return known.value
    if _compressed_glob(node):
        return syntax.text(node)
    return None


def _holds_only_compressed(folder: Node, command: Command, context: Context) -> bool:
    """`mkdir -p "$B"; mysqldump db | gzip > "$B/db.sql.gz"; rsync -az "$B/" h:`: the script makes the
    folder, and everything it names in there before the copy has a compressed name, one written at least."""
    where = syntax.shape(folder).rstrip("/")
    if not where or syntax.literal_value(folder) == b"/":
        return False
    made = None
    for step in context.facts.steps_before(command.node):
        model = context.command(step.command)
        if model.program == b"mkdir" and any(syntax.shape(o).rstrip("/") == where for o in model.operands):
            made = step.statement.start_byte
    if made is None:
        return False  # a folder the script did not make may hold anything
    inside = where + "/"
    written = False
    for node in context.facts.commands_between(made, command.node.start_byte):
        model = context.command(node)
        words = [*model.arguments, *(syntax.redirect_parts(r)[2] for r in model.redirects if r.type == "file_redirect")]
        for word in words:
            if word is None or not syntax.shape(word).startswith(inside):
                continue
            if not _compressed_name(syntax.shape(word).encode()):
                return False  # `cp my.cnf "$B/"`: something else goes there too
            written = written or any(syntax.redirects_stdout(r) and syntax.redirect_parts(r)[2] == word for r in model.redirects)
            written = written or model.program in _WRITERS
    return written


# Programs that write a file named by an operand or option (`tar czf "$B/www.tgz"`, `gzip -c … > f` is a redirect).
_WRITERS = named(Trait.TAR) | named(Trait.COMPRESSOR) | named(Trait.DUMPS_DATABASE)


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
            ssh = parse_ssh(stage.command_model, through_wrappers=True)  # `| nice ssh -C h …`
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
    reads_other_statements = True  # `rsync -z "$B/"`: the mkdir and the writes into that folder before it

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
        ssh = parse_ssh(command, through_wrappers=True)
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
        upload = parse_upload(command, through_wrappers=True)  # `nice scp -C`, `sshpass -f pw rsync -z`
        if upload is None or context.redefines(command.program):
            return None
        names = [_source_name(source, context) for source in upload.sources]
        if any(name is None or not _compressed_name(name) for name in names):
            if len(names) != 1 or command.program != b"rsync":
                return None  # a plain file, a folder or a computed name among them: compression may pay
            if not _holds_only_compressed(upload.sources[0], command, context):
                return None
            names = [f"{syntax.shape(upload.sources[0])} (this script writes only compressed files there)".encode()]
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
            f"`{tool} {spelled}` compresses {what}, data that is already compressed: "
            "CPU spent on both ends for no smaller transfer",
            start,
            end,
            fix,
        )
