"""Reading `dd` operands (`if=`, `bs=1M`, `conv=sync`) and dd's size suffixes.

Shared by PL201 (dd-small-blocks) and PL203 (useless-dd-reader).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from pipelint.shell import syntax
from pipelint.programs.command import Command

DEFAULT_BLOCK = 512  # dd's ibs and obs when no operand sets them

# GNU dd (coreutils 9.1, `info dd`, "Block size"): c=1, w=2, b=512, K/k=1024,
# M=1024², … and with a B suffix the powers of 1000 (kB, KB, MB…); KiB, MiB…
# are binary too. BSD and busybox also take lowercase m and g. `NxM` multiplies.
_POWERS = {"k": 1, "K": 1, "m": 2, "M": 2, "g": 3, "G": 3, "T": 4, "P": 5, "E": 6, "Z": 7, "Y": 8, "R": 9, "Q": 10}
_SMALL = {"": 1, "c": 1, "w": 2, "b": 512}
_FACTOR = re.compile(r"(\d+)([cwb]|[kKmMgGTPEZYRQ](?:iB|B)?)?")
_KEY = re.compile(rb"([a-z]+)=")


def parse_size(text: bytes | str) -> int | None:
    """`1M` → 1048576, `64kB` → 64000, `2x512` → 1024; None when dd would not take it."""
    if isinstance(text, bytes):
        text = text.decode("ascii", "replace")
    total = 1
    for factor in text.split("x"):
        match = _FACTOR.fullmatch(factor)
        if match is None:
            return None
        number, suffix = int(match.group(1)), match.group(2) or ""
        if suffix in _SMALL:
            total *= number * _SMALL[suffix]
        else:
            base = 1000 if suffix.endswith("B") and not suffix.endswith("iB") else 1024
            total *= number * base ** _POWERS[suffix[0]]
    return total or None  # dd refuses a zero size


@dataclass(frozen=True)
class Operand:
    key: str
    node: Node
    value: bytes | None  # the static value after `key=`, None when computed
    value_source: bytes | None  # the value as written (quotes kept), when it can be cut out of the word


def parse(command: Command, *, through_wrappers: bool = False) -> dict[str, Operand] | None:
    """The operands of a `dd` command by key, or None if it has anything else (`--help`, repeats).

    through_wrappers also reads `sudo dd …`, `nice -n 19 dd …`: fine for advice
    about dd's own operands, wrong for anything the shell would do instead of dd.
    """
    if command.program != b"dd" or command.assignments or (command.wrappers and not through_wrappers):
        return None
    operands: dict[str, Operand] = {}
    for argument in command.arguments:
        operand = _operand(argument)
        if operand is None or operand.key in operands:
            return None
        operands[operand.key] = operand
    return operands


def _operand(node: Node) -> Operand | None:
    written = syntax.text(node)
    value = syntax.literal_value(node)
    first = node.named_children[0] if node.type == "concatenation" and node.named_children else node
    if first.type == "word" and not first.named_child_count:
        match = _KEY.match(syntax.text(first))
        if match is not None:
            key = match.group(1).decode()
            return Operand(key, node, None if value is None else value[len(key) + 1 :], written[len(key) + 1 :])
    if value is not None:  # `'if=my file'`: the key is inside the quotes
        match = _KEY.match(value)
        if match is not None:
            return Operand(match.group(1).decode(), node, value[match.end() :], None)
    return None


def flags(operands: dict[str, Operand], key: str) -> set[str] | None:
    """The comma-separated symbols of conv=/iflag=/oflag=; None when computed."""
    operand = operands.get(key)
    if operand is None:
        return set()
    if operand.value is None:
        return None
    return {part for part in operand.value.decode("utf-8", "replace").split(",") if part}


# Tape drives: each write is one tape block, so the block size is the format
# (a tape written in 64 KiB blocks cannot be read with smaller reads).
_TAPES = (b"/dev/st", b"/dev/nst", b"/dev/rmt", b"/dev/sa", b"/dev/nsa", b"/dev/rst", b"/dev/tape")


def is_tape(path: bytes) -> bool:
    return path.startswith(_TAPES)
