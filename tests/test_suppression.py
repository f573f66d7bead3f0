"""`# pipelint: disable=` and `# shellcheck disable=` directives."""

from __future__ import annotations

import random

import pytest
from harness import codes

from pipelint.engine.suppression import Coverage, Suppression
from pipelint.shell.directives import ALL

CAT = "cat access.log | grep 500\n"


def test_directive_before_a_command_covers_it_only():
    script = "echo start\n# pipelint: disable=PL001\n" + CAT + CAT
    assert codes(script) == ["PL001"]


def test_directive_before_a_compound_command_covers_all_of_it():
    script = "echo start\n# pipelint: disable=PL001\nif true; then\n  " + CAT + "  " + CAT + "fi\n" + CAT
    assert codes(script) == ["PL001"]


def test_directive_before_the_first_command_covers_the_file():
    script = "#!/bin/bash\n# pipelint: disable=PL001\n" + CAT + "echo x\n" + CAT
    assert codes(script) == []


def test_several_codes_names_and_all():
    script = "echo x\n# pipelint: disable=PL001,piped-dump-import\n{ " + CAT.strip() + "; cat dump.sql | mysql; }\n"
    assert codes(script) == []
    assert codes("echo x\n# pipelint: disable=all\n" + CAT) == []
    assert codes("echo x\n# pipelint: disable=PL004\n" + CAT) == ["PL001"]


def test_shellcheck_sc2002_silences_the_cat_rules():
    assert codes("echo x\n# shellcheck disable=SC2002\n" + CAT) == []
    assert codes("echo x\n# shellcheck disable=SC2086,SC2002\n" + CAT) == []
    assert codes("echo x\n# shellcheck source=lib.sh disable=SC2002\n" + CAT) == []
    assert codes("echo x\n# shellcheck disable=SC2086\n" + CAT) == ["PL001"]


def test_directive_inside_a_function_body():
    script = "f() {\n  echo x\n  # pipelint: disable=PL001\n  " + CAT + "  " + CAT + "}\n"
    assert codes(script) == ["PL001"]


def test_plain_comment_is_no_directive():
    assert codes("echo x\n# see PL001 docs\n" + CAT) == ["PL001"]


def test_a_reason_may_follow_the_codes():
    assert codes("echo x\n# pipelint: disable=PL001 the log is tiny\n" + CAT) == []
    assert codes("echo x\n# pipelint: disable=PL004, PL001 -- small files only\n" + CAT) == []


@pytest.mark.parametrize("seed", range(30))
def test_coverage_answers_as_asking_every_suppression(seed):
    """The cut text's lookup (linear on a directive per command) against `Suppression.covers` one by one:
    nested, overlapping, touching, empty and whole-file suppressions."""
    rng = random.Random(seed)
    suppressions = []
    for _ in range(rng.randrange(0, 40)):
        start = rng.randrange(100)
        end = start + rng.choice([0, 1, 5, 20, 100])
        codes = frozenset(rng.sample(["PL001", "PL003", "PL101", ALL], rng.randrange(1, 3)))
        suppressions.append(Suppression(codes, start, end))
    coverage = Coverage(suppressions)
    for offset in range(-1, 210):
        for code in ("PL001", "PL003", "PL201"):
            assert coverage.covers(code, offset) == any(s.covers(code, offset) for s in suppressions), (offset, code)
