"""What a host kind is: its file names, its scripts, its own parser's view of the file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath

from pipelint.checker import ParseFailure
from pipelint.regions import Region
from pipelint.suppression import Suppression


@dataclass
class HostScan:
    """What a host kind found in one file."""

    regions: list[Region] = field(default_factory=list)
    failures: list[ParseFailure] = field(default_factory=list)  # where the file itself did not parse
    suppressions: list[Suppression] = field(default_factory=list)  # host comments that disable rules


@dataclass(frozen=True)
class HostKind:
    name: str  # for reports and docs: "dockerfile"
    matches: Callable[[PurePath], bool]  # by the file's name (and folder)
    language_ids: frozenset[str]  # what editors call it; "yaml" documents are told apart by name
    scan: Callable[[bytes], HostScan]
    # Whether the host's own parser reads the same file apart from the scripts `scan` finds.
    same_structure: Callable[[bytes, bytes], bool]
