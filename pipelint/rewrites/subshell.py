"""When shrinking a pipeline moves a stage out of its subshell.

Every stage of a pipeline runs in a subshell in dash, busybox sh, mksh and
bash. A fix that leaves a single command behind runs it in the current shell
instead: a loop's variables then survive it, `read` sets a variable, `exit`
ends the script, `break` leaves the loop around it (issue 13, class 3).
Such a fix is unsafe, and the message says what would change.

The LAST stage runs in the current shell in bash under `shopt -s lastpipe`
(also `bash -O lastpipe`, `BASHOPTS=lastpipe`; it takes effect while job
control is off, as in every script), in ksh93 and in zsh (issue 25, class 1).
There a fix that removes the last stage (`a | while …; done | cat > out` →
`a | while …; done > out`) moves the stage before it into the current shell.
mksh runs every stage in a subshell, but a `#!/bin/ksh` script may meet
ksh93 or mksh: a ksh script is read as both. zsh scripts are never linted.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from pipelint.programs.table import Trait, has
from pipelint.shell import syntax
from pipelint.shell.dialect import Dialect
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.rule import Context



# In `$(( … ))`: `n++`, `--n`, `n = 1`, `n += 2` (not `==`, `!=`, `<=`, `>=`).
_ARITHMETIC_ASSIGNMENT = re.compile(rb"\+\+|--|(?<![=!<>])=(?!=)")


def _assigns_while_expanding(node: Node) -> bool:
    """`${v:=x}`, `${v=x}`, `$((n++))`, `$((n = 1))` below node: words that assign while they expand.

    Their command substitutions run in subshells of their own and are not looked into.
    """
    for found in syntax.walk(node):
        if found.type == "expansion" and b"=" in syntax.text(found):
            return True
        if found.type == "arithmetic_expansion" and _ARITHMETIC_ASSIGNMENT.search(syntax.text(found)):
            return True
    return False


def last_stage_in_current_shell(pipeline: Pipeline, context: Context) -> bool:
    """The pipeline's last stage may run in the current shell: a ksh script (ksh93 does), or `lastpipe` may be on."""
    return context.dialect is Dialect.KSH or context.facts.option_at("lastpipe", pipeline.root.start_byte)


def enters_current_shell(pipeline: Pipeline, context: Context, becomes_last: bool = False) -> bool:
    """A fix that leaves `remaining` where the stages were may run it in the current shell where it ran in a subshell.

    Alone (the pipeline had two stages) it does. In a longer pipeline only a
    stage that becomes the last one may (becomes_last: the stage after it is
    removed), and only where the last stage runs in the current shell.
    """
    if len(pipeline.stages) == 2:
        return True
    return becomes_last and last_stage_in_current_shell(pipeline, context)


def escape_reason(pipeline: Pipeline, remaining: Stage, context: Context, becomes_last: bool = False) -> str | None:
    """What would escape into the current shell if the other stages went, or None when nothing can.

    becomes_last: the fix removes the stage after `remaining`, which then ends the pipeline.
    """
    if not enters_current_shell(pipeline, context, becomes_last):
        return None
    command = remaining.command
    if command.type == "subshell":
        return None
    if command.type == "test_command":
        return "`[[ … ]]` would assign its variable in the current shell" if _assigns_while_expanding(command) else None
    if command.type != "command":
        return f"{_compound_label(command)} would run in the current shell: what it sets, and `break`/`exit` in it, would act there"
    if any(_assigns_while_expanding(node) for node in (command, *remaining.all_redirects)):
        return "`${v:=…}` or `$((…=…))` in its words would assign the variable in the current shell"
    return _simple_command_reason(command, context)


def expansion_may_fail(stage: Stage, context: Context, moved: bytes = b"") -> bool:
    """The words of stage, its redirects and here-documents (and `moved`, what the fix gives it) may fail to expand.

    `set -u` in force with any `$` in them, or a `${x:?}`. In a stage of a
    pipeline the failure ends that subshell; in the current shell it ends the
    script (a non-interactive shell exits on it), and wherever it happens the
    command's redirects are not made (`sort "$x" | cat > out` creates out,
    `sort "$x" > out` does not).
    """
    text = b"".join([syntax.text(stage.command), *(syntax.text(r) for r in stage.all_redirects), moved])
    if b"$" not in text and b"`" not in text:
        return False
    return b"?" in text or context.facts.option_at("nounset", stage.start)


def expansion_escape_reason(
    pipeline: Pipeline, remaining: Stage, context: Context, moved: bytes = b"", becomes_last: bool = False
) -> str | None:
    """When the fix leaves remaining alone in the current shell and its words may fail to expand: why that is unsafe."""
    if not enters_current_shell(pipeline, context, becomes_last) or not expansion_may_fail(remaining, context, moved):
        return None
    return "a word that fails to expand (`set -u`, `${x:?}`) would end the script instead of one stage of the pipeline"


def failed_redirect_escape_reason(pipeline: Pipeline, remaining: Stage, context: Context, becomes_last: bool = False) -> str | None:
    """When the fix leaves a special builtin alone in the current shell with a redirect that may fail."""
    if not enters_current_shell(pipeline, context, becomes_last) or remaining.command.type != "command":
        return None
    word = remaining.command.child_by_field_name("name")
    # A redirect that fails on a special builtin ends a non-interactive POSIX shell
    # (dash, `bash --posix`), where it fails only the command elsewhere.
    if word is None or not has(syntax.lookup_name(word), Trait.SPECIAL_BUILTIN):
        return None
    return f"`{syntax.lookup_name(word).decode('utf-8', 'replace')}` is a special builtin: a missing file in its redirect would end a POSIX shell"


def _compound_label(command: Node) -> str:
    return {
        "while_statement": "the while loop",
        "for_statement": "the for loop",
        "compound_statement": "the block",
        "if_statement": "the if statement",
        "case_statement": "the case statement",
    }.get(command.type, "the compound command")


def _simple_command_reason(command: Node, context: Context) -> str | None:
    name_node = command.child_by_field_name("name")
    words = [] if name_node is None else [name_node, *syntax.arguments(command)]
    for index, word in enumerate(words):
        if b"$" in syntax.text(word) or b"`" in syntax.text(word):
            return "a computed command name could name a builtin or a function"
        name = syntax.lookup_name(word)
        if index > 0 and name.startswith(b"-"):
            continue  # `command -p read`
        label = name.decode("utf-8", "replace")
        if has(name, Trait.CHANGES_SHELL_STATE) or has(name, Trait.CONTROLS_FLOW):  # in a stage, on a subshell that ends
            return f"`{label}` would run in the current shell and act on it"
        if context.redefines(name):
            return f"`{label}` may be a function of the script, which would run in the current shell"
        if not has(name, Trait.RUNS_BUILTINS):  # `command cd`, `builtin read` still run the builtin here
            return None
    return None if words else "a computed command name could name a builtin or a function"

