"""`--diff`: what --fix would change, as a unified diff (`patch -p1` and `git apply` take it).

The headers are git's: `--- a/NAME` and `+++ b/NAME`, a name with odd bytes
C-quoted, a name with a blank followed by a tab.
"""

from __future__ import annotations

import difflib
import re

from pipelint.engine.report import FileReport

# Bytes a diff header cannot hold as they are: controls, DEL, `"`, `\`, and bytes that are not UTF-8.
_NEEDS_QUOTES = re.compile(rb'[\x00-\x1f\x7f"\\]')
_C_ESCAPES = {ord("\n"): b"\\n", ord("\t"): b"\\t", ord('"'): b'\\"', ord("\\"): b"\\\\"}


def header_name(name: str) -> bytes:
    """A file name as git writes it in a diff header: as it is, or C-quoted with octal escapes."""
    raw = name.encode("utf-8", "surrogateescape")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        if not _NEEDS_QUOTES.search(raw):
            return raw
    quoted = bytearray(b'"')
    for byte in raw:
        if byte in _C_ESCAPES:
            quoted += _C_ESCAPES[byte]
        elif byte < 0x20 or byte >= 0x7F:
            quoted += b"\\%03o" % byte
        else:
            quoted.append(byte)
    return bytes(quoted + b'"')


def _header_label(name: str) -> bytes:
    """A name for a `---`/`+++` line, ended by a tab where it holds a blank, as git ends it.

    GNU patch reads a name up to a tab, or else up to the first blank: without
    the tab, `patch -p1` looks for `sp` where the file is `sp ace.sh`. git
    apply reads both. A quoted name needs no tab: its quotes say where it ends.
    """
    label = header_name(name)
    return label + b"\t" if b" " in label and not label.startswith(b'"') else label


def unified_diff(report: FileReport) -> bytes:
    """The diff from the source to the fixed source; the script's own bytes kept exactly."""

    def lines(data: bytes) -> list[str]:
        return data.decode("utf-8", "surrogateescape").splitlines(keepends=True)

    name = report.display_name
    old, new = (name, name) if name.startswith("/") else (f"a/{name}", f"b/{name}")
    chunks = difflib.unified_diff(lines(report.source), lines(report.final_source), n=3, lineterm="\n")
    body = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in chunks)
    if not body:
        return b""
    body = body.split("\n", 2)[2]  # difflib's own ---/+++ lines: written below with the names quoted
    header = b"--- " + _header_label(old) + b"\n+++ " + _header_label(new) + b"\n"
    return header + body.encode("utf-8", "surrogateescape")
