"""The checker: scripts that only partly parse, and the rule protocol."""

from __future__ import annotations

import os

import pytest
from harness import fix, lint

from pipelint.engine import checker
from pipelint.programs.command import Command
from pipelint.engine.config import Settings
from pipelint.finding import Applicability, Edit, Fix, FixAvailability, Severity
from pipelint.engine.linter import process
from pipelint.engine.registry import RULES
from pipelint.rule import HOOKS, Rule


def test_statements_around_a_parse_error_are_still_linted():
    script = "cat a | grep x\nif true; then\n  echo (\nfi\ncat b | grep y\n"
    findings = lint(script)
    assert [(f.code, script.encode()[f.start : f.end]) for f in findings] == [
        ("PL001", b"cat a"),
        ("PL001", b"cat b"),
    ]
    # Before the broken statement the fix is offered; after it, not.
    assert findings[0].fix is not None and findings[1].fix is None


def test_no_finding_joins_pieces_across_the_blanked_error():
    # Blanking `$(( cat f` used to leave a phantom `echo .txt | sort`.
    for script in ["echo $(( cat f | sort\n", "x=$( cat f.txt | sort\n", "echo $(( cat f.txt | sort\necho \"$x\" | tr a b\n"]:
        source = script.encode()
        for finding in lint(script, select=("PL001", "PL503", "PL502", "PL501")):
            assert source[finding.start : finding.end] in source, finding
            assert b"$(" not in source[finding.start : finding.end]


# The default set: PL503 (a fork per call) only where it runs once per iteration.

LOOPED = """\
#!/bin/bash
echo "$name" | grep -q x
for f in a b; do
  echo "$f" | grep -q x
done
while echo "$n" | grep -q 1; do n=2; done
f() { echo "$1" | grep -q x; }
for i in 1; do g() { echo "$1" | grep -q x; }; done
x=$(echo "$y" | tr a b)
until [ -n "$z" ]; do z=$(echo "$y" | tr a b); done
grep x access.log | wc -l
"""


def _pl5_lines(settings: Settings) -> list[tuple[str, int]]:
    rules = [rule() for rule in settings.enabled_rules()]
    result = checker.check(LOOPED.encode(), rules, "s.bash", settings)
    return [(f.code, LOOPED.encode().count(b"\n", 0, f.start) + 1) for f in result.findings if f.code.startswith("PL5")]


def test_without_configuration_pl503_reports_only_inside_loops():
    # A loop body and a while/until condition run every iteration; a function body is not followed.
    assert _pl5_lines(Settings()) == [("PL503", 4), ("PL503", 6), ("PL503", 10)]


def test_selected_the_pl5_group_reports_everywhere():
    assert _pl5_lines(Settings(extend_select=("PL5",))) == [
        ("PL503", 2), ("PL503", 4), ("PL503", 6), ("PL503", 7), ("PL503", 8), ("PL503", 9), ("PL503", 10), ("PL501", 11)
    ]


# The rule protocol: hooks are found by what a rule overrides.


class _CommandNames(Rule):
    code = "PL999"
    name = "command-names"
    severity = Severity.INFO

    def check_command(self, command, context):
        assert isinstance(command, Command)
        yield self.finding(f"runs {command.program.decode()}", command.node.start_byte, command.node.end_byte)


class _CaseItems(Rule):
    code = "PL998"
    name = "case-items"
    severity = Severity.INFO
    node_types = frozenset({"case_item"})

    def check_node(self, node, context):
        yield self.finding("case item", node.start_byte, node.end_byte)


def test_check_command_gets_the_command_model():
    result = checker.check(b"sudo -u pg psql db\nnice gzip f | cat\n", [_CommandNames()])
    assert [f.message for f in result.findings] == ["runs psql", "runs gzip", "runs cat"]


def test_check_node_gets_the_node_types_it_names():
    result = checker.check(b"case $x in a) echo a;; b) echo b;; esac\n", [_CaseItems()])
    assert [f.message for f in result.findings] == ["case item", "case item"]


def test_a_rule_is_called_only_through_the_hooks_it_overrides():
    assert _CommandNames.uses("check_command") and not _CommandNames.uses("check_pipeline")
    assert _CaseItems.uses("check_node") and not _CaseItems.uses("check_command")


def test_every_registered_rule_declares_what_its_hooks_need():
    for rule in RULES:
        assert any(rule.uses(hook) for hook in HOOKS), rule.code
        assert bool(rule.node_types) == rule.uses("check_node"), rule.code


# A rule bug never aborts a run.
class _Raises(Rule):
    code = "PL997"
    name = "raises"
    severity = Severity.WARNING

    def __init__(self):
        self.calls = 0

    def check_pipeline(self, pipeline, context):
        self.calls += 1
        yield self.finding("first", pipeline.root.start_byte, pipeline.root.end_byte)
        raise ValueError("no such\nstage")


