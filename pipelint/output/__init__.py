"""Output formats: one module each, all registered here.

A format's module is imported only when it is used: `full` pulls in rich,
which would otherwise cost every `pipelint check` run its import time.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TextIO

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipelint.output.common import RenderOptions

Renderer = Callable[[list, "RenderOptions", TextIO], None]


def _lazy(module: str) -> Renderer:
    def render(reports: list, options: RenderOptions, out: TextIO) -> None:
        importlib.import_module(f"pipelint.output.{module}").render(reports, options, out)

    return render


FORMATS: dict[str, Renderer] = {
    "full": _lazy("full"),
    "concise": _lazy("concise"),
    "json": _lazy("json_format"),
    "json-lines": _lazy("json_lines"),
    "sarif": _lazy("sarif"),
    "github": _lazy("github"),
    "gitlab": _lazy("gitlab"),
    "junit": _lazy("junit"),
}

# Formats meant for people: they get the summary footer and notes.
HUMAN_FORMATS = frozenset({"full", "concise"})

__all__ = ["FORMATS", "HUMAN_FORMATS", "RenderOptions"]


def __getattr__(name: str):
    """RenderOptions from `output.common`, imported when asked for: the command line reads the format names
    before it knows whether it renders anything (`pipelint --version`)."""
    if name == "RenderOptions":
        from pipelint.output.common import RenderOptions

        return RenderOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
