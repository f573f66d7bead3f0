"""The rule documents in rules/: found, read, listed and checked for their headings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipelint.engine import registry

if TYPE_CHECKING:
    from pipelint.rule import Rule

# Every rule document has these sections, in this order.
HEADINGS = ("What it does", "Why is this slow", "Example", "Use instead", "Fix safety", "References")


def docs_dir() -> Path:
    """rules/ in a source checkout, or the copy installed inside the package."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "rule_docs"
    if packaged.is_dir():
        return packaged
    return package.parent / "rules"


def path_for(rule: type[Rule]) -> Path:
    return docs_dir() / f"{rule.code}-{rule.name}.md"


def read(rule: type[Rule]) -> str:
    try:
        return path_for(rule).read_text(encoding="utf-8")
    except OSError:
        return f"# {rule.code} {rule.name}\n\n(document not installed)\n"


def default_set(rule: type[Rule]) -> str:
    """Whether `pipelint check` runs the rule without configuration: on, off, or in loops (inside loop bodies only)."""
    if rule.enabled_by_default:
        return "on"
    return "in loops" if rule.default_in_loops else "off"


def table() -> str:
    rows = [f"{'code':<7}{'name':<34}{'severity':<10}{'fix':<11}{'default'}"]
    for rule in registry.RULES:
        default = default_set(rule)
        rows.append(f"{rule.code:<7}{rule.name:<34}{rule.severity.value:<10}{rule.fix_availability.value:<11}{default}")
    rows += [
        "",
        "default: on = checked without configuration; off = add it with --extend-select (PL5: micro costs of",
        "about 1 ms a call; PL6: needs splicecat); in loops = checked without configuration inside loop bodies",
        "and while/until conditions only, everywhere once selected (--extend-select PL5).",
    ]
    return "\n".join(rows)
