"""The one reader of shell options: what `set`, `shopt`, a shell's command line and `#!` turn on or off.

A safe fix may depend on whether `errexit`, `nounset`, `pipefail`,
`lastpipe` or `posix` is in force. Every way a script's shell gets one is
read here, and nowhere else:

- `set -e`, `set -o errexit`, `set -euo pipefail`, `set +e`, `set -$flags`
  (unknown: it may turn on anything);
- `shopt -s lastpipe`, `shopt -so pipefail` (`-o`: the names of `set -o`);
- a shell's own command line: `bash -e -o pipefail -O lastpipe --posix -c
  '…'`, `sh -ec '…'`, a Dockerfile's `SHELL ["/bin/bash", "-eo",
  "pipefail", "-c"]`, a workflow's `shell: bash -e {0}`;
- the interpreter line: `#!/bin/bash -e`, `#!/usr/bin/env -S bash -eo pipefail`;
- the environment a shell starts with (`startup_environment`): bash turns on
  the `set -o` names of `SHELLOPTS` and the `shopt` names of `BASHOPTS`
  (`SHELLOPTS=errexit bash -c '…'`, an `export SHELLOPTS` before `bash -c`, a
  Dockerfile's `ENV SHELLOPTS=errexit`), and a bash that is not sh runs the
  file `BASH_ENV` names first, which may turn on anything.

Where options then are in force in a script (subshells, `set +e` later, a
function called elsewhere) is `facts.shell_options`'s question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# The single-letter options of `set` (and of a shell's command line), by their `set -o` names (bash(1) "set").
SHORT_OPTIONS = {
    "a": "allexport", "b": "notify", "e": "errexit", "f": "noglob", "h": "hashall", "k": "keyword",
    "m": "monitor", "n": "noexec", "p": "privileged", "t": "onecmd", "u": "nounset", "v": "verbose",
    "x": "xtrace", "B": "braceexpand", "C": "noclobber", "E": "errtrace", "H": "histexpand", "P": "physical",
    "T": "functrace",
}  # fmt: skip
# What a shell's long options on its command line turn on.
_LONG_OPTIONS = {"--posix": "posix"}
# A shell's own command-line options that take the next word (bash's `--rcfile FILE`).
_LONG_WITH_VALUE = frozenset({"--rcfile", "--init-file"})

ANY = "*"  # the name standing for "any option": a word that cannot be read may turn on any


@dataclass(frozen=True)
class OptionWords:
    """What some words do to the shell's options: those turned on, off, and whether some word is not known."""

    on: frozenset[str] = frozenset()
    off: frozenset[str] = frozenset()
    unknown: bool = False  # a computed word (`set $opts`): it may turn on anything

    def turns_on(self, name: str) -> bool:
        """Whether name is on after these words, as far as they are known."""
        return name in self.on or self.unknown


NONE = OptionWords()


def read_set_words(words: Sequence[bytes | None]) -> OptionWords:
    """`set -e`, `set -euo pipefail`, `set +o errexit`, `set -$flags` (unknown): the options turned on and off.

    words: the arguments of `set`, each its static value or None where computed.
    The first word that is no option (`set -- a b`, `set x`) ends them.
    """
    reader = _Reader(words)
    while reader.more():
        word = reader.next()
        if word is None:
            return reader.unknown()
        if word[:1] not in (b"-", b"+") or word in (b"--", b"-", b"+"):
            break
        if not reader.read_cluster(word, takes_o=True):
            return reader.unknown()
    return reader.result()


def read_shopt_words(words: Sequence[bytes | None]) -> OptionWords:
    """`shopt -s lastpipe`, `shopt -u lastpipe`, `shopt -so pipefail` (`-o`: a `set -o` name).

    `shopt` without -s or -u only prints: it turns nothing on or off.
    """
    flags = b""
    names: list[bytes | None] = []
    for word in words:
        if word is not None and word.startswith(b"-") and not names:
            flags += word[1:]
        else:
            names.append(word)
    if b"s" not in flags and b"u" not in flags:
        return NONE
    if any(name is None for name in names):
        return OptionWords(unknown=b"s" in flags)
    named = frozenset(name.decode("utf-8", "replace") for name in names if name is not None)
    return OptionWords(on=named) if b"s" in flags else OptionWords(off=named)


def read_shell_arguments(words: Sequence[bytes | None]) -> OptionWords:
    """The options a shell's own command line turns on: `bash -e -o pipefail -O lastpipe --posix -c '…'`.

    words: the shell's arguments after its name. Options end at the first
    operand (the script file, or the text `-c` runs) or at `--`; `-c` and `-s`
    are read as flags, so `bash -ec 'cmd'` and `sh -c -e 'cmd'` both turn on
    errexit. An option word that is computed (`bash $opts -c …`) makes the
    result unknown.
    """
    return read_shell_command_line(words).options


@dataclass(frozen=True)
class ShellCommandLine:
    """A shell's command line read: its options, and what it runs."""

    options: OptionWords
    operand: int | None  # index in words of the first operand: the script file, or the text `-c` runs
    runs_text: bool  # `-c`: the operand is the script's text, not a file
    reads_stdin: bool  # `-s`: the script comes on stdin (the operands are its arguments)

    @property
    def script_file(self) -> int | None:
        """The index of the script file the shell reads, if it reads one (`bash -e deploy.sh arg`)."""
        return None if self.runs_text or self.reads_stdin else self.operand


