"""Make the state a script leaves in its shell observable, so fixes can be compared on it.

A safe fix must keep the running shell's state: variables, directory,
options, traps, aliases, the functions defined (by name: a fix may edit a
function's body) and loop control. A fix that moves
`read v` or `cd dir` out of a pipeline's subshell changes nothing on stdout,
so the harness appends a trailer to the script that dumps that state into a
file outside the sandbox, then exits with the script's own status. A fix
that makes the script leave early (`cat f | exit 3` → `exit 3 < f`) never
reaches the trailer: no dump at all is a difference too.

The trailer is plain text after the script's last line, so the script runs
as itself (no `source`, which would change `return` and `$0`). Builtins are
called through `builtin` in bash, so a script's own `set` or `pwd` function
cannot answer instead.
"""

from __future__ import annotations

import re
from pathlib import Path

# Variables that differ between two runs of the same script, or that only
# describe the trailer itself (LINENO moves when a fix joins lines).
VOLATILE = frozenset(
    {
        "BASHPID", "PPID", "RANDOM", "SRANDOM", "SECONDS", "EPOCHREALTIME", "EPOCHSECONDS",
        "LINENO", "BASH_LINENO", "BASH_COMMAND", "HISTCMD", "PIPESTATUS", "_",
    }
)
STATUS_VARIABLE = "__pipelint_status"

_BASH_DUMP = (
    "builtin declare -p; builtin declare -F; builtin echo \"pwd -P: $(builtin pwd -P)\"; "
    "builtin set +o; builtin shopt -p; builtin trap -p; builtin umask; builtin alias -p"
)
# dash has no `builtin`, no `declare` and no way to list functions.
_DASH_DUMP = "set; export -p; readonly -p; echo \"pwd -P: $(pwd -P)\"; set +o; trap; umask; alias"


def trailer(shell: str, dump_file: Path) -> bytes:
    """Text to append to a script: dump the shell's state, keep the script's exit status.

    The dump's group has its own redirect (so an `exec >out` in the script does
    not swallow it), and `exit` stands outside the group so that the script's
    EXIT trap still writes where the script sent it.
    """
    dump = _BASH_DUMP if shell == "bash" else _DASH_DUMP
    quoted = "'" + str(dump_file).replace("'", "'\\''") + "'"
    return f"\n{{ {STATUS_VARIABLE}=$?; {dump}; }} > {quoted} 2>&1; exit \"${STATUS_VARIABLE}\"\n".encode()


_NAME = re.compile(rb"^(?:declare -\S* |export |readonly )?([A-Za-z_][A-Za-z0-9_]*)(?:=|$)")


def _logical_lines(raw: bytes) -> list[bytes]:
    """Lines joined where a single-quoted value runs over a newline (dash's `set`)."""
    entries: list[bytes] = []
    pending = b""
    for line in raw.splitlines(keepends=True):
        pending += line
        if not _inside_single_quotes(pending):
            entries.append(pending)
            pending = b""
    if pending:
        entries.append(pending)
    return entries


def _inside_single_quotes(text: bytes) -> bool:
    quoted = escaped = False
    for byte in text:
        if escaped:
            escaped = False
        elif quoted:
            quoted = byte != 0x27
        elif byte == 0x5C:
            escaped = True
        elif byte == 0x27:
            quoted = True
    return quoted


def read_dump(dump_file: Path) -> bytes | None:
    """The dump without volatile variables, or None when the trailer never ran."""
    try:
        raw = dump_file.read_bytes()
    except FileNotFoundError:
        return None
    kept = []
    for entry in _logical_lines(raw):
        match = _NAME.match(entry)
        name = match.group(1).decode() if match else ""
        if name in VOLATILE or name.startswith("__pipelint"):
            continue
        kept.append(entry)
    return b"".join(kept)


def changed_entries(before: bytes | None, after: bytes | None) -> str:
    """A short account of what differs between two dumps."""
    if before is None or after is None:
        ran = "the original" if before is not None else "the fixed script"
        return f"only {ran} reached its last line"
    old, new = set(before.splitlines()), set(after.splitlines())
    lines = [b"- " + line for line in sorted(old - new)] + [b"+ " + line for line in sorted(new - old)]
    return b"\n".join(lines[:12]).decode("utf-8", "replace")
