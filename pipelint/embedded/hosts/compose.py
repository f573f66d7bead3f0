"""Docker Compose files: the shell scripts a service's container runs.

What runs a shell, from the Compose Specification ("Services top-level
elements": `command`, `entrypoint`, `healthcheck`):

- `command` and `entrypoint` are argument vectors: a list as it is, a string
  split into words with shell-like quoting (compose-go splits it with
  mattn/go-shellwords) and NOT run by a shell: `command: cat f | grep x`
  runs `cat` with the words `f`, `|`, `grep`, `x` — no pipeline, nothing
  to lint. A vector that starts a shell with `-c` runs a script, the word
  after that option: `command: sh -c 'cat f | grep x'`,
  `command: ["bash", "-ec", "…"]`. With both keys, the vector is the
  entrypoint's words then the command's (`entrypoint: ["sh", "-c"]` with
  `command: ["…"]`); with a command alone, the image's entrypoint is unknown
  and the command is read as the vector.
- `healthcheck.test`: a string is `CMD-SHELL` followed by it; `["CMD-SHELL",
  "…"]` runs the string with the container's default shell, `/bin/sh -c`
  (POSIX sh); `["CMD", …]` is an argument vector, read as `command`'s.
- Compose interpolates `$VAR` and `${VAR…}` in every value before anything
  else, with its own environment, and `$$` stands for one `$`
  ("Interpolation"). An interpolation becomes a placeholder that maps
  nowhere (as GitHub's `${{ … }}`), `$$` the one `$` the shell sees, and no
  edit may write a `$` into the file (`Quoting.INTERPOLATED`).

The string form's words are split here as go-shellwords splits them
(`_words`): quotes removed, a backslash escaping the next character outside
single quotes (`\\t` and `\\n` becoming a TAB and a line break), and the
command line ending at the first unquoted `;`, `&`, `|`, `<` or `>`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial

import yaml

from pipelint.embedded.hosts import yaml_scripts
from pipelint.embedded.hosts.kind import HostScan
from pipelint.embedded.hosts.shells import HostShell, script_argument, shell_of
from pipelint.embedded.hosts.yaml_scripts import Document, YamlScript, get, items, string
from pipelint.embedded.regions import Piece, Quoting, Region, RegionBuilder
from pipelint.shell.dialect import Dialect

# What Compose interpolates, and `$$`, which stands for one `$`.
INTERPOLATION = re.compile(rb"\$\$|\$\{[^}\n]*\}|\$[A-Za-z_][A-Za-z0-9_]*")
_ESCAPES = {b"$$": b"$"}
# `healthcheck.test`'s string form and `CMD-SHELL`: the container's default shell.
_DEFAULT_SHELL = shell_of(["/bin/sh", "-c"])
_MERGE = "<<"


@dataclass(frozen=True)
class _Word:
    """One word of an argument vector, and how to make it the region of a script in a given shell."""

    value: str
    region: Callable[[HostShell, str], Region]


@dataclass(frozen=True)
class ComposeScript:
    """A script a service runs: the scalars it is written in (which only it may change), and its region."""

    nodes: tuple[yaml.ScalarNode, ...]
    region: Region


def _value(node: yaml.Node | None, key: str) -> yaml.Node | None:
    """A mapping's value for key, also from a YAML merge (`<<: *defaults`) when the mapping lacks it."""
    found = get(node, key)
    if found is not None or not isinstance(node, yaml.MappingNode):
        return found
    for name, merged in node.value:
        if string(name) == _MERGE:
            for source in merged.value if isinstance(merged, yaml.SequenceNode) else [merged]:
                found = get(source, key) or found
    return found


def _scalar_region(
    doc: Document, node: yaml.ScalarNode, indent: int, shell: HostShell, origin: str, read_only: frozenset[int] = frozenset()
) -> Region:
    """A scalar's interpolated value as a script, each piece under Compose's quoting too."""
    dialect = shell.dialect or Dialect.SH
    script = YamlScript((node,), indent, dialect, origin, options=shell.options, environment=shell.environment)
    return _interpolated(yaml_scripts.script_region(doc, script, INTERPOLATION, _ESCAPES, read_only))


