"""Helpers the tests share: lint a snippet, fix it, and run scripts for real.

The behavioural harness runs a script and its fixed version with real bash
(and also dash, for POSIX sh scripts) in a fresh copy of tests/sandbox/data,
with stand-ins for database clients first on PATH, and compares everything
issue 13's contract names: stdout, stderr (an error message about the same
file may be worded differently), exit status, every file left behind
(content, mode, existence) and the state of the shell (shell_state.py). Then
it takes each input away in turn, missing, replaced by a directory and (a
file) made unreadable, and compares again: there a difference passes only
where a rule document allows it (missing_inputs.py), and an input no run
provides (`cat missing.txt`, `cat "$f"` with f never set, `cat src` of a
folder) makes every run such a run.

What an allowance lets differ is as narrow as the rule document's sentence.
"The consumer does not run instead of running on empty input" lets stdout
(and a file the consumer wrote) lose one or more copies of one same block of
whole lines, each where it stood: what the consumer printed on empty input,
each time it ran. Not any other line, nor lines in another order. Stderr,
whose lines are compared sorted, may lose some of its lines; nothing else.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import signal
import stat
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import shell_state
from missing_inputs import DIRECTORY, MISSING, UNREADABLE, Allowance, absent_inputs, allowances_for, inputs_read
from stderr_wording import normalise_stderr

from tree_sitter import Node

from pipelint.embedded.regions import Region
from pipelint.engine import checker, fixer, linter, registry
from pipelint.engine.config import Settings
from pipelint.facts.script import ScriptFacts
from pipelint.finding import Applicability, Edit, Finding
from pipelint.rule import CommandModels, Context
from pipelint.programs import pipeline as pipelines
from pipelint.shell import syntax
from pipelint.shell.dialect import Dialect, detect

SANDBOX = Path(__file__).parent / "sandbox"
# GNU tools write an error message in pieces (`sort: `, then the rest), so two
# stages failing at once interleave inside a line, differently on each run
# (about half the runs of `diff <(sort a) <(sort b)` with both missing).
# coreutils' stdbuf library makes stderr line-buffered in every program the
# script starts, so each line is written whole.
STDBUF = Path("/usr/libexec/coreutils/libstdbuf.so")
# What the tests lint with unless they say otherwise: the default set and the PL5
# group (micro costs, opt-in), selected by name so that PL503 reports outside
# loops too. The opt-in PL6xx, whose fixes need splicecat, are not among them;
# tests of what `pipelint check` runs without configuration use Settings().
DEFAULT_RULES = tuple(rule.code for rule in registry.RULES if rule.enabled_by_default or rule.code.startswith("PL5"))
ALL_RULES = tuple(rule.code for rule in registry.RULES)


def context_of(source: bytes, dialect: Dialect = Dialect.BASH) -> Context:
    """A rule's context for a snippet, without the checker's captures (tests of facts and rewrites)."""
    root = syntax.parse(source).root_node
    reader = CommandModels()
    return Context(source, root, dialect, ScriptFacts(root, reader), reader)


def pipeline_roots(root: Node) -> list[Node]:
    """Every logical pipeline's outermost node under root (the checker finds them among its candidates)."""
    return pipelines.roots(syntax.captures(syntax.query(pipelines.QUERY), root))


def placed(region: Region, edits: list[Edit]) -> tuple[Edit, ...] | None:
    """A fix's edits in the host's bytes, or None where the host's quoting cannot take them."""
    found = region.place_edits(edits)
    return None if isinstance(found, str) else found


def placed_one(region: Region, edit: Edit) -> Edit | None:
    found = placed(region, [edit])
    return None if found is None else found[0]


def lint(source: str | bytes, path: str = "script.bash", select: tuple[str, ...] = DEFAULT_RULES, **settings) -> list[Finding]:
    data = source.encode() if isinstance(source, str) else source
    chosen = Settings(select=select, **settings)
    rules = [rule() for rule in chosen.enabled_rules()]
    return checker.check(data, rules, path, chosen).findings


def codes(source: str | bytes, path: str = "script.bash", **kwargs) -> list[str]:
    return [finding.code for finding in lint(source, path, **kwargs)]


def assert_lint(source: str | bytes, *expected: str, path: str = "script.bash") -> list[Finding]:
    """`assert_lint("cat f | grep x", "PL001")`: exactly these codes, in order."""
    findings = lint(source, path)
    assert [f.code for f in findings] == list(expected), findings
    return findings


def fix(source: str | bytes, path: str = "script.bash", unsafe: bool = False, select: tuple[str, ...] = DEFAULT_RULES) -> bytes:
    data = source.encode() if isinstance(source, str) else source
    outcome = fixer.fix_source(data, lambda text: lint(text, path, select), unsafe)
    return outcome.source


