"""PL504 sort-head: `sort FILE | head -n 1` sorts every line to keep one.

Finding the smallest (or largest) line is one pass over the data; sorting
it all costs n log n comparisons, the memory of every line and, past the
buffer size, temporary files. Advice only: the one-pass forms compare in a
different order from `sort` under a locale's collation, so no fix is offered.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.command import Command
from pipelint.programs.pipeline import Pipeline
from pipelint.programs.table import program
from pipelint.rule import Context, Rule
from pipelint.shell import syntax

# `sort` options after which its output is no sorted copy of its input, or costs no sort:
# a check prints nothing, a merge of sorted files is already one pass, a random order is a shuffle.
_NOT_A_SORT = frozenset({"-m", "--merge", "-R", "--random-sort", "--help", "--version"})
# Options that keep `sort | head -n 1` the smallest line in byte order (with LC_ALL=C).
_PLAIN = frozenset({"-u", "--unique"})
# How `head` keeps one line: `-n 1`, `-n1`, `--lines=1`, `--lines 1`, `-1`.
_ONE_LINE = (("-n", b"1"), ("--lines", b"1"), ("-1", None))

PLAIN_HELP = (
    "Keep the smallest line in one pass: "
    """`awk 'NR == 1 || $0 "" < m { m = $0 "" } END { if (NR) print m }' FILE` """
    "(byte order, as `LC_ALL=C sort` gives)"
)
KEYED_HELP = (
    "Keep the line that sorts first in one pass (`awk` comparing the key `sort` compares, or `sort` "
    "only when the order of every line is needed)"
)


class SortHeadRule(Rule):
    code = "PL504"
    name = "sort-head"
    severity = Severity.INFO
    fix_availability = FixAvailability.NEVER
    enabled_by_default = False

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        for sort, head in zip(pipeline.stages, pipeline.stages[1:]):
            first, then = sort.command_model, head.command_model
            if first is None or then is None or first.program != b"sort" or then.program != b"head":
                continue
            if not (first.exact and then.exact) or first.wrappers or then.wrappers:
                continue  # a computed option, or `sudo sort`: the advice would not apply as written
            if first.has(*program(b"sort").writes_file_with, *program(b"sort").stops_early_with):
                continue  # `-o FILE`, `-c`: nothing sorted on the pipe
            if first.has(*_NOT_A_SORT) or _random_sort(first):
                continue
            if context.defines(b"sort") or context.defines(b"head"):
                continue  # the script's own function or alias runs instead
            if any(syntax.redirects_stdout(redirect) for redirect in first.redirects):
                continue  # `sort f > out | head -n 1`: head reads nothing from sort
            if any(syntax.redirects_stdin(redirect) for redirect in then.redirects):
                continue  # `head -n 1 < f` reads the file, not the pipe
            if then.operands or len(then.options) != 1:
                continue
            option = then.options[0]
            if (option.name, option.value) not in _ONE_LINE:
                continue  # `head -n 5`, `head -c 1`: more than one line, or bytes
            plain = all(option.name in _PLAIN for option in first.options)
            yield self.finding(
                "`sort | head -n 1` sorts every line to keep one",
                sort.start,
                head.command.end_byte,
                help=PLAIN_HELP if plain else KEYED_HELP,
            )


def _random_sort(sort: Command) -> bool:
    """`sort --sort=random`: a shuffle, not an order (`shuf -n 1` is the advice there)."""
    option = sort.option("--sort")
    return option is not None and option.value is not None and b"random".startswith(option.value)
