"""Files that are not shell scripts but hold shell: which kind a file is, and the scripts in it.

This registry knows each kind's files by name (`kind_of`); the kind's module
(`dockerfile`, `github_actions`, `gitlab_ci`, `compose`, imported on first use) finds
the scripts inside one (`scan`): the top-level `regions.Region`s, whose
pieces point into the file. The linter lints those regions, never the file
itself as a script (linter.py).

Before `--fix` writes an edit into a host file, `keeps_host` checks that the
file is still what it was: the host's own parser reads the same structure
apart from the edited scripts, and each script now reads exactly as the edit
meant (a YAML scalar whose indentation or style the edit changed would not);
the only other edit it takes deletes the line of one of the host's own
directive comments (PL900's fix).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import PurePath

from typing import TYPE_CHECKING

from pipelint.shell.dialect import EXTENSIONS
from pipelint.finding import Edit, Finding
from pipelint.finding import apply_edits
from pipelint.embedded.hosts.kind import HostKind, HostScan

if TYPE_CHECKING:  # which kind a file is, by its name, needs no region
    from pipelint.embedded.regions import Piece, Region

__all__ = [
    "COMPOSE",
    "DOCKERFILE",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "KINDS",
    "HostKind",
    "HostScan",
    "keeps_host",
    "kind_of",
    "reported_once",
]

_DOCKERFILE_NAMES = ("Dockerfile", "Containerfile")
_DOCKERFILE_SUFFIXES = (".Dockerfile", ".dockerfile", ".Containerfile")
# `Dockerfile.sh` is a script; `Dockerfile.dockerignore` is BuildKit's ignore file for `Dockerfile`.
_NOT_DOCKERFILES = (*EXTENSIONS, ".dockerignore")


def _is_dockerfile(path: PurePath) -> bool:
    """`Dockerfile`, `Dockerfile.prod`, `Dockerfile-arm64v8` (a dash: multi-arch images name theirs so),
    `api.Dockerfile`; the same for `Containerfile`."""
    name = path.name
    if name.endswith(_NOT_DOCKERFILES):
        return False
    return (
        name in _DOCKERFILE_NAMES
        or name.startswith(tuple(f"{base}{mark}" for base in _DOCKERFILE_NAMES for mark in ".-"))
        or name.endswith(_DOCKERFILE_SUFFIXES)
    )


def _is_github_actions(path: PurePath) -> bool:
    """`.github/workflows/*.yml|yaml` (GitHub reads no subfolder there), and any `action.yml|yaml`."""
    if path.name in ("action.yml", "action.yaml"):
        return True
    parent = path.parent
    return path.name.endswith((".yml", ".yaml")) and parent.name == "workflows" and parent.parent.name == ".github"


# `compose.yaml` and `docker-compose.yml`, and their overrides and variants: `compose.override.yaml`, `docker-compose.prod.yml`.
_COMPOSE_NAME = re.compile(r"(?:docker-)?compose(?:\.[^/]+)?\.ya?ml")


def _is_compose(path: PurePath) -> bool:
    """The Compose Specification's file names (`compose.yaml`, `docker-compose.yml`, …) and their variants."""
    return _COMPOSE_NAME.fullmatch(path.name) is not None


def _is_gitlab_ci(path: PurePath) -> bool:
    """`.gitlab-ci.yml`, and templates named `*.gitlab-ci.yml` as GitLab's own are."""
    return path.name.endswith(".gitlab-ci.yml")


DOCKERFILE = HostKind("dockerfile", _is_dockerfile, frozenset({"dockerfile", "containerfile"}), "dockerfile")
GITHUB_ACTIONS = HostKind(
    "github-actions", _is_github_actions, frozenset({"github-actions-workflow"}), "github_actions"
)
GITLAB_CI = HostKind("gitlab-ci", _is_gitlab_ci, frozenset({"gitlab-ci"}), "gitlab_ci")
# VS Code's Docker extension calls them `dockercompose`; Neovim's filetype is `yaml.docker-compose`.
COMPOSE = HostKind("compose", _is_compose, frozenset({"dockercompose", "docker-compose", "yaml.docker-compose"}), "compose")

# One line per kind; the first whose names match a file wins.
KINDS: tuple[HostKind, ...] = (DOCKERFILE, GITHUB_ACTIONS, GITLAB_CI, COMPOSE)


def kind_of(path: PurePath | str | None, language_id: str | None = None) -> HostKind | None:
    """The host kind of a file, by its name; else by what the editor calls it (`dockerfile`, not `yaml`)."""
    if path is not None:
        if not isinstance(path, PurePath):
            path = PurePath(path)  # once: building it per kind cost more than the matching
        for kind in KINDS:
            if kind.matches(path):
                return kind
    wanted = (language_id or "").lower()
    return next((kind for kind in KINDS if wanted in kind.language_ids), None)