def lint_all(source: str | bytes, path: str = "script.sh", **settings) -> list[Finding]:
    """Findings as `pipelint check` reports them: the scripts inside strings and here-documents included."""
    data = source.encode() if isinstance(source, str) else source
    return linter.process(data, path, Settings(**settings), None).findings


def fix_all(source: str | bytes, path: str = "script.sh", unsafe: bool = False, **settings) -> bytes:
    """The text `pipelint check --fix` leaves (fixes inside strings and here-documents included)."""
    data = source.encode() if isinstance(source, str) else source
    return linter.process(data, path, Settings(unsafe_fixes=unsafe, **settings), None, fix=True).final_source


def shell_for(source: bytes, path: str) -> str:
    return "dash" if detect(source, path) is Dialect.SH else "bash"


def contract_inputs(original: bytes, fixed: bytes, path: str = "script.bash", select: tuple[str, ...] = DEFAULT_RULES):
    """`inputs` for assert_same_behaviour: every input (None) if fixed is what `--fix` gives, none if unsafe.

    Taking inputs away checks the contract's missing-input clause, a promise
    of safe fixes; an unsafe fix's rule document says what it changes on the
    error path, and a test of it compares the success path.
    """
    return None if fix(original, path, select=select) == fixed else ()


def known_to_fail(cases: Iterable, failing: dict) -> list:
    """Parametrize cases, marking those in `failing` (case → reason) as strict xfails.

    For cases the strict harness shows breaking issue 13's contract: the
    marker goes when the rule's fix lands, and strict=True makes a case that
    starts passing fail until then.
    """
    return [
        pytest.param(*(case if isinstance(case, tuple) else (case,)), marks=pytest.mark.xfail(strict=True, reason=failing[case]))
        if case in failing
        else case
        for case in cases
    ]


@dataclass(frozen=True)
class FileState:
    """What the script left at one path: a file or a symlink, with its mode bits."""

    kind: str  # "file" or "link"
    mode: int
    content: bytes = field(default=b"", repr=False)  # a symlink's target for links

    def __repr__(self) -> str:
        digest = hashlib.sha256(self.content).hexdigest()[:12]
        return f"{self.kind} {self.mode:o} {len(self.content)} bytes sha256:{digest}"


@dataclass(frozen=True)
class Outcome:
    stdout: bytes
    status: int
    files: dict[str, FileState]  # relative path → what the script left there
    stderr: bytes = b""
    state: bytes | None = None  # the shell's state after the last line; None: it never got there
    folders: dict[str, int] = field(default_factory=dict)  # relative path → mode bits
    folder: bytes = b""  # where it ran: error messages may name a file by its absolute path


def snapshot(root: Path) -> tuple[dict[str, FileState], dict[str, int]]:
    """Every file and folder under root, with mode bits (and contents, for files)."""
    files, folders = {}, {}
    for item in sorted(root.rglob("*")):
        info = item.lstat()
        mode = stat.S_IMODE(info.st_mode)
        name = item.relative_to(root).as_posix()
        if stat.S_ISLNK(info.st_mode):
            files[name] = FileState("link", mode, os.readlink(item).encode())
        elif stat.S_ISDIR(info.st_mode):
            folders[name] = mode
        else:
            files[name] = FileState("file", mode, _contents(item, mode))
    return files, folders


def _contents(item: Path, mode: int) -> bytes:
    """A file's bytes, even one the script left unreadable (as a user other than root, who reads any)."""
    try:
        return item.read_bytes()
    except PermissionError:
        item.chmod(mode | stat.S_IRUSR)
        try:
            return item.read_bytes()
        finally:
            item.chmod(mode)


# Root reads a file whatever its mode bits say (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH). Without
# them in its bounding set, setpriv's command keeps uid 0 but gets only the owner's bits of a
# file: none of a mode-000 one, read and write of the sandbox copy and the run's folder, which
# root owns. So a script of the UNREADABLE variant still writes files as before.
_WITHOUT_DAC = ("setpriv", "--bounding-set=-dac_override,-dac_read_search")


@dataclass(frozen=True)
class UnreadableSupport:
    """How the harness runs a script to which a mode-000 file is unreadable."""

    prefix: tuple[str, ...] | None  # what goes before the shell's argv; None: the variant cannot run here
    how: str  # how it does it, or why it cannot (said in the suite's header and in skips)


