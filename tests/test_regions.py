"""Region: inner text mapped back to host bytes, edits only where the host's quoting takes them."""

from __future__ import annotations

import pytest
from harness import placed, placed_one

from pipelint.shell.dialect import Dialect
from pipelint.finding import Edit
from pipelint.embedded.regions import Piece, Quoting, Region, RegionBuilder


def region(*pieces: Piece, text: bytes = b"cat f | wc -l") -> Region:
    return Region(text, pieces, Dialect.SH, "test")


def test_whole_script_maps_every_byte_to_itself():
    whole = Region(b"cat f | wc\n", (Piece(0, 0, 11),), Dialect.SH, "the script")
    assert whole.outer_span(0, 5) == (0, 5)
    assert placed_one(whole, Edit(0, 8, b"")) == Edit(0, 8, b"")
    assert placed_one(whole, Edit.insert(10, b" < f")) == Edit.insert(10, b" < f")


def test_single_quoted_piece_shifts_offsets_and_refuses_a_quote():
    # host: sh -c 'cat f | wc -l'   (the text starts at host offset 7)
    inner = region(Piece(0, 7, 13, (Quoting.SINGLE,)))
    assert inner.outer_span(0, 5) == (7, 12)
    assert placed_one(inner, Edit(0, 8, b"")) == Edit(7, 15, b"")
    assert placed_one(inner, Edit.insert(13, b" < f")) == Edit.insert(20, b" < f")  # at the piece's end
    assert placed_one(inner, Edit.insert(13, b" < 'my f'")) is None


@pytest.mark.parametrize(
    ("quoting", "content", "holds"),
    [
        (Quoting.DOUBLE, b" < f", True),
        (Quoting.DOUBLE, b' < "$f"', False),
        (Quoting.DOUBLE, b" < `f`", False),
        (Quoting.DOUBLE, b" < a\\b", False),
        (Quoting.UNQUOTED, b"-c", True),
        (Quoting.UNQUOTED, b" < f", False),
        (Quoting.LINE, b" < f", True),
        (Quoting.LINE, b"\nx", False),
        (Quoting.RAW, b"\nx", True),
        (Quoting.ESCAPED, b"", False),
    ],
)
def test_what_each_quoting_holds(quoting, content, holds):
    assert quoting.holds(content) is holds


def test_an_edit_across_two_pieces_or_an_invented_join_has_no_place():
    # ssh h cat f '|' wc: inner "cat f | wc", the blanks between words are invented
    inner = region(
        Piece(0, 10, 3, (Quoting.UNQUOTED,)),
        Piece(4, 14, 1, (Quoting.UNQUOTED,)),
        Piece(6, 17, 1, (Quoting.SINGLE,)),
        Piece(8, 20, 2, (Quoting.UNQUOTED,)),
        text=b"cat f | wc",
    )
    assert placed_one(inner, Edit(0, 8, b"")) is None
    assert placed_one(inner, Edit(4, 5, b"g")) == Edit(14, 15, b"g")
    assert inner.outer_span(0, 10) == (10, 22)
    assert inner.outer_span(3, 4) == (14, 14)  # a span on an invented blank moves to the next piece


def test_nested_region_keeps_both_quotings():
    # host: ssh h "sh -c 'cat f | wc'"  → outer region text: sh -c 'cat f | wc'
    outer = Region(b"sh -c 'cat f | wc'", (Piece(0, 7, 18, (Quoting.DOUBLE,)),), Dialect.SH, "ssh", depth=1)
    inner = Region(b"cat f | wc", (Piece(0, 7, 10, (Quoting.SINGLE,)),), Dialect.SH, "sh -c").inside(outer)
    assert inner.pieces == (Piece(0, 14, 10, (Quoting.SINGLE, Quoting.DOUBLE)),)
    assert inner.depth == 2
    assert placed_one(inner, Edit(0, 8, b"")) == Edit(14, 22, b"")
    assert placed_one(inner, Edit.insert(10, b" < $f")) is None  # single quotes would take it, double would expand it


@pytest.mark.parametrize(
    ("content", "holds"),
    [(b" < f", True), (b' < "f"', True), (b" < 'f'", True), (b" < $f", False), (b" < `f`", False), (b" < a\\b", False)],
)
def test_an_unquoted_here_document_takes_quotes_but_nothing_the_outer_shell_expands(content, holds):
    assert Quoting.HEREDOC.holds(content) is holds


