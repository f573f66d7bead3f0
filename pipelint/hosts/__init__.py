"""Files that are not shell scripts but hold shell: which kind a file is, and the scripts in it.

This registry knows each kind's files by name (`kind_of`); the kind's module
(`dockerfile`, `github_actions`, `gitlab_ci`, imported on first use) finds
the scripts inside one (`scan`): the top-level `regions.Region`s, whose
pieces point into the file. The linter lints those regions, never the file
itself as a script (linter.py).

Before `--fix` writes an edit into a host file, `keeps_host` checks that the
file is still what it was: the host's own parser reads the same structure
apart from the edited scripts, and each script now reads exactly as the edit
meant (a YAML scalar whose indentation or style the edit changed would not).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePath

from pipelint.dialect import EXTENSIONS
from pipelint.finding import Edit, Finding
from pipelint.fixer import apply_edits
from pipelint.hosts.kind import HostKind, HostScan
from pipelint.regions import Region

__all__ = [
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
    name = path.name
    if name.endswith(_NOT_DOCKERFILES):
        return False
    return (
        name in _DOCKERFILE_NAMES
        or name.startswith(tuple(f"{base}." for base in _DOCKERFILE_NAMES))
        or name.endswith(_DOCKERFILE_SUFFIXES)
    )


def _is_github_actions(path: PurePath) -> bool:
    """`.github/workflows/*.yml|yaml` (GitHub reads no subfolder there), and any `action.yml|yaml`."""
    if path.name in ("action.yml", "action.yaml"):
        return True
    parent = path.parent
    return path.name.endswith((".yml", ".yaml")) and parent.name == "workflows" and parent.parent.name == ".github"


def _is_gitlab_ci(path: PurePath) -> bool:
    """`.gitlab-ci.yml`, and templates named `*.gitlab-ci.yml` as GitLab's own are."""
    return path.name.endswith(".gitlab-ci.yml")


DOCKERFILE = HostKind("dockerfile", _is_dockerfile, frozenset({"dockerfile", "containerfile"}), "dockerfile")
GITHUB_ACTIONS = HostKind(
    "github-actions", _is_github_actions, frozenset({"github-actions-workflow"}), "github_actions"
)
GITLAB_CI = HostKind("gitlab-ci", _is_gitlab_ci, frozenset({"gitlab-ci"}), "gitlab_ci")

# One line per kind; the first whose names match a file wins.
KINDS: tuple[HostKind, ...] = (DOCKERFILE, GITHUB_ACTIONS, GITLAB_CI)


def kind_of(path: PurePath | str | None, language_id: str | None = None) -> HostKind | None:
    """The host kind of a file, by its name; else by what the editor calls it (`dockerfile`, not `yaml`)."""
    if path is not None:
        for kind in KINDS:
            if kind.matches(PurePath(path)):
                return kind
    wanted = (language_id or "").lower()
    return next((kind for kind in KINDS if wanted in kind.language_ids), None)


def _edited_text(region: Region, edits: Sequence[Edit]) -> bytes | None:
    """The region's text with the host edits that fall inside it applied; None if one straddles it."""
    inner = []
    for edit in edits:
        mapped = region.inner_edit(edit)
        if mapped is not None:
            inner.append(mapped)
        elif region.pieces and _overlaps(region, edit):
            return None
    return apply_edits(region.text, inner)


def _overlaps(region: Region, edit: Edit) -> bool:
    first, last = region.pieces[0], region.pieces[-1]
    return edit.start < last.outer + last.length and first.outer < edit.end


def keeps_host(kind: HostKind, before: bytes, edits: Sequence[Edit], after: bytes) -> bool:
    """Whether after (before with edits) is the same host file with only its scripts edited as meant."""
    if not kind.same_structure(before, after):
        return False
    old, new = kind.scan(before), kind.scan(after)
    if new.failures or len(old.regions) != len(new.regions):
        return False
    for was, now in zip(old.regions, new.regions):
        expected = _edited_text(was, edits)
        if expected != now.text or (was.dialect, was.errexit, was.pipefail) != (now.dialect, now.errexit, now.pipefail):
            return False
    # An edit outside every script changed the host itself.
    return all(any(region.inner_edit(edit) is not None for region in old.regions) for edit in edits)


def _sharers(regions: Sequence[Region], edits: Sequence[Edit]) -> int:
    """How many scripts hold every one of these host bytes (more than one: a YAML alias runs them again)."""
    return sum(1 for region in regions if all(region.inner_edit(edit) is not None for edit in edits))


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
    for same in groups.values():
        first, fix = same[0], same[0].fix
        if fix is not None and (any(f.fix != fix for f in same) or len(same) < _sharers(regions, fix.edits)):
            advice = f"{fix.title} where it suits every job that runs these lines: a YAML alias shares them"
            first = replace(first, fix=None, help=first.help or advice)
        merged.append(first)
    return merged
