"""Every rule has its document; every document's examples are checked for real.

The Example block must trigger the rule, the Use instead block must not, and
where the rule fixes automatically, fixing the Example must give exactly the
Use instead block, which must then behave the same under a real shell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from harness import assert_same_behaviour, contract_inputs, fix, known_to_fail, lint

from pipelint.engine import registry, ruledocs
from pipelint.finding import Applicability

DOCS = Path(__file__).parent.parent / "rules"
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


@dataclass
class RuleDoc:
    text: str
    sections: dict[str, str]

    def block(self, heading: str) -> tuple[str, str]:
        match = FENCE.search(self.sections[heading])
        assert match, f"no code block under ## {heading}"
        return match.group(1), match.group(2)

    def table_value(self, key: str) -> str:
        match = re.search(rf"^\| {key} \| (.*?) \|$", self.text, re.MULTILINE)
        assert match, f"no {key} row"
        return match.group(1)


def parse_doc(path: Path) -> RuleDoc:
    text = path.read_text(encoding="utf-8")
    sections: dict[str, str] = {}
    current = None
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = ""
        elif current is not None:
            sections[current] += line
    return RuleDoc(text, sections)


RULES = registry.RULES
IDS = [rule.code for rule in RULES]
# Examples whose fix the strict harness shows breaking issue 13's contract:
# strict xfails until the rule's fix lands.
ISSUE_13 = {
}


def example_path(language: str) -> str:
    return "example.sh" if language == "sh" else "example.bash"


def test_every_document_belongs_to_a_rule():
    documented = {path.name for path in DOCS.glob("*.md")}
    expected = {f"{rule.code}-{rule.name}.md" for rule in RULES}
    assert documented == expected


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_document_has_the_fixed_headings_in_order(rule):
    doc = parse_doc(ruledocs.path_for(rule))
    assert doc.text.startswith(f"# {rule.code} {rule.name}\n")
    assert [h for h in doc.sections if h in ruledocs.HEADINGS] == list(ruledocs.HEADINGS)
    assert doc.table_value("Severity") == rule.severity.value


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_example_triggers_the_rule(rule):
    language, example = parse_doc(ruledocs.path_for(rule)).block("Example")
    found = lint(example, example_path(language), select=(rule.code,))
    assert [f.code for f in found] and {f.code for f in found} == {rule.code}


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_use_instead_is_clean(rule):
    language, good = parse_doc(ruledocs.path_for(rule)).block("Use instead")
    assert [f.code for f in lint(good, example_path(language), select=(rule.code,))] == []


@pytest.mark.parametrize("rule", known_to_fail(RULES, {registry.BY_CODE[c]: why for c, why in ISSUE_13.items()}), ids=IDS)
def test_fixing_the_example_gives_use_instead_and_keeps_behaviour(rule, tmp_path):
    doc = parse_doc(ruledocs.path_for(rule))
    language, example = doc.block("Example")
    _, good = doc.block("Use instead")
    path = example_path(language)
    fixes = [f.fix for f in lint(example, path, select=(rule.code,)) if f.fix is not None]
    if not fixes or all(f.applicability is Applicability.DISPLAY_ONLY for f in fixes):
        pytest.skip(f"{rule.code} has no automatic fix for its example")
    fixed = fix(example, path, unsafe=True, select=(rule.code,))
    assert fixed.decode() == good
    # The same strict comparison as every rule test; the missing-input runs
    # only when the example's fix is safe (contract_inputs).
    inputs = contract_inputs(example.encode(), fixed, path, (rule.code,))
    shell = "dash" if language == "sh" else "bash"
    assert_same_behaviour(example.encode(), fixed, tmp_path, shell, path=path, inputs=inputs, rules=(rule.code,))


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_rule_command_prints_the_document(rule):
    from click.testing import CliRunner

    from pipelint.cli.main import cli

    result = CliRunner().invoke(cli, ["rule", rule.code])
    assert result.exit_code == 0
    assert result.output.startswith(f"# {rule.code} {rule.name}")


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_fix_row_states_the_declared_availability(rule):
    """`| Fix | always …`, `sometimes …` or `never …`, as the rule declares (FixAvailability)."""
    row = parse_doc(ruledocs.path_for(rule)).table_value("Fix")
    assert row.split()[0].rstrip(":,") == rule.fix_availability.value, row


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_default_row_states_the_default_set(rule):
    """A rule outside the default set says so (`| Default | off …` / `in loops …`), as `rule --all` does."""
    doc = parse_doc(ruledocs.path_for(rule))
    if ruledocs.default_set(rule) == "on" and "| Default |" not in doc.text:
        return  # on by default: the row is optional
    assert doc.table_value("Default").startswith(ruledocs.default_set(rule)), doc.table_value("Default")
