"""`.shellcheckrc`: its `disable=` codes turn off the pipelint rules that answer to them (`Rule.shellcheck_codes`).

A project that silenced SC2002 for ShellCheck in its rc file meant the
useless-cat finding, which PL001–PL004 also report: they stay quiet there too.
Only `disable=` counts (a ShellCheck check left off by default is no reason
to turn a pipelint rule off), and it reaches only the rules that answer to
the codes it names: `disable=all` turns off those rules, never the ones
ShellCheck has no code for. Turn the whole reading off with
`respect-shellcheckrc = false`.

The file is found as ShellCheck 0.11 finds it (its manual, "RC FILES", and
`getConfigPaths` in `shellcheck.hs`): `.shellcheckrc`, then `shellcheckrc`,
in the script's folder (its real path: links resolved, as ShellCheck's
`canonicalizePath`) and in each folder above it up to `/`; if none, then
`~/.shellcheckrc`, then `$XDG_CONFIG_HOME/shellcheckrc` (`~/.config/shellcheckrc`
when the variable is unset or not absolute). The first that exists is the
only one read, even if it disables nothing.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path


NAMES = (".shellcheckrc", "shellcheckrc")
# Larger than any rc file (they hold a few lines): what is past this is not read.
MAX_SIZE = 1 << 20


@functools.lru_cache(maxsize=4096)
def disabled_rules(folder: str) -> tuple[str, ...]:
    """The codes of the rules the rc file of scripts in folder (a real path) turns off, sorted."""
    found = find(folder)
    if found is None:
        return ()
    try:
        with open(found, "rb") as handle:
            text = handle.read(MAX_SIZE)
    except OSError:
        return ()  # ShellCheck says so and goes on with an empty file; pipelint's run is no place for its errors
    from pipelint.shell.directives import shellcheckrc_disabled

    codes = {code for element in shellcheckrc_disabled(text) for code in _rule_codes(element)}
    return tuple(sorted(codes))


def _rule_codes(element: str) -> list[str]:
    """`all` in an rc file reaches the rules that answer to some ShellCheck code, not every rule."""
    from pipelint.engine.suppression import token_codes  # only where an rc file exists: it imports the rules
    from pipelint.shell.directives import SHELLCHECK

    return token_codes("SC0-SC1000000" if element.lower() == "all" else element, SHELLCHECK)


def find(folder: str) -> Path | None:
    """The rc file ShellCheck reads for a script in folder (a real path), or None."""
    found = _in_folder_or_above(folder)
    if found is not None:
        return found
    for candidate in _user_files():
        if os.path.isfile(candidate):  # False, not an error, for a home the user cannot search
            return candidate
    return None


@functools.lru_cache(maxsize=4096)
def _in_folder_or_above(folder: str) -> Path | None:
    """The first rc file in folder or a folder above it: each folder is looked at once per run, its answer
    remembered for the folders below it (two names to stat per folder, not two per folder above each one)."""
    for name in NAMES:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate):
            return Path(candidate)
    parent = os.path.dirname(folder)
    return None if parent == folder else _in_folder_or_above(parent)


def _user_files() -> list[Path]:
    """`~/.shellcheckrc`, then the XDG one (Haskell's `getXdgDirectory XdgConfig`)."""
    home = Path(os.path.expanduser("~"))
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    config = Path(xdg) if os.path.isabs(xdg) else home / ".config"
    return [home / ".shellcheckrc", config / "shellcheckrc"]


def read_afresh() -> None:
    """Forget the rc files found and read: the language server asks before each lint (config.read_afresh)."""
    disabled_rules.cache_clear()
    _in_folder_or_above.cache_clear()
