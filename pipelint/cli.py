"""`pipelint check`, `pipelint rule`, `pipelint lsp`: the command line."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import click

from pipelint import __version__, registry
from pipelint.config import ConfigError, Overrides, SettingsResolver
from pipelint.discovery import is_shell_script, walk_scripts
from pipelint.fixer import write_atomically
from pipelint.linter import FileReport, InputError, ensure_text, process, read_script
from pipelint.output import FORMATS, HUMAN_FORMATS, RenderOptions, summary
from pipelint.output.common import printable
from pipelint.output.diff import unified_diff
from pipelint import ruledocs

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class Fatal(Exception):
    """Stop with exit code 2 after printing one line."""


def error_line(message: str) -> None:
    click.echo(f"pipelint: error: {message}", err=True)


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="pipelint", message="%(prog)s %(version)s")
def cli() -> None:
    """A linter and optimizer for shell pipelines."""


@dataclass
class Run:
    """The state of one `pipelint check` run."""

    reports: list[FileReport] = field(default_factory=list)
    errors: int = 0
    diffs: int = 0
    empty_folders: list[str] = field(default_factory=list)  # named folders without scripts
    unsafe_fixes: bool = False  # whether any file's settings allow unsafe fixes
    skipped: int = 0  # named files left out by --force-exclude / --only-shell


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
    "--output-format",
    type=click.Choice(sorted(FORMATS)),
    default=None,
    help="How to print findings (default: full on a terminal, concise otherwise).",
)
@click.option("--stdin-filename", default=None, help="The name to report and configure stdin (`-`) by.")
@click.option("--config", "config_file", type=click.Path(path_type=Path), default=None, help="Use this config file only.")
@click.option("--mounts", type=click.Path(path_type=str), default=None, help="Read mounts from this mountinfo file.")
@click.option("--slow-mount", "slow_mounts", multiple=True, help="A path prefix on a slow filesystem (repeatable).")
@click.option("--force-exclude", is_flag=True, help="Apply `exclude` to files named on the command line too.")
@click.option("--only-shell", is_flag=True, help="Skip named files that are not shell scripts (by extension or shebang).")
def check(paths, fix, unsafe_fixes, diff, show_fixes, statistics, select, extend_select, ignore, exit_zero,
          exit_non_zero_on_fix, quiet, output_format, stdin_filename, config_file, mounts, slow_mounts,
          force_exclude, only_shell) -> None:  # fmt: skip
    """Lint shell scripts (files, folders, `-` for stdin; default `.`)."""
    overrides = Overrides(
        select=_split(select) or None,
        ignore=_split(ignore),
        extend_select=_split(extend_select),
        unsafe_fixes=unsafe_fixes,
        slow_mounts=tuple(slow_mounts),
    )
    try:
        overrides.validate()
    except registry.UnknownSelector as error:
        raise Fatal(str(error)) from None
    if config_file is not None and not config_file.is_file():
        raise Fatal(f"{config_file}: config file not found")
    if mounts is not None and not Path(mounts).is_file():
        raise Fatal(f"{mounts}: mount table not found")
    resolver = SettingsResolver(overrides, config_file)
    output_format = output_format or ("full" if sys.stdout.isatty() else "concise")
    paths = paths or (".",)
    writes_fixes = fix and not diff
    stdin_fix = writes_fixes and "-" in paths
    run = Run()
    try:
        for target in _targets(paths, resolver, run, force_exclude, only_shell):
            _check_one(target, resolver, run, fix or diff, writes_fixes, diff, mounts, stdin_filename)
    except ConfigError as error:
        raise Fatal(str(error)) from None
    if not run.reports and not run.errors and not run.skipped:
        raise Fatal(f"no shell scripts found in {', '.join(paths)}")
    for folder in run.empty_folders:
        click.echo(f"pipelint: warning: no shell scripts found in {folder}", err=True)

    out = sys.stderr if stdin_fix or diff else sys.stdout
    options = RenderOptions(
        unsafe_fixes=run.unsafe_fixes,
        fix_mode=fix and not diff,
        show_fixes=show_fixes,
        color=None if out.isatty() else False,
    )
    if statistics:
        _echo(summary.statistics(run.reports, options), out)
    elif not diff:
        FORMATS[output_format](run.reports, options, out)
    if output_format in HUMAN_FORMATS and not quiet:
        if diff:  # the findings, parse failures among them, are not printed
            _echo(summary.parse_failure_notes(run.reports), sys.stderr)
        if show_fixes:
            _echo(summary.fixes_applied(run.reports), out)
        if not diff:
            click.echo(summary.summary(run.reports, options, run.errors), file=out)
        elif run.diffs == 0:
            click.echo("No fixes to apply.", file=out)
    sys.exit(_exit_code(run, exit_zero, exit_non_zero_on_fix, diff))


def _exit_code(run: Run, exit_zero: bool, exit_non_zero_on_fix: bool, diff: bool) -> int:
    if run.errors:
        return EXIT_ERROR
    if diff:
        return EXIT_FINDINGS if run.diffs else EXIT_CLEAN
    remaining = any(r.findings or r.parse_failures for r in run.reports)
    if exit_non_zero_on_fix and any(r.fixed for r in run.reports):
        return EXIT_FINDINGS
    return EXIT_CLEAN if exit_zero or not remaining else EXIT_FINDINGS


@dataclass(frozen=True)
class _Target:
    path: Path | None  # None: standard input
    display_name: str


def _targets(paths: tuple[str, ...], resolver: SettingsResolver, run: Run, force_exclude=False, only_shell=False):
    seen: set[Path] = set()
    for raw in paths:
        if raw == "-":
            yield _Target(None, "-")
            continue
        path = Path(raw)
        if path.is_dir():
            settings = resolver.for_path(path)
            found = False
            for script in walk_scripts(path, settings.is_excluded):
                found = True
                if script not in seen:
                    seen.add(script)
                    yield _Target(script, _display(script))
            if not found:
                run.empty_folders.append(raw)
        elif path.exists() or path.is_symlink():
            # pre-commit names every file itself; these make it pick like discovery does.
            if (force_exclude and resolver.for_path(path).is_excluded(path)) or (
                only_shell and path.is_file() and not is_shell_script(path)
            ):
                run.skipped += 1
                continue
            resolved = path.resolve()
            if resolved not in seen:
                seen.add(resolved)
                yield _Target(path, raw)
        else:
            error_line(f"{printable(raw)}: no such file or directory")
            run.errors += 1


def _display(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def _check_one(target: _Target, resolver, run: Run, fix: bool, write: bool, diff: bool, mountinfo, stdin_filename) -> None:
    if target.path is None:
        name = stdin_filename or "-"
        settings_path = Path(stdin_filename).resolve() if stdin_filename else Path.cwd() / "-"
        source = sys.stdin.buffer.read()
        try:
            ensure_text(source)
        except InputError as error:
            error_line(f"{name}: {error}")
            run.errors += 1
            return
        settings = resolver.for_path(settings_path)
        run.unsafe_fixes |= settings.unsafe_fixes
        report = process(source, name, settings, settings_path, fix=fix, mountinfo=mountinfo)
        if write:
            sys.stdout.buffer.write(report.final_source)
            sys.stdout.buffer.flush()
    else:
        try:
            source = read_script(target.path)
        except InputError as error:
            error_line(f"{printable(target.display_name)}: {error}")
            run.errors += 1
            return
        settings = resolver.for_path(target.path)
        run.unsafe_fixes |= settings.unsafe_fixes
        report = process(source, target.display_name, settings, target.path, fix=fix, mountinfo=mountinfo)
        if write and report.fixed_source is not None:
            try:
                write_atomically(target.path, report.fixed_source)
            except OSError as error:
                error_line(f"{printable(target.display_name)}: cannot write the fixed file: {error.strerror or error}")
                run.errors += 1
    if diff and report.fixed_source is not None:
        run.diffs += 1
        _print_diff(report)
    run.reports.append(report)


def _print_diff(report: FileReport) -> None:
    sys.stdout.buffer.write(unified_diff(report))
    sys.stdout.buffer.flush()


def _echo(lines: list[str], out) -> None:
    for line in lines:
        click.echo(line, file=out)


@cli.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
def rule(code: str | None, show_all: bool) -> None:
    """Print a rule's document, or list all rules."""
    if show_all or code is None:
        click.echo(ruledocs.table())
        return
    found = registry.lookup(code)
    if found is None:
        raise Fatal(f"unknown rule {code!r} (see `pipelint rule --all`)")
    click.echo(ruledocs.read(found))


@cli.command()
@click.option("--stdio", is_flag=True, hidden=True, help="Accepted for clients that pass it; stdio is the only transport.")
def lsp(stdio: bool) -> None:
    """Start the language server on stdin/stdout, for editors."""
    from pipelint.lsp.server import serve  # pygls loads here only: `pipelint check` does not pay for it

    serve()


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
