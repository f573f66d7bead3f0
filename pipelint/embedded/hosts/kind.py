"""What a host kind is: its file names, its scripts, its own parser's view of the file."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a run reads a file's kind by its name: no region is made for that
    from pipelint.embedded.regions import Region
    from pipelint.finding import ParseFailure
    from pipelint.shell.directives import Directive


@dataclass
class HostScan:
    """What a host kind found in one file."""

    regions: list[Region] = field(default_factory=list)
    failures: list[ParseFailure] = field(default_factory=list)  # where the file itself did not parse
    directives: list[Directive] = field(default_factory=list)  # host comments that may disable rules


@dataclass(frozen=True)
class HostKind:
    name: str  # for reports and docs: "dockerfile"
    matches: Callable[[PurePath], bool]  # by the file's name (and folder)
    language_ids: frozenset[str]  # what editors call it; "yaml" documents are told apart by name
    # pipelint.hosts.<module> reads the file: its scan(source) -> HostScan and
    # same_structure(before, after) -> bool (whether the host's own parser reads
    # the same file apart from the scripts scan finds).
    module: str

    def _reader(self) -> ModuleType:
        # Imported on first use: PyYAML and BuildKit's parser add ~40 ms to every
        # start (431 → 471 ms, min of 25 runs), which a run over scripts alone need not pay.
        return importlib.import_module(f"pipelint.embedded.hosts.{self.module}")

    def scan(self, source: bytes) -> HostScan:
        return self._reader().scan(source)

    def same_structure(self, before: bytes, after: bytes) -> bool:
        return self._reader().same_structure(before, after)
