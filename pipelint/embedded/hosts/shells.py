"""What a host says its scripts run with: `SHELL ["/bin/bash", "-eo", "pipefail", "-c"]`, `shell: bash -e {0}`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from pipelint.shell.dialect import SHELLS, Dialect
from pipelint.shell.options import read_shell_arguments


@dataclass(frozen=True)
class HostShell:
    """The dialect a host's scripts are read in, and the options in force from their first line.

    dialect None: not a shell pipelint reads (pwsh, python, cmd): the scripts are left alone.
    """

    dialect: Dialect | None
    options: frozenset[str] = frozenset()  # `set -o` names on from the start: `bash -eo pipefail` gives two

    @property
    def facts(self) -> dict[str, frozenset[str]]:
        """What the regions of its scripts carry (`regions.Region.options`)."""
        return {"options": self.options}


NOT_A_SHELL = HostShell(None)


def shell_of(argv: Sequence[str]) -> HostShell:
    """The shell an argument vector starts: `["/bin/bash", "-eo", "pipefail", "-c"]`, `bash --noprofile -e {0}`.

    Its options are read as the shell reads its command line (`shell.options`).
    """
    if not argv:
        return NOT_A_SHELL
    known = SHELLS.get(PurePath(argv[0]).name)
    if known is None or not known.discovered:
        return NOT_A_SHELL
    options = read_shell_arguments([word.encode("utf-8", "surrogateescape") for word in argv[1:]])
    return HostShell(known.dialect, options.on)


_SCRIPT_OPTION = re.compile(r"-[a-z]*c[a-z]*")


def script_argument(argv: Sequence[str]) -> tuple[HostShell, int] | None:
    """An argument vector that runs a shell script, `["sh", "-c", "SCRIPT", …]`, `["/bin/bash", "-ec", …]`:
    the shell and the index of SCRIPT; None when it runs none (not a shell, no `-c`, nothing after it)."""
    shell = shell_of(argv)
    script_at = next((index + 1 for index, word in enumerate(argv[1:], 1) if _SCRIPT_OPTION.fullmatch(word)), None)
    if shell.dialect is None or script_at is None or script_at >= len(argv):
        return None
    return shell, script_at
