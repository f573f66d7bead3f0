"""PL501 grep-count: `grep PAT [FILE] | wc -l` → `grep -c PAT [FILE]`."""

from __future__ import annotations

from collections.abc import Iterator


from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.programs.table import Trait, has
from pipelint.rule import Context, Rule
from pipelint.facts.exit_status import substitution_status_discarded
from pipelint.rewrites.stage_merge import absorb_next_stage, comment_between, merge_unsafe_reason


# grep options that leave "how many lines are selected" alone, so `-c` counts
# exactly the lines `wc -l` would.  Anything else (-o, -l, -L, -r, -A/-B/-C,
# -z, -H, -q, -d, --exclude, abbreviations, …) keeps the rule quiet.
COUNT_NEUTRAL_SHORT = frozenset("-" + letter for letter in "EFGPiywxvsnbhaIUZTuefm")
LONG_NEUTRAL = frozenset(
    {
        "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp",
        "--ignore-case", "--no-ignore-case", "--word-regexp", "--line-regexp",
        "--invert-match", "--no-messages", "--line-number", "--byte-offset",
        "--no-filename", "--text", "--null", "--initial-tab", "--line-buffered",
        "--binary", "--color", "--colour",
    }
)  # fmt: skip
LONG_WITH_VALUE = frozenset({"--regexp", "--file", "--max-count", "--label", "--binary-files", "--color", "--colour"})
PATTERN_OPTIONS = frozenset({"-e", "-f", "--regexp", "--file"})

MESSAGE = "`{grep} … | wc -l` pipes every matching line to `wc` only to count them: `{grep} -c` counts them itself"


def count_file_operands(grep: Command) -> int | None:
    """How many files grep reads, its command line read as GNU getopt would.

    None when `-c` would count something else than `| wc -l` (an option outside
    the count-neutral ones, an argument that may expand to several words).
    """
    if not grep.exact or any(not syntax.is_single_word(node) or syntax.has_unquoted_expansion(node) for node in grep.arguments):
        return None  # may expand to several words, or to options
    for option in grep.options:
        if option.name.startswith("--") and option.value is not None and option.name not in LONG_WITH_VALUE:
            return None  # `--count=x`: a value grep would refuse
        if option.name not in COUNT_NEUTRAL_SHORT | LONG_NEUTRAL | LONG_WITH_VALUE:
            return None
    pattern_given = any(option.name in PATTERN_OPTIONS for option in grep.options)
    operands = len(grep.operands) - (0 if pattern_given else 1)
    if operands < 0:
        return None  # no pattern at all: grep only prints its usage
    return operands


TEXT_OPTIONS = frozenset({"-a", "--text"})


def counts_the_same_lines(grep: Command, reads_pipe: bool) -> bool:
    """Whether `grep -c` prints what `grep … | wc -l` prints whatever the input holds (issue 13 class 8).

    Without `-a`, grep prints no line of a file it calls binary (a NUL byte,
    or bytes invalid in the locale's encoding) and `wc -l` counts too few,
    while `grep -c` counts them all. With a file to open (an operand, `<`,
    `-f FILE`) that is missing, `| wc -l` still prints 0 and `grep -c` prints
    nothing. Only text mode on a pipe escapes both.
    """
    text = any(
        option.name in TEXT_OPTIONS or (option.name == "--binary-files" and option.value == b"text")
        for option in grep.options
    )
    opens_a_file = bool(grep.operands[1:]) or any(option.name in ("-f", "--file") for option in grep.options)
    if any(option.name in PATTERN_OPTIONS for option in grep.options):
        opens_a_file = bool(grep.operands) or opens_a_file
    opens_a_file = opens_a_file or any(syntax.redirects_stdin(r) for r in grep.redirects)
    return text and reads_pipe and not opens_a_file


def is_plain_line_count(stage: Stage) -> bool:
    """`wc -l` / `wc --lines` reading standard input, with nothing else."""
    if stage.name != b"wc" or syntax.has_assignments(stage.command):
        return False
    arguments = stage.arguments
    return len(arguments) == 1 and syntax.literal_value(arguments[0]) in (b"-l", b"--lines")


def _unsafe_reason(pipeline: Pipeline, index: int, context: Context) -> str | None:
    """Why `grep -c` in place of `grep | wc -l` (stages index and index + 1) may change what the script sees.

    Besides what every merge of two stages may change (`stage_merge`): `grep`
    exits 1 when nothing matches where `wc -l` exits 0, so only where that
    status is lost (more stages follow, or a `$(…)` whose command's own status
    counts) is the fix invisible; and `-c` must count the lines `wc -l` counts.
    """
    reason = merge_unsafe_reason(pipeline, index, context)
    if reason is not None:
        return reason
    if index + 1 == len(pipeline.stages) - 1 and not substitution_status_discarded(pipeline.root):
        return "the pipeline's exit status becomes grep's, 1 where nothing matches"
    if not counts_the_same_lines(pipeline.stages[index].command_model, reads_pipe=index > 0):
        return "without `-a` on a pipe, grep may call its input binary, or open a file that is missing"
    return None


class GrepCountRule(Rule):
    code = "PL501"
    name = "grep-count"
    severity = Severity.WARNING
    enabled_by_default = False  # a micro cost (about 1 ms a call): the PL5 group, `--extend-select PL5`
    fix_availability = FixAvailability.SOMETIMES  # none when a comment stands between the stages
    shellcheck_codes = ("SC2126",)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        stages = pipeline.stages
        for index in range(len(stages) - 1):
            grep, wc = stages[index], stages[index + 1]
            if not has(grep.name, Trait.GREP) or not is_plain_line_count(wc):
                continue
            if context.defines(grep.name) or context.defines(b"wc"):
                continue
            if any(syntax.redirects_stdout(r) for r in grep.all_redirects):
                continue
            files = count_file_operands(grep.command_model)
            if files is None or files > 1:
                continue  # grep -c prints one count per file
            if any(syntax.redirects_stdin(r) for r in wc.all_redirects):
                continue
            if context.carriage_return_after(wc.command.end_byte):
                continue  # CRLF: bash runs `wc -l\r`; the fix would hand the \r to grep's last word (issue 13 class 9)
            removal = absorb_next_stage(pipeline, index, context, across_comments=True)
            if removal is None:
                continue
            name_node = grep.command.child_by_field_name("name")
            grep_label = grep.name.decode("utf-8", "replace")
            if comment_between(pipeline, index, context):
                help = f"Count with `{grep_label} -c` by hand: a comment stands between the stages, where the fix would delete it"
                yield self.finding(MESSAGE.format(grep=grep_label), grep.start, wc.command.end_byte, None, help)
                continue
            reason = _unsafe_reason(pipeline, index, context)
            safety = Applicability.UNSAFE if reason else Applicability.SAFE
            fix = self.fix(f"Count with `{grep_label} -c`", safety, Edit.insert(name_node.end_byte, b" -c"), removal)
            help = None if reason is None else f"The fix is unsafe: {reason}."
            yield self.finding(MESSAGE.format(grep=grep_label), grep.start, wc.command.end_byte, fix, help)
