"""`--diff`: what --fix would change, as a unified diff (`patch -p1` applies it)."""

from __future__ import annotations

import difflib

from pipelint.linter import FileReport


def unified_diff(report: FileReport) -> bytes:
    """The diff from the source to the fixed source; the script's own bytes kept exactly."""

    def lines(data: bytes) -> list[str]:
        return data.decode("utf-8", "surrogateescape").splitlines(keepends=True)

    name = report.display_name
    old, new = (name, name) if name.startswith("/") else (f"a/{name}", f"b/{name}")
    chunks = difflib.unified_diff(lines(report.source), lines(report.final_source), old, new)
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in chunks)
    return text.encode("utf-8", "surrogateescape")
