"""The rewrite behind every "useless reader" rule: `reader | consumer …` → `consumer … < FILE`.

PL001 (cat FILE), PL002 (cat <<EOF), PL004 (dump imports), PL203 (dd if=FILE)
and PL503 (echo "$x") find different readers (`useless_readers` finds the
file readers); they all hand the consumer its input the same way, and decide
the fix's safety the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.embedded.shell_runners import scripts_run_by
from pipelint.programs.table import FileInput, ReadsFileDifferently, Trait, has, program
from pipelint.finding import Applicability, Edit, Fix
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rewrites.stage_removal import all_drain_after
from pipelint.rule import Context
from pipelint.facts.exit_status import IGNORED, TESTED, stage_status_observed, status_use
from pipelint.rewrites.stdin_readers import readers, several_readers
from pipelint.rewrites.subshell import escape_reason, expansion_escape_reason, expansion_may_fail, failed_redirect_escape_reason


@dataclass(frozen=True)
class StdinRewrite:
    """Edits that remove the first stage and give its input to the second."""

    edits: tuple[Edit, ...]
    applicability: Applicability
    consumer: str  # how the consumer is named in messages
    unsafe_because: str | None = None  # what else the fix may change, for the finding's help
    added_option: str | None = None  # an option the fix gives the consumer so it reads the file as the pipe (`-n`)

    def as_fix(self, title: str) -> Fix:
        if self.added_option is not None:
            title += f", adding `{self.added_option}`"
        return Fix(title, self.applicability, tuple(sorted(self.edits)))

    @property
    def help(self) -> str | None:
        """Why the fix is unsafe beyond the reader's own shape, for the finding's help."""
        return None if self.unsafe_because is None else f"The fix is unsafe: {self.unsafe_because}."


def consumer_label(stage: Stage) -> str:
    name = syntax.command_name(stage.command)
    if name is not None:
        return name.decode("utf-8", "replace")
    return {"while_statement": "the while loop", "for_statement": "the for loop"}.get(
        stage.command.type, "the next command"
    )


def can_take_stdin(pipeline: Pipeline, context: Context) -> bool:
    """The consumer reads the reader's output and nothing else claims its stdin."""
    if len(pipeline.stages) < 2:
        return False
    operator = pipeline.stages[0].operator_after
    if operator is not None and operator.type == "|&" and not context.dialect.pipe_ampersand_is_stderr_pipe:
        return False  # ksh: `|&` starts a co-process, not a pipe
    consumer = pipeline.stages[1]
    return not any(syntax.redirects_stdin(r) for r in consumer.all_redirects)


def rewrite(
    pipeline: Pipeline, context: Context, redirect: bytes, *, unsafe: bool, reader_may_fail: bool = False
) -> StdinRewrite | None:
    """Delete the first stage and append `redirect` (e.g. b'< "a b"') to the consumer.

    `unsafe` carries what the caller knows about the reader (its own redirects,
    an unquoted operand); `reader_may_fail`: the reader opens a file, which may
    be missing or a directory. This adds what the pipeline and the script around
    it imply.
    """
    reader, consumer = pipeline.stages[0], pipeline.stages[1]
    if context.has_comment(reader.end, consumer.start):
        return None  # a comment between the stages would be lost
    reason = (
        _unsafe_because(pipeline, context, reader_may_fail)
        or expansion_escape_reason(pipeline, consumer, context, redirect)
        or _truncates_its_input(consumer, redirect)
        or _failure_reported_elsewhere(consumer, context, redirect)
    )
    # A here-document's body may fail to expand (`set -u`): bash and dash expand it apart (dash in a
    # child), so that ends no shell, but the redirects after it are skipped: it goes after them.
    body_may_fail = expansion_may_fail(reader, context)
    if reason is None and body_may_fail and any(_redirects_stderr(r) for r in consumer.all_redirects):
        # After them, the shell's "v: unbound variable" goes where the consumer's stderr does (fuzz seed 2416).
        reason = "a word of the here-document that fails to expand would report it where the consumer's stderr goes"
    if reason is None and body_may_fail and not reader_may_fail:
        reason = _skipped_consumer_observed(pipeline, context)
    differences = file_input_differences(consumer, context)
    if any(difference.fact.how is FileInput.NEVER_ENDS for difference in differences):
        return None  # `tail -f < FILE` follows the file for ever, where the pipe ended
    kept = [difference.kept_by(consumer) for difference in differences if difference.fact.how is FileInput.OUTPUT]
    if reason is None and None in kept:
        reason = next(d.fact.because for d, edit in zip(differences, kept) if edit is None)
    added = [edit for edit in kept if edit is not None]
    may_fail = reader_may_fail or body_may_fail
    insert = _after_own_redirects(consumer, redirect) if may_fail else Edit.insert(consumer.command.end_byte, b" " + redirect)
    edits = (Edit.delete(reader.start, consumer.start), insert, *added)
    applicability = Applicability.UNSAFE if unsafe or reason else Applicability.SAFE
    option = added[0].content.strip().decode() if added else None
    return StdinRewrite(edits, applicability, consumer_label(consumer), reason, option)


