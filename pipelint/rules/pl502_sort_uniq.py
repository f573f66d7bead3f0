"""PL502 sort-uniq: `sort … | uniq` → `sort -u …`."""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rule import Context, Rule
from pipelint.rewrites.stage_merge import absorb_next_stage, comment_between, merge_unsafe_reason

# sort options that do not change which lines compare equal, so `-u` drops
# exactly the lines `uniq` would.  Keys (-k, -t), -f, -n, -b, -M, -V, … make
# `sort -u` compare less than the whole line; -o, -m, -c, -z change what is
# written; anything unknown keeps the rule quiet.
EQUALITY_NEUTRAL = frozenset({"-r", "-s", "-u", "--reverse", "--stable", "--unique"})
WITH_VALUE = frozenset(
    {"-S", "-T", "--buffer-size", "--temporary-directory", "--parallel", "--compress-program", "--batch-size"}
)

# The byte-wise locales: there `sort -u` compares with memcmp, like uniq.
BYTEWISE_LOCALES = frozenset({b"C", b"POSIX"})


def already_unique(sort: Command) -> bool | None:
    """Whether sort has -u already; None if its -u would not drop exactly what `uniq` drops."""
    if not sort.exact or any(not syntax.is_single_word(n) and syntax.has_unquoted_expansion(n) for n in sort.arguments):
        return None  # `sort $opts`: may expand to options
    for option in sort.options:
        if option.name in WITH_VALUE:
            continue
        if option.name not in EQUALITY_NEUTRAL or option.value is not None:
            return None
    return sort.has("-u", "--unique")


def is_bare_uniq(stage: Stage) -> bool:
    return stage.name == b"uniq" and not stage.arguments and not syntax.has_assignments(stage.command)


def sorts_bytewise(stage: Stage) -> bool:
    """`LC_ALL=C sort …`: collation is byte order for this command, whatever the environment says."""
    for child in stage.command.children:
        if child.type != "variable_assignment":
            continue
        name = child.child_by_field_name("name")
        value = child.child_by_field_name("value")
        if name is not None and syntax.text(name) == b"LC_ALL" and value is not None:
            if syntax.literal_value(value) in BYTEWISE_LOCALES:
                return True
    return False


class SortUniqRule(Rule):
    code = "PL502"
    name = "sort-uniq"
    severity = Severity.WARNING
    enabled_by_default = False  # a micro cost (about 1 ms a call): the PL5 group, `--extend-select PL5`
    fix_availability = FixAvailability.SOMETIMES  # none when a comment stands between the stages

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        if context.defines(b"sort") or context.defines(b"uniq"):
            return  # the script's own function or alias runs instead
        stages = pipeline.stages
        for index in range(len(stages) - 1):
            sort, uniq = stages[index], stages[index + 1]
            if sort.name != b"sort" or not is_bare_uniq(uniq) or context.carriage_return_after(uniq.end):
                continue  # in a CRLF script `uniq\r` is no uniq
            if any(syntax.redirects_stdout(r) for r in sort.all_redirects):
                continue
            if any(syntax.redirects_stdin(r) for r in uniq.all_redirects):
                continue
            unique = already_unique(sort.command_model)
            if unique is None:
                continue
            removal = absorb_next_stage(pipeline, index, context, across_comments=True)
            if removal is None:
                continue
            finding = self._finding(pipeline, index, unique, removal, context)
            if comment_between(pipeline, index, context):
                title = finding.fix.title.split(" (unsafe")[0]  # type: ignore[union-attr]
                help = f"{title} by hand: a comment stands between the stages, where the fix would delete it"
                finding = self.finding(finding.message, finding.start, finding.end, None, help)
            yield finding

    def _finding(self, pipeline: Pipeline, index: int, unique: bool, removal: Edit, context: Context) -> Finding:
        sort, uniq = pipeline.stages[index], pipeline.stages[index + 1]
        edits = [removal]
        reason = merge_unsafe_reason(pipeline, index, context)
        if unique:
            # Lines that are byte-for-byte equal also collate equal: `sort -u` left none for uniq.
            message = "`uniq` after `sort -u` finds no duplicates left to drop"
            title = "Remove the `uniq` stage"
        else:
            edits.append(Edit.insert(sort.command.child_by_field_name("name").end_byte, b" -u"))
            if reason is None and not sorts_bytewise(sort):
                reason = "outside the C locale `sort -u` drops lines that only collate equal"
            message = "`sort | uniq` copies every line through a pipe to drop duplicates: `sort -u` drops them while sorting"
            title = "Let `sort -u` drop the duplicates"
        safety = Applicability.SAFE if reason is None else Applicability.UNSAFE
        help_text = None if reason is None else f"The fix is unsafe: {reason}."
        return self.finding(message, sort.start, uniq.command.end_byte, self.fix(title, safety, *edits), help=help_text)
