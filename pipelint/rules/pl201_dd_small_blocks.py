"""PL201 dd-small-blocks: `dd if=a of=b` copies 512 bytes per system call; `bs=1M` does not."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tree_sitter import Node

from pipelint.programs import dd_operands
from pipelint.rules import evidence
from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.programs.dd_operands import DEFAULT_BLOCK, Operand
from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline
from pipelint.programs.table import WRAPPERS
from pipelint.rule import Context, Rule
from pipelint.rewrites.useless_readers import find_useless_dd

SMALL = 64 * 1024  # below this, per-call overhead dominates (see the document)

# Operands that make the block size part of what dd does.
_POSITIONED = {"count": ("iflag", "count_bytes"), "skip": ("iflag", "skip_bytes"), "iseek": ("iflag", "skip_bytes"),
               "seek": ("oflag", "seek_bytes"), "oseek": ("oflag", "seek_bytes")}  # fmt: skip
# conv= symbols that do not depend on the block size; the rest (sync pads every
# input block, noerror drops a whole block, sparse seeks over all-NUL output
# blocks only, so the holes follow the block size; block/unblock/swab/ascii/
# ebcdic/ibm work per record) make the fix display-only.
_BLOCK_FREE_CONV = frozenset({"notrunc", "fsync", "fdatasync", "excl", "nocreat", "lcase", "ucase"})
_KNOWN_FLAGS = frozenset(
    {"append", "direct", "directory", "dsync", "sync", "fullblock", "nonblock", "noatime", "nocache", "noctty",
     "nofollow", "count_bytes", "skip_bytes", "seek_bytes", "binary", "text"}
)  # fmt: skip


def _describe(size: int) -> str:
    if size % 1024 == 0:
        return f"{size // 1024} KiB"
    return f"{size}-byte"


def _is_stage(command: Node) -> bool:
    parent = command.parent
    while parent is not None and parent.type in ("redirected_statement", "heredoc_redirect"):
        parent = parent.parent
    return parent is not None and parent.type == "pipeline"


def _statistics_hidden(operands: dict[str, Operand], redirects: Sequence[Node], piped_stderr: bool) -> bool:
    """Whether nobody can read dd's "N+M records in/out" lines, which change with bs (issue 13 class 7).

    `status=none` prints none; otherwise the last redirect of fd 2 must send
    them to /dev/null. A terminal counts as seen: a test, a log, a person.
    """
    status = operands.get("status")
    if status is not None and status.value == b"none":
        return True
    if piped_stderr:
        return False
    hidden = False
    for redirect in redirects:
        if redirect.type != "file_redirect":
            continue
        descriptor, operator, destination = syntax.redirect_parts(redirect)
        if operator in ("&>", "&>>") or descriptor == 2:
            hidden = destination is not None and syntax.literal_value(destination) == b"/dev/null" and operator in ("&>", "&>>", ">", ">>")
    return hidden


class DdSmallBlocksRule(Rule):
    code = "PL201"
    name = "dd-small-blocks"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS  # display-only where the block size means something
    programs = frozenset({b"dd"})

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        last = len(pipeline.stages) - 1
        for index, stage in enumerate(pipeline.stages):
            if not stage.is_simple or not _may_run_dd(stage.command, context):
                continue
            if index == 0 and "PL203" in context.enabled_codes and find_useless_dd(pipeline, context) is not None:
                continue  # PL203: the whole dd can go
            piped_stderr = stage.operator_after is not None and stage.operator_after.type == "|&"
            finding = self._check(
                stage.command_model, context, from_pipe=index > 0, to_pipe=index < last, piped_stderr=piped_stderr
            )
            if finding is not None:
                yield finding

    def check_command(self, command: Command, context: Context) -> Iterator[Finding]:
        if _is_stage(command.node):
            return  # check_pipeline knows what it reads and writes
        finding = self._check(command, context, from_pipe=False, to_pipe=False, piped_stderr=False)
        if finding is not None:
            yield finding

    def _check(
        self, command: Command, context: Context, *, from_pipe: bool, to_pipe: bool, piped_stderr: bool
    ) -> Finding | None:
        operands = dd_operands.parse(command, through_wrappers=True)
        if operands is None or context.defines(b"dd") or context.carriage_return_after(command.node.end_byte):
            return None  # the script's own dd; `dd …\r` gives dd a last operand ending in \r
        redirects = command.redirects
        # A here-document is a few lines of the script, never a bulk copy.
        from_file = any(r.type == "file_redirect" and syntax.redirects_stdin(r) for r in redirects)
        reads = "if" in operands or from_pipe or from_file
        writes = "of" in operands or to_pipe or any(syntax.redirects_stdout(r) for r in redirects)
        if not (reads and writes):
            return None  # `dd if=f` alone, `dd bs=1 count=1`: not a bulk copy between files or pipes
        sizes = self._block_sizes(operands)
        if sizes is None or min(sizes) >= SMALL:
            return None
        flags = {key: dd_operands.flags(operands, key) for key in ("conv", "iflag", "oflag")}
        if any(value is None for value in flags.values()):
            return None
        positioned = [key for key in _POSITIONED if key in operands]
        if any(_POSITIONED[key][1] not in flags[_POSITIONED[key][0]] for key in positioned):
            return None  # count=/skip=/seek= in blocks: the block size means something
        reasons = self._display_only_reasons(operands, flags, positioned)
        # A dd of the script's own (a function, an alias, a sourced file) may do anything with bs=.
        unsafe = not _statistics_hidden(operands, redirects, piped_stderr) or context.redefines(b"dd")
        applicability = Applicability.DISPLAY_ONLY if reasons else Applicability.UNSAFE if unsafe else Applicability.SAFE
        size = min(sizes)
        default = not any(key in operands for key in ("bs", "ibs", "obs"))
        what = f"{_describe(size)} blocks" + (" (dd's default)" if default else "")
        message = f"`dd` copies in {what}: a read and a write system call per block; {evidence.DD_ONE_MIB_BLOCKS}"
        title = "Copy in 1 MiB blocks (bs=1M)"
        if reasons:
            title += f"; check by hand, as {' and '.join(reasons)}"
        node = command.node
        return self.finding(message, node.start_byte, node.end_byte, self._fix(command, operands, title, applicability))

    @staticmethod
    def _block_sizes(operands: dict[str, Operand]) -> tuple[int, int] | None:
        """(input, output) block sizes, or None when one is computed or invalid."""
        def size(key: str) -> int | None:
            operand = operands.get(key)
            if operand is None:
                return DEFAULT_BLOCK
            return None if operand.value is None else dd_operands.parse_size(operand.value)

        if "bs" in operands:
            both = size("bs")
            return None if both is None else (both, both)
        ibs, obs = size("ibs"), size("obs")
        return None if ibs is None or obs is None else (ibs, obs)

    @staticmethod
    def _display_only_reasons(operands: dict[str, Operand], flags: dict[str, set[str]], positioned: list[str]) -> list[str]:
        reasons = []
        if positioned:
            reasons.append(f"{'/'.join(k + '=' for k in positioned)} is given")
        conv = flags["conv"] - _BLOCK_FREE_CONV
        if conv:
            reasons.append(f"conv={','.join(sorted(conv))} works per block")
        unknown = (flags["iflag"] | flags["oflag"]) - _KNOWN_FLAGS
        if unknown:
            reasons.append(f"the flags {','.join(sorted(unknown))} are unknown here")
        if "cbs" in operands:
            reasons.append("cbs= is given")
        for key in ("if", "of"):
            value = operands[key].value if key in operands else None
            if value is not None and dd_operands.is_tape(value):
                reasons.append(f"{key}= is a tape, where the block size is the format")
        return reasons

    def _fix(self, command: Command, operands: dict[str, Operand], title: str, applicability: Applicability) -> Fix:
        if "bs" in operands:
            edits = [Edit(operands["bs"].node.start_byte, operands["bs"].node.end_byte, b"bs=1M")]
        elif "ibs" in operands or "obs" in operands:
            present = [operands[key].node for key in ("ibs", "obs") if key in operands]
            first, *rest = sorted(present, key=lambda node: node.start_byte)
            edits = [Edit(first.start_byte, first.end_byte, b"bs=1M")]
            edits += [Edit(node.prev_sibling.end_byte, node.end_byte, b"") for node in rest]
        else:
            anchor = command.arguments[-1] if command.arguments else command.program_node
            edits = [Edit.insert(anchor.end_byte, b" bs=1M")]
        return self.fix(title, applicability, *edits)


def _may_run_dd(command: Node, context: Context) -> bool:
    """Whether the command may run dd, from its name alone: a plain name that is neither dd nor a
    wrapper (`sudo`, `nice`) never does, and its model is not built (most stages of most pipelines)."""
    name = context.program_name(command)
    return name is None or name == b"dd" or name in WRAPPERS or b"\\" in name
