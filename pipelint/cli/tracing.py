"""`pipelint trace -- SCRIPT ARGS…`, and what `pipelint check --trace FILE` adds to findings.

The script's own standard output is its own: the report goes to standard
error, or to `-o FILE`. pipelint exits with the script's status.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from pipelint.cli.terminal import COLOR_CHOICES, wants_colour
from pipelint.trace import DEFAULT_TOP, FORMATS

# The command line imports this module to know the command: what runs it is imported when it runs.
if TYPE_CHECKING:
    from pipelint.engine.report import FileReport
    from pipelint.trace.measured import TraceFile


@click.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--output-format", type=click.Choice(FORMATS), default="full", help="How to print the report.")
@click.option(
    "-o",
    "--output-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the report to this file instead of standard error (its folders are made).",
)
@click.option("--top", type=click.IntRange(min=0), default=DEFAULT_TOP, help="List this many pipelines (0: all).")
@click.option(
    "--color", type=click.Choice(COLOR_CHOICES), default="auto", help="Colour the report: auto, always, never."
)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def trace(command: tuple[str, ...], output_format: str, output_file: Path | None, top: int, color: str) -> None:
    """Run a script (`-- ./deploy.sh ARGS…`, `-- bash -x job.sh`) and rank its pipelines by what they cost."""
    from pipelint.cli.run import error_line, note_line
    from pipelint.trace import json_format, report, runner  # the engine loads here only
    from pipelint.trace import full

    try:
        runner.tracer_path()
    except runner.TracerMissing as error:
        raise click.ClickException(str(error)) from None
    with _report_stream(output_file) as out:
        outcome = runner.run(list(command))
        if not outcome.record.traced:
            reason = "; ".join(outcome.record.notes) or "refused"
            note_line(f"cannot trace the command ({reason}): it ran untraced, and only its total cost is measured")
        try:
            traced = report.build(list(command), outcome.status, outcome.record, Path.cwd(), outcome.killed_by)
            if output_format == "json":
                json_format.render(traced, out)
            else:
                full.render(traced, out, wants_colour(color, out), top)
        except Exception as error:  # the script ran and its status stands: say what went wrong in one line
            error_line(f"internal error while reporting the trace (please report): {type(error).__name__}: {error}")
    runner.end_like(outcome)

@contextlib.contextmanager
def _report_stream(output_file: Path | None) -> Iterator[TextIO]:
    """Standard error, or the file, opened before the script runs: a name that cannot be written stops first."""
    if output_file is None:
        yield sys.stderr
        return
    from pipelint.cli.files import report_file

    with report_file(output_file) as handle:
        yield handle


def load_trace(path: Path) -> TraceFile:
    """`pipelint check --trace FILE`: the trace, or one line saying why not."""
    from pipelint.trace.measured import TraceFileError, load  # only with --trace

    try:
        return load(path)
    except TraceFileError as error:
        raise click.ClickException(str(error)) from None


def add_measurements(reports: list[FileReport], trace_file: TraceFile, quiet: bool) -> None:
    """Each finding in a traced script gets what the trace measured of its pipeline (message and `measured`)."""
    from pipelint.cli.run import note_line
    from pipelint.output.common import printable
    from pipelint.trace.measured import annotate

    for report in reports:
        if report.display_name == "-":
            continue
        path = Path(report.display_name)
        traced = trace_file.script(path, report.final_source)
        if traced is None:
            if trace_file.has(path) and not quiet:
                note_line(f"{printable(report.display_name)}: changed since it was traced: no measured costs for it")
            continue
        report.findings = annotate(report.findings, traced)