@functools.cache
def unreadable_support() -> UnreadableSupport:
    """Tried once per process: a mode-000 file in a folder of ours must be refused, a new file written."""
    if os.geteuid() != 0:
        prefix, how = (), f"uid {os.geteuid()} (not root): a mode-000 file is unreadable as it is"
    elif shutil.which("setpriv") is None:
        return UnreadableSupport(None, "not covered: running as root, and no setpriv (util-linux) to drop root's DAC override")
    else:
        prefix, how = _WITHOUT_DAC, "root without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH (setpriv --bounding-set)"
    with tempfile.TemporaryDirectory(prefix="pipelint-unreadable-") as folder:
        (Path(folder) / "sealed").write_bytes(b"x\n")
        (Path(folder) / "sealed").chmod(0)
        probe = [*prefix, "sh", "-c", 'cat sealed; echo "rc=$?"; echo written > new']
        completed = subprocess.run(probe, cwd=folder, capture_output=True, timeout=30)
        written = (Path(folder) / "new").exists()
    refused = completed.stdout == b"rc=1\n" and b"sealed: Permission denied" in completed.stderr
    if refused and written:
        return UnreadableSupport(prefix, how)
    said = completed.stderr.decode(errors="replace").strip().splitlines()
    failure = "could not write a file" if refused else "still read a mode-000 file"
    return UnreadableSupport(None, f"not covered: tried {how}, but the shell {failure}" + (f" ({said[0]})" if said else ""))


def _take_away(workdir: Path, name: str, how: str) -> None:
    target = workdir / name
    if how == UNREADABLE:
        target.chmod(0)
        return
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    else:
        target.unlink()
    if how == DIRECTORY:
        target.mkdir()


def prepare(workdir: Path, take_away: tuple[str, str] | None = None) -> None:
    """A fresh copy of the sandbox data at workdir, with one input taken away if asked."""
    if workdir.exists():
        shutil.rmtree(workdir)
    shutil.copytree(SANDBOX / "data", workdir, symlinks=True)
    if take_away is not None:
        _take_away(workdir, *take_away)


def run_script(
    source: bytes,
    workdir: Path,
    shell: str = "bash",
    extra_path: tuple[Path, ...] = (),
    *,
    take_away: tuple[str, str] | None = None,
    timeout: float = 60,
) -> Outcome:
    """Run source with a real shell in a fresh copy of the sandbox data.

    extra_path: directories searched before the stand-ins (a fresh splicecat build).
    take_away: (name, MISSING, DIRECTORY or UNREADABLE) to run without that input.
    """
    prepare(workdir, take_away)
    script = workdir.parent / (workdir.name + ".script")
    dump = workdir.parent / (workdir.name + ".state")
    dump.unlink(missing_ok=True)
    script.write_bytes(source + shell_state.trailer(shell, dump))
    env = {
        "PATH": os.pathsep.join([*map(str, extra_path), str(SANDBOX / "bin"), os.environ.get("PATH", "/usr/bin:/bin")]),
        "LC_ALL": "C",
        "HOME": str(workdir),
    }
    if STDBUF.exists():
        env.update(LD_PRELOAD=str(STDBUF), _STDBUF_E="L")
    prefix: tuple[str, ...] = ()
    if take_away is not None and take_away[1] == UNREADABLE:
        support = unreadable_support()
        if support.prefix is None:
            raise RuntimeError(f"cannot make {take_away[0]} unreadable to the script: {support.how}")
        prefix = support.prefix
    stdout, stderr, status = _run([*prefix, shell, str(script)], workdir, env, timeout)
    files, folders = snapshot(workdir)
    return Outcome(stdout, status, files, stderr, shell_state.read_dump(dump), folders, bytes(workdir))


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[bytes, bytes, int]:
    """Run in its own process group, so a timeout kills the whole pipeline, not just the shell."""
    with subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            return stdout, stderr + f"\n[harness: killed after {timeout:g} s]\n".encode(), -signal.SIGKILL
        return stdout, stderr, process.returncode


def parses(source: bytes, shell: str) -> bool:
    """`bash -n` / `dash -n` accepts it, without a warning (an unterminated here-document warns)."""
    completed = subprocess.run([shell, "-n"], input=source, capture_output=True, timeout=30)
    return completed.returncode == 0 and not completed.stderr


@dataclass(frozen=True)
class Difference:
    shell: str
    inputs: str  # "inputs present", or "words.txt missing"
    aspect: str  # stdout, stderr, status, files, state, parse
    detail: str

    def __str__(self) -> str:
        return f"[{self.shell}, {self.inputs}] {self.aspect}: {self.detail}"


def _show(data: bytes) -> str:
    return repr(data if len(data) <= 300 else data[:300] + b"...")


