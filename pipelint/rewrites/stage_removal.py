"""Removing a pass-through stage from the middle of a pipeline: what else it changes.

`a | tee /dev/null | b` → `a | b` keeps what b prints and the pipeline's
status, but issue 13 found three things it may not keep:
- the stage's own redirects (`tee /dev/null 2>err` creates err; class 6);
- the stage's status, which `set -o pipefail` and `PIPESTATUS` see (class 6);
- when the producer dies: the stage and its pipe hold up to 64 KiB more, so
  when b stops reading early (`head -1`) the producer is killed by SIGPIPE
  sooner, and whatever it would still have done (`touch done`, a line on
  stderr) is lost (class 16);
- how the data arrives: a next stage that shares its input among several
  commands (`( head -n 1; wc -l )`, a loop whose body reads too, a function)
  splits it where the reads fall, and the stage changes the pieces (fuzz seed 2432).

Shared by PL101 (tee-devnull); PL003's `| cat |` has the same questions.
"""

from __future__ import annotations

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.command import Command
from pipelint.programs.table import Trait, has, program
from pipelint.facts.exit_status import stage_status_observed
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rule import Context
from pipelint.rewrites.stdin_readers import several_readers

def harmless_redirect(redirect: Node) -> bool:
    """A redirect that opens no file: `2>/dev/null`, `2>&1`, `2>&-`."""
    if redirect.type != "file_redirect":
        return False
    descriptor, operator, destination = syntax.redirect_parts(redirect)
    if descriptor != 2:
        return False
    value = None if destination is None else syntax.literal_value(destination)
    if operator in (">", ">>", ">|"):
        return value == b"/dev/null"
    return operator == ">&" and value in (b"1", b"2", b"-")


def _plain_program(stage: Stage, context: Context, trait: Trait) -> Command | None:
    """The stage's model when it runs a program with trait as itself, with no redirect that opens a file for writing."""
    model = stage.command_model
    if model is None or not has(model.program, trait) or model.wrappers or not model.exact:
        return None
    if context.redefines(model.program) or context.carriage_return_after(stage.end):
        return None  # a function, an alias, or `uniq\r` in a CRLF script: not that program
    if not all(syntax.redirects_stdin(r) or harmless_redirect(r) for r in model.redirects):
        return None
    return model


def _quiet(stage: Stage, context: Context) -> bool:
    """Its only effect while it runs is its output: killed by SIGPIPE earlier or later, it leaves nothing else
    behind (its error messages about missing inputs come at the start, whenever it dies)."""
    model = _plain_program(stage, context, Trait.QUIET_PRODUCER)
    return model is not None and not model.has(*program(model.program).writes_file_with)


def _drains(stage: Stage, context: Context) -> bool:
    """It reads its input to the end whatever it holds, so the stages before it are never cut short by SIGPIPE."""
    model = _plain_program(stage, context, Trait.DRAINS_INPUT)
    return model is not None and not model.has(*program(model.program).stops_early_with)


def _all_quiet_before(pipeline: Pipeline, index: int, context: Context) -> bool:
    """Every stage before index is a quiet producer.

    Read once per pipeline, for each index at once: asked of every stage
    before each `| cat |`, a pipeline of 4,000 stages took 8 s.
    """
    return pipeline.shared(_quiet_before, context)[index]


def _quiet_before(pipeline: Pipeline, context: Context) -> list[bool]:
    quiet = [True]  # quiet[i]: the stages before i all are
    for stage in pipeline.stages:
        quiet.append(quiet[-1] and _quiet(stage, context))
    return quiet


def all_drain_after(pipeline: Pipeline, index: int, context: Context) -> bool:
    """Every stage after index reads its input to the end, so none is stopped by SIGPIPE from a later one,
    and the stage at index never is (read once per pipeline, as `_all_quiet_before`)."""
    return pipeline.shared(_drain_after, context)[index]


def _drain_after(pipeline: Pipeline, context: Context) -> list[bool]:
    drain = [True]  # from the end: drain[-1 - i] for the stages after i
    for stage in reversed(pipeline.stages[1:]):
        drain.append(drain[-1] and _drains(stage, context))
    drain.reverse()
    return drain


def unsafe_reason(pipeline: Pipeline, index: int, context: Context) -> str | None:
    """Why removing stage index (not the first, not the last) may change what the script does; None if nothing can."""
    stage = pipeline.stages[index]
    if any(not harmless_redirect(r) for r in stage.all_redirects):
        return "its own redirects open files, which would no longer be created"
    if stage_status_observed(pipeline.root, context.facts):
        return "`set -o pipefail` or `PIPESTATUS` sees its exit status"
    if not (_all_quiet_before(pipeline, index, context) or all_drain_after(pipeline, index, context)):
        return "the commands before it may be stopped earlier by SIGPIPE when the ones after it stop reading"
    if _shares_its_input(pipeline.stages[index + 1], context):
        return (
            "the next stage shares what it reads among several commands; what each gets depends on how"
            " the data arrives, which the stage changes"
        )
    return None


def _shares_its_input(stage: Stage, context: Context) -> bool:
    """The stage may run several commands that read its input: a group or loop with more than one
    reader (`( head -n 1; wc -l )`), a function of the script, a name only known at run time.

    Each reads what has arrived when it asks: `ls a b 2>&1 | cat | ( head -n 1; wc -l )`
    hands head both lines in one piece 39 times in 40 (dash), without cat in 10 (fuzz seed 2432).
    """
    if not stage.is_simple:
        return several_readers(stage.command)
    return stage.name is None or context.defines(stage.name)