def _interpolated(region: Region) -> Region:
    """The region with every piece under Compose's quoting as well: no edit may write a `$` there."""
    quoted = (Piece(p.inner, p.outer, p.length, (*p.quotings, Quoting.INTERPOLATED)) for p in region.pieces)
    return replace(region, pieces=tuple(quoted))


def _vector(
    doc: Document, node: yaml.Node | None, indent: int, origin: str, read_only: frozenset[int] = frozenset()
) -> list[_Word] | None:
    """The words of a `command`/`entrypoint`/`test`: a list's items, or a string split as go-shellwords does."""
    if isinstance(node, yaml.SequenceNode):
        if not all(isinstance(item, yaml.ScalarNode) for item in node.value):
            return None
        return [_Word(item.value, partial(_scalar_region, doc, item, indent, read_only=read_only)) for item in node.value]
    if isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str"):
        line = _scalar_region(doc, node, indent, _DEFAULT_SHELL, origin, read_only)
        return _split(line)
    return None


def _split(line: Region) -> list[_Word] | None:
    """A command line's words (`_words`), each made into a script region inside the line's region."""
    found = _words(line.text)
    if found is None:
        return None
    words = []
    for word in found:
        value = bytes(byte for byte, _, _ in word).decode("utf-8", "replace")
        words.append(_Word(value, partial(_word_region, word, line)))
    return words


def _word_region(word: list[tuple[int, int | None, Quoting]], line: Region, shell: HostShell, origin: str) -> Region:
    builder = RegionBuilder()
    for byte, at, quoting in word:
        if at is None:
            builder.invent(bytes([byte]))
        else:
            builder.copy(bytes([byte]), at, quoting)
    anchor = next((at for _, at, _ in word if at is not None), 0)
    inner = builder.region(shell.dialect or Dialect.SH, origin, anchor, options=shell.options, environment=shell.environment)
    return inner.inside(line)


# go-shellwords' escapes that stand for another character.
_ESCAPED_AS = {ord("t"): ord("\t"), ord("n"): ord("\n")}


def _words(text: bytes) -> list[list[tuple[int, int | None, Quoting]]] | None:
    """go-shellwords' `Parse` (environment and backticks not expanded), over bytes.

    Each word is its bytes, each with where it is in text (None: a byte no
    byte of text is, `\\t` read as a TAB) and the quoting it is written in
    there. None where go-shellwords fails (an unclosed quote, a bare `(`):
    Compose would refuse the file.
    """
    words: list[list[tuple[int, int | None, Quoting]]] = []
    current: list[tuple[int, int | None, Quoting]] = []
    got = escaped = single = double = backquote = dollar = False
    for index, byte in enumerate(text):
        quoting = Quoting.SINGLE if single else Quoting.DOUBLE if double else Quoting.UNQUOTED
        if escaped:
            current.append((_ESCAPED_AS[byte], None, Quoting.ESCAPED) if byte in _ESCAPED_AS else (byte, index, Quoting.ESCAPED))
            escaped, got = False, True
            continue
        if byte == 0x5C:  # backslash
            if single:
                current.append((byte, index, quoting))
            else:
                escaped = True
            continue
        if byte in b" \t\r\n":
            if single or double or backquote or dollar:
                current.append((byte, index, quoting))
            elif got:
                words.append(current)
                current, got = [], False
            continue
        if byte == 0x60 and not (single or double or dollar):  # a backquote is kept, and groups the words
            backquote = not backquote
        elif byte == 0x29 and not (single or double or backquote):  # `)`
            if not dollar:
                return None
            dollar = False
        elif byte == 0x28 and not (single or double or backquote):  # `(`: only `$(`
            if dollar or not current or current[-1][0] != 0x24:
                return None
            dollar = True
        elif byte == 0x22 and not (single or dollar):  # `"`
            got = got or double
            double = not double
            continue
        elif byte == 0x27 and not (double or dollar):  # `'`
            got = got or single
            single = not single
            continue
        elif byte in b";&|<>" and not (single or double or backquote or dollar):
            if byte == 0x3E and current and 0x30 <= current[0][0] <= 0x39:
                current, got = [], False  # `2>`: the descriptor's digits are no word
            break
        got = True
        current.append((byte, index, quoting))
    if escaped or single or double or backquote or dollar:
        return None
    if got:
        words.append(current)
    return words


