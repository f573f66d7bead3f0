"""`pipelint rule CODE`: a rule's document as Markdown, or rendered for a terminal with rich.

The documents in `rules/` link to each other and to `docs/` by relative
paths, which mean something in the repository and nothing in a terminal or
a pasted issue: both forms resolve them against the rule's own page
(`common.rule_url`), so `[PL004](PL004-piped-dump-import.md)` becomes that
rule's page and `../docs/references.md` the repository's. Rendered, each
link shows its address after its text, which every terminal can show (an
OSC 8 hyperlink would hide it where the terminal or the pager does not take them).
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from pipelint.engine import registry, ruledocs
from pipelint.output.common import page_url
from pipelint.rule import Rule

# `](target)` of a Markdown link whose target is relative (no scheme, no `#anchor` alone).
_RELATIVE_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)", re.IGNORECASE)


def markdown(rule: type[Rule]) -> str:
    """The rule's document with its relative links made absolute."""
    base = page_url(rule.code, rule.name)
    return _RELATIVE_LINK.sub(lambda match: f"]({urljoin(base, match.group(1))})", ruledocs.read(rule))


def rendered(text: str, width: int, colour: bool) -> str:
    """Markdown rendered by rich for a terminal this wide (with colour or without any escape)."""
    from rich.console import Console  # rich loads only for a document shown on a terminal
    from rich.markdown import Markdown

    console = Console(width=width, force_terminal=colour, no_color=not colour, highlight=False)
    with console.capture() as captured:
        console.print(Markdown(text, hyperlinks=False))
    return captured.get()


def table_markdown() -> str:
    """`pipelint rule --all` as a Markdown table."""
    rows = ["| code | name | severity | fix | default |", "|---|---|---|---|---|"]
    for rule in registry.RULES:
        link = f"[{rule.code}]({page_url(rule.code, rule.name)})"
        fields = (link, rule.name, rule.severity.value, rule.fix_availability.value, ruledocs.default_set(rule))
        rows.append("| " + " | ".join(fields) + " |")
    return "\n".join(rows) + "\n"
