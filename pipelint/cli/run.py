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
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pipelint.embedded import hosts
from pipelint.engine.config import ConfigError, Settings, SettingsResolver
from pipelint.cli.discovery import is_lintable, walk_scripts
from pipelint.cli.files import FileRead, InputError, ensure_size, ensure_text, read_limited, read_script
from pipelint.engine.report import FileReport
from pipelint.output.common import printable
from pipelint.shell.dialect import unlinted_shell
from pipelint.cli.parallel import OrderedPool
from pipelint.cli.progress import FileProgress

# The engine is imported by the first file linted (`_lint_job`), the results cache when the run uses
# it: a run answered from the cache imports neither tree-sitter nor a rule (docs/benchmarks.md, "Start-up").
if TYPE_CHECKING:
    from pipelint.cli.cache import Cache, Caches

# The longest file name component Linux file systems take (NAME_MAX).
NAME_MAX = 255


def error_line(message: str) -> None:
    """The one shape of an error: one line on stderr."""
    print(f"pipelint: error: {message}", file=sys.stderr, flush=True)


def warning_line(message: str) -> None:
    print(f"pipelint: warning: {message}", file=sys.stderr, flush=True)


def note_line(message: str) -> None:
    print(f"pipelint: note: {message}", file=sys.stderr, flush=True)


def unlinted_note(name: str, shell: str) -> str:
    """What is said of a script of a shell pipelint does not lint (`dialect.unlinted_shell`)."""
    return (
        f"{printable(name)}: not linted: a {shell} script (pipelint reads sh, bash, dash and ksh; "
        "`--shell bash` reads it as bash)"
    )


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
    quiet: bool = False  # no notes
    jobs: int = 1  # worker processes linting files (parallel.py); 1: this process
    cache: bool = False  # read and write the results cache (cache.py)
    progress: bool = False  # a progress bar on stderr for long runs (progress.py)
    progress_colour: bool = True  # in colour (`--color`, `NO_COLOR`: terminal.py)


@dataclass(frozen=True)
class Target:
    path: Path | None  # None: standard input
    display_name: str


@dataclass
class _PendingWrite:
    report: FileReport
    path: Path
    script: FileRead
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

    def note(self, message: str) -> None:
        if not self.options.quiet:
            note_line(message)

    def warning(self, message: str) -> None:
        """Once per run: folders named together share their parents' .gitignore files."""
        if message not in self._warnings:
            self._warnings.add(message)
            warning_line(message)

    def settings_for(self, resolver: SettingsResolver, path: Path) -> Settings | None:
        """The path's settings; None after reporting its broken config file (once per file)."""
        return self.take_settings(_resolve(resolver, path))

    def take_settings(self, resolved: Settings | ConfigError) -> Settings | None:
        """Settings resolved earlier, now counted; a broken config file reported (once per run)."""
        if isinstance(resolved, ConfigError):
            if str(resolved) not in self._config_errors:
                self._config_errors.add(str(resolved))
                self.error(str(resolved))
            return None
        self.unsafe_fixes |= resolved.unsafe_fixes
        return resolved

    def internal_error(self, where: str, summary: str, details: str) -> None:
        self.error(f"internal error {where} (please report): {summary}")
        if self.options.verbose:
            print(details.rstrip("\n"), file=sys.stderr, flush=True)


def _resolve(resolver: SettingsResolver, path: Path, is_file: bool = False) -> Settings | ConfigError:
    """is_file: path is a file the run lints, no folder (`SettingsResolver.for_file`: no stat per file)."""
    try:
        return resolver.for_file(path) if is_file else resolver.for_path(path)
    except ConfigError as error:
        return error