def _shell_script(words: list[_Word] | None, origin: str, variables: dict[str, str | None]) -> Region | None:
    """The script an argument vector runs, when it starts a shell with `-c` (with the service's environment)."""
    if not words:
        return None
    found = script_argument([word.value for word in words])
    if found is None:
        return None
    shell, script_at = found
    return words[script_at].region(shell.with_environment(variables), origin)


def _environment(service: yaml.Node) -> dict[str, str | None]:
    """A service's `environment:`, a mapping or a list of `NAME=value` (`NAME` alone: from Compose's own)."""
    node = _value(service, "environment")
    if isinstance(node, yaml.SequenceNode):
        found: dict[str, str | None] = {}
        for item in node.value:
            name, equals, value = (string(item) or "").partition("=")
            found[name] = value if equals else None
        return found
    return {name: string(value) for key, value in items(node) if (name := string(key)) is not None}


def _nodes(*values: yaml.Node | None) -> tuple[yaml.ScalarNode, ...]:
    """The scalars of command-like values (what a script there may change)."""
    found: list[yaml.ScalarNode] = []
    for value in values:
        if isinstance(value, yaml.ScalarNode):
            found.append(value)
        elif isinstance(value, yaml.SequenceNode):
            found += [item for item in value.value if isinstance(item, yaml.ScalarNode)]
    return tuple(found)


def _service_scripts(
    doc: Document, name: str, service: yaml.Node, indent: int, read_only: frozenset[int]
) -> Iterator[ComposeScript]:
    entrypoint, command = _value(service, "entrypoint"), _value(service, "command")
    origin = f"the `command` of service `{name}`"
    variables = _environment(service)
    words = _vector(doc, command, indent, origin, read_only)
    if entrypoint is not None and not (isinstance(entrypoint, yaml.ScalarNode) and entrypoint.tag.endswith(":null")):
        first = _vector(doc, entrypoint, indent, f"the `entrypoint` of service `{name}`", read_only)
        words = None if first is None else first + (words or [])
    region = _shell_script(words, origin, variables)
    if region is not None:
        yield ComposeScript(_nodes(entrypoint, command), region)
    test = _value(_value(service, "healthcheck"), "test")
    where = f"the healthcheck of service `{name}`"
    shell = _DEFAULT_SHELL.with_environment(variables)
    if isinstance(test, yaml.ScalarNode) and test.tag.endswith(":str"):
        yield ComposeScript((test,), _scalar_region(doc, test, indent, shell, where, read_only))
    elif isinstance(test, yaml.SequenceNode) and test.value and isinstance(test.value[0], yaml.ScalarNode):
        kind, rest = test.value[0].value, test.value[1:]
        if kind == "CMD-SHELL" and len(rest) == 1 and isinstance(rest[0], yaml.ScalarNode):
            yield ComposeScript((rest[0],), _scalar_region(doc, rest[0], indent, shell, where, read_only))
        elif kind == "CMD":
            region = _shell_script(_vector(doc, yaml.SequenceNode(test.tag, rest), indent, where, read_only), where, variables)
            if region is not None:
                yield ComposeScript(_nodes(test), region)


# The keys whose values may be scripts: a scalar an alias also puts elsewhere takes no edit.
_SCRIPT_KEYS = frozenset({"command", "entrypoint", "test"})


def scripts(doc: Document) -> list[ComposeScript]:
    found: list[ComposeScript] = []
    seen: set[tuple] = set()
    read_only = yaml_scripts.shared_outside_scripts(doc, _SCRIPT_KEYS, holders="x-")
    for root in doc.roots:
        for key, service in items(get(root, "services")):
            name = string(key) or "?"
            for script in _service_scripts(doc, name, service, key.start_mark.column, read_only):
                identity = (tuple(id(node) for node in script.nodes), script.region.text, script.region.dialect)
                if identity not in seen:  # a service merged into another through an anchor runs the same
                    seen.add(identity)
                    found.append(script)
    return found


def scan(source: bytes) -> HostScan:
    """The scripts of the file's services, or where the file stops being YAML."""
    doc = yaml_scripts.load(source)
    if not isinstance(doc, Document):
        return HostScan(failures=[doc])
    return HostScan(regions=[script.region for script in scripts(doc)])


same_structure = partial(yaml_scripts.same_structure, find=scripts)
