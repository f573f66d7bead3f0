"""PL505 double-sort: `sort f | sort -r` sorts every line twice; `sort -r f` gives the same lines once.

Reported only where the second sort's output provably does not depend on the
order the first one produced, whatever the locale (rules/PL505-double-sort.md,
"What it does", works through -s, -u, -k and collation):

- the first sort compares whole lines (`sort`, `-r`, `-s` only), so two lines
  it leaves in file order are exactly the lines its collation finds equal;
- the second sort breaks every tie with the whole line (no -s, no -u), or
  compares whole lines itself; then the lines it may leave in input order are
  among those the first one left in file order, and one sort sees the same.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from pipelint.finding import Applicability, Edit, Finding, Fix, FixAvailability, Severity
from pipelint.programs import table
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rewrites.stage_merge import absorb_next_stage, merge_unsafe_reason
from pipelint.rewrites.subshell import escape_reason
from pipelint.rule import Context, Rule
from pipelint.shell import syntax

# The options of a first sort that still compares whole lines: GNU sort builds no key for -r or -s
# alone, so it orders by the locale's collation of the line and keeps tied lines in file order.
FIRST_SORT_OPTIONS = frozenset({"-r", "--reverse", "-s", "--stable"})
# Options that make sort compare something other than the whole line (a field, a number, folded case).
KEY_OPTIONS = frozenset(
    {
        "-b", "--ignore-leading-blanks", "-d", "--dictionary-order", "-f", "--ignore-case",
        "-g", "--general-numeric-sort", "-h", "--human-numeric-sort", "-i", "--ignore-nonprinting",
        "-M", "--month-sort", "-n", "--numeric-sort", "-V", "--version-sort", "-k", "--key", "--sort",
    }
)  # fmt: skip
# Options that turn off the last-resort whole-line comparison: lines equal by the keys keep their input
# order (-s) or only the first of them is printed (-u), so the first sort's order would show.
TIE_KEEPING_OPTIONS = frozenset({"-s", "--stable", "-u", "--unique"})
# Options of a second sort that change neither which lines it reads nor how it breaks ties.
ORDER_NEUTRAL_OPTIONS = frozenset(
    {
        "-r", "--reverse", "-t", "--field-separator", "-o", "--output", "-S", "--buffer-size",
        "-T", "--temporary-directory", "--parallel", "--compress-program", "--batch-size",
    }
)  # fmt: skip
SECOND_SORT_OPTIONS = KEY_OPTIONS | TIE_KEEPING_OPTIONS | ORDER_NEUTRAL_OPTIONS
# `--sort=WORD` values that are a total order (`random` is not; argmatch takes abbreviations, so only whole words).
DETERMINISTIC_SORT_WORDS = frozenset({b"general-numeric", b"human-numeric", b"month", b"numeric", b"version"})


class DoubleSortRule(Rule):
    code = "PL505"
    name = "double-sort"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    enabled_by_default = False  # PL5: a micro cost, opt-in

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        """One finding per pair of `sort` stages where the second re-sorts all of the first's output."""
        for index in range(len(pipeline.stages) - 1):
            first, second = pipeline.stages[index], pipeline.stages[index + 1]
            if not resorts_whole_output(first, second, context):
                continue
            fix, unsafe_reason = self._merge(pipeline, index, context)
            if fix is None:
                advice = "Sort once: give the second sort's options to the first and drop the second"
            elif unsafe_reason:
                advice = f"The fix is unsafe: {unsafe_reason}"
            else:
                advice = None
            yield self.finding(
                "the data is sorted twice: the second `sort` alone decides the order",
                first.start,
                second.command.end_byte,
                fix=fix,
                help=advice,
            )

    def _merge(self, pipeline: Pipeline, index: int, context: Context) -> tuple[Fix | None, str | None]:
        """The fix `sort [-r|-s] INPUT | sort OPTIONS` → `sort OPTIONS INPUT`, and why it is unsafe (None: safe)."""
        first, second = pipeline.stages[index], pipeline.stages[index + 1]
        edits = _option_swap(first, second, context)
        absorb = absorb_next_stage(pipeline, index, context)
        if edits is None or absorb is None or context.carriage_return_after(second.command.end_byte):
            return None, None
        reason = merge_unsafe_reason(pipeline, index, context) or escape_reason(
            pipeline, first, context, becomes_last=index + 2 == len(pipeline.stages)
        )
        if reason is None and _writes_named_file(second):
            reason = "with its input missing, `sort -o FILE` fails before it opens FILE, where the second sort emptied it"
        applicability = Applicability.UNSAFE if reason else Applicability.SAFE
        return self.fix("Sort once with the second sort's options", applicability, *edits, absorb), reason


