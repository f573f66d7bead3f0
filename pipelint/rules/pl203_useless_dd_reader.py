"""PL203 useless-dd-reader: `dd if=FILE [bs=…] | cmd` → `cmd < FILE`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint import dd_operands, syntax
from pipelint.consumers import dump_consumer
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.pipeline import Pipeline
from pipelint.rule import Context, Rule
from pipelint.rules.pl004_piped_dump_import import MEASURED_COST
from pipelint.stdin_redirect import UselessReader, can_take_stdin, rewrite

# Operands that leave dd a plain whole-file reader. Anything else (of=, count=,
# skip=, conv=, iflag=direct…) gives dd a job a redirect cannot do.
_READER_KEYS = frozenset({"if", "bs", "ibs", "obs", "status", "iflag"})
_READER_IFLAGS = frozenset({"fullblock"})


def _quoted(value: bytes) -> bytes:
    return b"'" + value.replace(b"'", b"'\\''") + b"'"


def _unquoted_text(node) -> bytes:
    """The parts of a word the shell would glob or brace-expand."""
    if node.type == "word":
        return syntax.text(node)
    return b"".join(syntax.text(part) for part in node.named_children if part.type == "word")


def find_useless_dd(pipeline: Pipeline, context: Context) -> UselessReader | None:
    """Shared with PL201: the first stage is a dd that only reads one whole file into the second."""
    reader = pipeline.stages[0]
    if not reader.is_simple:
        return None
    operands = dd_operands.parse(reader.command_model)
    if operands is None or "if" not in operands or not set(operands) <= _READER_KEYS:
        return None
    iflags = dd_operands.flags(operands, "iflag")
    if iflags is None or not iflags <= _READER_IFLAGS:
        return None
    status = operands.get("status")
    if status is not None and status.value == b"progress":
        return None  # dd used as a progress meter: the copy is what the author wants to watch
    source = operands["if"]
    value_node = source.node
    if source.value_source is not None:
        operand = source.value_source
        if any(ch in _unquoted_text(value_node)[3:] for ch in b"*?[{"):
            return None  # `if=*.img` opens "*.img"; `< *.img` would glob
    elif source.value is not None:
        operand = _quoted(source.value)  # `'if=my file'` → `< 'my file'`
    else:
        return None
    if not operand or operand == b"-":
        return None
    if any(syntax.redirects_stdin(r) or syntax.redirects_stdout(r) for r in reader.all_redirects):
        return None  # `dd if=f 2>&1 >/dev/null | …` pipes its statistics, not the file
    if not can_take_stdin(pipeline, context):
        return None
    silent = status is not None and status.value == b"none"
    unsafe = (
        bool(reader.all_redirects)
        or not silent  # dd's "records in/out" lines on stderr would disappear
        or syntax.has_unquoted_expansion(value_node)
        or operand.startswith(b"~")  # `if=~/f`: bash expands it, dash does not
    )
    return UselessReader(pipeline, operand, rewrite(pipeline, context, b"< " + operand, unsafe=unsafe))


class UselessDdReaderRule(Rule):
    code = "PL203"
    name = "useless-dd-reader"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        found = find_useless_dd(pipeline, context)
        if found is None:
            return
        tool = dump_consumer(pipeline.stages[1].command_model)
        consumer = tool or (found.rewrite.consumer if found.rewrite else "the next command")
        fix = None
        if found.rewrite is not None:
            fix = self.fix(f"Redirect {found.file_label} into {consumer}", found.rewrite.applicability, *found.rewrite.edits)
        if tool is not None:
            message = f"{tool} reads {found.file_label} through a `dd` pipe: {MEASURED_COST}"
        else:
            message = f"`dd` only reads {found.file_label} into {consumer}: read it with a redirect"
        yield self.finding(message, *found.span, fix)
