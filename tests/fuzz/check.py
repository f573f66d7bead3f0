"""Check one script: fix it with safe fixes only, run both versions, say what differs and why.

The comparison is the harness's (tests/harness.py), so a failure here is
exactly a failure assert_same_behaviour would report; on top of it the
fuzzer knows the here-document bodies it wrote, and checks that no fix
edited inside one.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import harness
from missing_inputs import allowances_for, inputs_read

from pipelint.engine import fixer
from pipelint.programs.table import FileInput, program
from pipelint.shell import syntax

from .classify import CLASSES, classify

TIMEOUT = 10  # seconds per run: the slowest generated script sleeps 0.3 s
# Where the two scripts differ, each runs again up to this many times before the difference
# counts: generated stages race (`{ echo a; sleep .3; … } | tee …`), and a race seen one run in
# five (a 10-minute run's only failure, 4 runs of 20) shows within 8 reruns five times in six.
RERUNS = 8


@dataclass(frozen=True)
class Failure:
    source: bytes
    fixed: bytes
    path: str
    rules: tuple[str, ...]  # codes whose safe fixes were applied
    differences: tuple[harness.Difference, ...]
    issue_class: int

    @property
    def signature(self) -> str:
        """What makes two failures the same bug: the rules that fixed and the class."""
        return f"{'+'.join(self.rules)} class {self.issue_class}"

    @property
    def aspects(self) -> set[tuple[str, str]]:
        return {(d.aspect, d.inputs) for d in self.differences}

    def describe(self) -> str:
        return f"{self.signature} ({CLASSES[self.issue_class]})"


@dataclass
class Verdict:
    valid: bool = True  # the original parses
    fixed: bool = False  # a safe fix changed it
    flaky: bool = False  # the original did not repeat itself in some aspect: that aspect was not compared
    failure: Failure | None = None
    notes: list[str] = field(default_factory=list)


def shell_of(path: str) -> str:
    return "dash" if path.endswith(".sh") else "bash"


def accepted(source: bytes, shell: str) -> bool:
    return subprocess.run([shell, "-n"], input=source, capture_output=True, timeout=30).returncode == 0


def safe_fix(source: bytes, path: str, select: tuple[str, ...] = harness.DEFAULT_RULES) -> tuple[bytes, tuple[str, ...]]:
    """The script after every safe fix `pipelint check --fix` would apply, and the rules that applied them."""
    outcome = fixer.fix_source(source, lambda text: harness.lint(text, path, select), unsafe=False)
    return outcome.source, tuple(sorted({finding.code for finding in outcome.applied}))


def differences(
    source: bytes, fixed: bytes, path: str, rules: tuple[str, ...], bodies: tuple[bytes, ...], workdir: Path
) -> tuple[list[harness.Difference], bool]:
    """What differs, and whether some difference was set aside because the original does not repeat it."""
    comparison = harness.compare_behaviour(
        source, fixed, workdir, harness.shells_for(source, path), inputs_read(source), allowances_for(rules),
        timeout=TIMEOUT, reruns=RERUNS,
    )  # fmt: skip
    found = comparison.differences
    for body in bodies:
        if body.strip() and source.count(body) > fixed.count(body):
            found.append(harness.Difference("-", "inputs present", "here-document", f"body {body!r} was edited"))
    return found, bool(comparison.unsteady)


def check(source: bytes, path: str, workdir: Path, bodies: tuple[bytes, ...] = ()) -> Verdict:
    """Fix with safe fixes only, compare (differences both scripts repeat), blame a rule, classify."""
    if not accepted(source, shell_of(path)):
        return Verdict(valid=False)
    fixed, rules = safe_fix(source, path)
    if fixed == source:
        return Verdict()
    if never_ends(fixed) > never_ends(source):  # not run: it would only time out
        endless = harness.Difference("-", "inputs present", "never ends", "a fix gives a file to `tail -f` or its like")
        return Verdict(fixed=True, failure=_failure(source, fixed, path, rules, [endless]))
    found, unsteady = differences(source, fixed, path, rules, bodies, workdir)
    if not found:
        return Verdict(fixed=True, flaky=unsteady)
    failure = _failure(source, fixed, path, rules, found)
    if len(rules) > 1:
        failure = _blame(source, path, rules, bodies, workdir) or failure
    return Verdict(fixed=True, flaky=unsteady, failure=failure)


def never_ends(source: bytes) -> int:
    """How many commands read a regular file by `<` that the program table says never end on one (`tail -f`).

    Asked of the table, so a consumer added there is known here too.
    """
    context = harness.context_of(source)
    count = 0
    for node in syntax.walk(context.root):
        if node.type != "redirected_statement" or not any(
            r.type == "file_redirect" and syntax.redirect_parts(r)[1] == "<" for r in node.children_by_field_name("redirect")
        ):
            continue
        body = node.child_by_field_name("body")
        if body is None or body.type != "command":
            continue
        model = context.command(body)
        facts = program(model.program).file_input
        count += any(f.how is FileInput.NEVER_ENDS and (not f.with_options or model.has(*f.with_options)) for f in facts)
    return count


def _failure(source: bytes, fixed: bytes, path: str, rules: tuple[str, ...], found: list) -> Failure:
    shows_cr = any("\\r" in d.detail for d in found)
    issue_class = classify(source, fixed, set(rules), {(d.aspect, d.inputs) for d in found}, shows_cr)
    return Failure(source, fixed, path, rules, tuple(found), issue_class)


def _blame(source: bytes, path: str, rules: tuple[str, ...], bodies: tuple[bytes, ...], workdir: Path) -> Failure | None:
    """The first rule whose safe fixes alone break the script, so one rule's bug has one signature.

    None when only the rules together break it.
    """
    for code in rules:
        fixed, applied = safe_fix(source, path, (code,))
        if fixed == source:
            continue
        found, _ = differences(source, fixed, path, applied, bodies, workdir)
        if found:
            return _failure(source, fixed, path, applied, found)
    return None
