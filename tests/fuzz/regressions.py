"""Saved reproducers: tests/fuzz/regressions/NNN-short-name.sh, one per distinct failure.

Each file is the shrunk script with a header after its shebang:

    #!/bin/bash
    # fuzz regression: PL001 class 3 (the consumer now runs in the current shell)
    # differs: [bash, inputs present] state: + declare -- v="…"
    # found by: python -m tests.fuzz --seed 7 (script 1234)

The header is made of comments, so the file is replayed as it stands:
tests/fuzz/test_fuzz.py lints it (the shebang picks the dialect), applies
the safe fixes and compares the runs again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .check import Failure
from .classify import CLASSES

DIRECTORY = Path(__file__).parent / "regressions"
_HEADER = re.compile(rb"^# fuzz regression: (?P<rules>\S+) class (?P<class>\d+)", re.MULTILINE)


@dataclass(frozen=True)
class Regression:
    file: Path
    source: bytes
    rules: str
    issue_class: int

    @property
    def signature(self) -> str:
        return f"{self.rules} class {self.issue_class}"

    @property
    def path(self) -> str:
        """The name to lint it under: the dialect comes from the shebang anyway."""
        return "script.sh" if self.source.startswith(b"#!/bin/sh") else "script.bash"


def load(directory: Path = DIRECTORY) -> list[Regression]:
    found = []
    for file in sorted(directory.glob("*.sh")):
        source = file.read_bytes()
        header = _HEADER.search(source)
        if header is None:
            raise ValueError(f"{file.name}: no '# fuzz regression: RULES class N' header")
        found.append(Regression(file, source, header["rules"].decode(), int(header["class"])))
    return found


def _slug(text: str, limit: int = 40) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].rstrip("-")


def _one_line(text: str, limit: int = 160) -> str:
    """One header line; the temporary path of the run is left out."""
    flat = re.sub(r"/\S*?/[\w.-]+\.script: ", "script: ", " ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def save(failure: Failure, found_by: str, directory: Path = DIRECTORY) -> Path:
    """Write the failure as the next NNN-….sh and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    numbers = [int(p.name[:3]) for p in directory.glob("[0-9][0-9][0-9]-*.sh")]
    number = max(numbers, default=0) + 1
    label = CLASSES[failure.issue_class]
    name = f"{number:03d}-{'-'.join(failure.rules).lower()}-class{failure.issue_class}-{_slug(label)}.sh"
    shebang, _, rest = failure.source.partition(b"\n")
    header = [
        f"# fuzz regression: {'+'.join(failure.rules)} class {failure.issue_class} ({label})",
        *(f"# differs: {_one_line(str(d))}" for d in failure.differences[:4]),
        f"# found by: {found_by}",
    ]
    target = directory / name
    target.write_bytes(shebang + b"\n" + "\n".join(header).encode() + b"\n" + rest)
    return target