def resorts_whole_output(first: Stage, second: Stage, context: Context) -> bool:
    """second is a `sort` whose output is the same whichever order first, a whole-line `sort`, gave its lines."""
    if first.operator_after is None or first.operator_after.type != "|":
        return False  # `|&`: the first sort's error messages are sorted too
    if not (_plain_sort(first, context) and _plain_sort(second, context)):
        return False
    return _whole_line_sort(first, context) and _order_blind_sort(second)


def _plain_sort(stage: Stage, context: Context) -> bool:
    """The stage is `sort` itself, run directly, with words that cannot turn into other options."""
    model = stage.command_model
    if model is None or model.program != b"sort" or not model.exact:
        return False
    if model.wrappers or model.assignments:
        return False  # `sudo sort`, `LC_ALL=C sort`: another user or another locale for one of the sorts
    return not context.defines(b"sort")


def _whole_line_sort(stage: Stage, context: Context) -> bool:
    """stage compares whole lines, writes them all to the pipe, and reads only files (no obsolete `+POS` key)."""
    model = stage.command_model
    assert model is not None
    if any(option.name not in FIRST_SORT_OPTIONS for option in model.options):
        return False
    for operand in model.operands:
        if syntax.has_unquoted_expansion(operand) or context.facts.may_hold_dash_word(operand):
            return False  # `$opts` may split into `-n -u`; `f=${1:--}` makes "$f" an option
        value = syntax.literal_value(operand)
        if value is not None and value.startswith(b"+"):
            return False  # GNU sort reads a first `+1` as the obsolete form of `-k 2`
    return all(_leaves_stdout_on_pipe(redirect) for redirect in stage.all_redirects)


def _leaves_stdout_on_pipe(redirect: Node) -> bool:
    """The redirect reads stdin or sends descriptor 2 (or higher) to a file: the sorted lines still go down the pipe."""
    if syntax.redirects_stdin(redirect):
        return True
    if redirect.type != "file_redirect":
        return False
    descriptor, operator, _ = syntax.redirect_parts(redirect)
    return descriptor not in (None, 0, 1) and operator in (">", ">>", ">|")


def _order_blind_sort(stage: Stage) -> bool:
    """stage sorts its stdin alone, and breaks every tie by the whole line or compares whole lines only."""
    model = stage.command_model
    assert model is not None
    if model.operands:
        return False  # it sorts other files in too
    names = {option.name for option in model.options}
    if not names <= SECOND_SORT_OPTIONS:
        return False  # -m, -c, -R, -z, --files0-from, an abbreviated long option…
    sort_words = [option.value for option in model.options if option.name == "--sort"]
    if any(word not in DETERMINISTIC_SORT_WORDS for word in sort_words):
        return False
    return not (names & TIE_KEEPING_OPTIONS and names & KEY_OPTIONS)


def _option_swap(first: Stage, second: Stage, context: Context) -> list[Edit] | None:
    """Edits giving the first sort the second's words in place of its own options; None when no fix can.

    The second sort's words are copied as written, after the first's command
    name (before its operands, the order POSIX asks for). Each option word of
    the first sort goes with the blank before it.
    """
    first_model, second_model = first.command_model, second.command_model
    assert first_model is not None and second_model is not None
    if first_model.program_node is None or second_model.program_node is None:
        return None
    if syntax.text(first_model.program_node) != syntax.text(second_model.program_node):
        return None  # `/usr/bin/sort` and `sort` may be two programs
    if not all(syntax.redirects_stdin(redirect) for redirect in first.all_redirects):
        return None  # the first sort's `2>log` would take the second's messages too
    edits = []
    words = {option.node.id: option.node for option in first_model.options}
    for word in words.values():
        start = word.prev_sibling.end_byte if word.prev_sibling is not None else word.start_byte
        if context.has_comment(start, word.end_byte):
            return None
        edits.append(Edit.delete(start, word.end_byte))
    arguments = second_model.arguments
    if arguments:
        copied = context.source[arguments[0].start_byte : arguments[-1].end_byte]
        edits.append(Edit.insert(first_model.program_node.end_byte, b" " + copied))
    return edits


def _writes_named_file(stage: Stage) -> bool:
    """The sort writes a file named by an option (`-o F`) instead of stdout."""
    model = stage.command_model
    return model is not None and model.has(*table.program(b"sort").writes_file_with)
