"""Position encodings: negotiated at initialize, applied to every range.

Expected columns are counted here with Python's own codecs, not with
pipelint's LineIndex, so a conversion bug cannot confirm itself.
"""

from __future__ import annotations

import pytest
from lsp_client import diagnostics, file_uri, initialize_params, open_document
from lsprotocol import types
from pytest_lsp import client_capabilities

from pipelint.lsp.ranges import encoding_for, prefer_utf8
from pipelint.shell.positions import Encoding

# Non-ASCII and an astral emoji (two UTF-16 units, four bytes) before the span, on its line.
PREFIX = 'echo "héllo 😀 wörld"; '
TEXT = f"#!/bin/bash\n{PREFIX}cat access.log | grep 500\n"
SPAN = "cat access.log"


def columns(encoding: str) -> tuple[int, int]:
    def units(text: str) -> int:
        if encoding == "utf-16":
            return len(text.encode("utf-16-le")) // 2
        if encoding == "utf-8":
            return len(text.encode("utf-8"))
        return len(text)  # utf-32: code points

    return units(PREFIX), units(PREFIX + SPAN)


def capabilities(*encodings: str) -> types.ClientCapabilities:
    return types.ClientCapabilities(general=types.GeneralClientCapabilities(position_encodings=list(encodings)))


@pytest.mark.parametrize(
    ("client_caps", "expected"),
    [
        (types.ClientCapabilities(), "utf-16"),  # says nothing: the LSP default
        (capabilities("utf-16", "utf-8"), "utf-8"),  # offered, though not first: preferred
        (capabilities("utf-32", "utf-8", "utf-16"), "utf-8"),  # Emacs 29's list
        (capabilities("utf-32", "utf-16"), "utf-32"),
        (client_capabilities("visual-studio-code"), "utf-16"),
        (client_capabilities("neovim@v0.11"), "utf-8"),
    ],
)
@pytest.mark.asyncio
async def test_ranges_use_the_negotiated_encoding(bare_client, tmp_path, client_caps, expected):
    result = await bare_client.initialize_session(initialize_params(tmp_path, client_caps))
    assert result.capabilities.position_encoding == expected
    uri = file_uri(tmp_path / "greet.sh")
    open_document(bare_client, uri, TEXT)
    (found,) = await diagnostics(bare_client, uri, version=1)
    start, end = columns(expected)
    assert found.range == types.Range(types.Position(1, start), types.Position(1, end))


def test_prefer_utf8_only_reorders_what_the_client_offered():
    params = types.InitializeParams(capabilities=capabilities("utf-32", "utf-16", "utf-8"))
    assert prefer_utf8(params).capabilities.general.position_encodings == ["utf-8", "utf-32", "utf-16"]
    assert params.capabilities.general.position_encodings == ["utf-32", "utf-16", "utf-8"]  # not mutated
    untouched = types.InitializeParams(capabilities=capabilities("utf-16"))
    assert prefer_utf8(untouched) is untouched


@pytest.mark.parametrize(
    ("kind", "encoding"),
    [("utf-8", Encoding.UTF8), ("utf-16", Encoding.UTF16), ("utf-32", Encoding.CHARACTERS), (None, Encoding.UTF16)],
)
def test_encoding_for(kind, encoding):
    assert encoding_for(kind) is encoding
