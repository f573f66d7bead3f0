"""Dockerfiles: the shell each `RUN` instruction runs.

Instruction boundaries, flags, the exec (JSON) form and here-documents come
from `dockerfile`, BuildKit's own Go parser as a Python package (see
docs/hosts.md for why not `dockerfile-parse`). The parser gives lines and
values, not offsets, so this module reads the instruction's lines itself and
proves its reading against the parser: the shell text it builds must equal the
parser's value, or the RUN is linted without positions inside it and without
fixes.

What the shell runs, as BuildKit builds it:
- shell form: the instruction's lines joined, each escape character at a line
  end dropped with its line break, comment lines and blank lines inside the
  continuation dropped. The region's text is exactly that joined line, so a
  `# comment \\` inside a RUN swallows the rest as it does under `sh -c`; each
  physical line's text is a piece (`Quoting.LINE`), the joins map nowhere.
- `RUN <<EOF` alone: the here-document's body is the script (its `#!` line,
  if any, names the interpreter). `RUN <<EOF bash`, `RUN cat <<EOF | wc`: the
  command line with the bodies and terminators after it, as one sh script.
- `RUN ["sh", "-c", "SCRIPT"]`: SCRIPT, mapped back only when its JSON string
  holds no escape.
- `SHELL ["/bin/bash", "-eo", "pipefail", "-c"]` sets the dialect and the
  errexit/pipefail facts of the RUNs after it in its stage; a stage built
  `FROM` an earlier one inherits that one's shell; others start at `/bin/sh -c`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

import dockerfile as buildkit

from pipelint.finding import ParseFailure
from pipelint.shell.dialect import SHELLS, Dialect, shebang_shell
from pipelint.embedded.hosts.kind import HostScan
from pipelint.embedded.hosts.shells import HostShell, script_argument, shell_of
from pipelint.shell.options import Environment
from pipelint.shell.positions import LineIndex
from pipelint.embedded.regions import Part, Quoting, Region
from pipelint.shell.directives import Directive, tokens

DEFAULT_SHELL = HostShell(Dialect.SH)  # `/bin/sh -c`


# Parser directives lead the file: `# escape=\``; the first other line ends them.
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*([A-Za-z][A-Za-z0-9]*)[ \t]*=[ \t]*(\S+)[ \t]*$")


def escape_character(lines: LineIndex) -> bytes:
    for number in range(len(lines.line_starts)):
        match = _DIRECTIVE.match(lines.line_bytes(number).rstrip(b"\r\n"))
        if match is None:
            break
        if match.group(1).lower() == b"escape" and match.group(2) in (b"\\", b"`"):
            return match.group(2)
    return b"\\"


@dataclass
class _Logical:
    """An instruction's logical line: the text of its physical lines, joined as the parser joins them."""

    parts: list[tuple[bytes, int]]  # (text, host offset), in order
    last_line: int  # the physical line (0-based) the logical line ends on

    @property
    def text(self) -> bytes:
        return b"".join(text for text, _ in self.parts)

    def slice(self, start: int, end: int, quoting: Quoting = Quoting.LINE) -> list[Part]:
        """The parts of text[start:end], each a piece of the host."""
        found: list[Part] = []
        cursor = 0
        for text, outer in self.parts:
            low, high = max(start, cursor), min(end, cursor + len(text))
            if low < high:
                found.append((text[low - cursor : high - cursor], outer + low - cursor, quoting))
            cursor += len(text)
        return found


def logical_line(lines: LineIndex, first: int, last: int, escape: bytes) -> _Logical:
    """Lines first..last (0-based) up to where the instruction's continuation ends."""
    parts: list[tuple[bytes, int]] = []
    number = first
    while number <= last:
        content = lines.line_bytes(number).rstrip(b"\r\n")
        start = lines.line_starts[number]
        if number > first and (not content.strip() or content.lstrip().startswith(b"#")):
            number += 1
            continue  # BuildKit drops blank and comment lines inside a continuation
        stripped = content.rstrip(b" \t")
        if not stripped.endswith(escape):
            parts.append((content, start))
            return _Logical(parts, number)
        parts.append((stripped[: -len(escape)], start))
        number += 1
    return _Logical(parts, last)


_KEYWORDS = re.compile(rb"[ \t]*(?:ONBUILD[ \t]+)?RUN(?:[ \t]+|\Z)", re.IGNORECASE)


def _command_start(logical: _Logical, flags: tuple[str, ...]) -> int | None:
    """Where the command begins after `RUN` and its `--flags`; None if the text does not read as the parser said."""
    text = logical.text
    match = _KEYWORDS.match(text)
    if match is None:
        return None
    cursor = match.end()
    for flag in flags:
        encoded = flag.encode()
        if not text.startswith(encoded, cursor):
            return None
        cursor += len(encoded)
        cursor += len(text[cursor:]) - len(text[cursor:].lstrip(b" \t"))
    return cursor


def _trimmed(text: bytes, start: int) -> tuple[int, int]:
    """The span of text[start:] without the blanks around it (the parser trims them)."""
    end = len(text.rstrip(b" \t"))
    while start < end and text[start] in b" \t":
        start += 1
    return start, end


