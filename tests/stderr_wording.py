"""Which differences on stderr are only wording, as issue 13's contract allows.

"An error message about the same file may be worded differently": `cat: f:
No such file or directory` and bash's `script: line 3: f: No such file or
directory` say the same. Timings differ on every run. And the stages of a
pipeline write at once, so their lines come in no fixed order. Everything
else on stderr is compared byte for byte.
"""

from __future__ import annotations

import re

# An error about a file, as cat, dd, grep, sort, bash or dash word it:
#   cat: 'my file': No such file or directory / script: line 2: my file: No such file or directory
#   script: 2: cannot open my file: No such file / dd: failed to open 'x': No such file or directory
#   script: line 8: cd: src: No such file or directory (a builtin names itself; bash numbers the line of a
#   `$(…)` holding a here-document differently as the here-document moves: fuzz seed 2417, script 8499)
_FILE_ERROR = re.compile(
    rb"^(?:[^:\n]+: )?(?:line \d+: |\d+: )?(?:(?:cd|pushd|source|\.|exec): )?"
    rb"(?:cannot open |failed to open |error reading |cannot read: )?"
    rb"(?P<file>'[^'\n]*'|[^:\n]*?): (?P<reason>No such file or directory|No such file|Is a directory|Not a directory|Permission denied)$",
    re.MULTILINE,
)
# Times differ from one run to the next: bash's `time`, /usr/bin/time, dd's statistics.
_TIMINGS = (
    (re.compile(rb"^(real|user|sys)[ \t]+\d+m\d+[.,]\d+s$", re.MULTILINE), rb"\1 <time>"),
    (re.compile(rb"^\d+[.,]\d+user \d+[.,]\d+system .*$", re.MULTILINE), rb"<time report>"),
    (re.compile(rb"^\d+inputs\+\d+outputs .*$", re.MULTILINE), rb"<time report>"),
    (re.compile(rb"^(\d+ bytes .*copied), [\d.,e+-]+ s, .*$", re.MULTILINE), rb"\1, <time>"),
)


def _file_error(match: re.Match, folder: bytes, taken_away: tuple[bytes, ...]) -> bytes:
    name = match.group("file")
    if name.startswith(b"'") and name.endswith(b"'"):
        name = name[1:-1]
    # `cat: ./f: Is a directory` (find hands `./f` on), `cat: /…/run/f: …` (`"$HOME/f"`, HOME
    # being the folder it runs in) and `wc: 'standard input'` (read as f): the same file.
    name = name.removeprefix(folder + b"/") if folder else name
    name = name.removeprefix(b"./")
    reason = b"No such file or directory" if match.group("reason") == b"No such file" else match.group("reason")
    if len(taken_away) > 1 and name in taken_away:
        name = _SOME_INPUT  # which of them the consumer reads as its stdin, the message does not say
    return name + b": " + reason


# With an input taken away, the consumer that now reads it through `< FILE`
# names it as its standard input: `wc: 'standard input': Is a directory`,
# `sort: read failed: -: …`, `tr: read error: …`, bash's `read: read error: 0: …`,
# `tar: -: Cannot read: …`.
_STDIN_NAME = rb"(?:'standard input'|\(standard input\)|standard input|-|0): "
_STDIN_ERROR = re.compile(
    rb"^[^:\n]+: (?:line \d+: |\d+: )?(?:read: )?"
    rb"(?:(?:read failed: |read error: |error reading )(?:" + _STDIN_NAME + rb")?|" + _STDIN_NAME + rb")"
    rb"(?:Cannot read: )?(?P<reason>Is a directory|No such file or directory)$",
    re.MULTILINE,
)
# uniq loses errno on a read error and names no reason: `uniq: error reading '-'`.
# Its standard input is the input taken away, and uniq only ever reads it as a directory.
_REASONLESS_STDIN_ERROR = re.compile(rb"^[^:\n]+: error reading (?:'-'|'standard input')$", re.MULTILINE)


_SOME_INPUT = b"<an input taken away>"


def normalise_stderr(stderr: bytes, stdin_is: str | tuple[str, ...] | None = None, folder: bytes = b"") -> bytes:
    """Stderr with each file error reduced to `FILE: reason`, timings blanked, lines sorted.

    Sorted, because stages of a pipeline run at once and their messages come
    in no fixed order. stdin_is: the input taken away; an error about
    standard input is about it. When several are away (one taken, one never
    there), an error about standard input is about one of them: errors
    about any of them then read the same. folder: where the script ran (its HOME), so
    that `/…/run/f` and `f` name the same file.
    """
    names = tuple(name.encode() for name in ((stdin_is,) if isinstance(stdin_is, str) else stdin_is or ()))
    if names:
        stdin = names[0] if len(names) == 1 else _SOME_INPUT
        stderr = _STDIN_ERROR.sub(lambda m: stdin + b": " + m.group("reason"), stderr)
        stderr = _REASONLESS_STDIN_ERROR.sub(stdin + b": Is a directory", stderr)
    stderr = _FILE_ERROR.sub(lambda match: _file_error(match, folder, names), stderr)
    for pattern, replacement in _TIMINGS:
        stderr = pattern.sub(replacement, stderr)
    return b"".join(sorted(re.findall(rb"[^\n]*\n|[^\n]+$", stderr)))
