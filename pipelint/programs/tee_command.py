"""Reading a `tee` stage: its options and its file operands.

Shared by PL101 (tee-devnull), PL102 (tee-slow-mount), PL103 (stray-tee) and
PL602 (prefer-splicecat-tee).
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from pipelint.programs.command import Option
from pipelint.programs.pipeline import Stage

# GNU and BSD tee options; anything else (--help, a computed `-$x`) means "don't guess".
KNOWN_OPTIONS = frozenset({"-a", "-i", "-p", "--append", "--ignore-interrupts", "--output-error"})


@dataclass(frozen=True)
class Tee:
    stage: Stage
    options: tuple[Option, ...]
    files: tuple[Node, ...]  # operands as written

    @property
    def file_values(self) -> list[bytes | None]:
        """Each operand's static value, None where it is computed."""
        return self.stage.command_model.operand_values  # type: ignore[union-attr]

    @property
    def ignores_sigpipe(self) -> bool:
        """`-p` / `--output-error`: tee keeps reading after its reader has gone."""
        return any(option.name in ("-p", "--output-error") for option in self.options)


def parse(stage: Stage) -> Tee | None:
    """The stage as a tee call, or None when it is not a plain `tee` we understand."""
    if stage.name != b"tee":
        return None  # by name first: a wrapped tee (`sudo tee`) is not read as one either
    model = stage.command_model
    if model is None or model.program != b"tee" or model.wrappers:
        return None
    if model.assignments or not model.exact:
        return None  # `-$flags`: cannot tell option from file
    if any(option.name not in KNOWN_OPTIONS for option in model.options):
        return None
    return Tee(stage, model.options, model.operands)
