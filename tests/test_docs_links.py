"""The documents users read: every relative link resolves, and sources are cited by title."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipelint.rules import evidence

REPOSITORY = Path(__file__).parent.parent
DOCUMENTS = sorted([*REPOSITORY.glob("rules/*.md"), *REPOSITORY.glob("docs/*.md"), REPOSITORY / "README.md"])
# [text](target) and [text](target "title"), not images' data: or web links.
LINK = re.compile(r"\[[^\]]*\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+\"[^\"]*\")?\s*\)")

CODE_PATH = re.compile(r"`(\.\.?/[^`\s]+)`")


def relative_links(text: str) -> list[str]:
    found = []
    for bracketed, plain in LINK.findall(text):
        target = bracketed or plain
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("#"):
            continue  # https:, mailto:, an anchor in the same document
        found.append(target.split("#", 1)[0])
    # A path written as code is a link too, to a reader: `../shared/ANCHORS.md`.
    found += CODE_PATH.findall(text)
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(REPOSITORY)))
def test_every_relative_link_resolves_to_a_file_in_the_repository(document):
    for target in relative_links(document.read_text(encoding="utf-8")):
        resolved = (document.parent / target).resolve()
        assert resolved.is_relative_to(REPOSITORY.resolve()), f"{document.name}: {target} leaves the repository"
        assert resolved.exists(), f"{document.name}: {target} does not exist"


def test_the_link_pattern_finds_links():
    assert relative_links("see [a](../x.md#y), [b](https://e.org) and [c](#z) or [d](<e f.md>)") == ["../x.md", "e f.md"]
    assert relative_links("as in `../shared/ANCHORS.md`, not `a/b`") == ["../shared/ANCHORS.md"]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(REPOSITORY)))
def test_sources_are_cited_by_title_not_by_an_internal_number(document):
    assert not re.search(r"seed 0\d\d", document.read_text(encoding="utf-8"), re.IGNORECASE)


def test_references_list_every_source_a_message_cites():
    references = (REPOSITORY / "docs" / "references.md").read_text(encoding="utf-8")
    for title in evidence.SOURCES:
        assert title in references, title
