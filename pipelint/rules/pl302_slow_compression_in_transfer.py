"""PL302 slow-compression-in-transfer: `gzip -c f | ssh host …` at gzip's default level."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.programs import compressors, transit
from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.embedded.regions import stdout_crosses_link
from pipelint.programs.remote_commands import parse_ssh
from pipelint.programs.table import Trait, has, named, program
from pipelint.rule import Context, Rule

# The compressors that run on one core at a level that may be slow, and tar: by the name written.
_SLOW_COMPRESSORS = frozenset(name for name in named(Trait.COMPRESSOR) if program(name).slow_from_level) | named(Trait.TAR)


def network_sink(stage: Stage) -> str | None:
    """What sends the stage's stdin over the network: `ssh`, `nc`, `socat`, `curl -T -`; None otherwise."""
    if not stage.is_simple or syntax.has_assignments(stage.command):
        return None
    name = stage.name
    words = [syntax.literal_value(a) for a in stage.arguments]
    if name == b"ssh":
        ssh = parse_ssh(stage.command_model)
        if ssh is None or ssh.host is None or ssh.has("-n", "-N"):
            return None  # `ssh -n` reads nothing; -N runs no command
        return "ssh"
    if has(name, Trait.SENDS_STDIN):
        return name.decode()  # type: ignore[union-attr]
    if name == b"curl":
        for index, word in enumerate(words):
            following = words[index + 1] if index + 1 < len(words) else None
            if word in (b"-T", b"--upload-file") and following == b"-":
                return "curl -T -"
            if word in (b"-T-", b"--upload-file=-"):
                return "curl -T -"
            if word in (b"--data-binary", b"--data-raw") and following == b"@-":
                return "curl --data-binary @-"
    return None


def sink_after(pipeline: Pipeline, index: int) -> str | None:
    """The network command stage index feeds, straight or through pv/mbuffer or encryption."""
    for stage in pipeline.stages[index + 1 :]:
        sink = network_sink(stage)
        if sink is not None:
            return sink
        if not (transit.is_buffer(stage) or transit.is_encryption(stage)):
            return None
    return None


def writes_to_pipe(stage: Stage) -> bool:
    return stage.operator_after is not None and not any(syntax.redirects_stdout(r) for r in stage.all_redirects)


class SlowCompressionInTransferRule(Rule):
    code = "PL302"
    name = "slow-compression-in-transfer"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    # check_command looks only at the slow compressors and at tar (inside `ssh h '…'`)
    programs = _SLOW_COMPRESSORS

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        for index, stage in enumerate(pipeline.stages[:-1]):
            if stage.name not in _SLOW_COMPRESSORS or not writes_to_pipe(stage):
                continue  # by name first: asking every stage where its output goes cost more than the rule
            sink = sink_after(pipeline, index)
            if sink is None:
                continue
            finding = self._compressor(stage, sink) or self._tar(stage, sink)
            if finding is not None:
                yield finding

    def check_command(self, command: Command, context: Context) -> Iterator[Finding]:
        """Inside `ssh h '…'`: a command whose output is the remote command's crosses the link."""
        if not stdout_crosses_link(command.node, context.region):
            return
        stage = Stage(command.node, reader=lambda *_: command)
        finding = self._compressor(stage, "ssh") or self._tar(stage, "ssh")
        if finding is not None:
            yield finding

    def _compressor(self, stage: Stage, sink: str) -> Finding | None:
        found = compressors.parse(stage.command_model)
        slow_from = None if found is None else program(found.command.program).slow_from_level
        if found is None or slow_from is None or not found.to_stdout or found.effective_level < slow_from:
            return None
        level = "its default level" if found.level is None else f"level {found.level}"
        message = (
            f"`{found.tool}` compresses at {level} straight into `{sink}`: "
            f"the transfer waits for the CPU; {evidence.SLOW_COMPRESSION}"
        )
        fix = self._gzip_fix(found) if found.tool == "gzip" else None
        return self.finding(message, stage.start, stage.command.end_byte, fix, None if fix else self._advice(found))

    def _gzip_fix(self, found: compressors.Compression) -> Fix | None:
        """`gzip -1` in place of the level, or after the name; None when the level sits in a cluster (`-c9`)."""
        if found.level is None:
            name = found.command.program_node
            return self.fix("Compress with `gzip -1`", Applicability.UNSAFE, Edit.insert(name.end_byte, b" -1"))
        if found.level_node is not None:
            node = found.level_node
            return self.fix("Compress with `gzip -1`", Applicability.UNSAFE, Edit(node.start_byte, node.end_byte, b"-1"))
        return None

    @staticmethod
    def _advice(found: compressors.Compression) -> str:
        if found.tool == "gzip":
            return "Compress with `gzip -1` (the level is inside an option cluster: change it by hand)"
        if found.tool == "bzip2":
            return "Use a parallel or faster compressor: `lbzip2`/`pbzip2` (same format), `pigz -1`, or `zstd -1 -T0`"
        return "Use a fast preset on all cores: `xz -T0 -1`, or `zstd -1 -T0`"

    def _tar(self, stage: Stage, sink: str) -> Finding | None:
        found = compressors.tar_compression(stage.command_model)
        if found is None:
            return None
        option, _ = found
        tool = compressors.tar_compressor(option)
        message = (
            f"`tar` compresses with {tool} at its default level straight into `{sink}`: "
            f"the transfer waits for the CPU; {evidence.SLOW_COMPRESSION}"
        )
        fast = program(tool.encode()).faster
        advice = (
            f"Compress faster: `tar -I '{fast}' …` (keeps the format), or drop `{option}` and pipe through "
            "`zstd -1 -T0` or `pigz -1`"
        )
        return self.finding(message, stage.start, stage.command.end_byte, help=advice)