def _output_allowed(before: bytes, after: bytes, allowances: tuple[Allowance, ...]) -> bool:
    return before == after or any(allowance.output(before, after) for allowance in allowances)


def _errors_allowed(before: bytes, after: bytes, allowances: tuple[Allowance, ...]) -> bool:
    return before == after or any(allowance.allows_errors(before, after) for allowance in allowances)


def compare(
    before: Outcome,
    after: Outcome,
    allowances: tuple[Allowance, ...] = (),
    initial: dict[str, FileState] | None = None,
    taken_away: str | tuple[str, ...] | None = None,
) -> list[tuple[str, str]]:
    """(aspect, detail) for each way after differs from before that no allowance explains."""
    found = []
    if before.status != after.status:
        found.append(("status", f"{before.status} → {after.status}"))
    if not _output_allowed(before.stdout, after.stdout, allowances):
        found.append(("stdout", f"{_show(before.stdout)} → {_show(after.stdout)}"))
    old_err = normalise_stderr(before.stderr, taken_away, before.folder)
    new_err = normalise_stderr(after.stderr, taken_away, after.folder)
    if not _errors_allowed(old_err, new_err, allowances):
        found.append(("stderr", f"{_show(old_err)} → {_show(new_err)}"))
    initial = initial or {}
    for name in sorted(set(before.files) | set(after.files)):
        old, new = before.files.get(name), after.files.get(name)
        if old != new and not any(a.file(old, new, initial.get(name)) for a in allowances):
            found.append(("files", f"{name}: {old!r} → {new!r}"))
    for name in sorted(set(before.folders) ^ set(after.folders)):
        found.append(("files", f"folder {name}: {'only before' if name in before.folders else 'only after'}"))
    for name in sorted(set(before.folders) & set(after.folders)):
        if before.folders[name] != after.folders[name]:
            found.append(("files", f"folder {name}: mode {before.folders[name]:o} → {after.folders[name]:o}"))
    if before.state != after.state:
        found.append(("state", shell_state.changed_entries(before.state, after.state)))
    return found


def shells_for(source: bytes, path: str, shell: str | None = None) -> list[str]:
    """The shell asked for (bash by default), plus bash and dash for a POSIX sh script."""
    shells = [shell or "bash"]
    if detect(source, path) is Dialect.SH:
        shells += ["bash", "dash"]
    return list(dict.fromkeys(shells))


def fixed_by(source: bytes, path: str) -> tuple[str, ...]:
    """Codes of the rules that offer an automatic fix for source: whose allowances apply."""
    # linter.lint, not checker.check: a fix inside `sh -c '…'` or a here-document counts too.
    found = linter.lint(source, Settings(select=ALL_RULES), Path(path)).findings
    return tuple(sorted({f.code for f in found if f.fix and f.fix.applicability is not Applicability.DISPLAY_ONLY}))


def _initial_files(workdir: Path, take_away: tuple[str, str] | None) -> dict[str, FileState]:
    prepare(workdir, take_away)
    return snapshot(workdir)[0]


def _variants(inputs: tuple[str, ...]) -> Iterable[tuple[str, str] | None]:
    """Inputs present (None), then each input missing, replaced by a folder and, a file, made unreadable.

    The unreadable variant runs only where unreadable_support() found a way.
    """
    yield None
    for name in inputs:
        yield (name, MISSING)
        original = SANDBOX / "data" / name
        if not original.is_dir():
            yield (name, DIRECTORY)
        if original.is_file() and not original.is_symlink() and unreadable_support().prefix is not None:
            yield (name, UNREADABLE)


# What the contract keeps; a test of an unsafe fix may compare fewer (`keeps`).
ASPECTS = ("parse", "status", "stdout", "stderr", "files", "state")


@dataclass
class Comparison:
    differences: list[Difference]
    first: Outcome  # the original's outcome under the first shell, inputs present
    unsteady: list[Difference]  # differences the original itself does not repeat: not counted


