"""One `pipelint check` run: the files named, their settings, each file linted and fixed in memory, then written.

Two phases, so that nothing is written before every file's settings were
loaded and every file was read and linted: a broken config file met late in
the run has not been preceded by writes the run then forgets to report.
Every problem is one `pipelint: error:` line on stderr as it happens, and
stops only what it concerns: a file that cannot be read, the files governed
by a broken config file, a rule that raised on one file (the other rules'
findings on that file stand), a fix that cannot be written (its findings
stay reported as they are on disk).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from pipelint import hosts
from pipelint.config import ConfigError, Settings, SettingsResolver
from pipelint.discovery import is_lintable, walk_scripts
from pipelint.linter import FileReport, InputError, Script, ensure_size, ensure_text, process, read_limited, read_script
from pipelint.output.common import printable
from pipelint.output.diff import unified_diff
from pipelint.writeback import NotWritten, write_fixed

# The longest file name component Linux file systems take (NAME_MAX).
NAME_MAX = 255


def error_line(message: str) -> None:
    """The one shape of an error: one line on stderr."""
    print(f"pipelint: error: {message}", file=sys.stderr, flush=True)


def warning_line(message: str) -> None:
    print(f"pipelint: warning: {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class RunOptions:
    fix: bool = False  # compute fixes (--fix or --diff)
    write: bool = False  # write them (--fix without --diff)
    diff: bool = False
    force_exclude: bool = False
    only_shell: bool = False
    stdin_filename: str | None = None
    mountinfo: str | None = None
    verbose: bool = False  # tracebacks of internal errors


@dataclass(frozen=True)
class Target:
    path: Path | None  # None: standard input
    display_name: str


@dataclass
class _PendingWrite:
    report: FileReport
    path: Path
    script: Script
    settings: Settings


@dataclass
class Run:
    """The outcome of one `pipelint check` run."""

    options: RunOptions
    reports: list[FileReport] = field(default_factory=list)
    errors: int = 0
    diffs: int = 0
    empty_folders: list[str] = field(default_factory=list)  # named folders without scripts
    unsafe_fixes: bool = False  # whether any file's settings allow unsafe fixes
    skipped: int = 0  # named files left out by --force-exclude / --only-shell
    _config_errors: set[str] = field(default_factory=set)
    _warnings: set[str] = field(default_factory=set)
    _files_read: set[tuple[int, int]] = field(default_factory=set)  # (device, inode) of the regular files read

    def first_read(self, status: os.stat_result) -> bool:
        """Whether this is the first time the run reads this file, whatever its name (links, hard links)."""
        if not stat.S_ISREG(status.st_mode):
            return True
        identity = (status.st_dev, status.st_ino)
        if identity in self._files_read:
            return False
        self._files_read.add(identity)
        return True

    def error(self, message: str) -> None:
        error_line(message)
        self.errors += 1

    def warning(self, message: str) -> None:
        """Once per run: folders named together share their parents' .gitignore files."""
        if message not in self._warnings:
            self._warnings.add(message)
            warning_line(message)

    def settings_for(self, resolver: SettingsResolver, path: Path) -> Settings | None:
        """The path's settings; None after reporting its broken config file (once per file)."""
        try:
            settings = resolver.for_path(path)
        except ConfigError as error:
            if str(error) not in self._config_errors:
                self._config_errors.add(str(error))
                self.error(str(error))
            return None
        self.unsafe_fixes |= settings.unsafe_fixes
        return settings

    def internal_error(self, where: str, summary: str, details: str) -> None:
        self.error(f"internal error {where} (please report): {summary}")
        if self.options.verbose:
            print(details.rstrip("\n"), file=sys.stderr, flush=True)


def run_check(paths: tuple[str, ...], resolver: SettingsResolver, options: RunOptions) -> Run:
    """Lint (and fix in memory) every target, then write the fixes."""
    run = Run(options)
    pending: list[_PendingWrite] = []
    for target in _targets(paths, resolver, run):
        if target.path is None:
            _check_stdin(run, resolver)
        else:
            checked = _check_file(run, resolver, target)
            if checked is not None:
                pending.append(checked)
    for write in pending:
        _write(run, write)
    if run.reports or run.errors or run.skipped:  # else the command line says it once, as an error
        for folder in run.empty_folders:
            run.warning(f"no shell scripts found in {printable(folder)}")
    return run


# Which files.


def _targets(paths: tuple[str, ...], resolver: SettingsResolver, run: Run):
    seen: set[Path] = set()
    for raw in paths:
        if raw == "-":
            yield Target(None, "-")
            continue
        path = Path(raw)
        try:
            is_dir = path.is_dir()
            exists = is_dir or path.exists() or path.is_symlink()
        except OSError as error:  # a name too long, …
            run.error(f"{printable(raw)}: {error.strerror or error}")
            continue
        if is_dir:
            yield from _folder_targets(path, raw, resolver, run, seen)
        elif not exists:
            run.error(f"{printable(raw)}: no such file or directory")
        elif not _skipped(path, resolver, run):
            resolved = Path(os.path.realpath(path))  # Path.resolve raises on a symlink loop
            if resolved not in seen:
                seen.add(resolved)
                yield Target(path, raw)


def _folder_targets(folder: Path, raw: str, resolver: SettingsResolver, run: Run, seen: set[Path]):
    settings = run.settings_for(resolver, folder)
    if settings is None:
        return
    found = False
    def warning(path: Path, message: str) -> None:
        run.warning(f"{printable(_display(path))}: {message}")

    def error(path: Path, message: str) -> None:
        run.error(f"{printable(_display(path))}: {message}")

    for script in walk_scripts(folder, settings.is_excluded, on_problem=warning, on_error=error, embedded=settings.embedded):
        found = True
        if script not in seen:
            seen.add(script)
            yield Target(script, _display(script))
    if not found:
        run.empty_folders.append(raw)