def test_a_raising_rule_is_recorded_and_the_others_still_report():
    raising = _Raises()
    others = [rule() for rule in RULES if rule.enabled_by_default]
    source = b"cat a | grep x\ncat b | grep y\n"
    result = checker.check(source, [raising, *others])
    assert [(f.code, source[f.start : f.end]) for f in result.findings] == [("PL001", b"cat a"), ("PL001", b"cat b")]
    (crash,) = result.crashes
    assert crash.code == "PL997"
    assert crash.summary == "ValueError: no such stage"  # one line, for `pipelint: error: …`
    assert "Traceback" in crash.traceback and "raise ValueError" in crash.traceback
    assert raising.calls == 1  # not called again on the same file


def test_the_crash_reaches_the_file_report():
    class Settings999(Settings):
        def enabled_rules(self, path=None):
            return [_Raises, *super().enabled_rules(path)]

    report = process(b"cat a | grep x\n", "a.sh", Settings999())
    assert [c.code for c in report.crashes] == ["PL997"]
    assert [f.code for f in report.findings] == ["PL001"]


# Fix availability: a rule's findings must match what it declares.
class _Declares(Rule):
    code = "PL996"
    name = "declares"
    severity = Severity.INFO

    def __init__(self, availability, fix):
        self.fix_availability = availability
        self._fix = fix

    def check_command(self, command, context):
        yield self.finding("x", command.node.start_byte, command.node.end_byte, self._fix)


EDIT = Fix("Delete", Applicability.SAFE, (Edit.delete(0, 1),))


@pytest.mark.parametrize(
    ("availability", "fix", "problem"),
    [
        (FixAvailability.ALWAYS, None, "declares fixes always available"),
        (FixAvailability.NEVER, EDIT, "declares fixes never available"),
        (FixAvailability.SOMETIMES, Fix("Think about it", Applicability.DISPLAY_ONLY), "a fix without edits"),
    ],
)
def test_findings_that_break_the_declaration_fail_the_tests(monkeypatch, availability, fix, problem):
    monkeypatch.setenv(checker.CHECK_FIX_AVAILABILITY, "1")
    with pytest.raises(checker.FixAvailabilityError, match=problem):
        checker.check(b"true\n", [_Declares(availability, fix)])
    monkeypatch.setenv(checker.CHECK_FIX_AVAILABILITY, "0")
    assert checker.check(b"true\n", [_Declares(availability, fix)]).findings  # users are never stopped by it


@pytest.mark.parametrize(("availability", "fix"), [(FixAvailability.ALWAYS, EDIT), (FixAvailability.NEVER, None)])
def test_findings_that_keep_the_declaration_pass(monkeypatch, availability, fix):
    monkeypatch.setenv(checker.CHECK_FIX_AVAILABILITY, "1")
    assert checker.check(b"true\n", [_Declares(availability, fix)]).findings


def test_the_whole_test_session_checks_fix_availability():
    assert os.environ.get(checker.CHECK_FIX_AVAILABILITY) == "1"


def test_useless_cat_with_a_comment_between_the_stages_has_no_fix_and_says_so():
    (finding,) = lint("cat f | # why\ngrep x\n")
    assert finding.code == "PL001" and finding.fix is None
    assert RULES[0].code == "PL001" and RULES[0].fix_availability is FixAvailability.SOMETIMES


def test_a_safe_fix_in_a_here_document_substitution_becomes_unsafe(tmp_path):
    """bash 5.2 drops the `;` written after a here-document's operator on its line in `$(…)`, unless a
    redirect stands between (fuzz seed 2418, script 4639, there `| ( head -n 1; wc -l )`, which a
    stage's removal before now makes unsafe on its own): removing `tee /dev/null 2>/dev/null` there
    changes what bash runs. Outside `$(…)`, or in backquotes, the
    same fix stays safe."""
    import subprocess

    inside = "n=$(cat <<X | tee /dev/null 2>/dev/null | wc -l | ( cat; echo end )\nx\nX\n)\necho \"n=$n\"\n"
    (finding,) = [f for f in lint(inside, "s.bash", select=("PL101",))]
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "bash 5.2" in finding.help
    for elsewhere in (
        "cat <<X | tee /dev/null 2>/dev/null | wc -l | ( cat; echo end )\nx\nX\necho\n",
        "n=`cat <<X | tee /dev/null 2>/dev/null | wc -l | ( cat; echo end )\nx\nX\n`\necho \"n=$n\"\n",
        "n=$(sort f | tee /dev/null 2>/dev/null | wc -l | ( cat; echo end ))\necho \"n=$n\"\n",
        "n=$(cat <<X | tee /dev/null 2>/dev/null | wc -l\nx\nX\n)\necho \"n=$n\"\n",  # no `;` after `<<X`
    ):
        (finding,) = [f for f in lint(elsewhere, "s.bash", select=("PL101",))]
        assert finding.fix.applicability is Applicability.SAFE, elsewhere
    # The quirk itself, where this bash has it: the fixed text runs `cat echo end`.
    fixed = fix(inside, "s.bash", unsafe=True, select=("PL101",)).decode()
    script = tmp_path / "s.bash"
    script.write_text(fixed)
    run = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=30, cwd=tmp_path)
    if "cat: echo" not in run.stderr:
        pytest.skip("this bash runs the substitution as written (the quirk is bash 5.2's)")
    script.write_text(inside)
    assert "cat: echo" not in subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=30, cwd=tmp_path).stderr