def _compare_variant(
    run, variant, allowances, workdir: Path, keeps, absent: tuple[str, ...], reruns: int = 1
) -> tuple[list, list, Outcome]:
    """(steady, unsteady) (aspect, detail) pairs for one way of running, and the original's outcome.

    absent: inputs no run provides (`absent_inputs`): with one, every run has
    an input missing, and the allowances apply to the run with the others present.

    A difference counts only if both scripts repeat themselves in that aspect
    when run again (reruns times each, until the aspects found all prove
    restless): a race between two stages (`sort f | tee -a f`) is no
    evidence either way. One rerun misses a race seen one run in five four
    times in five; the fuzzer asks for more.
    """
    before, after = run(0, variant), run(1, variant)
    taken_away = tuple(dict.fromkeys(((variant[0],) if variant else ()) + absent))
    if not taken_away:
        found = compare(before, after)
    else:
        found = compare(before, after, allowances, _initial_files(workdir, variant), taken_away)
    found = [(aspect, detail) for aspect, detail in found if aspect in keeps]
    if not found:
        return [], [], before
    restless: set[str] = set()
    for _ in range(reruns):
        restless |= {aspect for aspect, _ in compare(before, run(0, variant), (), None, taken_away)}
        restless |= {aspect for aspect, _ in compare(after, run(1, variant), (), None, taken_away)}
        if all(aspect in restless for aspect, _ in found):
            break
    return [d for d in found if d[0] not in restless], [d for d in found if d[0] in restless], before


def compare_behaviour(
    original: bytes,
    fixed: bytes,
    workdir: Path,
    shells: list[str],
    inputs: tuple[str, ...],
    allowances: tuple[Allowance, ...],
    extra_path: tuple[Path, ...] = (),
    timeout: float = 60,
    keeps: tuple[str, ...] = ASPECTS,
    reruns: int = 1,
) -> Comparison:
    """Everything the contract says must not change, under each shell, inputs present and taken away.

    reruns: how many times each script runs again where they differ, to tell a race from a change.

    Both scripts run at the same path one after the other, so error messages
    that name the script or the folder read the same.
    """
    found: list[Difference] = []
    unsteady: list[Difference] = []
    first: Outcome | None = None
    absent = absent_inputs(original)
    for shell in shells:
        if "parse" in keeps and parses(original, shell) and not parses(fixed, shell):
            found.append(Difference(shell, "inputs present", "parse", f"`{shell} -n` rejects the fixed script"))

        def run(which: int, variant, shell=shell) -> Outcome:
            source = (original, fixed)[which]
            return run_script(source, workdir, shell, extra_path, take_away=variant, timeout=timeout)

        for variant in _variants(inputs):
            label = "inputs present" if variant is None else f"{variant[0]} {variant[1]}"
            steady, restless, before = _compare_variant(run, variant, allowances, workdir, keeps, absent, reruns)
            first = first or before
            found.extend(Difference(shell, label, aspect, detail) for aspect, detail in steady)
            unsteady.extend(Difference(shell, label, aspect, detail) for aspect, detail in restless)
    assert first is not None
    return Comparison(found, first, unsteady)


def assert_same_behaviour(
    original: bytes,
    fixed: bytes,
    tmp_path: Path,
    shell: str | None = None,
    extra_path: tuple[Path, ...] = (),
    *,
    path: str | None = None,
    inputs: tuple[str, ...] | None = None,
    rules: tuple[str, ...] | None = None,
    keeps: tuple[str, ...] = ASPECTS,
) -> Outcome:
    """The fixed script behaves as the original does, as issue 13's contract defines it.

    shell: the shell to run (bash by default); a POSIX sh script (by its
    shebang, or `path`) also runs under bash and dash. inputs: the sandbox
    files the script reads, each taken away in turn (default: those it names;
    `()` compares the success path only). rules: whose "Fix safety"
    allowances apply with an input taken away (default: every rule that
    offers a fix for the original). keeps: the aspects to compare, all of
    them unless a test of an unsafe fix checks what its rule document says it
    keeps. Returns the original's outcome under the first shell.
    """
    path = path or ("script.sh" if shell == "dash" else "script.bash")
    inputs = inputs_read(original) if inputs is None else inputs
    rules = fixed_by(original, path) if rules is None else rules
    shells = shells_for(original, path, shell)
    comparison = compare_behaviour(original, fixed, tmp_path / "run", shells, inputs, allowances_for(rules), extra_path, keeps=keeps)
    found = comparison.differences
    assert not found, "\n".join([f"original: {original!r}", f"fixed:    {fixed!r}", *map(str, found)])
    return comparison.first


def assert_fixed_and_same(
    script: str,
    expected: str,
    tmp_path: Path,
    shell: str,
    path: str = "script.sh",
    unsafe: bool = False,
    inputs: tuple[str, ...] | None = None,
) -> Outcome:
    """`--fix` (with the scripts inside strings) turns script into expected, and both behave the same.

    inputs as for assert_same_behaviour; with unsafe fixes only the success
    path is compared (inputs present), as contract_inputs says.
    """
    fixed = fix_all(script, path, unsafe)
    assert fixed.decode() == expected
    inputs = () if unsafe else inputs
    return assert_same_behaviour(script.encode(), fixed, tmp_path, shell, path=path, inputs=inputs)
