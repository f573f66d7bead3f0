"""`# pipelint: disable=` and `# shellcheck disable=` directives."""

from __future__ import annotations

import random

import pytest
from harness import codes, lint, lint_all

from pipelint.engine.suppression import Coverage, Suppression
from pipelint.shell.directives import ALL, PIPELINT, SHELLCHECK, tokens

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


# Where a directive stands: at the end of a line it covers that line, never the next (issue 27).


@pytest.mark.parametrize(
    "directive",
    ["# pipelint: disable=PL004", "# pipelint: disable=piped-dump-import", "# shellcheck disable=SC2002"],
)
def test_trailing_directive_covers_its_own_line_never_the_next(directive):
    script = f"echo start\ncat a.sql | mysql x  {directive}\ncat b.sql | mysql y\n"
    findings = lint(script)
    assert [(f.code, line_of(script, f.start)) for f in findings] == [("PL004", 3)]


def test_trailing_directive_on_the_first_command_does_not_cover_the_file():
    script = "cat a.sql | mysql x  # pipelint: disable=PL004\ncat b.sql | mysql y\n"
    assert [line_of(script, f.start) for f in lint(script)] == [2]


def test_trailing_directive_at_the_end_of_a_continued_pipeline_covers_all_of_it():
    assert codes("echo x\ncat access.log |\n  grep 500  # pipelint: disable=PL001\n" + CAT) == ["PL001"]
    assert codes("echo x\ncat access.log \\\n  | grep 500  # pipelint: disable=PL001\n") == []


def test_trailing_directive_in_the_middle_of_a_pipeline_covers_the_line_it_stands_on():
    assert codes("echo x\ncat dump.sql |  # pipelint: disable=PL004\n  mysql shop\n") == []


def test_trailing_directive_after_a_compound_command_does_not_cover_its_body():
    script = "echo x\nif true; then\n  " + CAT + "fi  # pipelint: disable=PL001\n"
    assert codes(script) == ["PL001"]
    loop = "echo x\nwhile read -r l; do\n  " + CAT + "done < list  # pipelint: disable=PL001\n"
    assert codes(loop) == ["PL001"]


def test_trailing_directive_after_then_covers_that_line_only():
    script = "echo x\nif cat access.log | grep -q 500; then  # pipelint: disable=PL001\n  " + CAT + "fi\n"
    assert [line_of(script, f.start) for f in lint(script)] == [3]


def test_a_line_continued_into_the_comment_makes_it_trailing():
    """`echo a \\` + `# …`: bash reads one line; the directive covers it, not the command after."""
    script = "echo x\ncat access.log | grep 500 \\\n  # pipelint: disable=PL001\n" + CAT
    assert [line_of(script, f.start) for f in lint(script)] == [4]


def test_a_comment_ending_in_a_backslash_continues_nothing():
    script = "echo x\n# see C:\\\n# pipelint: disable=PL001\n" + CAT
    assert codes(script) == []


def test_trailing_directive_inside_a_function_and_a_command_substitution():
    assert codes("f() {\n  " + CAT.strip() + "  # pipelint: disable=PL001\n  " + CAT + "}\n") == ["PL001"]
    assert codes("echo x\nn=$(cat access.log | wc -l)  # pipelint: disable=PL001\n") == []


def test_trailing_directive_in_a_crlf_script():
    assert codes("echo x\r\ncat access.log | grep 500  # pipelint: disable=PL001\r\n" + CAT.replace("\n", "\r\n")) == ["PL001"]


def test_trailing_directive_inside_an_inner_script():
    script = "echo x\nsh -c 'cat access.log | grep 500  # pipelint: disable=PL001\ncat f | grep y'\n"
    assert [(f.code, line_of(script, f.start)) for f in lint_all(script)] == [("PL001", 3)]


def test_own_line_directive_is_unchanged_by_a_trailing_one_above():
    script = "echo x\ncat dump.sql | mysql  # pipelint: disable=PL004\n# pipelint: disable=PL001\n" + CAT
    assert codes(script) == []


# ShellCheck's grammar for `disable=`, as ShellCheck's parser reads it.


@pytest.mark.parametrize(
    "directive",
    [
        "# shellcheck disable=2002",
        "# shellcheck disable=SC2000-SC2999",
        "# shellcheck disable=SC1000,SC2000-SC3000",
        "# shellcheck disable='SC2086,SC2002'",
        '# shellcheck disable="SC2002"',
        "# shellcheck disable=SC2086 disable=SC2002",
        "# shellcheck source=lib.sh disable=SC2002 # the log is small",
        "# shellcheck disable=all",
    ],
)
def test_shellcheck_directive_forms_that_cover_sc2002(directive):
    assert codes(f"echo x\n{directive}\n" + CAT) == []


@pytest.mark.parametrize(
    "directive",
    [
        "# shellcheck disable=SC2000-SC2002",  # the end of a range is excluded, as in ShellCheck
        "# shellcheck disable=SC2086 # disable=SC2002",  # after `#`: a comment about the directive
        "# shellcheck disable=SC9999",
    ],
)
def test_shellcheck_directive_forms_that_do_not(directive):
    assert codes(f"echo x\n{directive}\n" + CAT) == ["PL001"]


def test_directive_tokens_keep_their_offsets():
    comment = b"# pipelint: disable=PL001 , useless-cat  # shellcheck disable='SC2002,SC2000-SC2999'"
    found = tokens(comment)
    assert [(t.text, t.tool) for t in found] == [
        ("PL001", PIPELINT),
        ("useless-cat", PIPELINT),
        ("SC2002", SHELLCHECK),
        ("SC2000-SC2999", SHELLCHECK),
    ]
    assert all(comment[t.start : t.end].decode() == t.text for t in found)


def line_of(script: str, offset: int) -> int:
    return script.encode()[:offset].count(b"\n") + 1