def run_check(paths: tuple[str, ...], resolver: SettingsResolver, options: RunOptions) -> Run:
    """Lint (and fix in memory) every target, then write the fixes.

    Files are read and looked up in the cache here, in path order, linted by
    the pool, and taken back in path order: everything a file prints is
    printed when it is taken back, so the output is the same whatever the
    number of jobs.
    """
    from pipelint.cli.cache import Caches

    run = Run(options)
    pending: list[_PendingWrite] = []
    caches = Caches(options.cache, options.mountinfo)
    with OrderedPool(_lint_job, options.jobs, warm_up=_import_engine) as pool:
        start_early = options.jobs > 1 and not _may_be_cached(paths[0], resolver, caches)
        discovery = _Discovery(_targets(paths, resolver, run), pool, start_early)
        targets: Iterable[Target] = discovery
        total = 0
        if options.progress:  # the bar counts the files from the start: all are found first
            targets = list(discovery)
            total = len(targets)
        with FileProgress(total, options.progress, options.progress_colour) as progress:
            slots = (_prepare(run, resolver, caches, target) for target in targets)
            # What the files say is said once discovery is done (in path order, after what discovery
            # said), as when the files were all found first: the output is --jobs 1's.
            held: list[tuple[_Slot, FileReport | _Failure | None]] = []
            for taken in pool.run(slots, lambda slot: slot.job, lambda job: len(job.source)):
                held.append(taken)
                if discovery.done:
                    pending += _finish_all(run, resolver, caches, held, progress)
            pending += _finish_all(run, resolver, caches, held, progress)
    caches.save()
    for write in pending:
        _write(run, write)
    if run.reports or run.errors or run.skipped:  # else the command line says it once, as an error
        for folder in run.empty_folders:
            run.warning(f"no shell scripts found in {printable(folder)}")
    return run


def _finish_all(run: Run, resolver: SettingsResolver, caches: Caches,
                held: list[tuple[_Slot, FileReport | _Failure | None]], progress: FileProgress) -> list[_PendingWrite]:  # fmt: skip
    """_finish each target held, in order; held is emptied."""
    pending = []
    for slot, outcome in held:
        checked = _finish(run, resolver, caches, slot, outcome)
        progress.advance(slot.lines)
        if checked is not None:
            pending.append(checked)
    held.clear()
    return pending


# What a file costs to lint, CPU ms: 0.4 + 0.3 per KiB, fitted to the --jobs 1 lint of each of 1,355
# scripts of the bench corpus (tests/benchmarks/bench_lint.py). A worker's start costs ~90 ms (the
# engine's imports, multiprocessing): two workers pay off once half the lint is more than that.
LINT_MS_PER_FILE = 0.4
LINT_MS_PER_KIB = 0.3
WORKERS_WORTH_MS = 200.0


class _Discovery:
    """The files to lint, handed on as they are found once they are worth workers, else all at the end.

    The files are linted while discovery still walks the folders: on the
    `x` corpus as unpacked (fetch_debian_corpus.sh: 4,069 files, 535
    scripts) reading the `#!` line of every file took a fifth of a run with
    two workers before any script reached one. Workers start only for work
    worth their start (WORKERS_WORTH_MS): a few small files are linted in
    this process, decided before the first is handed on. With no cache to
    answer (start_early), the workers start as soon as the files found are
    worth them, and import the engine while this process walks on; else at
    the first file the cache does not answer, so that a run the cache
    answers forks none.
    """

    def __init__(self, targets: Iterator[Target], pool: OrderedPool, start_early: bool) -> None:
        self._targets = targets
        self._pool = pool
        self._start_early = start_early
        self.done = False  # every folder walked: all that discovery reports is said

    def __iter__(self) -> Iterator[Target]:
        held: list[Target] = []
        work = 0.0
        workers = False
        for target in self._targets:
            if workers:
                yield target
                continue
            held.append(target)
            work += _lint_estimate(target.path)
            if work >= WORKERS_WORTH_MS and len(held) > 1:
                workers = True
                if self._start_early:
                    self._pool.start()
                yield from held
        self.done = True
        if not workers:
            self._pool.stay_here()
            yield from held


def _lint_estimate(path: Path | None) -> float:
    try:
        size = 0 if path is None else os.stat(path).st_size
    except OSError:
        size = 0
    return LINT_MS_PER_FILE + LINT_MS_PER_KIB * size / 1024


def _may_be_cached(path: str, resolver: SettingsResolver, caches: Caches) -> bool:
    """Whether the cache may answer for the first path named (its settings' cache file exists)."""
    resolved = _resolve(resolver, Path(path)) if path != "-" else ConfigError()
    return not isinstance(resolved, ConfigError) and caches.may_answer(resolved)


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
    cwd = os.getcwd()

    def warning(path: Path, message: str) -> None:
        run.warning(f"{printable(_display(path, cwd))}: {message}")

    def error(path: Path, message: str) -> None:
        run.error(f"{printable(_display(path, cwd))}: {message}")

    for script in walk_scripts(folder, settings.is_excluded, on_problem=warning, on_error=error, embedded=settings.embedded):
        found = True
        if script not in seen:
            seen.add(script)
            yield Target(script, _display(script, cwd))
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


