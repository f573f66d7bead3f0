"""PL900 unused-directive: a `# pipelint: disable=` comment, or a code in it, that disables nothing.

As ruff's RUF100 (unused-noqa): the engine decides, once every finding was
looked up, which codes of which directive silenced nothing (`engine.suppression
.unused`: unknown, named twice, a rule that did not run, a rule that found
nothing there); this module words the report and builds the edit that takes
the idle codes, or the whole comment, away. `# shellcheck disable=` comments
are ShellCheck's and are never reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipelint.finding import Applicability, Edit, Finding, FixAvailability, Severity
from pipelint.rule import Rule
from pipelint.shell.directives import (
    DUPLICATE,
    Directive,
    NOT_ENABLED,
    PIPELINT,
    PIPELINT_DIRECTIVE,
    SHELLCHECK_ANNOTATION,
    UNKNOWN,
    UNUSED,
    Token,
    UnusedCodes,
    logical_line_start,
)

# The order reasons are listed in, as ruff lists its own.
REASONS = (UNUSED, UNKNOWN, NOT_ENABLED, DUPLICATE)
# Reasons for which the code may still matter elsewhere: a newer pipelint's rule, a rule another configuration runs.
ELSEWHERE = frozenset({UNKNOWN, NOT_ENABLED})


class UnusedDirectiveRule(Rule):
    code = "PL900"
    name = "unused-directive"
    severity = Severity.INFO
    # Opt-in (`--extend-select PL900`): the default set is the rules whose cost grows with the data.
    # ruff 0.17.6 runs its RUF100 by default (measured: `ruff check --isolated`).
    enabled_by_default = False
    fix_availability = FixAvailability.SOMETIMES

    def check_directive(self, unused: UnusedCodes, source: bytes) -> Iterator[Finding]:
        directive = unused.directive
        comment, at = directive.comment, directive.at
        match = PIPELINT_DIRECTIVE.search(comment)
        if at is None or match is None:
            return
        written = [token for token in directive.tokens if token.tool == PIPELINT]
        idle = [token for token, _ in unused.idle]
        message = f"`{_shown(comment[match.start() : match.end()])}` disables nothing here ({_reasons(unused)})"
        start, end = at + match.start(), at + match.end()
        if len(idle) == len(written):
            edit = _without_directive(source, directive, match.start(), match.end())
            title = "Remove the directive" if edit is not None else None
        else:
            edit = _without_tokens(comment, at, match.start(1), match.end(1), written, idle)
            title = f"Remove {', '.join(f'`{token.text}`' for token in idle)} from the directive"
        if edit is None or title is None:
            yield self.finding(message, start, end, help="Remove the directive by hand: its comment holds more")
            return
        elsewhere = sorted({reason for _, reason in unused.idle} & ELSEWHERE)
        safety = Applicability.UNSAFE if elsewhere else Applicability.SAFE
        why = None
        if elsewhere:
            why = (
                "The fix is unsafe: a code no rule has may be a newer pipelint's, and a rule that did not run "
                "here may run under another configuration (`--extend-select`)."
            )
        yield self.finding(message, start, end, self.fix(title, safety, edit), why)


def _shown(text: bytes) -> str:
    return text.decode("utf-8", "replace")


def _reasons(unused: UnusedCodes) -> str:
    """`unused: PL001; unknown: PL0001` (a code no rule has), reasons in REASONS order."""
    parts = []
    for reason in REASONS:
        named = [f"`{token.text}`" for token, why in unused.idle if why == reason]
        if named:
            parts.append(f"{reason}: {', '.join(named)}")
    return "; ".join(parts)


def _without_tokens(comment: bytes, at: int, start: int, end: int, written: list[Token], idle: list[Token]) -> Edit:
    """The list of codes rewritten without the idle ones, written with the separator it had."""
    listed = comment[start:end]
    separator = b", " if b", " in listed else b","
    kept = [token.text.encode() for token in written if token not in idle]
    return Edit(at + start, at + end, separator.join(kept))


def _without_directive(source: bytes, directive: Directive, start: int, end: int) -> Edit | None:
    """The edit that takes a whole `# pipelint: disable=…` directive away, with its reason.

    The comment goes when it holds nothing else: its whole line when it is
    alone there, else from the code before it (the blanks between go too,
    but not across a line break: a `\\` continuing into the line stays
    harmless). A ShellCheck annotation after the directive (`# pipelint:
    disable=PL001 # shellcheck disable=SC2086`) stays; other text before it: no edit.
    A directive that is a line of a host file goes with its whole line.
    """
    comment, at = directive.comment, directive.at
    assert at is not None
    if start > 0:
        return None
    following = comment.find(b"#", end)
    if following != -1 and SHELLCHECK_ANNOTATION.match(comment, following):
        return Edit(at, at + following, b"")
    if SHELLCHECK_ANNOTATION.search(comment):
        return None
    comment_end = at + len(comment)
    if source[comment_end : comment_end + 1] == b"\r":
        comment_end += 1  # left behind, a CRLF line's `\r` would join the last word (`cmd\r`)
    line_start = source.rfind(b"\n", 0, at) + 1
    before = source[line_start:at]
    if before.strip(b" \t"):
        code_end = line_start + len(before.rstrip(b" \t"))
        return Edit(code_end, comment_end, b"")
    if logical_line_start(source, at) < line_start and not directive.host_line:
        return Edit(line_start, comment_end, b"")  # a `\` continues into the line: its break stays
    newline = source.find(b"\n", comment_end)
    return Edit(line_start, len(source) if newline == -1 else newline + 1, b"")
