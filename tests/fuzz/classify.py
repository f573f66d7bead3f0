"""Which class of issue 13 a failing case belongs to, read from its text and what differed.

A heuristic, ordered from the most specific shape to the most general: the
first test that matches names the class. It reads the original script (its
shape), the rules whose fixes were applied, and the differences (which
aspect, with the inputs present or taken away). Class 0 is a failure that
fits none of the sixteen: a new kind of bug to look at by hand.
"""

from __future__ import annotations

import re
from collections import Counter

CLASSES = {
    0: "not in issue 13",
    1: "here-document whose pipe continues on the next line",
    2: "redirect order",
    3: "the consumer now runs in the current shell",
    4: "functions and aliases",
    5: "several readers of one stdin",
    6: "side effects of the removed stage",
    7: "dd",
    8: "grep | wc -l → grep -c",
    9: "CRLF scripts",
    10: "missing, unreadable or directory inputs",
    11: "here-documents tree-sitter ends too early",
    12: "expansions in the consumer that read stdin",
    13: "operands that mean stdin or an option",
    14: "keywords and prefixes",
    15: "devices with record sizes",
    16: "a removed stage changes when the producer dies",
    17: "a consumer that reads a regular file otherwise than a pipe (issue 25)",
}

_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_SOURCES = re.compile(rb"^[ \t]*(?:source|\.)[ \t]", re.MULTILINE)


def _rewritten(source: bytes, fixed: bytes) -> list[bytes]:
    """The words the fix took out of the script (`cat`, `uniq`, `wc`): those the fixed text holds fewer of.

    Read from the two texts, not from a table of rules: whatever a fix removes is what it relied on.
    """
    before, after = Counter(_WORD.findall(source)), Counter(_WORD.findall(fixed))
    return sorted(word for word, count in before.items() if after[word] < count)


def _redefines(source: bytes, fixed: bytes) -> bool:
    """The script defines a command the fix removed (function, alias): class 4. Sourcing a file that could
    is checked later: weaker evidence."""
    names = b"|".join(re.escape(word) for word in _rewritten(source, fixed))
    if not names:
        return False
    defined = rb"^[ \t]*(?:function[ \t]+(?:NAMES)\b|(?:NAMES)[ \t]*\(\)|alias[ \t]+(?:NAMES)=)".replace(b"NAMES", names)
    return bool(re.search(defined, source, re.MULTILINE))


# A delimiter-like line that bash does not take as the end of the body.
_FAKE_END = re.compile(rb"^(?:[ \t]*EOF[ ;X\t]+|[ \t]* [ \t]*EOF|\t+EOF)\r?$", re.MULTILINE)
_PIPE_NEXT_LINE = re.compile(rb"<<-?[^\n]*\|[ \t]*\r?$", re.MULTILINE)
_EXPANSION_READS_STDIN = re.compile(rb"\|[^|\n]*\$\((?:head|cat|wc|read)\b")
_STDIN_OR_OPTION = re.compile(rb'"?\$(?:file|x)\b|\\-(?:\s|$)|if=\\-')
_SEVERAL_READERS = re.compile(rb"[{(] ?(?:head|read)\b[^;|]*; ?(?:wc|cat|head|read)\b")
# Builtins and compound commands that change the shell they run in.
_STATEFUL = (
    rb"read|command|builtin|eval|mapfile|readarray|cd|exit|\\exit|return|break|continue|export|declare|"
    rb"shopt|set|trap|umask|:|fn|while|if|\{|\(|\[\[|\(\("
)
_PIPED_STATEFUL = re.compile(rb"(?<!\|)\|[ \t]*(" + _STATEFUL + rb")[ \t;]")
_PIPED_TIME = re.compile(rb"(?<!\|)\|[ \t]*(time)\b")
# Operands that name no readable file: missing, a folder, "$*" with no arguments, a quoted ~.
_NOT_A_FILE = re.compile(rb'missing\.txt|[ =]src(?:[ |;)]|$)|"\$\*"|"~/', re.MULTILINE)
# Rules whose fix changes how the operand is read (a redirect, grep -c, sort -u).
_READING_RULES = {"PL001", "PL004", "PL203", "PL501", "PL502"}
_REDIRECTING_RULES = {"PL001", "PL002", "PL004", "PL203"}  # the consumer gets `< FILE` or `<<EOF`
# A consumer the program table says reads a file otherwise than a pipe, now given one by `<` (issue 25).
_FILE_CONSUMER_FED = re.compile(rb"\b(?:gzip|pigz|lz4|pv|dd|tail|sort|sh -c|\{)[^|\n]*<[ \t]*[^<&(]")