# A consumer whose name is computed (`$compress`) may be any program, gzip among them.
_COMPUTED_CONSUMER = ReadsFileDifferently(
    FileInput.OUTPUT,
    "the consumer's name is computed, and some programs read a regular file otherwise than a pipe (gzip stores"
    " the file's time in its header)",
)


@dataclass(frozen=True)
class FileDifference:
    """A program-table fact (`ReadsFileDifferently`) that holds for a command that would read the file."""

    fact: ReadsFileDifferently
    command: Command | None  # None: a command seen only by name (in `sh -c '…'`) or a computed one

    def kept_by(self, consumer: Stage) -> Edit | None:
        """The edit that gives the consumer the fact's `kept_by` option, where that keeps what it wrote.

        Only on the consumer's own simple command (`cat f | gzip` → `gzip -n < f`), and not after an
        option that would undo it (`gzip -N`: the last of -n/-N wins).
        """
        command, option = self.command, self.fact.kept_by
        if option is None or command is None or command is not consumer.command_model or command.program_node is None:
            return None
        if _has_any(command, self.fact.undone_by) is not False:
            return None
        return Edit.insert(command.program_node.end_byte, b" " + option.encode())


def file_input_differences(consumer: Stage, context: Context) -> list[FileDifference]:
    """What the program table says changes when the consumer reads a regular file instead of the pipe.

    The consumer itself, or each command inside a compound consumer or a function of the script it
    calls that may read the input; in `sh -c 'TEXT'` the programs TEXT names. Where options are
    computed, a fact that some option turns off is taken to hold.
    """
    found: list[FileDifference] = []
    for node in _reading_commands(consumer.command, context):
        model = context.command(node)
        if model.program is None:
            found.append(FileDifference(_COMPUTED_CONSUMER, None))
            continue
        for fact in program(model.program).file_input:
            if _holds(fact, model, context):
                found.append(FileDifference(fact, model))
        if has(model.program, Trait.SHELL) or has(model.program, Trait.SWITCHES_USER):
            found += [FileDifference(fact, None) for fact in _named_in_shell_text(model)]
    return found


def _reading_commands(command: Node, context: Context) -> list[Node]:
    """The simple commands that may read the consumer's input: in it, and in the functions it calls."""
    found = readers(command)
    called = {syntax.command_name(node) for node in found} & context.facts.functions
    if called:
        for node in syntax.walk(context.root):
            if node.type == "function_definition":
                name = node.child_by_field_name("name")
                body = node.child_by_field_name("body")
                if name is not None and body is not None and syntax.text(name) in called:
                    found += [inner for inner in readers(body) if inner not in found]
    return found


def _holds(fact: ReadsFileDifferently, command: Command, context: Context) -> bool:
    """The fact holds for this command: one of its `with_options` (if any) is given, none of `unless_options`."""
    if fact.with_options and _has_any(command, fact.with_options, context) is False:
        return False
    return not (_has_any(command, fact.unless_options, context) is True and _has_any(command, fact.undone_by, context) is False)


def _has_any(command: Command, names: frozenset[str], context: Context | None = None) -> bool | None:
    """Whether the command is given one of names (`-n`, `--follow`; dd's `count=`, `iflag=fullblock`).

    None when it cannot be told: a computed word may be one (`"-$x"`, an unquoted `$opts` that may hold
    an option, `"$op"=1` for dd).
    """
    if not names:
        return False
    options = [name for name in names if "=" not in name]
    operands = [name for name in names if "=" in name]
    if options and command.has(*options):
        return True
    unknown = not command.exact
    if context is not None:
        unknown = unknown or any(
            syntax.has_unquoted_expansion(word) and context.facts.may_hold_dash_word(word) for word in command.arguments
        )
    for word in command.arguments if operands else ():
        value = syntax.literal_value(word)
        if value is None:
            unknown = True
        elif any(_operand_matches(value.decode("utf-8", "replace"), name) for name in operands):
            return True
    return None if unknown else False


