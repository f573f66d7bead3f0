"""What a host says its scripts run with: `SHELL ["/bin/bash", "-eo", "pipefail", "-c"]`, `shell: bash -e {0}`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from pipelint.shell.dialect import SHELLS, Dialect


@dataclass(frozen=True)
class Shell:
    """The dialect a host's scripts are read in, and the options in force from their first line.

    dialect None: not a shell pipelint reads (pwsh, python, cmd): the scripts are left alone.
    """

    dialect: Dialect | None
    errexit: bool = False
    pipefail: bool = False

    @property
    def facts(self) -> dict[str, bool]:
        return {"errexit": self.errexit, "pipefail": self.pipefail}


NOT_A_SHELL = Shell(None)


def shell_of(argv: tuple[str, ...] | list[str]) -> Shell:
    """The shell an argument vector starts: `["/bin/bash", "-eo", "pipefail", "-c"]`, `bash --noprofile -e {0}`.

    Options are read up to the first word that is none; `-o pipefail`, `-e`
    and clusters (`-euxo pipefail`) count.
    """
    if not argv:
        return NOT_A_SHELL
    known = SHELLS.get(PurePath(argv[0]).name)
    if known is None or not known.discovered:
        return NOT_A_SHELL
    errexit = pipefail = False
    words = iter(argv[1:])
    for word in words:
        if not word.startswith("-") or word.startswith("--"):
            if word.startswith("--"):
                continue  # --noprofile, --norc
            break
        if "o" in word:  # `-o pipefail`, `-eo pipefail`
            option = next(words, "")
            pipefail |= option == "pipefail"
            errexit |= option == "errexit"
        errexit |= "e" in word
    return Shell(known.dialect, errexit, pipefail)