def _display(path: Path, cwd: str) -> str:
    """The path relative to cwd when under it (as strings: Path.relative_to cost more than linting a cached file)."""
    text = os.fspath(path)
    prefix = cwd if cwd.endswith("/") else cwd + "/"
    return text[len(prefix) :] if text.startswith(prefix) else path.as_posix()


# Linting.


def _lint(run: Run, source: bytes, name: str, settings: Settings, path: Path | None) -> FileReport | None:
    """process() in this process, with every internal error reported as one line instead of a traceback."""
    outcome = _lint_job(_LintJob(source, name, settings, path, run.options.fix, run.options.mountinfo))
    if isinstance(outcome, _Failure):
        run.internal_error(f"on {printable(name)}", outcome.summary, outcome.details)
        return None
    _report_crashes(run, outcome)
    return outcome


def _report_crashes(run: Run, report: FileReport) -> None:
    for crash in report.crashes:
        run.internal_error(f"in {crash.code} on {printable(report.display_name)}", crash.summary, crash.traceback)


def _one_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())}"


@dataclass(frozen=True)
class _LintJob:
    """What a worker needs to lint one file (plain data: it travels to another process)."""

    source: bytes
    name: str
    settings: Settings
    path: Path | None
    fix: bool
    mountinfo: str | None


@dataclass(frozen=True)
class _Failure:
    """An internal error outside the rules, caught in the worker: reported when the file is taken back."""

    summary: str
    details: str


def _import_engine() -> None:
    """What a worker does as it starts, before its first file arrives."""
    import pipelint.engine.linter  # noqa: F401


def _lint_job(job: _LintJob) -> FileReport | _Failure:
    try:
        from pipelint.engine.linter import process

        return process(job.source, job.name, job.settings, job.path, fix=job.fix, mountinfo=job.mountinfo)
    except Exception as error:  # a bug outside the rules (the checker catches theirs): keep checking the others
        import traceback

        return _Failure(_one_line(error), traceback.format_exc())


@dataclass
class _Slot:
    """One target on its way through the run: read and looked up in the cache, then linted or not."""

    target: Target
    settings: Settings | ConfigError | None = None
    script: FileRead | None = None
    problem: str | None = None  # why the file could not be read
    unlinted: str | None = None  # the shell of a script pipelint does not lint (zsh, fish, csh): skipped
    duplicate: bool = False  # named before (a link, a hard link): checked once
    cached: FileReport | None = None
    cache: Cache | None = None
    key: str | None = None
    outside: dict[str, str] = field(default_factory=dict)  # the outside inputs' fingerprints (cache.py)
    job: _LintJob | None = None

    @property
    def lines(self) -> int:
        return 0 if self.script is None else self.script.source.count(b"\n")


def _prepare(run: Run, resolver: SettingsResolver, caches: Caches, target: Target) -> _Slot:
    """Everything before the lint, printing nothing (what goes wrong is printed in _finish, in order)."""
    slot = _Slot(target)
    path = target.path
    if path is None:
        return slot  # standard input: read when its turn comes
    settings = slot.settings = _resolve(resolver, path, is_file=True)
    if isinstance(settings, ConfigError):
        return slot
    try:
        script = slot.script = read_script(path, settings.max_file_size)
    except InputError as error:
        slot.problem = str(error)
        return slot
    if not run.first_read(script.status):  # two fixes of one file would collide: check it once
        slot.duplicate = True
        return slot
    slot.unlinted = _unlinted_shell(script.source, path, settings)
    if slot.unlinted is not None:
        return slot
    slot.cache = caches.for_settings(settings)
    if slot.cache is not None:
        from pipelint.cli import cache

        slot.key = caches.key(script.source, path, settings)
        entry = slot.cache.get(slot.key)
        if (entry is not None and cache.current(entry, caches.outside_read_by(entry, path))
                and cache.usable(entry, run.options.fix, settings.unsafe_fixes)):  # fmt: skip
            slot.cached = FileReport(target.display_name, script.source, entry.findings,
                                     parse_failures=entry.parse_failures, dialect=entry.dialect, notes=entry.notes,
                                     host=entry.host)  # fmt: skip
            return slot
        slot.outside = caches.outside_now(path, settings)  # before the lint: a change during it is a change
    slot.job = _LintJob(script.source, target.display_name, settings, path, run.options.fix, run.options.mountinfo)
    return slot