def _operand_matches(word: str, name: str) -> bool:
    """`count=` matches `count=3`; `iflag=fullblock` matches `iflag=direct,fullblock`."""
    key, _, wanted = name.partition("=")
    given_key, equals, given = word.partition("=")
    if not equals or given_key != key:
        return False
    return not wanted or wanted in given.split(",")


def _named_in_shell_text(command: Command) -> list[ReadsFileDifferently]:
    """`sh -c 'gzip > out'`, `su -c '…'`: the facts of the programs the text names (options not read).

    The shell's commands inherit its stdin: they would read the file. A computed text may run anything.
    """
    names: set[bytes] = set()
    for script in scripts_run_by(command):
        for word in script.words:
            text = syntax.literal_value(word)
            if text is None:
                return [_COMPUTED_CONSUMER]
            names.update(_SHELL_WORD.split(text))
    return [fact for name in sorted(names) for fact in program(syntax.basename(name)).file_input]


_SHELL_WORD = re.compile(rb"[\s;|&()`$<>'\"{}]+")


def _failure_reported_elsewhere(consumer: Stage, context: Context, redirect: bytes) -> str | None:
    """A word of the redirect may fail to expand, and the consumer is a loop or block.

    bash reports the failure on the line of the compound command's redirect
    (`done < "$f"`: its last line), and a loop's inside `$(…)` on a line past it
    (line 8 of a 7-line script, fuzz seed 2430), where `cat "$f"` failed on its own line.
    """
    if consumer.is_simple or (b"$" not in redirect and b"`" not in redirect):
        return None
    if b"?" not in redirect and not context.facts.option_at("nounset", consumer.start):
        return None
    return "bash would report a word of the redirect that fails to expand (`set -u`) on another line"


# Redirects that open their file for writing from the start (`>>` too: the reader would see what is appended).
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>"})


def _truncates_its_input(consumer: Stage, redirect: bytes) -> str | None:
    """The consumer writes the very file it would now read (`cat f | sort > f` → `sort > f < f`).

    In the pipe, `cat` races the truncation and wins about half the time; with
    the redirect, the shell opens both before sort runs, and f is always
    emptied first. The names are compared as written (quotes and `./` aside).
    """
    name = _plain_name(redirect.partition(b"<")[2])
    written = []
    for own in consumer.all_redirects:
        if own.type == "file_redirect":
            _, operator, destination = syntax.redirect_parts(own)
            if operator in _WRITES and destination is not None:
                written.append(syntax.text(destination))
    model = consumer.command_model
    if model is not None and model.program == b"tee":
        written += [syntax.text(operand) for operand in model.operands]
    elif model is not None and model.program == b"dd":
        written += [text[3:] for text in map(syntax.text, model.arguments) if text.startswith(b"of=")]
    if any(_plain_name(path) == name for path in written):
        return "the consumer writes the file it would read: the shell would empty it before the consumer reads it"
    return None


def _plain_name(word: bytes) -> bytes:
    """A path as written, without quotes, blanks around it or a leading `./`."""
    plain = word.strip().replace(b'"', b"").replace(b"'", b"")
    while plain.startswith(b"./"):
        plain = plain[2:]
    return plain


def _after_own_redirects(consumer: Stage, redirect: bytes) -> Edit:
    """`< FILE` for a FILE that may be missing (or `<<EOF` whose body may fail to expand): after the consumer's own redirects.

    The shell opens redirects left to right and stops at the first that
    fails: `tr a b < missing > out` never creates out, while `cat missing |
    tr a b > out` did (tr ran on empty input). `tr a b > out < missing` still
    does. Before a redirect that copies stdin (`3<&0`), which must copy FILE
    as it copied the pipe.
    """
    for own in consumer.all_redirects:
        if own.type == "file_redirect" and syntax.redirect_parts(own)[1] in ("<&", ">&"):
            destination = own.child_by_field_name("destination")
            if destination is not None and syntax.text(destination) == b"0":
                return Edit.insert(own.start_byte, redirect + b" ")
    return Edit.insert(consumer.end, b" " + redirect)