class _HostBytes:
    """Which scripts hold which bytes of the host: every region's pieces, by where they are in the host.

    Bisecting these keeps a file of 2,000 RUN lines, each with a fix, linear:
    asking every region about every edit took 30 of 40 s there.
    """

    def __init__(self, regions: Sequence[Region]) -> None:
        self.pieces = sorted(
            (
                (piece.outer, piece.outer + piece.length, index, piece)
                for index, region in enumerate(regions)
                for piece in region.pieces
            ),
            key=lambda entry: entry[:3],
        )
        self.starts = [start for start, _, _, _ in self.pieces]
        self.longest = max((end - start for start, end, _, _ in self.pieces), default=0)

    def _near(self, edit: Edit) -> Iterator[tuple[int, int, int, Piece]]:
        """Pieces that may hold or cross the edit: those starting before its end, no longer ago than the longest."""
        position = bisect.bisect_right(self.starts, edit.end)
        while position > 0:
            position -= 1
            entry = self.pieces[position]
            if entry[0] + self.longest < edit.start:
                break
            yield entry

    def holders(self, edit: Edit) -> dict[int, Edit]:
        """The regions with a piece that holds the whole edit, each with the edit in its own text."""
        held = {}
        for start, end, index, piece in self._near(edit):
            if start <= edit.start and edit.end <= end:
                shift = piece.inner - piece.outer
                held[index] = Edit(edit.start + shift, edit.end + shift, edit.content)
        return held

    def crossers(self, edit: Edit) -> set[int]:
        """The regions with a piece that the edit overlaps (an insertion: strictly inside)."""
        return {index for start, end, index, _ in self._near(edit) if start < edit.end and edit.start < end}


def keeps_host(kind: HostKind, before: bytes, edits: Sequence[Edit], after: bytes) -> bool:
    """Whether after (before with edits) is the same host file with only its scripts edited as meant."""
    if not kind.same_structure(before, after):
        return False
    old, new = kind.scan(before), kind.scan(after)
    if new.failures or len(old.regions) != len(new.regions):
        return False
    host_bytes = _HostBytes(old.regions)
    inner: list[list[Edit]] = [[] for _ in old.regions]
    for edit in edits:
        if _removes_directive(old, before, edit):
            continue  # a comment line the host's parser skips (PL900's fix)
        held = host_bytes.holders(edit)
        if not held or host_bytes.crossers(edit) - held.keys():
            return False  # outside every script (the host itself changed), or across one's edge
        for index, mapped in held.items():
            inner[index].append(mapped)
    for was, now, changes in zip(old.regions, new.regions, inner):
        if apply_edits(was.text, changes) != now.text:
            return False
        if (was.dialect, was.options) != (now.dialect, now.options):
            return False
    return True


def _removes_directive(scan: HostScan, before: bytes, edit: Edit) -> bool:
    """The edit deletes one whole line of the host that holds nothing but one of its directive comments."""
    removed = before[edit.start : edit.end]
    if edit.content or not removed.endswith(b"\n") and edit.end != len(before):
        return False
    if edit.start > 0 and before[edit.start - 1 : edit.start] != b"\n":
        return False
    return any(
        directive.at is not None and edit.start <= directive.at < edit.end and removed.strip() == directive.comment
        for directive in scan.directives
    )


def _sharers(host_bytes: _HostBytes, edits: Sequence[Edit]) -> int:
    """How many scripts hold every one of these host bytes (more than one: a YAML alias runs them again)."""
    holders = [set(host_bytes.holders(edit)) for edit in edits]
    return len(set.intersection(*holders)) if holders else 0


def reported_once(findings: list[Finding], regions: Sequence[Region]) -> list[Finding]:
    """Findings at the same place once, from host bytes that several scripts run (a YAML anchor and its aliases).

    Each script is linted in its own shell and after its own earlier lines, so
    a fix there suits that script only. Its edit lands in every script that
    holds those bytes: it stays only if each of them offered the very same fix
    (a here-string fix found under bash is no fix where the bytes also run under sh).
    """
    groups: dict[tuple[str, int, int], list[Finding]] = {}
    for finding in findings:
        groups.setdefault((finding.code, finding.start, finding.end), []).append(finding)
    merged = []
    host_bytes = _HostBytes(regions)
    for same in groups.values():
        first, fix = same[0], same[0].fix
        if fix is not None and (any(f.fix != fix for f in same) or len(same) < _sharers(host_bytes, fix.edits)):
            advice = f"{fix.title} where it suits every job that runs these lines: a YAML alias shares them."
            first = replace(first, fix=None, help=f"{advice} {first.help}" if first.help else advice)
        merged.append(first)
    return merged
