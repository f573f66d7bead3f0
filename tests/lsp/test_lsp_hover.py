"""Hover over the codes of a disable directive shows the rule's document."""

from __future__ import annotations

import pytest
from lsp_client import diagnostics, file_uri, open_document
from lsprotocol import types

from pipelint.engine import registry, ruledocs

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = (
    "#!/bin/bash\n"
    "# pipelint: disable=PL003, useless-cat\n"  # line 1
    "cat access.log | grep 500\n"
    "# shellcheck disable=SC2002,SC2086\n"  # line 3
    "sort words.txt | cat | uniq -c\n"
    'echo "# pipelint: disable=PL001"\n'  # line 5: not a comment
    "# pipelint: disable=PL999\n"  # line 6
    "# an ordinary comment about PL001\n"  # line 7
    "echo done\n"
    "cat words.txt | wc -l  # pipelint: disable=PL001\n"  # line 9: at the end of a line
    "# shellcheck disable='SC2000-SC2999'\n"  # line 10: a range, quoted
    "cat words.txt | wc -l\n"
)


async def hover_at(client, workspace, line: int, column: int) -> types.Hover | None:
    uri = file_uri(workspace / "hover.sh")
    if uri not in client.diagnostics:
        open_document(client, uri, SCRIPT)
        await diagnostics(client, uri, version=1)
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, column))
    )


def column_of(line: int, text: str, offset: int = 0) -> int:
    return SCRIPT.splitlines()[line].index(text) + offset


async def test_hover_on_a_code_shows_its_document(client, workspace):
    start = column_of(1, "PL003")
    shown = await hover_at(client, workspace, 1, start + 2)
    assert shown.contents.kind == types.MarkupKind.Markdown
    assert shown.contents.value == ruledocs.read(registry.lookup("PL003"))
    assert shown.range == types.Range(types.Position(1, start), types.Position(1, start + len("PL003")))


async def test_hover_on_a_rule_name_and_at_its_last_character(client, workspace):
    end = column_of(1, "useless-cat", len("useless-cat"))
    shown = await hover_at(client, workspace, 1, end)
    assert shown.contents.value == ruledocs.read(registry.lookup("PL001"))


async def test_hover_on_a_shellcheck_code_shows_the_rules_that_honour_it(client, workspace):
    shown = await hover_at(client, workspace, 3, column_of(3, "SC2002", 1))
    honouring = registry.rule_for_shellcheck("SC2002")
    assert honouring  # PL001 and PL003 say so in their documents
    assert shown.contents.value.startswith("ShellCheck's `SC2002` also disables")
    for rule in honouring:
        assert ruledocs.read(rule) in shown.contents.value


async def test_hover_on_an_unknown_code_says_so(client, workspace):
    shown = await hover_at(client, workspace, 6, column_of(6, "PL999", 1))
    assert "no pipelint rule" in shown.contents.value


async def test_hover_on_a_directive_at_the_end_of_a_line(client, workspace):
    shown = await hover_at(client, workspace, 9, column_of(9, "PL001", 1))
    assert shown.contents.value == ruledocs.read(registry.lookup("PL001"))


async def test_hover_on_a_shellcheck_range_shows_every_rule_in_it(client, workspace):
    start = column_of(10, "SC2000-SC2999")
    shown = await hover_at(client, workspace, 10, start + 3)
    assert shown.contents.value.startswith("ShellCheck's `SC2000-SC2999` also disables PL001 (useless-cat)")
    assert shown.range == types.Range(types.Position(10, start), types.Position(10, start + len("SC2000-SC2999")))


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (5, "PL001"),  # inside a string, not a comment
        (7, "PL001"),  # a comment, but no directive
        (3, "SC2086"),  # a ShellCheck code no pipelint rule honours
        (2, "access.log"),  # code
        (1, "pipelint"),  # the directive's keyword, not a code
    ],
)
async def test_no_hover_elsewhere(client, workspace, line, text):
    assert await hover_at(client, workspace, line, column_of(line, text, 1)) is None
