"""The contract's missing-input clause: which inputs to take away, and what may then differ.

Issue 13's contract: a safe fix keeps stdout, stderr, exit status, the files
written and the shell's state whenever every file the pipeline reads exists
and is readable. Where an input is missing or is a directory, behaviour may
differ "only as the rule's Fix safety section states, and only where the
script does not observe it"; the same goes for an input that is there but
unreadable. The harness takes each input away in turn (missing, replaced by a
directory, and, for a file, made unreadable) and compares again; a
difference passes only when an allowance below, quoted from the rule
document of a fix that was applied, explains it. The allowances apply
whichever way the input went, so a rule document that has one speaks of a
missing and an unreadable input alike (test_harness.py checks both).

The comparison is black-box, so "where the script does not observe it" needs
no rule of its own: what the script observes (`echo rc=$?`, `set -e`, a
variable, its own exit status, which is the last command's `$?`) shows up in
stdout, the status or the state, and no allowance relaxes those beyond the
narrow relations here.

An unreadable input is the file left in place with mode 000. Root reads a
file whatever its mode bits say, so as root the scripts of that variant run
under setpriv with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped from the
bounding set (harness.unreadable_support); where neither that nor a non-root
user is available, the variant is left out and the suite's header says why.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any
from dataclasses import dataclass, replace
from pathlib import Path

from tree_sitter import Node

from pipelint.engine import registry, ruledocs
from pipelint.shell import syntax

DATA = Path(__file__).parent / "sandbox" / "data"
# Ways an input can be taken away.
MISSING = "missing"
DIRECTORY = "a directory"
UNREADABLE = "unreadable"  # a regular file only: mode 000, read by a shell without root's DAC override


def data_names(data: Path = DATA) -> frozenset[str]:
    return frozenset(p.relative_to(data).as_posix() for p in data.rglob("*"))


def _plain(word: bytes) -> str:
    """A word as a path relative to the sandbox: quotes and a $HOME/ or ~/ prefix removed."""
    text = word.decode("utf-8", "replace").replace('"', "").replace("'", "")
    for prefix in ("$HOME/", "${HOME}/", "~/"):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


def inputs_read(source: bytes, names: frozenset[str] | None = None) -> tuple[str, ...]:
    """The sandbox files and folders a script reads: operands and `<` targets that name one.

    Operands of `tee` are written, not read; `dd`'s `if=` operand is read.
    """
    names = data_names() if names is None else names
    found: set[str] = set()
    for node in syntax.walk(syntax.parse(source).root_node):
        words: list[bytes] = []
        if node.type == "command":
            if syntax.basename(syntax.command_name(node)) == b"tee":
                continue
            words = [syntax.text(arg) for arg in syntax.arguments(node)]
            words = [w[3:] if w.startswith(b"if=") else w for w in words]
        elif node.type == "file_redirect":
            _, operator, destination = syntax.redirect_parts(node)
            if operator == "<" and destination is not None:
                words = [syntax.text(destination)]
        found.update(name for name in map(_plain, words) if name in names)
    return tuple(sorted(found))


# Where a reader's operand names its file: cat's operands, dd's `if=`, `<` targets.
_READERS = frozenset({b"cat", b"dd"})


def absent_inputs(source: bytes, names: frozenset[str] | None = None) -> tuple[str, ...]:
    """Files the script reads that no run provides: `cat missing.txt`, `cat "$f"` with f never set, `cat src` (a folder).

    The contract keeps behaviour "whenever every file the pipeline reads
    exists" (and is a file): where one never does, even the run with the
    sandbox's inputs present is a run with an input missing or a folder, and
    the rules' allowances apply to it. A variable counts as never set when the script names it only in
    `$name`/`${name}` expansions (and, for `$1`…`$9`, always: the harness
    passes no arguments); it expands to the empty name.
    """
    names = data_names() if names is None else names
    found: set[str] = set()
    for node in syntax.walk(syntax.parse(source).root_node):
        words: list[Node] = []
        if node.type == "command" and syntax.basename(syntax.command_name(node)) in _READERS:
            words = syntax.arguments(node)
        elif node.type == "file_redirect":
            _, operator, destination = syntax.redirect_parts(node)
            words = [destination] if operator == "<" and destination is not None else []
        for word in words:
            name = _absent_name(word, source, names)
            if name is not None:
                found.add(name)
    return tuple(sorted(found))


def _absent_name(word: Node, source: bytes, names: frozenset[str]) -> str | None:
    """The name word opens when that file never exists, else None."""
    text = syntax.text(word)
    operand = text.startswith(b"if=") or (word.parent is not None and word.parent.type == "file_redirect")
    text = text[3:] if text.startswith(b"if=") else text
    literal = syntax.literal_value(word)
    if literal is None and re.fullmatch(rb"(?:[\w.,+-]|\\.)+", text):
        literal = re.sub(rb"\\(.)", rb"\1", text)  # `\-`, `a\ b`: escaped, yet a plain name
    if literal is not None:
        literal = literal[3:] if literal.startswith(b"if=") else literal
        plain = _plain(literal)
        if operand and literal == b"-":
            return plain  # dd's `if=-` and `< -` name a file `-` (cat's `-` is standard input)
        if not literal or literal.startswith((b"-", b"/")) or "=" in plain:
            return None  # an option, a file outside the sandbox, dd's `bs=1M`
        return plain if plain not in names or (DATA / plain).is_dir() else None
    variable = re.fullmatch(rb'"?\$\{?([a-z_][a-z0-9_]*|[1-9])\}?"?', text)
    if variable is None:
        return None
    name = variable.group(1)
    # A word of an array's value (`arr=(x)`, the fuzz scripts' first lines) sets no variable x.
    setting = re.sub(rb"=\([^)]*\)", b"=()", source)
    uses = len(re.findall(rb"\b" + name + rb"\b", setting))
    expansions = len(re.findall(rb"\$\{?" + name + rb"\b", setting))
    return "" if name.isdigit() or uses == expansions else None


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _is_subsequence(short: list[bytes], long: list[bytes]) -> bool:
    remaining = iter(long)
    return all(any(line == candidate for candidate in remaining) for line in short)


# Outputs longer than this are compared strictly: the search below is cubic in the lines.
_LONGEST_SEARCHED = 400


def _consumer_output_dropped(before: bytes, after: bytes) -> bool:
    """after is before less one or more copies of one same block of whole lines, each where it stood.

    That is what "the consumer does not run instead of running on empty
    input" can do to a stream: the consumer printed one block (wc's `0`,
    mysql's banner) each time it ran, at the point where it ran. Dropping
    other lines, or different blocks, is not allowed.
    """
    old, new = _lines(before), _lines(after)
    if before == after:
        return True
    if not after:
        return True  # all it wrote was that block, lines or not (gzip's 20-byte header on empty input)
    if len(old) > _LONGEST_SEARCHED or len(new) >= len(old):
        return False
    start = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), len(new))
    # The first copy starts where the two first differ, or (ending in a blank line) just before.
    starts = {start, start - 1} - {-1}
    return any(
        _copies_removed(old, new, tuple(old[first : first + length]))
        for first in starts
        for length in range(1, len(old) - len(new) + 1)
        if (len(old) - len(new)) % length == 0
    )


def _copies_removed(old: list[bytes], new: list[bytes], block: tuple[bytes, ...]) -> bool:
    """new is old with some occurrences of block (at least one) taken out."""
    size = len(block)

    @functools.cache
    def reduces(i: int, j: int) -> bool:
        if i == len(old):
            return j == len(new)
        if j < len(new) and old[i] == new[j] and reduces(i + 1, j + 1):
            return True
        return tuple(old[i : i + size]) == block and reduces(i + size, j)

    return len(new) < len(old) and reduces(0, 0)


def _consumer_errors_dropped(before: bytes, after: bytes) -> bool:
    """Stderr, whose lines normalise_stderr sorts: after's lines are some of before's, as a multiset."""
    return _is_subsequence(_lines(after), _lines(before))


def _only_zero_counts_dropped(before: bytes, after: bytes) -> bool:
    def without_zeros(data: bytes) -> list[bytes]:
        return [line for line in _lines(data) if line.strip() != b"0"]

    return without_zeros(before) == without_zeros(after) and _is_subsequence(_lines(after), _lines(before))


def _output_file_dropped(before, after) -> bool:
    """The same file, without what the skipped consumer wrote into it."""
    if before is None or after is None or before.kind != "file" or after.kind != "file":
        return False
    return before.mode == after.mode and _consumer_output_dropped(before.content, after.content)


@dataclass(frozen=True)
class Allowance:
    """One difference a rule document allows when an input is missing, as a checkable relation."""

    name: str
    quote: str  # the sentence of the rule's "Fix safety" it comes from
    # (before, after) → allowed, for stdout
    output: Callable[[bytes, bytes], bool]
    # (before, after, initial) FileState of one file (None: absent) → allowed
    file: Callable[[Any, Any, Any], bool]
    # (before, after) → allowed, for stderr after wording is normalised (lines sorted); None: as output
    errors: Callable[[bytes, bytes], bool] | None = None

    def allows_errors(self, before: bytes, after: bytes) -> bool:
        return (self.errors or self.output)(before, after)


CONSUMER_SKIPPED = Allowance(
    "the consumer does not run on empty input",
    "the consumer does not run at all instead of running on empty input",
    # Whatever it printed on empty input is gone (each time it ran, where it ran), nothing else changes.
    output=_consumer_output_dropped,
    # A file it would have written (`> out`) is not created or truncated, or
    # created (the shell opens `> out` before `< FILE` fails) without what it wrote.
    file=lambda before, after, initial: after in (before, initial) or _output_file_dropped(before, after),
    errors=_consumer_errors_dropped,
)
# The same relation, as PL004 and PL203 word it.
DUMP_CONSUMER_SKIPPED = replace(CONSUMER_SKIPPED, quote="The same as PL001")
DD_CONSUMER_SKIPPED = replace(CONSUMER_SKIPPED, quote="the shell reports it instead of `dd`, and the consumer does not run")
def _count_file_dropped(before, after, initial) -> bool:
    """`> count.txt` holds what stdout would have: the same file, less its `0` lines."""
    if before is None or after is None:
        return before is after
    return before.mode == after.mode and _only_zero_counts_dropped(before.content, after.content)


COUNT_NOT_PRINTED = Allowance(
    "grep -c prints no count for a missing file",
    "`grep -c` prints nothing to standard output",
    output=_only_zero_counts_dropped,
    file=_count_file_dropped,
)

# Every relation a rule document's "Fix safety" can grant. A rule grants one by holding its quote:
# the document is where a rule says what its fix may change, and nothing here is keyed by rule code.
KNOWN_ALLOWANCES = (CONSUMER_SKIPPED, DUMP_CONSUMER_SKIPPED, DD_CONSUMER_SKIPPED, COUNT_NOT_PRINTED)


@functools.cache
def fix_safety_text(code: str) -> str:
    """The "Fix safety" section of a rule's document, its blanks folded."""
    document = ruledocs.read(registry.BY_CODE[code])
    section = re.search(r"## Fix safety\n(.*?)(?:\n## |\Z)", document, re.DOTALL)
    return " ".join(section.group(1).split()) if section else ""


def allowances_of(code: str) -> tuple[Allowance, ...]:
    """What the rule's document allows when an input is missing: the allowances it quotes."""
    text = fix_safety_text(code)
    return tuple(allowance for allowance in KNOWN_ALLOWANCES if " ".join(allowance.quote.split()) in text)


def allowances_for(codes: Iterable[str]) -> tuple[Allowance, ...]:
    return tuple(allowance for code in sorted(set(codes)) for allowance in allowances_of(code))