def _skipped(path: Path, resolver: SettingsResolver, run: Run) -> bool:
    """pre-commit names every file itself; --force-exclude and --only-shell make it pick like discovery does.

    A Dockerfile or CI file named while embedded shell is off is skipped with a warning: it is no script.
    """
    options = run.options
    host = hosts.kind_of(path)
    if not (options.force_exclude or options.only_shell or host is not None):
        return False
    settings = run.settings_for(resolver, path)
    if settings is None:
        return True
    if options.force_exclude and settings.is_excluded(path):
        run.skipped += 1
        return True
    if host is not None and not settings.embedded:
        run.warning(f"{printable(str(path))}: not linted: {host.name} files are read only with embedded shell on")
        run.skipped += 1
        return True
    if options.only_shell and path.is_file() and not is_lintable(path, settings.embedded):
        run.skipped += 1
        return True
    return False


def _display(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


# Linting.


def _lint(run: Run, source: bytes, name: str, settings: Settings, path: Path | None) -> FileReport | None:
    """process(), with every internal error reported as one line instead of a traceback."""
    try:
        report = process(source, name, settings, path, fix=run.options.fix, mountinfo=run.options.mountinfo)
    except Exception as error:  # a bug outside the rules (the checker catches theirs): keep checking the others
        run.internal_error(f"on {printable(name)}", _one_line(error), traceback.format_exc())
        return None
    for crash in report.crashes:
        run.internal_error(f"in {crash.code} on {printable(name)}", crash.summary, crash.traceback)
    return report


def _one_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())}"


def _check_file(run: Run, resolver: SettingsResolver, target: Target) -> _PendingWrite | None:
    path, name = target.path, target.display_name
    assert path is not None
    settings = run.settings_for(resolver, path)
    if settings is None:
        return None
    try:
        script = read_script(path, settings.max_file_size)
    except InputError as error:
        run.error(f"{printable(name)}: {error}")
        return None
    if not run.first_read(script.status):  # two fixes of one file would collide: check it once
        return None
    report = _lint(run, script.source, name, settings, path)
    if report is None:
        return None
    run.reports.append(report)
    if report.fixed_source is None:
        return None
    if run.options.diff:
        run.diffs += 1
        _print_diff(report)
    return _PendingWrite(report, path, script, settings) if run.options.write else None


def _write(run: Run, pending: _PendingWrite) -> None:
    """Write one fixed file; if it cannot be, report why and what the file on disk still holds."""
    try:
        write_fixed(pending.path, pending.script.source, pending.script.status, pending.report.final_source)
    except NotWritten as error:
        report = pending.report
        run.error(f"{printable(report.display_name)}: fixes not written: {error}")
        run.reports[run.reports.index(report)] = _unfixed(run, pending)


def _unfixed(run: Run, pending: _PendingWrite) -> FileReport:
    """The report of the file as it stays on disk: its findings before any fix."""
    report = pending.report
    try:
        return process(report.source, report.display_name, pending.settings, pending.path, mountinfo=run.options.mountinfo)
    except Exception:  # reported already, when the same text was linted with fixes
        return FileReport(report.display_name, report.source)


def _print_diff(report: FileReport) -> None:
    sys.stdout.buffer.write(unified_diff(report))
    sys.stdout.buffer.flush()


# Standard input.


def _check_stdin(run: Run, resolver: SettingsResolver) -> None:
    """Lint stdin; with --fix, stdout gets the fixed script, or the input unchanged if it cannot be fixed."""
    options = run.options
    name = options.stdin_filename or "-"
    try:
        settings_path = _stdin_settings_path(options.stdin_filename)
    except InputError as error:
        run.error(f"--stdin-filename {printable(name)}: {error}")
        _pass_through(b"", None, run)
        return
    settings = run.settings_for(resolver, settings_path)
    if settings is None:
        _pass_through(b"", None, run)
        return
    source = read_limited(sys.stdin.buffer, settings.max_file_size)
    try:
        ensure_size(len(source), settings.max_file_size)
        ensure_text(source)
    except InputError as error:
        run.error(f"{printable(name)}: {error}")
        _pass_through(source, None, run)
        return
    report = _lint(run, source, name, settings, settings_path)
    if report is None:
        _pass_through(source, None, run)
        return
    run.reports.append(report)
    _pass_through(source, report, run)
    if options.diff and report.fixed_source is not None:
        run.diffs += 1
        _print_diff(report)


def _stdin_settings_path(stdin_filename: str | None) -> Path:
    if not stdin_filename:
        return Path.cwd() / "-"
    if any(len(os.fsencode(part)) > NAME_MAX for part in Path(stdin_filename).parts):
        raise InputError(os.strerror(errno.ENAMETOOLONG).lower())
    return Path(os.path.realpath(stdin_filename))


def _pass_through(head: bytes, report: FileReport | None, run: Run) -> None:
    """With --fix -, an editor replaces its buffer with stdout: never leave it empty or cut short."""
    if not run.options.write:
        return
    sys.stdout.buffer.write(report.final_source if report is not None else head)
    if report is None:
        shutil.copyfileobj(sys.stdin.buffer, sys.stdout.buffer)  # what was not read, past the size limit
    sys.stdout.buffer.flush()
