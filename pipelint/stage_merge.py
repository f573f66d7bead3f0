"""Merging a stage into the one before it: `a | b` → `a'`, the edit that deletes `| b`.

Shared by PL501 (`grep … | wc -l` → `grep -c …`) and PL502 (`sort | uniq` → `sort -u`).
"""

from __future__ import annotations

from pipelint import syntax
from pipelint.finding import Edit
from pipelint.pipeline import Pipeline
from pipelint.rule import Context


def absorb_next_stage(pipeline: Pipeline, index: int, context: Context) -> Edit | None:
    """The edit that deletes `| NEXT` after stage index, so stage index takes NEXT's place.

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
    if context.has_comment(stage.end, following.command.end_byte):
        return None  # a comment between the stages would be lost
    return Edit.delete(stage.end, following.command.end_byte)