def _names_no_file(source: bytes) -> bool:
    """An operand that is missing or a folder (bin.dat exists only where the script writes it)."""
    return bool(_NOT_A_FILE.search(source)) or (b"bin.dat" in source and b"> bin.dat" not in source)


def _heredoc_class(source: bytes) -> int | None:
    if not re.search(rb"<<-?[^<]", source):
        return None
    if _FAKE_END.search(source):
        return 11
    return 1


def _lost_its_pipe(source: bytes, fixed: bytes, piped: re.Pattern) -> bool:
    """A command that stood behind a `|` no longer does: it now starts a pipeline."""
    before = Counter(match.group(1) for match in piped.finditer(source))
    after = Counter(match.group(1) for match in piped.finditer(fixed))
    return any(after[word] < count for word, count in before.items())


def _removed_stage_class(source: bytes, rules: set[str], aspects: set[str]) -> int | None:
    """Class 16 or 6: what the removed `tee`/`cat`/`uniq` stage did besides copying."""
    if not rules & {"PL101", "PL003", "PL502"}:
        return None
    if b"sleep" in source:
        return 16
    if re.search(rb"tee[^|\n]*2>", source) or b"pipefail" in source:
        return 6
    last_stage = rb"\|[ \t]*(?:cat|uniq|tee[^|\n]*)[ \t]*(?:>[^|\n]*)?[ \t]*(?:[;)&|]|$)"
    if aspects & {"status", "stdout", "state", "files"} and re.search(last_stage, source, re.M):
        return 6  # a removed last stage: its exit status and its `> out` were the pipeline's
    return None


def _shape_class(source: bytes, fixed: bytes, rules: set[str], aspects: set[str], only_taken_away: bool) -> int:
    """The class of a failure that is not about here-documents or CRLF."""
    if _redefines(source, fixed):
        return 4
    if rules & _REDIRECTING_RULES and _FILE_CONSUMER_FED.search(fixed):
        return 17
    if rules & {"PL201", "PL203"}:
        return 7
    if only_taken_away or (rules & _READING_RULES and _names_no_file(source)):
        return 10
    if "PL501" in rules:
        return 8
    if _lost_its_pipe(source, fixed, _PIPED_TIME):
        return 14
    if rules & _REDIRECTING_RULES:
        if _EXPANSION_READS_STDIN.search(source):
            return 12
        if _STDIN_OR_OPTION.search(source):
            return 13
        if _SEVERAL_READERS.search(source):
            return 5
    if "PL003" in rules and b"2>&1" in source and aspects & {"stderr", "files"}:
        return 2
    if _SOURCES.search(source):
        return 4
    if b"PIPESTATUS" in source:
        return 6  # a removed stage's exit status was observed, as pipefail would
    if _lost_its_pipe(source, fixed, _PIPED_STATEFUL):
        return 3
    return _removed_stage_class(source, rules, aspects) or 0


def classify(source: bytes, fixed: bytes, rules: set[str], differences: set[tuple[str, str]], shows_cr: bool = False) -> int:
    """differences: (aspect, inputs) pairs that differed, e.g. ("stdout", "inputs present").

    shows_cr: a `\r` appears in what differed (a CRLF script's last word).
    """
    aspects = {aspect for aspect, _ in differences}
    structural = aspects & {"parse", "here-document"}
    heredoc = _heredoc_class(source)
    if heredoc and (structural or _PIPE_NEXT_LINE.search(source) or heredoc == 11):
        return heredoc
    if b"\r\n" in source and shows_cr:
        return 9
    only_taken_away = all(inputs != "inputs present" for _, inputs in differences)
    return _shape_class(source, fixed, rules, aspects, only_taken_away)