def read_shell_command_line(words: Sequence[bytes | None]) -> ShellCommandLine:
    """`bash -e -o pipefail deploy.sh arg`, `sh -c 'text' name`: read_shell_arguments, and where the operands start."""
    reader = _Reader(words)
    flags: set[str] = set()
    operand: int | None = None
    while reader.more():
        word = reader.next()
        if word is None:
            return ShellCommandLine(reader.unknown(), None, False, False)
        if word == b"--" or word == b"-":
            operand = reader.position if reader.more() else None
            break
        if word.startswith(b"--"):
            name = word.decode("utf-8", "replace")
            if name in _LONG_OPTIONS:
                reader.turn(_LONG_OPTIONS[name], True)
            elif name in _LONG_WITH_VALUE:
                reader.next()
            continue  # --noprofile, --norc, --login: no option of `set`
        if word[:1] not in (b"-", b"+"):
            operand = reader.position - 1
            break
        if word[:1] == b"-":
            flags.update(letter for letter in "cs" if letter in word.decode("latin-1"))
        if not reader.read_cluster(word, takes_o=True, takes_capital_o=True):
            return ShellCommandLine(reader.unknown(), None, "c" in flags, "s" in flags)
    return ShellCommandLine(reader.result(), operand, "c" in flags, "s" in flags or operand is None)


def shebang_options(line: bytes) -> OptionWords:
    """`#!/bin/bash -e`, `#!/usr/bin/env -S bash -eo pipefail`: what the interpreter line turns on.

    The kernel passes everything after the interpreter as one word, except
    through `env -S`, which splits it: both are read as the shell would read
    its command line, from the first word that starts with `-`.
    """
    words = line[2:].split() if line.startswith(b"#!") else []
    for index, word in enumerate(words):
        if index > 0 and word.startswith((b"-", b"+")) and word != b"-S":
            return read_shell_arguments(words[index:])
    return NONE


def shellopts_value(value: bytes | None) -> OptionWords:
    """`SHELLOPTS=errexit:pipefail`, `BASHOPTS=lastpipe`: the names bash turns on when it starts with it in the environment."""
    if value is None:
        return OptionWords(unknown=True)
    return OptionWords(on=frozenset(name.decode("utf-8", "replace") for name in value.split(b":") if name))


# What a shell reads from its environment before its first line (bash(1), "Shell Variables", "INVOCATION"):
# bash, also as sh or with --posix, turns on what SHELLOPTS and BASHOPTS list; bash not run as sh (nor
# with --posix) runs the file BASH_ENV names. ENV is read by interactive shells only (dash, busybox sh,
# ksh93, mksh, bash as sh): a script never meets it. ksh93, mksh and dash ignore all three.
SHELLOPTS, BASHOPTS, BASH_ENV = b"SHELLOPTS", b"BASHOPTS", b"BASH_ENV"
STARTUP_VARIABLES = frozenset({SHELLOPTS, BASHOPTS, BASH_ENV})

# (name, value or None where not known): the startup variables in a shell's environment.
Environment = tuple[tuple[bytes, "bytes | None"], ...]


@dataclass(frozen=True)
class Startup:
    """What a shell starts with, from its environment: the options turned on, and whether it first runs a file."""

    options: OptionWords = NONE
    runs_file: bool = False  # BASH_ENV: code pipelint cannot read runs before the first line


def startup_environment(environment: Environment, bash_reads_files: bool) -> Startup:
    """What SHELLOPTS, BASHOPTS and BASH_ENV in a shell's environment do to it.

    bash_reads_files: the shell may be bash run as bash (not as sh), which is
    the one that runs BASH_ENV. A `sh` script may meet bash as sh, which still
    reads SHELLOPTS and BASHOPTS: they count for every dialect.
    """
    on: set[str] = set()
    unknown = False
    runs_file = False
    for name, value in environment:
        if name in (SHELLOPTS, BASHOPTS):
            read = shellopts_value(value)
            on |= read.on
            unknown |= read.unknown
        elif name == BASH_ENV and bash_reads_files and value != b"":
            runs_file = True
    return Startup(OptionWords(frozenset(on), unknown=unknown), runs_file)


class _Reader:
    """Words read one by one, with what they turned on and off so far."""

    def __init__(self, words: Sequence[bytes | None]) -> None:
        self._words = words
        self._index = 0
        self.on: set[str] = set()
        self.off: set[str] = set()

    def more(self) -> bool:
        return self._index < len(self._words)

    @property
    def position(self) -> int:
        """The index of the next word."""
        return self._index

    def next(self) -> bytes | None:
        word = self._words[self._index] if self.more() else b""
        self._index += 1
        return word

    def read_cluster(self, word: bytes, *, takes_o: bool, takes_capital_o: bool = False) -> bool:
        """`-euo pipefail`, `+e`, `-O lastpipe`: letters, and the names `o`/`O` take from the next words.

        False when a name `o` or `O` takes is computed.
        """
        turn_on = word[:1] == b"-"
        for letter in word[1:].decode("latin-1"):
            if letter in SHORT_OPTIONS:
                self.turn(SHORT_OPTIONS[letter], turn_on)
            elif (letter == "o" and takes_o) or (letter == "O" and takes_capital_o):
                if not self.more():
                    continue  # `set -o` alone prints the options
                name = self.next()
                if name is None:
                    return False
                self.turn(name.decode("utf-8", "replace"), turn_on)
        return True

    def turn(self, name: str, on: bool) -> None:
        """The later word wins: `set -e +e` leaves errexit off."""
        (self.on if on else self.off).add(name)
        (self.off if on else self.on).discard(name)

    def unknown(self) -> OptionWords:
        return OptionWords(frozenset(self.on), frozenset(self.off), unknown=True)

    def result(self) -> OptionWords:
        return OptionWords(frozenset(self.on), frozenset(self.off))
