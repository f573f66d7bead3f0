"""Helpers the tests share: lint a snippet, fix it, and run scripts for real.

The behavioural harness runs a script and its fixed version with real
bash/dash in a copy of tests/sandbox/data, with stand-ins for database
clients first on PATH, and compares stdout, exit status and the files left
behind (and stderr, where asked: `strict=True`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from pipelint import checker, fixer, linter, registry
from pipelint.config import Settings
from pipelint.dialect import Dialect, detect
from pipelint.finding import Finding

SANDBOX = Path(__file__).parent / "sandbox"
# The rules `pipelint check` runs without configuration (the opt-in PL6xx not among them).
DEFAULT_RULES = tuple(rule.code for rule in registry.RULES if rule.enabled_by_default)


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


def assert_fixed_and_same(
    script: str, expected: str, tmp_path: Path, shell: str, path: str = "script.sh", unsafe: bool = False
) -> Outcome:
    """`--fix` turns script into expected, and both run the same, stderr included (strict)."""
    fixed = fix_all(script, path, unsafe)
    assert fixed.decode() == expected
    return assert_same_behaviour(script.encode(), fixed, tmp_path, shell, strict=True)


def shell_for(source: bytes, path: str) -> str:
    return "dash" if detect(source, path) is Dialect.SH else "bash"


@dataclass(frozen=True)
class Outcome:
    stdout: bytes
    status: int
    files: dict[str, str]  # relative path → sha256 of what the script left behind
    stderr: bytes = b""


def run_script(source: bytes, workdir: Path, shell: str = "bash", extra_path: tuple[Path, ...] = ()) -> Outcome:
    """Run source with a real shell in a fresh copy of the sandbox data.

    extra_path: directories searched before the stand-ins (a fresh splicecat build).
    """
    if workdir.exists():
        shutil.rmtree(workdir)
    shutil.copytree(SANDBOX / "data", workdir, symlinks=True)
    script = workdir.parent / (workdir.name + ".script")
    script.write_bytes(source)
    env = {
        "PATH": os.pathsep.join([*map(str, extra_path), str(SANDBOX / "bin"), os.environ.get("PATH", "/usr/bin:/bin")]),
        "LC_ALL": "C",
        "HOME": str(workdir),
    }
    completed = subprocess.run(
        [shell, str(script)], cwd=workdir, env=env, capture_output=True, timeout=60, stdin=subprocess.DEVNULL
    )
    files = {}
    for item in sorted(workdir.rglob("*")):
        if item.is_file():
            files[item.relative_to(workdir).as_posix()] = hashlib.sha256(item.read_bytes()).hexdigest()
    # The two runs differ in where they run: name the script and its folder the same way.
    stderr = completed.stderr.replace(str(script).encode(), b"SCRIPT").replace(str(workdir).encode(), b"WORKDIR")
    return Outcome(completed.stdout, completed.returncode, files, stderr)


def assert_same_behaviour(
    original: bytes,
    fixed: bytes,
    tmp_path: Path,
    shell: str = "bash",
    extra_path: tuple[Path, ...] = (),
    strict: bool = False,
) -> Outcome:
    """The fixed script prints the same, exits the same and leaves the same files.

    strict: stderr must be the same too (not for programs that print timings there, like dd).
    """
    before = run_script(original, tmp_path / "before", shell, extra_path)
    after = run_script(fixed, tmp_path / "after", shell, extra_path)
    assert after.stdout == before.stdout, (original, fixed)
    assert after.status == before.status, (original, fixed)
    assert after.files == before.files, (original, fixed)
    if strict:
        assert after.stderr == before.stderr, (original, fixed)
    return before
