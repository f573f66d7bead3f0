"""The fuzzer in the suite: a short seeded run, and a replay of every saved reproducer.

Both compare with the harness's strict comparison (issue 13's contract).
What the rules still get wrong is a strict xfail, by signature (rules +
issue-13 class) for the seeded run and by file for the reproducers: when a
rule's fix lands, its entries start passing, fail as XPASS, and the line
below goes.
"""

from __future__ import annotations

import pytest
from .check import accepted, differences, safe_fix, shell_of
from .classify import CLASSES
from .grammar import generate
from .regressions import load
from .runner import run

# ~15-20 s on a 2-core machine. Without `timing`, no generated script
# depends on sleeps, so the same scripts fail the same way on every run.
SEED = 1
COUNT = 50


def _reason(issue_class: int) -> str:
    return f"issue 13 class {issue_class}: {CLASSES[issue_class]}"


# What the seeded run finds while issue 13 is open: signature → class.
SEEDED_FAILURES: dict[str, int] = {
}

# Saved reproducers (tests/fuzz/regressions/) the rules still fail: every one, while issue 13 is open.
STILL_FAILING: set[str] = set()


@pytest.fixture(scope="module")
def seeded_run():
    return run(SEED, count=COUNT, jobs=1, timing=False, say=lambda line: None)


def test_the_same_seed_gives_the_same_scripts():
    assert [generate(SEED, i).source for i in range(20)] == [generate(SEED, i).source for i in range(20)]


def test_the_seeded_run_checks_fixed_scripts(seeded_run):
    assert seeded_run.tried == COUNT
    # One script in five: issue 25's shapes (a script fed on stdin after a reader, outer `$…` in it)
    # leave many with no safe fix at all, on purpose.
    assert seeded_run.fixed >= COUNT // 5, seeded_run.summary()


def test_the_seeded_run_finds_no_unknown_failure(seeded_run):
    unknown = [(i, f) for i, f in seeded_run.failures if f.signature not in SEEDED_FAILURES]
    assert not unknown, "\n\n".join(
        f"script {i}: {f.describe()}\n{f.source.decode('utf-8', 'replace')}\n" + "\n".join(map(str, f.differences))
        for i, f in unknown
    )


@pytest.mark.parametrize(
    "signature",
    [pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=_reason(c))) for s, c in SEEDED_FAILURES.items()],
)
def test_the_seeded_run_no_longer_finds(signature, seeded_run):
    assert signature not in {failure.signature for _, failure in seeded_run.failures}


REGRESSIONS = load()


@pytest.mark.parametrize(
    "regression",
    [
        pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=_reason(r.issue_class))) if r.file.name in STILL_FAILING else r
        for r in REGRESSIONS
    ],
    ids=[r.file.name for r in REGRESSIONS],
)
def test_saved_reproducer(regression, tmp_path):
    """The safe fixes leave the reproducer's behaviour alone (or there is no safe fix any more)."""
    source = regression.source
    fixed, rules = safe_fix(source, regression.path)
    found = differences(source, fixed, regression.path, rules, (), tmp_path / "run")[0] if fixed != source else []
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("regression", REGRESSIONS, ids=[r.file.name for r in REGRESSIONS])
def test_saved_reproducer_parses(regression):
    """A reproducer the shell rejects would pass the replay for nothing."""
    assert accepted(regression.source, shell_of(regression.path))


def test_a_fix_that_hands_tail_f_a_file_is_caught_without_running_it(tmp_path):
    """`tail -f < FILE` never ends: the check asks the program table and fails the case before any run."""
    from .check import _failure, never_ends

    assert never_ends(b"tail -f < access.log\n") == 1 and never_ends(b"tail -n 2 < access.log\n") == 0
    assert never_ends(b"cat access.log | tail -f\n") == 0 and never_ends(b"tail --follow=name < x\n") == 1
    failure = _failure(b"cat access.log | tail -f\necho\n", b"tail -f < access.log\necho\n", "script.bash", ("PL001",), [])
    assert failure.issue_class == 17
