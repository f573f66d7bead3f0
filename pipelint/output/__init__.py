"""Output formats: one module each, all registered here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from pipelint.output import concise, full, github, gitlab, json_format, json_lines, junit, sarif
from pipelint.output.common import RenderOptions

Renderer = Callable[[list, RenderOptions, TextIO], None]

FORMATS: dict[str, Renderer] = {
    "full": full.render,
    "concise": concise.render,
    "json": json_format.render,
    "json-lines": json_lines.render,
    "sarif": sarif.render,
    "github": github.render,
    "gitlab": gitlab.render,
    "junit": junit.render,
}

# Formats meant for people: they get the summary footer and notes.
HUMAN_FORMATS = frozenset({"full", "concise"})

__all__ = ["FORMATS", "HUMAN_FORMATS", "RenderOptions"]
