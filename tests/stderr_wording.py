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
    name = _unquoted(match.group("file"))
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
# `tar: -: Cannot read: …`, `gzip: stdin: …`, `xz: (stdin): Read error: …`.
_STDIN_NAME = rb"(?:'standard input'|\(standard input\)|standard input|stdin|\(stdin\)|-|0): "
_STDIN_ERROR = re.compile(
    rb"^\n?[^:\n]+: (?:line \d+: |\d+: )?(?:read: )?"  # gzip starts its message with a blank line
    rb"(?:(?:read failed: |read error: |error reading )(?:" + _STDIN_NAME + rb")?|" + _STDIN_NAME + rb")"
    rb"(?:Cannot read: |Read error: )?(?P<reason>Is a directory|No such file or directory)$",
    re.MULTILINE,
)
# uniq loses errno on a read error and names no reason: `uniq: error reading '-'`.
# Its standard input is the input taken away, and uniq only ever reads it as a directory.
_REASONLESS_STDIN_ERROR = re.compile(rb"^[^:\n]+: error reading (?:'-'|'standard input')$", re.MULTILINE)


_SOME_INPUT = b"<an input taken away>"

# coreutils quotes a file name for the shell: `'my file'`, `"it's"`, `'a b'\''c'`,
# and a control character as `$'\r'`: `cat: 'words.txt'$'\r': …` where bash writes
# the byte itself (a CRLF script: fuzz seed 2417, scripts 12326 and 15949).
_QUOTED_PART = re.compile(rb"'(?P<single>[^']*)'|\$'(?P<ansi>(?:\\.|[^'\\])*)'|\"(?P<double>[^\"]*)\"|\\(?P<escaped>.)")
_ANSI_ESCAPE = re.compile(rb"\\(?:(?P<octal>[0-7]{1,3})|(?P<char>.))")
_ANSI_CHARS = {b"a": b"\a", b"b": b"\b", b"e": b"\x1b", b"f": b"\f", b"n": b"\n", b"r": b"\r", b"t": b"\t", b"v": b"\v"}


def _unquoted(name: bytes) -> bytes:
    """The bytes a name quoted as coreutils quotes it stands for; any other name as it is."""
    parts = list(_QUOTED_PART.finditer(name))
    if not parts or b"".join(part.group(0) for part in parts) != name:
        return name
    return b"".join(_unquoted_part(part) for part in parts)


def _unquoted_part(part: re.Match) -> bytes:
    if part.group("ansi") is None:
        return part.group("single") or part.group("double") or part.group("escaped") or b""
    return _ANSI_ESCAPE.sub(_ansi_character, part.group("ansi"))


def _ansi_character(escape: re.Match) -> bytes:
    if escape.group("octal"):
        return bytes([int(escape.group("octal"), 8) & 0xFF])
    return _ANSI_CHARS.get(escape.group("char"), escape.group("char"))


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
