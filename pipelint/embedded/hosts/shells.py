"""What a host says its scripts run with: `SHELL ["/bin/bash", "-eo", "pipefail", "-c"]`, `shell: bash -e {0}`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath

from pipelint.shell.dialect import SHELLS, Dialect
from pipelint.shell.options import STARTUP_VARIABLES, Environment, read_shell_arguments


@dataclass(frozen=True)
class HostShell:
    """The dialect a host's scripts are read in, and the options in force from their first line.

    dialect None: not a shell pipelint reads (pwsh, python, cmd): the scripts are left alone.
    """

    dialect: Dialect | None
    options: frozenset[str] = frozenset()  # `set -o` names on from the start: `bash -eo pipefail` gives two
    # The startup variables (SHELLOPTS, BASHOPTS, BASH_ENV) the host puts in its environment (`environment_of`).
    environment: Environment = ()

    @property
    def facts(self) -> dict[str, object]:
        """What the regions of its scripts carry (`regions.Region.options`, `Region.environment`)."""
        return {"options": self.options, "environment": self.environment}

    def with_environment(self, variables: Mapping[str, str | None]) -> HostShell:
        """This shell with the host's environment variables (`ENV`, `env:`, `variables:`) around it."""
        return replace(self, environment=environment_of(variables))


def environment_of(variables: Mapping[str, str | None]) -> Environment:
    """The startup variables among a host's environment variables, by name: each with its value, None
    where the host computes it (`${{ … }}`, `$VAR`) or the build gives it (`ARG NAME`)."""
    found = []
    for name, value in variables.items():
        encoded = name.encode("utf-8", "surrogateescape")
        if encoded in STARTUP_VARIABLES:
            known = value is not None and "$" not in value
            found.append((encoded, value.encode("utf-8", "surrogateescape") if known else None))
    return tuple(found)


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
