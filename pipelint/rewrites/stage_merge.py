"""Merging a stage into the one before it: `a | b` → `a'`, the edit that deletes `| b`, and what else it changes.

Shared by PL501 (`grep … | wc -l` → `grep -c …`) and PL502 (`sort | uniq` → `sort -u`).
"""

from __future__ import annotations

from pipelint.shell import syntax
from pipelint.facts.exit_status import stage_status_observed, status_observed
from pipelint.finding import Edit
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rule import Context
from pipelint.rewrites.stage_removal import all_drain_after
from pipelint.rewrites.subshell import enters_current_shell, expansion_may_fail


def comment_between(pipeline: Pipeline, index: int, context: Context) -> bool:
    """A comment stands between stage index and the next (`sort f |  # dedupe⏎ uniq`): an edit that
    deletes `| NEXT` would delete it. The rule reports, without a fix."""
    return context.has_comment(pipeline.stages[index].end, pipeline.stages[index + 1].command.end_byte)


def absorb_next_stage(pipeline: Pipeline, index: int, context: Context, *, across_comments: bool = False) -> Edit | None:
    """The edit that deletes `| NEXT` after stage index, so stage index takes NEXT's place.

    across_comments: the edit even where a comment stands between them (`comment_between`),
    for a rule that reports there without the fix; otherwise None there.

    NEXT may keep a stdout redirect when it ends the pipeline (`| wc -l > n.txt`):
    tree-sitter puts it after the whole pipeline, so it then applies to the
    merged command. Any other redirect on NEXT would move onto stage index: no
    edit then.
    """
    stage, following = pipeline.stages[index], pipeline.stages[index + 1]
    operator = stage.operator_after
    if operator is None or operator.type != "|":
        return None
    if following.operator_after is not None and following.operator_after.type == "|&":
        return None  # stage's stderr would go down the pipe too
    if syntax.own_redirects(following.command):
        return None
    last = index + 1 == len(pipeline.stages) - 1
    for redirect in following.redirects:
        if not last or not syntax.redirects_stdout(redirect):
            return None
        descriptor, operator_text, _ = syntax.redirect_parts(redirect)
        if operator_text not in (">", ">>", ">|") or descriptor not in (None, 1):
            return None
    if not across_comments and comment_between(pipeline, index, context):
        return None  # a comment between the stages would be lost
    return Edit.delete(stage.end, following.command.end_byte)


def may_fail(stage: Stage) -> bool:
    """The stage reads a file or expands a word: it can fail where the stage after it would not (a missing file, `set -u`)."""
    model = stage.command_model
    if model is None or model.operands or any(syntax.literal_value(word) is None for word in model.arguments):
        return True
    return any(r.type == "file_redirect" and syntax.redirects_stdin(r) for r in stage.all_redirects)


def merge_unsafe_reason(pipeline: Pipeline, index: int, context: Context) -> str | None:
    """Why merging stage index + 1 into stage index may change what the script sees; None when nothing can.

    The merged command exits with the first stage's status where the second's
    used to count (`sort f | uniq`: 0 when f is missing, `sort -u f`: 2), and
    `PIPESTATUS` sees one stage fewer. Under `set -o pipefail` the pipeline's
    status is its last non-zero stage's: the absorbed stage (`uniq`, `wc -l`
    reading the pipe) fails only when SIGPIPE kills it, which needs a later
    stage that stops reading early (`| head -1`); with none, the merged
    command's status is what the two gave.
    """
    if context.facts.reads_pipestatus:
        return "`PIPESTATUS` sees one stage fewer"
    if stage_status_observed(pipeline.root, context.facts) and not all_drain_after(pipeline, index + 1, context):
        return "under `set -o pipefail` the status may come from a stage a later one stops early (`head`)"
    last = index + 1 == len(pipeline.stages) - 1
    if last and may_fail(pipeline.stages[index]) and status_observed(pipeline.root, context.facts):
        return "the pipeline's exit status becomes the first command's, which fails where the second succeeded"
    stage, following = pipeline.stages[index], pipeline.stages[index + 1]
    # Alone, or last where the last stage runs in the current shell (`lastpipe`, ksh), a word that fails to
    # expand ends the script, where in a stage of the pipeline it ended that stage.
    alone = enters_current_shell(pipeline, context, becomes_last=last)
    if (alone or following.redirects) and expansion_may_fail(stage, context):
        return "a word of the first command that fails to expand (`set -u`, `${x:?}`) would end the script or skip the redirect"
    names = {stage.name, following.name}
    if any(context.redefines(name) for name in names):
        return "a file the script sources may define one of the commands"
    return None