_DELIMITER = rb"<<-?[\"']?[A-Za-z0-9_.-]+[\"']?"
_OPTIONS = rb"((?:[ \t]+-[A-Za-z]+)*)"
# `<<EOF` alone, `<<EOF bash -e`, `bash -e <<EOF`: one here-document that a shell (or the SHELL) runs as its script.
_BODY_RUNNERS = (
    re.compile(_DELIMITER + rb"\Z"),
    re.compile(_DELIMITER + rb"[ \t]+([\w./-]+)" + _OPTIONS + rb"\Z"),
    re.compile(rb"([\w./-]+)" + _OPTIONS + rb"[ \t]+" + _DELIMITER + rb"\Z"),
)


def _body_runner(command_text: bytes, shell: HostShell) -> HostShell | None:
    """The shell that runs the one here-document's body as its script, or None if the body is data."""
    for pattern in _BODY_RUNNERS:
        match = pattern.match(command_text)
        if match is None:
            continue
        if not match.groups():
            return shell  # BuildKit runs a lone here-document with the SHELL
        program, options = match.group(1).decode(), match.group(2).decode().split()
        if any("c" in option for option in options):
            return None
        named = shell_of([program, *options])
        return named if named.dialect is not None else None
    return None


def _run_region(command, lines: LineIndex, escape: bytes, shell: HostShell) -> Region | None:
    """The script one RUN runs, or None (exec form of a non-shell, an unknown SHELL)."""
    first, last = command.start_line - 1, command.end_line - 1
    logical = logical_line(lines, first, last, escape)
    anchor = lines.line_starts[first]
    if command.json:
        return _exec_form_region(command, logical, anchor, shell.environment)
    if shell.dialect is None:
        return None
    origin = "a Dockerfile RUN"
    facts = {**shell.facts, "anchor": anchor}
    value = command.value[0].encode() if command.value else b""
    start = _command_start(logical, command.flags)
    text = logical.text
    span = _trimmed(text, start) if start is not None else None
    if span is None or text[span[0] : span[1]] != value:
        return Region(value, (), shell.dialect, origin, **facts)  # read, but nowhere to point or write
    parts = logical.slice(*span)
    if command.heredocs:
        return _heredoc_region(command, lines, logical, parts, shell, facts)
    return Region.from_parts(parts, shell.dialect, origin, **facts)


def _heredoc_region(
    command, lines: LineIndex, logical: _Logical, parts: list[Part], shell: HostShell, facts: dict
) -> Region | None:
    following = logical.last_line + 1
    body_start = lines.line_starts[following] if following < len(lines.line_starts) else len(lines.source)
    end_line = command.end_line - 1
    bodies = lines.source[body_start : lines.line_starts[end_line] + len(lines.line_bytes(end_line))]
    runner = _body_runner(b"".join(part[0] for part in parts), shell) if len(command.heredocs) == 1 else None
    if runner is None:
        # The command line and the bodies after it: one script for the SHELL, the bodies its data.
        text_parts = [*parts, (b"\n", None, Quoting.RAW), (bodies, body_start, Quoting.RAW)]
        return Region.from_parts(text_parts, shell.dialect, "a Dockerfile RUN", **facts)  # type: ignore[arg-type]
    content = command.heredocs[0].content.encode()
    origin = "a Dockerfile RUN here-document"
    # `RUN <<EOF bash`, `RUN bash <<EOF`: bash reads the body from its stdin; a lone `RUN <<EOF` runs it as `-c`.
    on_stdin = _BODY_RUNNERS[0].match(b"".join(part[0] for part in parts)) is None
    facts = {**facts, **runner.facts, "environment": facts.get("environment", ()), "script_on_stdin": on_stdin}
    if not bodies.startswith(content):
        return Region(content, (), runner.dialect, origin, **facts)  # type: ignore[arg-type]
    dialect = runner.dialect
    if content.startswith(b"#!"):  # the body names its own interpreter
        named = SHELLS.get(shebang_shell(content) or "")
        if named is None or not named.discovered:
            return None
        dialect = named.dialect
    return Region.from_parts([(content, body_start, Quoting.RAW)], dialect, origin, **facts)  # type: ignore[arg-type]


def _exec_form_region(command, logical: _Logical, anchor: int, environment: Environment = ()) -> Region | None:
    """`RUN ["sh", "-c", "SCRIPT"]`: SCRIPT, mapped back where its JSON string holds no escape."""
    argv = tuple(command.value)
    found = script_argument(argv)
    if found is None:
        return None
    shell, script_at = found
    assert shell.dialect is not None
    script = argv[script_at].encode()
    facts = {**shell.facts, "anchor": anchor, "environment": environment}
    origin = f"the script `{PurePath(argv[0]).name} -c` runs in a Dockerfile RUN"
    literal = b'"' + script + b'"'
    text = logical.text
    at = text.find(literal)
    if at == -1 or text.find(literal, at + 1) != -1:
        return Region(script, (), shell.dialect, origin, **facts)
    return Region.from_parts(
        logical.slice(at + 1, at + 1 + len(script), Quoting.DOUBLE), shell.dialect, origin, **facts
    )


