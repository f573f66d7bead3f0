"""What `pipelint check` reports about one file: a module of its own, so that printing a report (from the
results cache, say) imports no part of the engine that made it."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from pipelint.finding import Finding, Note, ParseFailure, RuleCrash
from pipelint.shell.dialect import Dialect
from pipelint.shell.positions import LineIndex

if TYPE_CHECKING:
    from pipelint.facts.outside import Outside


@dataclass
class FileReport:
    display_name: str
    source: bytes  # as read
    findings: list[Finding] = field(default_factory=list)  # what remains after any fixes
    fixed: list[Finding] = field(default_factory=list)  # what --fix applied
    fixed_source: bytes | None = None  # set when fixes changed the text
    parse_failures: list[ParseFailure] = field(default_factory=list)
    crashes: list[RuleCrash] = field(default_factory=list)  # internal errors: exit 2, one line each
    dialect: Dialect = Dialect.SH
    host: str | None = None  # the kind of a file that holds scripts ("dockerfile"); None for a script
    notes: list[Note] = field(default_factory=list)  # misreads of tree-sitter-bash the parse guards handled
    outside_read: frozenset[Outside] = frozenset()  # what the lint read from outside the file (cache.py)

    @property
    def final_source(self) -> bytes:
        return self.fixed_source if self.fixed_source is not None else self.source

    @cached_property
    def index(self) -> LineIndex:
        """Positions of findings refer to the final text."""
        return LineIndex(self.final_source)
