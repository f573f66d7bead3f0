"""`pipelint check`, `pipelint rule`, `pipelint lsp`: the command line."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from pipelint import __version__
from pipelint.engine.sizes import DEFAULT_MAX_FILE_SIZE, format_size, parse_size
from pipelint.output import FORMATS, HUMAN_FORMATS
from pipelint.shell.dialect import LINTED_SHELLS
from pipelint.cli.terminal import COLOR_CHOICES, is_terminal, page, wants_colour
from pipelint.cli.tracing import add_measurements, load_trace, trace

# What a command needs is imported in it: `pipelint --version` imports no settings, engine, rule or
# output format, and `check` only what its run uses (docs/benchmarks.md, "Start-up").
if TYPE_CHECKING:
    from pipelint.cli.run import Run, RunOptions
    from pipelint.engine.config import Overrides, Unset

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class Fatal(Exception):
    """Stop with exit code 2 after printing one line."""


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="pipelint", message="%(prog)s %(version)s")
def cli() -> None:
    """A linter and optimizer for shell pipelines."""


@cli.command()
@click.argument("paths", nargs=-1, type=str)
@click.option("--fix/--no-fix", default=False, help="Apply safe fixes in place.")
@click.option("--unsafe-fixes/--no-unsafe-fixes", default=None, help="Also offer and apply unsafe fixes.")
@click.option("--diff", is_flag=True, help="Print the changes fixes would make as a unified diff; change nothing.")
@click.option("--show-fixes", is_flag=True, help="List the fixes applied.")
@click.option("--statistics", is_flag=True, help="Count findings per rule instead of listing them.")
@click.option("--select", multiple=True, help="Rule codes, prefixes or names to check (replaces the default set).")
@click.option("--extend-select", multiple=True, help="Rules to check on top of the selected ones.")
@click.option("--ignore", multiple=True, help="Rules not to check.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when --fix changed something.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only: no summary, no notes.")
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="With an internal error, also print its traceback; also note the misreads of tree-sitter-bash that "
    "pipelint repaired without losing anything.",
)
@click.option(
    "--output-format",
    type=click.Choice(sorted(FORMATS)),
    default=None,
    help="How to print findings (default: full on a terminal, concise otherwise).",
)
@click.option(
    "-o",
    "--output-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the findings, statistics and summary to this file (its folders are made); notes and errors stay on stderr.",
)
@click.option(
    "--color",
    type=click.Choice(COLOR_CHOICES),
    default="auto",
    help="Colour the output: auto (on a terminal; NO_COLOR and FORCE_COLOR decide first), always, never.",
)
@click.option("--stdin-filename", default=None, help="The name to report and configure stdin (`-`) by.")
@click.option("--config", "config_file", type=click.Path(path_type=Path), default=None, help="Use this config file only.")
@click.option("--mounts", type=click.Path(path_type=str), default=None, help="Read mounts from this mountinfo file.")
@click.option("--slow-mount", "slow_mounts", multiple=True, help="A path prefix on a slow filesystem (repeatable).")
@click.option("--force-exclude", is_flag=True, help="Apply `exclude` to files named on the command line too.")
@click.option("--only-shell", is_flag=True, help="Skip named files that are not shell scripts (by extension or shebang).")
@click.option(
    "--max-file-size",
    default=None,
    help=f"Refuse scripts larger than this (e.g. 8MiB, 500KiB; 0: no limit; default {format_size(DEFAULT_MAX_FILE_SIZE)}).",
)
@click.option(
    "--shell",
    type=click.Choice(LINTED_SHELLS),
    default=None,
    help="Read every script as this shell's, whatever its directive, #! line or name say (ShellCheck's -s).",
)
@click.option(
    "--embedded/--no-embedded",
    default=None,
    help="Also lint shell inside strings and here-documents, Dockerfiles and CI files (default: on).",
)
@click.option(
    "--strict-parse/--no-strict-parse",
    default=None,
    help="Report what tree-sitter-bash cannot parse as a parse error even where the shell accepts the script "
    "(default: a note, and the exit status is not affected).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Lint this many files at once, in worker processes (default: the number of CPUs, when the files are worth starting them; 1: no workers).",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the results cache (.pipelint_cache/).")
@click.option(
    "--trace",
    "trace_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Add what `pipelint trace --output-format json` measured (this file) to the findings of traced scripts.",
)
def check(paths: tuple[str, ...], **flags) -> None:
    """Lint shell scripts (files, folders, `-` for stdin; default `.`)."""
    from pipelint.cli.run import run_check
    from pipelint.engine.config import SettingsResolver
    from pipelint.output.common import printable

    flags = CheckFlags(**flags)
    resolver = SettingsResolver(flags.overrides(), flags.config_file)
    paths = paths or (".",)
    stdin_fix = flags.fix and not flags.diff and "-" in paths
    measured = load_trace(flags.trace_file) if flags.trace_file is not None else None
    with _report_stream(flags, stdin_fix) as out:
        run = run_check(paths, resolver, flags.run_options())
        if not run.reports and not run.errors and not run.skipped:
            raise Fatal(f"no shell scripts found in {', '.join(printable(path) for path in paths)}")
        if measured is not None:
            add_measurements(run.reports, measured, flags.quiet)
        _print_results(run, flags, out)
    sys.exit(_exit_code(run, flags))


@contextlib.contextmanager
def _report_stream(flags: CheckFlags, stdin_fix: bool) -> Iterator[TextIO]:
    """Where the report goes: --output-file, else stdout, or stderr when stdout carries a diff or a fixed script.

    The file is opened before anything is linted or written, so that a name
    that cannot be written stops the run with one line and nothing changed.
    """
    if flags.output_file is None:
        yield sys.stderr if stdin_fix or flags.diff else sys.stdout
        return
    from pipelint.cli.files import report_file

    with report_file(flags.output_file) as handle:
        yield handle


@dataclass(frozen=True)
class CheckFlags:
    """The options of `pipelint check` as click parsed them."""

    fix: bool
    unsafe_fixes: bool | None
    diff: bool
    show_fixes: bool
    statistics: bool
    select: tuple[str, ...]
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    exit_zero: bool
    exit_non_zero_on_fix: bool
    quiet: bool
    verbose: bool
    output_format: str | None
    output_file: Path | None
    color: str
    stdin_filename: str | None
    config_file: Path | None
    mounts: str | None
    slow_mounts: tuple[str, ...]
    force_exclude: bool
    only_shell: bool
    max_file_size: str | None
    embedded: bool | None
    shell: str | None
    strict_parse: bool | None
    jobs: int | None
    no_cache: bool
    trace_file: Path | None

    def overrides(self) -> Overrides:
        """What the command line says about settings; Fatal when it names what does not exist."""
        from pipelint.engine import registry
        from pipelint.engine.config import Overrides
        from pipelint.output.common import printable

        overrides = Overrides(
            select=_split(self.select) or None,
            ignore=_split(self.ignore),
            extend_select=_split(self.extend_select),
            unsafe_fixes=self.unsafe_fixes,
            slow_mounts=tuple(self.slow_mounts),
            max_file_size=self._max_file_size(),
            embedded=self.embedded,
            shell=self.shell,
            strict_parse=self.strict_parse,
        )
        try:
            overrides.validate()
        except registry.UnknownSelector as error:
            raise Fatal(str(error)) from None
        if self.config_file is not None and not self.config_file.is_file():
            raise Fatal(f"{printable(str(self.config_file))}: config file not found")
        if self.mounts is not None and not Path(self.mounts).is_file():
            raise Fatal(f"{printable(self.mounts)}: mount table not found")
        if self.statistics and self.output_format is not None:
            from pipelint.output import statistics

            if self.output_format not in statistics.FORMATS:
                choices = ", ".join(sorted(statistics.FORMATS))
                raise Fatal(f"--statistics cannot be printed as {self.output_format} (it prints as {choices})")
        return overrides

    def _max_file_size(self) -> int | None | Unset:
        from pipelint.engine.config import UNSET

        if self.max_file_size is None:
            return UNSET
        try:
            return parse_size(self.max_file_size)
        except ValueError as error:
            raise Fatal(f"--max-file-size {self.max_file_size!r}: {error}") from None

    def report_format(self, out: TextIO) -> str:
        """--output-format, or by default full on a terminal and concise elsewhere (a pipe, a file)."""
        return self.output_format or ("full" if is_terminal(out) else "concise")

    def run_options(self) -> RunOptions:
        from pipelint.cli.parallel import default_jobs
        from pipelint.cli.run import RunOptions

        return RunOptions(
            fix=self.fix or self.diff,
            write=self.fix and not self.diff,
            diff=self.diff,
            force_exclude=self.force_exclude,
            only_shell=self.only_shell,
            stdin_filename=self.stdin_filename,
            mountinfo=self.mounts,
            verbose=self.verbose,
            quiet=self.quiet,
            jobs=self.jobs or default_jobs(),
            cache=not self.no_cache,
            # On a terminal only; a diff or a fixed stdin goes to stdout as bytes, under no bar.
            progress=not self.quiet and not self.diff and sys.stderr.isatty(),
            progress_colour=wants_colour(self.color, sys.stderr),
        )


def _print_results(run: Run, flags: CheckFlags, out: TextIO) -> None:
    """Findings in the chosen format; for people, the summary, fixes and notes after them."""
    from pipelint.output import summary
    from pipelint.output.common import RenderOptions

    output_format = flags.report_format(out)
    options = RenderOptions(
        unsafe_fixes=run.unsafe_fixes,
        fix_mode=flags.fix and not flags.diff,
        show_fixes=flags.show_fixes,
        color=wants_colour(flags.color, out),
        verbose=flags.verbose,
    )
    if flags.statistics:
        from pipelint.output import statistics

        statistics.FORMATS[output_format](run.reports, options, out)
    elif not flags.diff:
        FORMATS[output_format](run.reports, options, out)
    if output_format not in HUMAN_FORMATS or flags.quiet:
        return
    if flags.diff:
        _echo(summary.parse_failure_notes(run.reports), sys.stderr)
    if flags.show_fixes:
        _echo(summary.fixes_applied(run.reports), out)
    if not flags.diff:
        click.echo(summary.summary(run.reports, options, run.errors), file=out)
    elif run.diffs == 0:
        click.echo("No fixes to apply.", file=out)
    _echo(summary.notes(run.reports, options), sys.stderr)


def _echo(lines: list[str], out) -> None:
    for line in lines:
        click.echo(line, file=out)


def _exit_code(run: Run, flags: CheckFlags) -> int:
    if run.errors:
        return EXIT_ERROR
    if flags.diff:
        return EXIT_FINDINGS if run.diffs else EXIT_CLEAN
    remaining = any(r.findings or r.parse_failures for r in run.reports)
    if flags.exit_non_zero_on_fix and any(r.fixed for r in run.reports):
        return EXIT_FINDINGS
    return EXIT_CLEAN if flags.exit_zero or not remaining else EXIT_FINDINGS


RULE_FORMATS = ("text", "markdown")


@cli.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
@click.option(
    "--output-format",
    type=click.Choice(RULE_FORMATS),
    default=None,
    help="text: rendered for a terminal, long documents through $PAGER (a document's default on a terminal); markdown: as written (its default elsewhere).",
)
@click.option("--color", type=click.Choice(COLOR_CHOICES), default="auto", help="Colour the rendered text: auto, always, never.")
def rule(code: str | None, show_all: bool, output_format: str | None, color: str) -> None:
    """Print a rule's document, or list all rules."""
    import shutil

    from pipelint.engine import registry, ruledocs
    from pipelint.output import rule_document

    out = sys.stdout
    if show_all or code is None:  # the table reads the same everywhere: Markdown only when asked for
        click.echo(rule_document.table_markdown() if output_format == "markdown" else ruledocs.table(), nl=output_format != "markdown")
        return
    output_format = output_format or ("text" if is_terminal(out) else "markdown")
    found = registry.lookup(code)
    if found is None:
        raise Fatal(f"unknown rule {code!r} (see `pipelint rule --all`)")
    text = rule_document.markdown(found)
    if output_format == "markdown":
        click.echo(text, nl=False)
        return
    size = shutil.get_terminal_size()
    shown = rule_document.rendered(text, size.columns, wants_colour(color, out))
    if not page(shown, out, size.lines):
        out.write(shown)