def _directive_line(lines: LineIndex, number: int) -> tuple[bytes, int] | None:
    """The line's comment and where it starts, if the line is a comment holding a directive."""
    raw = lines.line_bytes(number)
    content = raw.strip()
    if not content.startswith(b"#") or tokens(content) is None:
        return None
    return content, lines.line_starts[number] + len(raw) - len(raw.lstrip())


def _directives_above(lines: LineIndex, first: int) -> list[tuple[bytes, int]]:
    """The directive comments among the comment lines right above line first, with where each starts."""
    found = []
    number = first - 1
    while number >= 0 and lines.line_bytes(number).strip().startswith(b"#"):
        directive = _directive_line(lines, number)
        if directive is not None:
            found.append(directive)
        number -= 1
    return found


def _directives_within(lines: LineIndex, command, end: int) -> list[Directive]:
    """Directive comment lines inside an instruction's continuation: each covers the rest of the instruction.

    BuildKit drops them from the text the shell gets, so the shell never sees
    them; a directive there stands on a line of its own before what follows.
    """
    if command.heredocs:
        return []  # its lines after the first are here-document bodies: the shell's own comments
    found = []
    for number in range(command.start_line, command.end_line - 1):
        directive = _directive_line(lines, number)
        if directive is not None:
            comment, at = directive
            found.append(Directive(comment, lines.line_starts[number + 1], end, at, tokens(comment) or (), True))
    return found


def _parse(source: bytes):
    """BuildKit's instructions; () for a file without any; ParseFailure when it does not parse."""
    try:
        return buildkit.parse_string(source.decode("utf-8", "replace"))
    except buildkit.GoParseError as error:
        if "no instructions" in str(error):
            return ()
        return ParseFailure(0, len(source.split(b"\n", 1)[0]))


def scan(source: bytes) -> HostScan:
    parsed = _parse(source)
    if isinstance(parsed, ParseFailure):
        return HostScan(failures=[parsed])
    lines = LineIndex(source)
    escape = escape_character(lines)
    found = HostScan()
    shell = DEFAULT_SHELL
    stage_shells: dict[str, HostShell] = {}
    stage_variables: dict[str, dict[str, str | None]] = {}
    variables: dict[str, str | None] = {}  # the stage's ENV and ARG, which every RUN after them has in its environment
    stage = None
    for index, command in enumerate(parsed):
        instruction = command.cmd.upper()
        first = command.start_line - 1
        instruction_end = lines.line_starts[command.end_line - 1] + len(lines.line_bytes(command.end_line - 1))
        comments = _directives_above(lines, first)
        if comments:
            start, end = (0, len(source)) if index == 0 else (lines.line_starts[first], instruction_end)
            found.directives += [Directive(text, start, end, at, tokens(text) or (), True) for text, at in comments]
        found.directives += _directives_within(lines, command, instruction_end)
        if instruction == "FROM":
            if stage is not None:
                stage_shells[stage], stage_variables[stage] = shell, variables
            base = command.value[0].lower() if command.value else ""
            shell = stage_shells.get(base, DEFAULT_SHELL)
            variables = dict(stage_variables.get(base, {}))
            stage = command.value[2].lower() if len(command.value) >= 3 and command.value[1].lower() == "as" else None
        elif instruction == "SHELL":
            shell = shell_of(tuple(command.value))
        elif instruction in ("ENV", "ARG"):
            variables.update(_variables(instruction, command.value))
        elif instruction == "RUN" or instruction == "ONBUILD" and (command.sub_cmd or "").upper() == "RUN":
            region = _run_region(command, lines, escape, shell.with_environment(variables))
            if region is not None:
                found.regions.append(region)
    return found


def _variables(instruction: str, value: tuple[str, ...]) -> dict[str, str | None]:
    """`ENV A=1 B=2` (the parser gives name, value, name, value…), `ARG A=1`, `ARG A` (the build gives it: None)."""
    if instruction == "ENV":
        return dict(zip(value[::2], value[1::2]))
    found: dict[str, str | None] = {}
    for word in value:
        name, equals, default = word.partition("=")
        found[name] = default if equals else None
    return found


def _instructions(source: bytes) -> list[tuple] | None:
    parsed = _parse(source)
    if isinstance(parsed, ParseFailure):
        return None
    shape = []
    for command in parsed:
        runs = command.cmd.upper() == "RUN" or (command.sub_cmd or "").upper() == "RUN"
        heredocs = tuple(heredoc.name for heredoc in command.heredocs)
        shape.append(
            (
                command.cmd.upper(),
                command.sub_cmd,
                command.json,
                command.flags,
                heredocs,
                None if runs else command.value,
            )
        )
    return shape


def same_structure(before: bytes, after: bytes) -> bool:
    """The same instructions, flags and forms; only RUN text may differ (BuildKit's parser as the judge)."""
    shape = _instructions(after)
    return shape is not None and shape == _instructions(before)
