"""Commands that restore a dump or unpack an archive from standard input (`Trait.RESTORES_DUMP`).

The one question behind PL001 (useless-cat, which leaves them to PL004),
PL004 (piped-dump-import) and PL203 (useless-dd-reader).
"""

from __future__ import annotations

from pipelint.programs.command import Command
from pipelint.programs.launchers import forwarded
from pipelint.programs.table import Trait, program


def dump_consumer(command: Command | None) -> str | None:
    """The name of the restore/unpack tool command runs (through `sudo -u pg`, `docker exec -i C`, `ssh host`…), or None."""
    if command is None or command.program is None:
        return None
    inner = forwarded(command)
    if inner is None:
        return restorer_name(command)
    if not inner.stdin or program(inner.command.program).restores_dump_with:
        return None  # stdin does not reach it, or it restores only in some modes (`tar -x` in a container)
    name = restorer_name(inner.command)
    return None if name is None else f"{name} (through {inner.via})"


def restorer_name(command: Command) -> str | None:
    """How messages name the restore tool command runs (`mysql`, `redis-cli --pipe`, `tar`), or None if it is none."""
    known = program(command.program)
    if not known.has(Trait.RESTORES_DUMP):
        return None
    name = (command.program or b"").decode("utf-8", "replace")
    if not known.restores_dump_with:
        return name
    mode = next((option for option in sorted(known.restores_dump_with) if command.has(option)), None)
    if mode is None:
        return None
    # An archiver is named alone (`tar`); a client that restores in one mode only is named with it (`redis-cli --pipe`).
    return name if known.has(Trait.ARCHIVER) else f"{name} {mode}"
