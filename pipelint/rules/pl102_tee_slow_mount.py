"""PL102 tee-slow-mount: a pipeline that writes a file on NFS, CIFS, sshfs… waits for it."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from pipelint.rules import evidence
from pipelint.facts import mounts
from pipelint.facts.outside import Outside
from pipelint.shell import syntax
from pipelint.programs import tee_command
from pipelint.facts.script import ScriptFacts
from pipelint.finding import Finding, FixAvailability, Severity
from pipelint.programs.pipeline import Pipeline, Stage
from pipelint.programs.table import Trait, has
from pipelint.rule import Context, Rule
from pipelint.facts.static_paths import static_path

_WRITES = (">", ">>", ">|", "&>", "&>>")



class TeeSlowMountRule(Rule):
    code = "PL102"
    name = "tee-slow-mount"
    severity = Severity.WARNING
    fix_availability = FixAvailability.NEVER
    reads_outside = frozenset({Outside.MOUNT_TABLE})

    def check_pipeline(self, pipeline: Pipeline, context: Context) -> Iterator[Finding]:
        facts = context.facts  # what a path means depends on the whole script: `LOG=…`, `mount …`
        system = context.outside.mount_table()
        if not context.slow_mounts and not system.any_slow and not facts.mounts_slow_filesystem:
            # Nothing on this machine or in the script is slow: no stage or path is read. Asked
            # first: once per file it costs a look at the commands' names, then three attributes
            # per pipeline, where reading each pipeline's writes was most of PL102's time.
            return
        tee_files, redirects = self._written_files(pipeline)
        if not tee_files and not redirects:
            return  # most pipelines write no file
        if _bounded(pipeline, context):
            return  # a few lines: one small write, nothing worth waiting for
        for operand in tee_files:
            place = self._slow(operand, facts, system, context.slow_mounts)
            if place is not None:
                yield self._tee_finding(operand, self._name(operand, facts), place, context)
        for redirect, destination, final in redirects:
            place = self._slow(destination, facts, system, context.slow_mounts)
            if place is not None:
                yield self._redirect_finding(redirect, destination, self._name(destination, facts), place, final)

    @staticmethod
    def _written_files(pipeline: Pipeline) -> tuple[list[Node], list[tuple[Node, Node, bool]]]:
        """tee's file operands, and (redirect, destination, is the pipeline's output) for writes."""
        tee_files: list[Node] = []
        redirects: list[tuple[Node, Node, bool]] = []
        last = len(pipeline.stages) - 1
        for index, stage in enumerate(pipeline.stages):
            tee = tee_command.parse(stage)
            tee_files.extend(tee.files if tee else ())
            for redirect in stage.all_redirects:
                if redirect.type != "file_redirect":
                    continue
                descriptor, operator, destination = syntax.redirect_parts(redirect)
                if operator in _WRITES and destination is not None:
                    redirects.append((redirect, destination, index == last and descriptor in (None, 1)))
        return tee_files, redirects

    @staticmethod
    def _slow(
        node: Node, facts: ScriptFacts, system: mounts.MountTable, prefixes: tuple[str, ...]
    ) -> mounts.SlowPlace | None:
        path = static_path(node, facts.literal_variables)
        if path is None:
            return None
        return mounts.slow_place(path.value, path.complete, facts.mount_table(system, node.start_byte), prefixes)

    @staticmethod
    def _name(node: Node, facts: ScriptFacts) -> str:
        """The operand as written, with the path it names when a variable hid it."""
        written = syntax.text(node).decode("utf-8", "replace")
        path = static_path(node, facts.literal_variables)
        if path is not None and path.complete and b"$" in syntax.text(node):
            return f"{written} ({path.value.decode('utf-8', 'replace')})"
        return written

    def _tee_finding(self, operand: Node, name: str, place: mounts.SlowPlace, context: Context) -> Finding:
        message = (
            f"`tee` copies every byte of the pipeline into {name}, on a slow filesystem "
            f"({_where(place)}): every stage waits for its writes ({evidence.TEE_TO_NFS})"
        )
        advice = "Log to local disk and copy the file after the pipeline, or write the log after it"
        if "PL602" in context.enabled_codes:
            message += "; `splicecat --tee` keeps it off the pipeline's path (PL602)"
            advice += ", or use `splicecat --tee`"
        return self.finding(message, operand.start_byte, operand.end_byte, help=advice)

    def _redirect_finding(self, redirect: Node, destination: Node, name: str, place: mounts.SlowPlace, final: bool) -> Finding:
        if final:
            what = f"The pipeline's output goes to {name}"
            advice = "Write to local disk and move the file to the slow mount after the pipeline"
        else:
            operator = syntax.text(redirect)[: destination.start_byte - redirect.start_byte].strip()
            what = f"`{operator.decode('utf-8', 'replace')}` writes a side file {name}"
            advice = "Write the log to local disk and copy it after the pipeline"
        message = f"{what}, on a slow filesystem ({_where(place)}): every stage waits for its writes ({evidence.TEE_TO_NFS})"
        return self.finding(message, redirect.start_byte, redirect.end_byte, help=advice)


def _bounded(pipeline: Pipeline, context: Context) -> bool:
    """The pipeline carries a few lines: `echo`/`printf` of words, `date`, or a here-string,
    through filters that cannot make more of them (issue 10)."""
    first, *rest = pipeline.stages
    if not _bounded_producer(first, context):
        return False
    for stage in rest:
        model = stage.command_model
        # A filter that cannot make more than it reads; a stage that can (xargs, ssh, sh, a loop): amount unknown.
        if model is None or not has(model.program, Trait.OUTPUT_AT_MOST_INPUT) or context.defines(model.program):
            return False
        if model.program == b"cat" and model.operands:
            return False  # `cat - big.log`: a file joins the stream
    return True


def _bounded_producer(stage: Stage, context: Context) -> bool:
    model = stage.command_model
    if model is None or model.wrappers or context.defines(model.program):
        return False
    if has(model.program, Trait.BOUNDED_OUTPUT):
        # `date | tee -a /nfs/log`, `echo "$(date) : started" | tee -a /nfs/log`: one write of what the
        # shell holds already (a `$(…)` ran to its end before echo starts), nothing for a stage to wait on.
        return True
    fed = [r for r in stage.all_redirects if r.type in ("herestring_redirect", "heredoc_redirect")]
    return model.program == b"cat" and not model.operands and bool(fed)


def _where(place: mounts.SlowPlace) -> str:
    if place.reason == "listed in slow-mounts":
        return f"{place.where} is listed in slow-mounts"
    return f"{place.reason} at {place.where}"
