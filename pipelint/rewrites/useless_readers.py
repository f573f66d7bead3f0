"""First stages that only read one file into the next: `cat FILE |` and `dd if=FILE |`.

The facts PL001 (useless-cat), PL004 (piped-dump-import), PL201 (dd-small-blocks,
which defers to PL203) and PL203 (useless-dd-reader) share. Each finder hands
back the `stdin_redirect.rewrite` that drops the reader, or None when there is
no useless reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.programs import dd_operands
from pipelint.shell import syntax
from pipelint.finding import Fix
from pipelint.programs.pipeline import Pipeline
from pipelint.rule import Context
from pipelint.programs.table import FileInput
from pipelint.rewrites.stdin_redirect import StdinRewrite, can_take_stdin, consumer_label, file_input_differences, rewrite


@dataclass(frozen=True)
class UselessReader:
    """A first stage that only reads one file into the second, and the rewrite that drops it."""

    pipeline: Pipeline
    operand: bytes  # the file as it will be written after `<`
    rewrite: StdinRewrite | None

    @property
    def span(self) -> tuple[int, int]:
        reader = self.pipeline.stages[0]
        return reader.start, reader.command.end_byte

    @property
    def file_label(self) -> str:
        return self.operand.decode("utf-8", "replace")

    @property
    def consumer(self) -> str:
        """How the consumer is named in messages."""
        return self.rewrite.consumer if self.rewrite is not None else consumer_label(self.pipeline.stages[1])

    def help(self, consumer: str | None = None) -> str | None:
        """The finding's help: why the fix is unsafe beyond the reader's own shape, or, where a comment
        between the stages keeps the fix out, what to do by hand."""
        if self.rewrite is None:
            return (
                f"Redirect {self.file_label} into {consumer or self.consumer} by hand: "
                "a comment stands between the stages, where the fix would delete it"
            )
        return self.rewrite.help

    def redirect_fix(self, consumer: str | None = None) -> Fix | None:
        """`Redirect FILE into CONSUMER`, or None where the rewrite cannot be made (a comment between)."""
        if self.rewrite is None:
            return None
        return self.rewrite.as_fix(f"Redirect {self.file_label} into {consumer or self.consumer}")


def find_useless_cat(pipeline: Pipeline, context: Context) -> UselessReader | None:
    """The first stage is a `cat` that only copies one file into the second (PL001, PL004)."""
    return pipeline.shared(_find_useless_cat, context)


def _find_useless_cat(pipeline: Pipeline, context: Context) -> UselessReader | None:
    reader = pipeline.stages[0]
    if reader.name != b"cat":
        return None  # by name before the model: most pipelines start with something else
    cat = reader.command_model
    if cat is None or cat.program != b"cat" or cat.wrappers or cat.assignments:
        return None  # `sudo cat f` opens f as another user: `< f` would not
    if cat.options or not cat.exact or len(cat.operands) != 1:
        return None  # `cat -n f` is not a plain copy; `cat "-$x" f` may not be
    if context.defines(b"cat"):
        return None  # the script's own `cat` function or alias: not the program
    operand = cat.operands[0]
    if _means_stdin_or_option(operand):
        return None  # `cat -`, `cat \-n`, `cat "${1:--}"` read stdin or take an option
    variables = _unquoted_variables(operand)
    if variables is None and (not syntax.is_single_word(operand) or operand.type == "process_substitution"):
        return None
    if variables is not None and any(context.facts.holds_a_list(name) for name in variables):
        return None  # `files=$*; cat $files | wc -l`: several files, not one
    if any(syntax.redirects_stdin(r) or syntax.redirects_stdout(r) for r in reader.all_redirects):
        return None  # `cat f 2>&1 >/dev/null | …` feeds the pipe its errors, not the file
    if not can_take_stdin(pipeline, context) or pipe_is_the_point(pipeline, context):
        return None
    unsafe = (
        bool(reader.all_redirects)  # `cat f 2>err`: the fix would not create err
        or context.redefines(b"cat")  # a sourced file may define it
        or context.facts.may_hold_dash_word(operand)  # `file=${1:--}; cat "$file"`: `-` is stdin to cat
        or _names_no_file(operand)
    )
    if variables is not None:
        # `cat $f`, `cat /backups/$db.sql`: the redirect gets the word quoted, which opens
        # the same file only where each variable holds one word (no split, no glob).
        one_word = all(context.facts.holds_one_word(name, operand.start_byte) for name in variables)
        return _useless_cat(pipeline, context, b'"' + syntax.text(operand) + b'"', unsafe=unsafe or not one_word)
    unsafe = unsafe or syntax.has_unquoted_expansion(operand)
    return _useless_cat(pipeline, context, syntax.text(operand), unsafe=unsafe)


def pipe_is_the_point(pipeline: Pipeline, context: Context) -> bool:
    """The consumer ends, or runs as fast, only because it reads a pipe: the reader copies for a reason.

    `cat f | tail -f` ends with the pipe where `tail -f < f` follows the file for ever; GNU sort
    sorts a large file with 1.4× the CPU from `< f` as from the pipe (the program table's
    `ReadsFileDifferently`, measured by tests/benchmarks/bench_redirect.py).
    """
    differences = file_input_differences(pipeline.stages[1], context)
    return any(difference.fact.how is not FileInput.OUTPUT for difference in differences)


def _useless_cat(pipeline: Pipeline, context: Context, operand: bytes, *, unsafe: bool) -> UselessReader:
    fixed = rewrite(pipeline, context, b"< " + operand, unsafe=unsafe, reader_may_fail=True)
    return UselessReader(pipeline, operand, fixed)


_VARIABLE = re.compile(rb"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\}|([0-9])|\{([0-9]+)\})")
# Text that means the same inside double quotes as outside: no glob, brace, tilde, quote or backslash.
_PLAIN_TEXT = re.compile(rb"[A-Za-z0-9_./:@%+,=-]+")


def _unquoted_variables(operand: Node) -> list[bytes] | None:
    """The names of the variables of `$f`, `${f}`, `$1`, alone or joined to plain text
    (`/backups/$db.sql`), written without quotes; None for any other word.

    Quoting such a word whole changes only how the variables' values are split and globbed.
    """
    parts = operand.named_children if operand.type == "concatenation" else [operand]
    names = []
    for part in parts:
        if part.type in ("simple_expansion", "expansion"):
            match = _VARIABLE.fullmatch(syntax.text(part))
            if match is None:
                return None  # `${f:-x}`, `$@`, `${a[0]}`
            names.append(next(group for group in match.groups() if group is not None))
        elif part.type != "word" or _PLAIN_TEXT.fullmatch(syntax.text(part)) is None:
            return None
    if not names or b"".join(syntax.text(part) for part in parts) != syntax.text(operand):
        return None
    return names


def _names_no_file(operand: Node) -> bool:
    """`"$*"` (every argument in one word) and `"~/x"` (a quoted tilde stays a tilde) rarely name an existing file."""
    text = syntax.text(operand)
    return b"$*" in text or b"${*}" in text or text.lstrip(b"\"'").startswith(b"~")


def _means_stdin_or_option(operand: Node) -> bool:
    """`-`, `\\-`, `-n`, `"-$x"`, `${1:--}`: an operand cat would not open as a file."""
    text = syntax.text(operand)
    unquoted = text.replace(b"\\", b"").replace(b'"', b"").replace(b"'", b"")
    return unquoted.startswith(b"-") or b"--}" in text  # `${1:--}`, `${1--}`: stdin by default


# Operands that leave dd a plain whole-file reader. Anything else (of=, count=,
# skip=, conv=, iflag=direct…) gives dd a job a redirect cannot do.
_DD_READER_KEYS = frozenset({"if", "bs", "ibs", "obs", "status", "iflag"})
_DD_READER_IFLAGS = frozenset({"fullblock"})


def _quoted(value: bytes) -> bytes:
    return b"'" + value.replace(b"'", b"'\\''") + b"'"


def _unquoted_text(node: Node) -> bytes:
    """The parts of a word the shell would glob or brace-expand."""
    if node.type == "word":
        return syntax.text(node)
    return b"".join(syntax.text(part) for part in node.named_children if part.type == "word")


def find_useless_dd(pipeline: Pipeline, context: Context) -> UselessReader | None:
    """The first stage is a dd that only reads one whole file into the second (PL203; PL201 defers)."""
    reader = pipeline.stages[0]
    if not reader.is_simple or context.defines(b"dd"):
        return None  # the script's own `dd` function or alias: not the program
    operands = dd_operands.parse(reader.command_model)  # type: ignore[arg-type]
    if operands is None or "if" not in operands or not set(operands) <= _DD_READER_KEYS:
        return None
    iflags = dd_operands.flags(operands, "iflag")
    if iflags is None or not iflags <= _DD_READER_IFLAGS:
        return None
    status = operands.get("status")
    if status is not None and status.value == b"progress":
        return None  # dd used as a progress meter: the copy is what the author wants to watch
    operand = _redirect_operand(operands["if"])
    if not operand or operand == b"-":
        return None
    device = operands["if"].value or b""
    if dd_operands.is_tape(device):
        return None  # dd's bs= is the tape's record size: the reader is the point (issue 13 class 15)
    if any(syntax.redirects_stdin(r) or syntax.redirects_stdout(r) for r in reader.all_redirects):
        return None  # `dd if=f 2>&1 >/dev/null | …` pipes its statistics, not the file
    if not can_take_stdin(pipeline, context) or pipe_is_the_point(pipeline, context):
        return None
    silent = status is not None and status.value == b"none"
    unsafe = (
        bool(reader.all_redirects)
        or not silent  # dd's "records in/out" lines on stderr would disappear
        or syntax.has_unquoted_expansion(operands["if"].node)
        or operand.startswith(b"~")  # `if=~/f`: bash expands it, dash does not
        or device.startswith(b"~")  # `"if=~/f"`: a quoted tilde stays one and rarely names a file (as `cat "~/f"`)
        or context.redefines(b"dd")  # a sourced file may define it
        or device.startswith(b"/dev/")  # a character device may return records of dd's bs= size only
    )
    fixed = rewrite(pipeline, context, b"< " + operand, unsafe=unsafe, reader_may_fail=True)
    return UselessReader(pipeline, operand, fixed)


def _redirect_operand(source: dd_operands.Operand) -> bytes | None:
    """`if=`'s value as it should follow `<`, or None when a redirect would read something else."""
    if source.value_source is not None:
        if any(ch in _unquoted_text(source.node)[3:] for ch in b"*?[{"):
            return None  # `if=*.img` opens "*.img"; `< *.img` would glob
        return source.value_source
    if source.value is not None:
        return _quoted(source.value)  # `'if=my file'` → `< 'my file'`
    return None
