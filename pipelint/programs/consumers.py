"""Commands that restore a dump or unpack an archive from standard input.

The one list behind PL001 (useless-cat, which leaves them to PL004),
PL004 (piped-dump-import) and PL203 (useless-dd-reader).
"""

from __future__ import annotations

from pipelint.programs.command import Command
from pipelint.programs.forwarders import forwarded

# Consumers recognised by name alone.
DUMP_RESTORERS = frozenset(
    {"mysql", "mariadb", "psql", "pg_restore", "sqlite3", "mongorestore", "mbstream", "xbstream"}
)
_TARS = frozenset({"tar", "bsdtar", "gtar"})


def dump_consumer(command: Command | None) -> str | None:
    """The name of the restore/unpack tool command runs (through `sudo -u pg`, `docker exec -i C`, `ssh host`…), or None."""
    if command is None or command.program is None:
        return None
    inner = forwarded(command)
    if inner is not None:
        if not inner.stdin or inner.program is None or inner.program.decode("utf-8", "replace") not in DUMP_RESTORERS:
            return None
        return f"{inner.program.decode('utf-8', 'replace')} (through {inner.via})"
    name = command.program.decode("utf-8", "replace")
    if name in DUMP_RESTORERS:
        return name
    if name == "redis-cli" and command.has("--pipe"):
        return "redis-cli --pipe"
    if name in _TARS and command.has("-x", "--extract", "--get"):
        return name
    if name == "cpio" and command.has("-i", "--extract"):
        return "cpio"
    return None