def _unsafe_because(pipeline: Pipeline, context: Context, reader_may_fail: bool) -> str | None:
    """What the rewrite may change beyond what every useless-reader rule's "Fix safety" allows, or None."""
    consumer = pipeline.stages[1]
    operator = pipeline.stages[0].operator_after
    if operator is not None and operator.type == "|&":
        return "the reader's error messages went into the pipe"
    escape = escape_reason(pipeline, consumer, context)
    if escape is not None:
        return escape
    name = syntax.command_name(consumer.command)
    if name is not None and context.redefines(name):
        # An alias expands differently once its word starts the pipeline (bash expands
        # none without expand_aliases, but `sh` may be dash); a sourced file may define anything.
        return f"the script (or a file it sources) may define `{name.decode('utf-8', 'replace')}`"
    if _reads_stdin_while_expanding(consumer.command):
        return "a `$(…)` in the consumer runs before the redirect applies and would read the script's own input"
    if _first_word(consumer.command) == b"time":
        return "`time` would become the shell keyword, whose report goes to the script's stderr"
    if several_readers(consumer.command):
        return "several commands read the input; from a file, one can seek back and leave the next a different part"
    if reader_may_fail:
        missing = failed_redirect_escape_reason(pipeline, pipeline.stages[1], context) or _missing_input_observed(pipeline, context)
        if missing is not None:
            return missing  # said first: the reason most fixes of a file reader are unsafe
    return stopped_reader_observed(pipeline, context)


def stopped_reader_observed(pipeline: Pipeline, context: Context, index: int = 0) -> str | None:
    """A stage after the reader (stage index) may stop reading early, and the script sees the reader killed.

    The one answer for every fix that changes how a reader meets SIGPIPE: the
    redirect that removes it (PL001…), and `splicecat`, whose 1 MiB pipe a
    small input never fills (PL601: `cat a b | head -n 1` on 120 KB exits 141
    under pipefail, `splicecat a b | head -n 1` 0).

    The reader then dies of SIGPIPE writing the rest, and `set -o pipefail`
    (or `PIPESTATUS`) makes that the pipeline's status: under pipefail,
    `if cat big.txt | grep -q 1` takes the else branch (grep stops at its first
    match, cat exits 141), where `grep -q 1 < big.txt` succeeds. Past the pipe's
    64 KiB every time; below it, when the consumer exits before the reader has
    written (`cat <<EOF | true` under `set -eo pipefail` ends the script about
    half the time: fuzz seed 2439). A consumer that reads to the end can still be
    stopped by a later stage: `cat <<EOF | tee -a log | true` (seed 2441). Where
    the script ignores SIGPIPE, the reader lives on and prints `cat: write error:
    Broken pipe` instead.
    """
    ignored = context.facts.ignores_sigpipe
    if not ignored and not stage_status_observed(pipeline.root, context.facts):
        return None  # nothing sees the reader die: asked first, no stage's model is read
    if all_drain_after(pipeline, index, context):
        return None  # each stage reads to the end: none stops early, nor dies of a later one's SIGPIPE
    if ignored:
        return (
            "the script ignores SIGPIPE (`trap '' PIPE`): when the consumer, or a stage after it, stops reading early"
            " (`head`, `grep -q`), the reader reports a broken pipe on stderr"
        )
    return (
        "the consumer, or a stage after it, may stop reading early (`head`, `grep -q`); the reader then dies"
        " of SIGPIPE, which `set -o pipefail` makes the pipeline's status, and the script sees it"
    )


def _missing_input_observed(pipeline: Pipeline, context: Context) -> str | None:
    """With the file missing or a directory, the fix skips the consumer or hands it the directory: who sees that.

    What changes is the consumer's own output and status: on empty input
    before, none (skipped) or an error after. Later stages run either way.
    """
    consumer = pipeline.stages[1].command_model
    if not _silent_on_empty_input(pipeline.stages[1]):
        if len(pipeline.stages) > 2:
            return "with the file missing, the next stage would get nothing instead of the consumer's output on empty input"
        if any(a.type in ("command_substitution", "process_substitution") for a in _ancestors(pipeline.root)):
            return "with the file missing, `$(…)` would capture nothing instead of the consumer's output on empty input"
        # `> out` is opened before `< FILE` either way: only what the skipped consumer would have written is lost.
        written = _file_read_later(pipeline, context)
        if written is not None:
            return (
                f"with the file missing, the consumer's output on empty input is not written"
                f" to {written}, and the script uses it afterwards"
            )
    if any(_redirects_stderr(r) for r in pipeline.stages[1].all_redirects):
        return "given a directory, the consumer's own error message goes where its stderr is redirected"
    if consumer is not None and has(consumer.program, Trait.ARCHIVER):
        return "given a directory, the archiver reports it in its own words, and more of them than `cat` did"
    if len(pipeline.stages) > 2:
        observed = stage_status_observed(pipeline.root, context.facts)
    else:
        use = status_use(pipeline.root, context.facts)
        observed = use != IGNORED and not (use == TESTED and _fails_on_empty_input(consumer))
    if observed:
        return "with the file missing or a directory, the pipeline's exit status changes, and the script sees it"
    return None


