"""PL002 useless-cat-heredoc: `cat <<EOF | cmd` → `cmd <<EOF`."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, redirect_operator_end
from pipelint.rule import Context, Rule
from pipelint.rewrites.stdin_redirect import can_take_stdin, consumer_label, rewrite


def _heredoc_body_start(redirect: Node) -> int | None:
    for child in redirect.children:
        if child.type == "heredoc_body":
            return child.start_byte
    return None


def _other_heredocs(pipeline: Pipeline, own: Node) -> bool:
    """Another here-document on the line: moving ours would swap the bodies' order."""
    for stage in pipeline.stages:
        for node in syntax.walk(stage.command):
            if node.type == "heredoc_redirect":
                return True
        if any(r.type == "heredoc_redirect" and r != own for r in stage.all_redirects):
            return True
    return False


class UselessCatHeredocRule(Rule):
    code = "PL002"
    name = "useless-cat-heredoc"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    shellcheck_codes = ("SC2002",)

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        reader = pipeline.stages[0]
        if reader.name != b"cat" or reader.arguments or syntax.has_assignments(reader.command):
            return
        if context.defines(b"cat"):
            return  # the script's own `cat` function or alias: not the program (issue 13 class 4)
        redirects = reader.all_redirects
        if len(redirects) != 1 or redirects[0].type not in ("heredoc_redirect", "herestring_redirect"):
            return
        document = redirects[0]
        if not can_take_stdin(pipeline, context):
            return
        consumer = pipeline.stages[1]
        kind = "here-document" if document.type == "heredoc_redirect" else "here-string"
        operator = context.source[document.start_byte : redirect_operator_end(document)]
        fix = advice = None
        movable = True
        if document.type == "heredoc_redirect":
            body_start = _heredoc_body_start(document)
            movable = (
                body_start is not None
                and consumer.command.end_byte <= body_start
                and not _other_heredocs(pipeline, document)
            )
        if movable:
            moved = rewrite(pipeline, context, operator, unsafe=context.redefines(b"cat"))  # sourced files
            if moved is not None:
                fix, advice = moved.as_fix(f"Give the {kind} to {moved.consumer} directly"), moved.help
        yield self.finding(
            f"`cat` only copies a {kind} into {consumer_label(consumer)}: "
            "attach it to the command that reads it",
            reader.start,
            redirect_operator_end(document),
            fix,
            help=advice,
        )
