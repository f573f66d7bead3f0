"""What a terminal gets: colour (`--color`, `NO_COLOR`, `FORCE_COLOR`) and a pager for long text.

Colour is decided here, once per stream, as ruff decides it (measured with
ruff 0.17.6 on a pty and on a pipe): `--color always|never` wins over the
environment; with `auto` (the default), a non-empty `NO_COLOR` turns colour
off (no-color.org), then a non-empty `FORCE_COLOR` turns it on even on a pipe
(force-color.org: any value, "0" too), and otherwise colour goes to a
terminal only. Both variables set: no colour. The output modules take the
answer as a plain bool (`RenderOptions.color`); rich and click are not left
to read the environment themselves, so every stream pipelint writes agrees.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

COLOR_CHOICES = ("auto", "always", "never")


def wants_colour(choice: str, stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether text written to stream gets colour, for `--color CHOICE`."""
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR", ""):
        return False
    if environ.get("FORCE_COLOR", ""):
        return True
    return is_terminal(stream)


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


# `less` as git runs it: quit when the text fits one screen, pass colour through, leave the screen as it was.
DEFAULT_PAGER = "less"
DEFAULT_LESS = "FRX"


def page(text: str, stream: TextIO, height: int, environ: Mapping[str, str] = os.environ) -> bool:
    """Show text through `$PAGER` (default `less -FRX`) when it is longer than the terminal; False if not paged.

    Only for a terminal: on a pipe or in a file the text is the caller's to
    print. `PAGER=cat` or an empty `PAGER` turns paging off; a pager that
    cannot be started is no error: the caller prints the text instead.
    """
    if not is_terminal(stream) or text.count("\n") < height:
        return False
    import shlex
    import shutil
    import subprocess

    command = shlex.split(environ.get("PAGER", DEFAULT_PAGER) or "cat")
    if not command or os.path.basename(command[0]) == "cat" or shutil.which(command[0]) is None:
        return False
    env = dict(environ)
    env.setdefault("LESS", DEFAULT_LESS)
    try:
        subprocess.run(command, input=text.encode("utf-8", "surrogateescape"), env=env, check=False)
    except OSError:
        return False
    return True
