"""PL302 slow-compression-in-transfer: `gzip -c f | ssh host …` at gzip's default level."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.programs import compressors, transit
from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.shell.pipeline import Pipeline, Stage
from pipelint.programs.remote_commands import parse_ssh, stdout_crosses_link
from pipelint.rule import Context, Rule

# Levels from which each compressor is "slow" (its default is one of them). xz
# calls -0…-3 its fast presets; bzip2's level only sets the block size, so all
# of them are slow; gzip's default is 6.
_SLOW_FROM = {"gzip": 6, "bzip2": 1, "xz": 4}
_TOOLS = frozenset({"gzip", "bzip2", "xz"})  # pigz, lbzip2, pixz, zstd and lz4 are the remedies
_SLOW_COMPRESSORS = frozenset(tool.encode() for tool in _TOOLS) | compressors.TARS  # by the name written


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
    if name in (b"nc", b"ncat", b"netcat", b"socat"):
        return name.decode()
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
        if found is None or found.tool not in _TOOLS or not found.to_stdout:
            return None
        if found.effective_level < _SLOW_FROM[found.tool]:
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
        program = {"z": "gzip", "--gzip": "gzip", "--gunzip": "gzip", "j": "bzip2", "--bzip2": "bzip2"}.get(option, "xz")
        message = (
            f"`tar` compresses with {program} at its default level straight into `{sink}`: "
            f"the transfer waits for the CPU; {evidence.SLOW_COMPRESSION}"
        )
        fast = {"gzip": "gzip -1", "bzip2": "lbzip2", "xz": "xz -T0 -1"}[program]
        advice = (
            f"Compress faster: `tar -I '{fast}' …` (keeps the format), or drop `{option}` and pipe through "
            "`zstd -1 -T0` or `pigz -1`"
        )
        return self.finding(message, stage.start, stage.command.end_byte, help=advice)
