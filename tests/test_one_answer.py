"""Decisions written once (issue 24): the four places where two copies of one decision disagreed.

Each copy was deleted, not patched: `shell.options` reads every shell option
word, `stage_merge.merge_unsafe_reason` decides every merge of two stages,
`ScriptFacts.meaning` says whether a name runs the program, and
`programs.table` holds every program's options. Each test runs the original
script and the text `--fix` leaves with a real shell, and shows the fix that
the drift let through would have changed what the script does.
"""

from __future__ import annotations

import pytest
from harness import ASPECTS, compare_behaviour, fix_all, lint_all

from pipelint.finding import Applicability

OPT_IN = ("PL501", "PL502")  # the micro-cost group: selected here to be checked


def _differs(original: bytes, fixed: bytes, tmp_path, shell: str) -> bool:
    """Whether the two scripts behave differently under shell, inputs as they are (present or never there)."""
    comparison = compare_behaviour(original, fixed, tmp_path / "run", [shell], (), (), keeps=ASPECTS)
    return bool(comparison.differences)


@pytest.mark.parametrize(
    "line",
    [
        "bash -o errexit -c 'LC_ALL=C sort missing.txt | uniq; echo after'",
        "bash --norc -c -e 'LC_ALL=C sort missing.txt | uniq; echo after'",
        "sh -ec 'LC_ALL=C sort missing.txt | uniq; echo after'",
        "sh -o errexit -c 'LC_ALL=C sort missing.txt | uniq; echo after'",
    ],
)
def test_errexit_on_the_inner_shells_command_line_makes_the_merge_unsafe(line, tmp_path):
    # shell_runners read only `-e`; `-o errexit` went unread, and PL502's fix was called safe.
    script = f"{line}\necho done\n"
    (finding,) = lint_all(script, "script.sh", extend_select=OPT_IN)
    assert finding.code == "PL502" and finding.fix.applicability is Applicability.UNSAFE
    assert fix_all(script, "script.sh", extend_select=OPT_IN) == script.encode()  # --fix leaves it
    unsafe = fix_all(script, "script.sh", unsafe=True, extend_select=OPT_IN)
    assert b"sort -u missing.txt" in unsafe
    assert _differs(script.encode(), unsafe, tmp_path, "bash")  # `after` is never printed


def test_without_errexit_the_merge_stays_safe_and_runs_the_same(tmp_path):
    script = b"bash -c 'LC_ALL=C sort missing.txt | uniq; echo after'\necho done\n"
    fixed = fix_all(script, "script.sh", extend_select=OPT_IN)
    assert fixed == b"bash -c 'LC_ALL=C sort -u missing.txt; echo after'\necho done\n"
    assert not _differs(script, fixed, tmp_path, "bash")


def test_a_pipestatus_read_after_grep_count_makes_its_fix_unsafe(tmp_path):
    # PL501 decided its own safety and ignored PIPESTATUS: `0 1 0 0` before a fix, `0 1 0` after.
    script = b'cat access.log | grep -a zzz | wc -l | cat\necho "${PIPESTATUS[@]}"\n'
    (finding,) = [f for f in lint_all(script, "script.bash", select=("PL501",))]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "PIPESTATUS" in finding.help
    assert fix_all(script, "script.bash", select=("PL501",)) == script
    unsafe = fix_all(script, "script.bash", unsafe=True, select=("PL501",))
    assert unsafe == b'cat access.log | grep -c -a zzz | cat\necho "${PIPESTATUS[@]}"\n'
    assert _differs(script, unsafe, tmp_path, "bash")


def test_grep_count_without_a_status_reader_is_safe_and_runs_the_same(tmp_path):
    script = b"cat access.log | grep -a zzz | wc -l | cat\necho done\n"
    fixed = fix_all(script, "script.bash", select=("PL501",))
    assert fixed == b"cat access.log | grep -c -a zzz | cat\necho done\n"
    assert not _differs(script, fixed, tmp_path, "bash")


@pytest.mark.parametrize("rule", OPT_IN)
def test_an_alias_of_a_merged_command_is_not_the_program(rule, tmp_path):
    # PL501 asked for the script's functions only; dash expands an alias in a script.
    pipeline = {"PL501": "cat access.log | grep -a 500 | wc -l | cat", "PL502": "LC_ALL=C sort words.txt | uniq | cat"}[rule]
    alias = {"PL501": "wc", "PL502": "uniq"}[rule]
    script = f"alias {alias}='echo counted'\n{pipeline}\n".encode()
    assert [f.code for f in lint_all(script, "script.sh", select=(rule,))] == []
    # What the check saw: the fix it no longer offers would drop the alias's output.
    merged = {"PL501": b"cat access.log | grep -c -a 500 | cat", "PL502": b"LC_ALL=C sort -u words.txt | cat"}[rule]
    changed = script.replace(pipeline.encode(), merged)
    assert _differs(script, changed, tmp_path, "dash")
