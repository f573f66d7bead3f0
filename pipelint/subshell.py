"""When shrinking a pipeline moves a stage out of its subshell.

Every stage of a pipeline runs in a subshell (bash without `lastpipe`, dash).
A fix that leaves a single command behind runs it in the current shell
instead: a loop's variables then survive it, `read` sets a variable, `exit`
ends the script.  Such a fix is unsafe.
"""

from __future__ import annotations

from pipelint import syntax
from pipelint.pipeline import Pipeline, Stage
from pipelint.rule import Context

# Compound commands whose body only tests: no state escapes them.
_STATELESS_COMPOUNDS = frozenset({"subshell", "test_command"})


def leaves_subshell(pipeline: Pipeline, remaining: Stage, context: Context) -> bool:
    """True if removing the other stages would run `remaining` in the current shell."""
    if len(pipeline.stages) > 2:
        return False
    command = remaining.command
    if command.type in _STATELESS_COMPOUNDS:
        return False
    if command.type != "command":
        return True
    name = syntax.command_name(command)
    if name is None:
        return True  # `$cmd` could name a builtin or a function
    return name in syntax.STATE_CHANGING_BUILTINS or name in context.functions