def test_an_edit_that_would_write_the_delimiter_line_has_no_place():
    # host: bash <<'EOF' / cat f | wc / EOF    (the body starts at host offset 15)
    body = b"cat f | wc\necho EOF\nEOFx\n"
    inner = Region(body, (Piece(0, 15, len(body)),), Dialect.BASH, "here-document", terminators=(b"EOF",))
    assert placed(inner, [Edit(0, 8, b""), Edit.insert(10, b" < f")]) == (Edit(15, 23, b""), Edit.insert(25, b" < f"))
    assert placed(inner, [Edit(11, 16, b"")]) is None  # `echo EOF` → `EOF`: the body would end there
    assert placed(inner, [Edit(23, 24, b"")]) is None  # `EOFx` → `EOF`
    assert placed(inner, [Edit.insert(10, b"\n\tEOF")]) is None  # a new line `<<-` would read as the end
    assert placed(inner, [Edit(16, 19, b"EOS")]) == (Edit(31, 34, b"EOS"),)
    joined = Region(b"cat f | wc\nEO\nF\n", (Piece(0, 15, 16),), Dialect.BASH, "here-document", terminators=(b"EOF",))
    assert placed(joined, [Edit(13, 14, b"")]) is None  # `EO` and `F` joined: a new `EOF` line
    assert placed(joined, [Edit(11, 12, b"")]) == (Edit(26, 27, b""),)  # `EO` → `O`: no end


def test_edits_are_mapped_all_or_none():
    inner = region(Piece(0, 7, 5, (Quoting.SINGLE,)), Piece(6, 20, 7, (Quoting.SINGLE,)))
    assert placed(inner, [Edit(0, 2, b"")]) == (Edit(7, 9, b""),)
    assert placed(inner, [Edit(0, 2, b""), Edit(4, 8, b"")]) is None  # the second crosses a join


def test_a_nested_region_keeps_the_delimiters_of_the_here_documents_around_it():
    outer = Region(b"sh -c 'cat f'\n", (Piece(0, 12, 14),), Dialect.SH, "here-document", depth=1, terminators=(b"END",))
    inner = Region(b"cat f", (Piece(0, 7, 5, (Quoting.SINGLE,)),), Dialect.SH, "sh -c").inside(outer)
    assert inner.terminators == (b"END",)
    assert placed(inner, [Edit(0, 5, b"END")]) is None


def test_builder_marks_substituted_text_as_escaped_pieces():
    builder = RegionBuilder(substituted=b"{}")
    builder.copy(b"cat {} | wc", 10, Quoting.SINGLE)
    built = builder.region(Dialect.SH, "find -exec", anchor=10)
    assert built.text == b"cat {} | wc"
    assert built.pieces == (
        Piece(0, 10, 4, (Quoting.SINGLE,)),
        Piece(4, 14, 2, (Quoting.ESCAPED,)),
        Piece(6, 16, 5, (Quoting.SINGLE,)),
    )
    assert built.outer_span(0, 6) == (10, 16)  # a finding may point at `{}`
    assert placed_one(built, Edit(4, 6, b"f")) is None  # no edit may touch it


@pytest.mark.parametrize(
    ("written", "placeholder"),
    [(b"$HOME", b"$HOME"), (b"${HOME}", b"${HOME}"), (b"$(date)", b"_______"), (b"${x:-a}", b"_______"), (b"`a\nb`", b"____")],
)
def test_builder_keeps_plain_expansions_and_hides_the_rest(written, placeholder):
    builder = RegionBuilder()
    builder.expansion(written)
    assert bytes(builder.text) == placeholder and builder.pieces == []


def test_why_an_edit_has_no_place_is_told():
    # host: ssh h cat "a\"b" '|' wc  → inner: cat a"b | wc
    inner = region(
        Piece(0, 6, 3, (Quoting.UNQUOTED,)),
        Piece(4, 11, 1, (Quoting.DOUBLE,)),
        Piece(5, 13, 1, (Quoting.ESCAPED,)),
        Piece(6, 14, 1, (Quoting.DOUBLE,)),
        Piece(8, 18, 1, (Quoting.SINGLE,)),
        Piece(10, 21, 2, (Quoting.UNQUOTED,)),
        text=b'cat a"b | wc',
    )
    assert "backslash" in inner.place_edits([Edit(4, 7, b"x")])
    assert "puts together" in inner.place_edits([Edit(8, 12, b"")])  # `| wc`: two words and the blank ssh adds
    assert inner.place_edits([Edit.insert(12, b" < f")]) == "its new text would need quoting inside an unquoted word"
    assert inner.place_edits([Edit(10, 12, b"nl")]) == (Edit(21, 23, b"nl"),)
