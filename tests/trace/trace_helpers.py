"""Run scripts traced (`pipelint trace`) and untraced, side by side, and read the JSON report."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import jsonschema
from cli_helpers import REPO, cli_env

SCHEMA = json.loads((REPO / "docs" / "trace.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


@dataclass
class Traced:
    completed: subprocess.CompletedProcess
    report: dict

    @property
    def status(self) -> int:
        return self.completed.returncode

    def pipelines(self, filename: str | None = None) -> list[dict]:
        return [p for p in self.report["pipelines"] if filename is None or p["filename"] == filename]

    def at(self, filename: str, row: int) -> dict:
        """The one pipeline (or command) the report has at the line."""
        found = [p for p in self.pipelines(filename) if p["location"]["row"] == row]
        assert len(found) == 1, (filename, row, [(p["filename"], p["location"]["row"], p["text"]) for p in self.pipelines()])
        return found[0]

    def lines(self, filename: str) -> dict[int, str]:
        return {p["location"]["row"]: p["text"] for p in self.pipelines(filename)}


# Both runs go through the same shell, which reports a death by signal ("Terminated") and gives 128+N.
IN_A_SHELL = ["sh", "-c", '"$@"; exit $?', "sh"]


def trace(command: list[str], cwd: Path, stdin: bytes = b"", env: dict | None = None, name: str = "trace.json") -> Traced:
    """`pipelint trace --output-format json -o FILE -- COMMAND` run by a shell, its report checked against
    docs/trace.schema.json."""
    report = cwd / name
    pipelint = [sys.executable, "-m", "pipelint", "trace", "--output-format", "json", "-o", str(report), "--"]
    completed = subprocess.run(
        [*IN_A_SHELL, *pipelint, *command], cwd=cwd, input=stdin, capture_output=True, env=cli_env(env), timeout=300
    )
    data = json.loads(report.read_text(encoding="utf-8"))
    VALIDATOR.validate(data)
    return Traced(completed, data)


def untraced(command: list[str], cwd: Path, stdin: bytes = b"", env: dict | None = None) -> subprocess.CompletedProcess:
    """The command as the same shell runs it, with the environment `pipelint trace` passes on."""
    return subprocess.run([*IN_A_SHELL, *command], cwd=cwd, input=stdin, capture_output=True, env=cli_env(env), timeout=300)


def write_script(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return path


def data_file(path: Path, size: int) -> Path:
    """size bytes of short text lines."""
    line = b"0123456789 abcdefghijklmnopqrstuvwxyz\n"
    chunk = line * ((1 << 20) // len(line) + 1)
    with open(path, "wb") as handle:
        left = size
        while left:
            piece = chunk[: min(left, len(chunk))]
            handle.write(piece)
            left -= len(piece)
    return path

