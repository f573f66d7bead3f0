"""Reading a `tee` stage: its options and its file operands.

Shared by PL101 (tee-devnull), PL102 (tee-slow-mount) and PL103 (stray-tee).
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from pipelint import syntax
from pipelint.pipeline import Stage

# GNU and BSD tee options; anything else (--help, a computed `-$x`) means "don't guess".
_SHORT = frozenset("aip")
_LONG = ("--append", "--ignore-interrupts", "--output-error")


@dataclass(frozen=True)
class Tee:
    stage: Stage
    options: tuple[bytes, ...]
    files: tuple[Node, ...]  # operands as written

    @property
    def file_values(self) -> list[bytes | None]:
        """Each operand's static value, None where it is computed."""
        return [syntax.literal_value(node) for node in self.files]

    @property
    def ignores_sigpipe(self) -> bool:
        """`-p` / `--output-error`: tee keeps reading after its reader has gone."""
        return any(o.startswith(b"--output-error") or (not o.startswith(b"--") and b"p" in o) for o in self.options)


def parse(stage: Stage) -> Tee | None:
    """The stage as a tee call, or None when it is not a plain `tee` we understand."""
    if stage.name != b"tee" or not stage.is_simple or syntax.has_assignments(stage.command):
        return None
    options: list[bytes] = []
    files: list[Node] = []
    operands_only = False
    for argument in stage.arguments:
        value = syntax.literal_value(argument)
        if operands_only:
            files.append(argument)
            continue
        if value == b"--":
            operands_only = True
            continue
        if value is None:
            if syntax.text(argument).lstrip(b"\"'").startswith(b"-"):
                return None  # `-$flags`: cannot tell option from file
            files.append(argument)
            continue
        if value.startswith(b"--"):
            if not any(value == name or value.startswith(name + b"=") for name in map(str.encode, _LONG)):
                return None
            options.append(value)
        elif value.startswith(b"-") and value != b"-":
            if not set(value[1:].decode("latin-1")) <= _SHORT:
                return None
            options.append(value)
        else:
            files.append(argument)
    return Tee(stage, tuple(options), tuple(files))
