"""A rule's declared `programs` only spare work: with them or without, the same findings.

The checker reads a command's model for check_command only when its name is
one the rules declare (candidates.py). A rule that learns a new program and
forgets to declare it would go silent there, as PL303 did for `scp -C` and
PL301 for `ssh` pulls when they were added. Every script the repository has
(fixtures, fuzz reproducers, the rule documents' examples and inline code)
is checked both ways.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipelint.engine import candidates, checker, registry

REPO = Path(__file__).resolve().parent.parent
DECLARING = [rule for rule in registry.RULES if rule.programs is not None]


def _scripts() -> list[bytes]:
    found = [path.read_bytes() for folder in ("fixtures", "tests/fuzz/regressions") for path in sorted((REPO / folder).glob("*sh"))]
    for document in sorted((REPO / "rules").glob("*.md")):
        text = document.read_text()
        found += [block.encode() for block in re.findall(r"```(?:sh|bash)\n(.*?)```", text, re.S)]
        found += [span.encode() + b"\n" for span in re.findall(r"`([^`\n]+)`", text)]
    return found


SCRIPTS = _scripts()


def _findings(rule: type, source: bytes) -> list[tuple]:
    result = checker.check(source, [rule()])
    return [(f.code, f.start, f.end, f.message) for f in result.findings]


@pytest.mark.parametrize("rule", DECLARING, ids=lambda rule: rule.code)
def test_declared_programs_hide_no_finding(rule, monkeypatch):
    declared = [_findings(rule, source) for source in SCRIPTS]
    monkeypatch.setattr(rule, "programs", None)
    candidates._plan.cache_clear()
    try:
        every_command = [_findings(rule, source) for source in SCRIPTS]
    finally:
        candidates._plan.cache_clear()
    assert declared == every_command
    assert any(every_command), f"no script exercises {rule.code}"


def test_captures_come_in_document_order():
    """A query of several patterns gets its matches from tree-sitter out of document order (the
    candidates query gave `echo done` before `sh -c '…'`, in one process and not another); regions,
    notes and findings follow the captures, so they are sorted."""
    from pipelint.shell import syntax

    inner = "[ 1 -eq 0 ]\ncat words.txt | wc -l\necho r > k\n[ 1 ]"
    source = f"echo start\nsh -c '{inner}'\nssh db '{inner}'\nf() {{ echo in; }}\nwhile true; do echo x; done\necho done\n"
    root = syntax.parse(source.encode()).root_node
    captured = syntax.captures(candidates.plan([rule() for rule in registry.RULES]).query, root)
    for name, nodes in captured.items():
        keys = [(node.start_byte, -node.end_byte) for node in nodes]
        assert keys == sorted(keys), name