def _skipped_consumer_observed(pipeline: Pipeline, context: Context) -> str | None:
    """Where the input fails to expand (`set -u`), the fix skips the consumer, which ran on empty input before.

    No input is missing here, so no rule document allows a difference: the
    fix is safe only where skipping the consumer cannot show (fuzz seed 2419,
    script 32249: `n=$(cat <<EOF | tar -tf -` lost tar's complaint about
    empty input; `cat <<EOF | wc -l` lost its `0`).
    """
    if not _silent_on_empty_input(pipeline.stages[1]):
        return "where the input fails to expand (`set -u`), the consumer would not run, and it answers empty input"
    if len(pipeline.stages) > 2:
        observed = stage_status_observed(pipeline.root, context.facts)
    else:
        observed = status_use(pipeline.root, context.facts) != IGNORED
    if observed:
        return "where the input fails to expand (`set -u`), the exit status would be the shell's, and the script sees it"
    return None


def _silent_on_empty_input(stage: Stage) -> bool:
    """The consumer prints nothing when its input is empty: skipped, it prints the same."""
    if stage.command.type == "while_statement":
        condition = stage.command.child_by_field_name("condition")
        return condition is not None and syntax.text(condition).lstrip().startswith(b"read ")  # the body never runs
    consumer = stage.command_model
    if consumer is None or consumer.program is None or not consumer.exact:
        return False
    known = program(consumer.program)
    return known.has(Trait.SILENT_ON_EMPTY) and not consumer.has(*known.speaks_on_empty_with)


def _fails_on_empty_input(consumer: Command | None) -> bool:
    """It exits non-zero on empty input (grep selects no line: 1), as the failed redirect does."""
    if consumer is None or not consumer.exact:
        return False
    known = program(consumer.program)
    return known.has(Trait.FAILS_ON_EMPTY) and not consumer.has(*known.succeeds_on_empty_with)


def _redirects_stderr(redirect: Node) -> bool:
    """`2>err`, `2>&1`, `&>log`: the consumer's error messages go elsewhere than cat's did."""
    if redirect.type != "file_redirect":
        return False
    descriptor, operator, _ = syntax.redirect_parts(redirect)
    return descriptor == 2 or operator in ("&>", "&>>", ">&") and descriptor is None


def _file_read_later(pipeline: Pipeline, context: Context) -> str | None:
    """A file the consumer writes (`> out.txt`) whose name the script mentions again after the pipeline."""
    for redirect in pipeline.stages[1].all_redirects:
        _, operator, destination = syntax.redirect_parts(redirect)
        if destination is None or operator not in (">", ">>", ">|", "&>", "&>>"):
            continue
        name = syntax.text(destination)
        # After the redirect too: tree-sitter-bash hangs `a && cat f | b > out` 's redirect on the whole list,
        # past the pipeline's end, and the name would find itself.
        after = max(pipeline.root.end_byte, redirect.end_byte)
        if name not in (b"/dev/null",) and context.source.find(name, after) != -1:  # no copy of the rest
            return name.decode("utf-8", "replace")
    return None


def _ancestors(node: Node) -> list[Node]:
    found = []
    current = node.parent
    while current is not None:
        found.append(current)
        current = current.parent
    return found


def _reads_stdin_while_expanding(command: Node) -> bool:
    """`echo "$(head -1)"`, `X="$(cat)" env`: substitutions expand before the redirect is opened."""
    if command.type != "command":
        return False  # a compound's substitutions run inside it, after its redirects
    return any(node.type in ("command_substitution", "process_substitution") for node in syntax.walk(command))


def _first_word(command: Node) -> bytes | None:
    if command.type != "command":
        return None
    name = command.child_by_field_name("name")
    return None if name is None else syntax.text(name)