def _finish(
    run: Run, resolver: SettingsResolver, caches: Caches, slot: _Slot, outcome: FileReport | _Failure | None
) -> _PendingWrite | None:
    """Report one target's outcome, in path order; what remains to be written, if anything."""
    target = slot.target
    name = target.display_name
    if target.path is None:
        _check_stdin(run, resolver)
        return None
    assert slot.settings is not None
    settings = run.take_settings(slot.settings)
    if settings is None or slot.duplicate:
        return None
    if slot.problem is not None:
        run.error(f"{printable(name)}: {slot.problem}")
        return None
    if slot.unlinted is not None:
        run.note(unlinted_note(name, slot.unlinted))
        run.skipped += 1
        return None
    if isinstance(outcome, _Failure):
        run.internal_error(f"on {printable(name)}", outcome.summary, outcome.details)
        return None
    report = slot.cached or outcome
    assert report is not None and slot.script is not None
    _report_crashes(run, report)
    if outcome is not None and slot.cache is not None and not report.crashes:
        _remember(caches, slot, report, settings)
    run.reports.append(report)
    if report.fixed_source is None:
        return None
    if run.options.diff:
        run.diffs += 1
        _print_diff(report)
    return _PendingWrite(report, target.path, slot.script, settings) if run.options.write else None


def _remember(caches: Caches, slot: _Slot, report: FileReport, settings: Settings) -> None:
    """Keep the lint of the text the report's findings describe (the fixed text, after fixes)."""
    from pipelint.cli import cache

    assert slot.cache is not None and slot.key is not None and slot.target.path is not None
    key = slot.key
    if report.fixed_source is not None:
        key = caches.key(report.fixed_source, slot.target.path, settings)
    entry = cache.entry_of(report.findings, report.parse_failures, report.dialect, report.notes, report.host,
                           report.outside_read, slot.outside)  # fmt: skip
    if entry is not None:
        slot.cache.put(key, entry)


def _write(run: Run, pending: _PendingWrite) -> None:
    """Write one fixed file; if it cannot be, report why and what the file on disk still holds."""
    from pipelint.cli.writeback import NotWritten, write_fixed

    try:
        write_fixed(pending.path, pending.script.source, pending.script.status, pending.report.final_source)
    except NotWritten as error:
        report = pending.report
        run.error(f"{printable(report.display_name)}: fixes not written: {error}")
        run.reports[run.reports.index(report)] = _unfixed(run, pending)


def _unfixed(run: Run, pending: _PendingWrite) -> FileReport:
    """The report of the file as it stays on disk: its findings before any fix."""
    from pipelint.engine.linter import process

    report = pending.report
    try:
        return process(report.source, report.display_name, pending.settings, pending.path, mountinfo=run.options.mountinfo)
    except Exception:  # reported already, when the same text was linted with fixes
        return FileReport(report.display_name, report.source)


def _print_diff(report: FileReport) -> None:
    from pipelint.output.diff import unified_diff

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
    shell = _unlinted_shell(source, Path(name) if options.stdin_filename else None, settings)
    if shell is not None:
        run.note(unlinted_note(name, shell))
        run.skipped += 1
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


def _unlinted_shell(source: bytes, path: Path | None, settings: Settings) -> str | None:
    """The shell of a script pipelint does not lint, unless `--shell` says what to read it as; hosts aside."""
    if settings.shell is not None or (path is not None and hosts.kind_of(path) is not None and settings.embedded):
        return None
    return unlinted_shell(source, None if path is None else path.name)


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
        import shutil

        shutil.copyfileobj(sys.stdin.buffer, sys.stdout.buffer)  # what was not read, past the size limit
    sys.stdout.buffer.flush()
