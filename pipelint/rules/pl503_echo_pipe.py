"""PL503 echo-pipe: `echo "$x" | cmd` / `printf '%s\\n' "$x" | cmd` → `cmd <<< "$x"` (bash)."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.programs.table import Trait, has
from pipelint.rule import Context, Rule
from pipelint.rewrites.stdin_redirect import can_take_stdin, consumer_label, rewrite

# `printf FORMAT ARG` prints exactly ARG and a newline, as a here-string does.
LINE_FORMATS = frozenset({b"'%s\\n'", b'"%s\\n"'})


def _echoed_word(stage: Stage) -> Node | None:
    """The one word `echo WORD` or `printf '%s\\n' WORD` prints followed by a newline."""
    arguments = stage.arguments
    if stage.name == b"echo" and len(arguments) == 1:
        word = arguments[0]
    elif stage.name == b"printf" and len(arguments) == 2 and syntax.text(arguments[0]) in LINE_FORMATS:
        word = arguments[1]
    else:
        return None
    if not syntax.is_single_word(word) or syntax.has_unquoted_expansion(word):
        return None  # `echo $x` splits and globs; a here-string does neither
    if word.type == "process_substitution":
        return None
    if syntax.text(word).startswith(b"-"):
        return None  # `echo -n`, `echo -e`, `echo -$x`: options, not text
    return word


class EchoPipeRule(Rule):
    code = "PL503"
    name = "echo-pipe"
    severity = Severity.WARNING
    enabled_by_default = False  # a micro cost (about 1 ms a call): the PL5 group, `--extend-select PL5`
    default_in_loops = True  # where its fork per call adds up
    fix_availability = FixAvailability.SOMETIMES  # none when a comment stands between the stages

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        if not context.dialect.has_herestrings:
            return  # POSIX sh has no `<<<`; the pipe is the portable way
        writer = pipeline.stages[0]
        if not has(writer.name, Trait.PRINTS_ARGUMENTS) or syntax.command_name(writer.command) != writer.name:
            return  # `/bin/echo` is a program: its -e/-n and backslashes differ from the builtin's
        if context.defines(writer.name) or syntax.has_assignments(writer.command) or writer.all_redirects:
            return
        word = _echoed_word(writer)
        if word is None or not can_take_stdin(pipeline, context):
            return
        consumer = consumer_label(pipeline.stages[1])
        moved = rewrite(pipeline, context, b"<<< " + syntax.text(word), unsafe=True)
        fix = None if moved is None else moved.as_fix(f"Give the text to {moved.consumer} as a here-string")
        by_hand = f"Give the text to {consumer} as a here-string by hand: a comment stands between the stages, where the fix would delete it"
        yield self.finding(
            f"`{writer.name.decode()} … |` forks a subshell only to feed one line to {consumer}: "
            "a here-string needs no extra process",
            writer.start,
            writer.command.end_byte,
            fix,
            help=by_hand if moved is None else None,
        )