@cli.command()
@click.option("--stdio", is_flag=True, hidden=True, help="Accepted for clients that pass it; stdio is the only transport.")
def lsp(stdio: bool) -> None:
    """Start the language server on stdin/stdout, for editors."""
    from pipelint.lsp.server import serve  # pygls loads here only: `pipelint check` does not pay for it

    serve()


cli.add_command(trace)


def error_line(message: str) -> None:
    from pipelint.cli.run import error_line as print_error  # the one shape of an error, said in run.py

    print_error(message)


def main() -> None:
    """Entry point: every failure becomes one line on stderr and exit code 2."""
    try:
        cli.main(standalone_mode=False, prog_name="pipelint")
    except Fatal as error:
        error_line(str(error))
        sys.exit(EXIT_ERROR)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else "", err=True)
        sys.exit(EXIT_ERROR)
    except click.UsageError as error:
        hint = f" (see `{error.ctx.command_path} --help`)" if error.ctx else ""
        error_line(f"{error.format_message()}{hint}")
        sys.exit(EXIT_ERROR)
    except click.Abort:
        error_line("aborted")
        sys.exit(EXIT_ERROR)
    except click.ClickException as error:
        error_line(error.format_message())
        sys.exit(EXIT_ERROR)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(EXIT_CLEAN)
