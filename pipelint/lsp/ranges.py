"""Byte offsets ↔ LSP positions, in the position encoding negotiated with the client.

The conversion itself is `positions.LineIndex`, the one place where offsets
become lines and columns; this module only picks the encoding and wraps the
results in lsprotocol types.  LSP's default is UTF-16; pipelint prefers
UTF-8 (tree-sitter's own unit: no decoding needed) whenever the client
offers it, then the client's own order.
"""

from __future__ import annotations

import attrs
from lsprotocol import types

from pipelint.shell.positions import Encoding, LineIndex, Position

_BY_KIND = {
    types.PositionEncodingKind.Utf8.value: Encoding.UTF8,
    types.PositionEncodingKind.Utf16.value: Encoding.UTF16,
    types.PositionEncodingKind.Utf32.value: Encoding.CHARACTERS,  # code points
}


def prefer_utf8(params: types.InitializeParams) -> types.InitializeParams:
    """The initialize params with "utf-8" moved to the front of the offered encodings.

    pygls takes the first encoding the client lists that it supports; moving
    utf-8 first makes pygls choose it whenever it is offered, so the server
    capabilities, pygls' workspace and this module all agree on one encoding.
    """
    general = params.capabilities.general
    if general is None or not general.position_encodings:
        return params
    offered = list(general.position_encodings)
    if types.PositionEncodingKind.Utf8 not in offered:
        return params
    offered.remove(types.PositionEncodingKind.Utf8)
    reordered = attrs.evolve(general, position_encodings=[types.PositionEncodingKind.Utf8, *offered])
    return attrs.evolve(params, capabilities=attrs.evolve(params.capabilities, general=reordered))


def encoding_for(kind: str | None) -> Encoding:
    """The pipelint Encoding for a negotiated LSP PositionEncodingKind (UTF-16 if unknown)."""
    if kind is None:
        return Encoding.UTF16
    return _BY_KIND.get(getattr(kind, "value", kind), Encoding.UTF16)


def to_position(index: LineIndex, offset: int, encoding: Encoding) -> types.Position:
    where = index.position(offset, encoding)
    return types.Position(line=where.line, character=where.column)


def to_range(index: LineIndex, start: int, end: int, encoding: Encoding) -> types.Range:
    return types.Range(start=to_position(index, start, encoding), end=to_position(index, end, encoding))


def to_offset(index: LineIndex, position: types.Position, encoding: Encoding) -> int:
    return index.offset(Position(position.line, position.character), encoding)


def to_offsets(index: LineIndex, range_: types.Range, encoding: Encoding) -> tuple[int, int]:
    return to_offset(index, range_.start, encoding), to_offset(index, range_.end, encoding)
