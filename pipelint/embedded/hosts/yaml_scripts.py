"""Scripts in YAML scalars (the CI hosts): the script text, and where each line of it is in the file.

PyYAML's composer (`yaml.compose_all`, libyaml's C parser when installed)
gives every node its start and end marks and every scalar its style; marks
index the decoded text in characters, turned into byte offsets by
`positions.CharacterOffsets`. See docs/hosts.md for why PyYAML.

A scalar's value is what the CI runner writes into its script file. This
module rebuilds that value from the file's lines, so that each line's text is
a piece of the region, and keeps the rebuilt mapping only when it equals the
value PyYAML read; otherwise the script is linted without positions inside
it and without fixes. Which pieces may take an edit:

- literal block `|`: every line, at its indentation (`Quoting.LINE`);
- plain scalar on one line: the line (`Quoting.LINE`); the fixer's check
  (hosts.keeps_host) refuses an edit after which it reads differently
  (a `: ` or ` #` in it);
- folded `>`, quoted and multi-line plain scalars: none (`Quoting.READ_ONLY`):
  their line breaks or escapes are not the script's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import yaml

from pipelint.finding import ParseFailure
from pipelint.shell.dialect import Dialect
from pipelint.embedded.hosts.kind import HostScan
from pipelint.shell.positions import CharacterOffsets
from pipelint.embedded.regions import Part, Quoting, Region
from pipelint.shell.options import Environment

# libyaml's parser when PyYAML was built with it (the wheels are): 5-10× faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BOM = "\ufeff".encode()
_BLOCK_HEADER = re.compile(r"[|>]([1-9])?[+-]?([1-9])?")
# What a node's start mark may cover before its content: an anchor (`&name`) and a tag (`!reference`).
_PROPERTIES = re.compile(r"(?:[&!][^ \t\r\n]*[ \t]+)*")


@dataclass(frozen=True)
class Document:
    """A YAML file as composed: its nodes, and the way from their marks to bytes."""

    text: str  # after any byte order mark
    offsets: CharacterOffsets
    roots: list[yaml.Node]
    start: int = 0  # bytes before text: a UTF-8 byte order mark

    def byte(self, index: int) -> int:
        return self.start + self.offsets.byte(index)


# libyaml's composer recurses in C once per level of nesting: 20,000 to 50,000
# levels (`[[[…`, a byte each) overflow an 8 MiB stack and kill the process;
# the Python composer raises RecursionError near 500. CI files nest under 20.
MAX_DEPTH = 200


def _first_too_deep(text: str) -> int | None:
    """Where the text opens its MAX_DEPTH+1st nested collection (character index), if it does.

    Read from the event stream, which libyaml makes without recursing
    (about 0.4 ms for a 12 KB workflow).
    """
    depth = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return event.start_mark.index
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def load(source: bytes) -> Document | ParseFailure:
    """The file's documents, or where it stops being YAML."""
    # libyaml's marks do not count a byte order mark, PyYAML's own do: compose without it.
    start = len(_BOM) if source.startswith(_BOM) else 0
    try:
        text = source[start:].decode("utf-8")
    except UnicodeDecodeError as error:
        return ParseFailure(start + error.start, start + error.end)
    offsets = CharacterOffsets(text)
    try:
        too_deep = _first_too_deep(text)
        if too_deep is not None:
            at = start + offsets.byte(too_deep)
            return ParseFailure(at, at)
        roots = [root for root in yaml.compose_all(text, Loader=_LOADER) if root is not None]
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        at = start + offsets.byte(min(mark.index, len(text))) if mark is not None else 0
        return ParseFailure(at, at)
    except (yaml.YAMLError, RecursionError):
        return ParseFailure(0, 0)
    return Document(text, offsets, roots, start)


def get(node: yaml.Node | None, key: str) -> yaml.Node | None:
    """The value of a mapping's key (the last one, if the key repeats)."""
    if not isinstance(node, yaml.MappingNode):
        return None
    found = None
    for name, value in node.value:
        if isinstance(name, yaml.ScalarNode) and name.value == key:
            found = value
    return found


def string(node: yaml.Node | None) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def items(node: yaml.Node | None) -> Iterator[tuple[yaml.Node, yaml.Node]]:
    """A mapping's (key, value) pairs; nothing for any other node."""
    if isinstance(node, yaml.MappingNode):
        yield from node.value


def nodes_under(*roots: yaml.Node | None) -> Iterator[yaml.Node]:
    """Every node below roots, each once (aliases visited once)."""
    seen: set[int] = set()
    stack = [root for root in roots if root is not None]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
        elif isinstance(current, yaml.MappingNode):
            stack.extend(part for pair in current.value for part in pair)


def scalars_under(node: yaml.Node | None) -> Iterator[str]:
    """Every scalar value below node (aliases visited once)."""
    for current in nodes_under(node):
        if isinstance(current, yaml.ScalarNode):
            yield current.value


# GitLab flattens script lists nested up to 10 levels deep ("CI/CD YAML syntax reference", `script`).
MAX_NESTING = 10


def flattened(node: yaml.Node | None) -> list[yaml.ScalarNode]:
    """A script given as a string or a list of strings (nested lists flattened, as GitLab does).

    Tagged items (`!reference`) are skipped, and so is a list met a second
    time through an alias: YAML aliases can nest a list 9 times in itself 9
    levels deep (a billion items) in a few lines.
    """
    found: list[yaml.ScalarNode] = []
    seen: set[int] = set()

    def add(current: yaml.Node, depth: int) -> None:
        if isinstance(current, yaml.ScalarNode):
            found.append(current)
        elif isinstance(current, yaml.SequenceNode) and not current.tag.startswith("!") and id(current) not in seen:
            seen.add(id(current))
            if depth <= MAX_NESTING:
                for item in current.value:
                    add(item, depth + 1)

    if node is not None:
        add(node, 0)
    return found


def _plain_style(node: yaml.ScalarNode) -> bool:
    return not node.style  # None from the Python loader, "" from libyaml's


def _line_parts(doc: Document, start: int, text: str, quoting: Quoting) -> list[Part]:
    """One line's text at character index start, as a piece."""
    data = text.encode("utf-8")
    return [(data, doc.byte(start), quoting)] if data else []


def _block_lines(doc: Document, node: yaml.ScalarNode, indent: int | None) -> tuple[int, list[tuple[int, str]]] | None:
    """The content lines of a block scalar, (character index of the text, text), and its indentation."""
    body_start = doc.text.find("\n", node.start_mark.index, node.end_mark.index)
    if body_start == -1:
        return None
    lines = []
    cursor = body_start + 1
    for raw in doc.text[cursor : node.end_mark.index].split("\n"):
        lines.append((cursor, raw.removesuffix("\r")))
        cursor += len(raw) + 1
    if indent is None:
        indent = next((len(line) - len(line.lstrip(" ")) for _, line in lines if line.strip(" ")), 0)
    content = []
    for at, line in lines:
        if line.strip(" ") and not line.startswith(" " * indent):
            break  # less indented: the scalar ended (a comment line)
        content.append((at + indent, line[indent:]))
    return indent, content


def _content_start(doc: Document, node: yaml.ScalarNode) -> int:
    """Where the scalar itself starts: its start mark is at its anchor or tag when it has one."""
    return _PROPERTIES.match(doc.text, node.start_mark.index, node.end_mark.index).end()  # type: ignore[union-attr]


def _explicit_indent(doc: Document, node: yaml.ScalarNode, parent_indent: int) -> int | None:
    header = _BLOCK_HEADER.match(doc.text, _content_start(doc, node))
    digit = header and (header.group(1) or header.group(2))
    return parent_indent + int(digit) if digit else None


def _literal_parts(doc: Document, node: yaml.ScalarNode, parent_indent: int, quoting: Quoting) -> list[Part] | None:
    found = _block_lines(doc, node, _explicit_indent(doc, node, parent_indent))
    if found is None:
        return None
    parts: list[Part] = []
    for at, line in found[1]:
        parts += _line_parts(doc, at, line, quoting)
        parts.append((b"\n", None, quoting))
    return parts


def _folded_parts(doc: Document, node: yaml.ScalarNode, parent_indent: int) -> list[Part] | None:
    """`>`: each line a read-only piece, joined as YAML folds them (the rule in `_fold`)."""
    found = _block_lines(doc, node, _explicit_indent(doc, node, parent_indent))
    if found is None:
        return None
    lines = list(found[1])
    while lines and not lines[-1][1]:
        lines.pop()
    parts: list[Part] = []
    previous = None
    empty = 0
    for at, line in lines:
        if not line:
            empty += 1
            continue
        if previous is not None:
            parts.append((_fold(previous, line, empty), None, Quoting.READ_ONLY))
        parts += _line_parts(doc, at, line, Quoting.READ_ONLY)
        previous, empty = line, 0
    return parts + [(b"\n", None, Quoting.READ_ONLY)]


def _fold(previous: str, line: str, empty: int) -> bytes:
    """What joins two lines of a folded scalar with empty lines between (YAML 1.2 §8.1.3, as PyYAML reads it).

    Two lines that start with no blank fold into one, a blank between them,
    or keep one break per empty line; around a more-indented line every
    break stays.
    """
    if previous[0] not in " \t" and line[0] not in " \t":
        return b"\n" * empty if empty else b" "
    return b"\n" * (empty + 1)


def _flow_parts(doc: Document, node: yaml.ScalarNode, quoting: Quoting) -> list[Part] | None:
    """A plain or quoted scalar on one line whose text is its value (no escapes, no `''`)."""
    start, end = _content_start(doc, node), node.end_mark.index
    if node.start_mark.line != node.end_mark.line:
        return None
    if not _plain_style(node):
        start, end, quoting = start + 1, end - 1, Quoting.READ_ONLY
    return _line_parts(doc, start, doc.text[start:end], quoting)


def _with_value(parts: list[Part], value: bytes) -> list[Part] | None:
    """parts made to end as value does (chomping decides the trailing line breaks), or None if they differ."""
    text = b"".join(data for data, _, _ in parts)
    core = value.rstrip(b"\n")
    if text.rstrip(b"\n") != core:
        return None
    while parts and parts[-1][1] is None and parts[-1][0] == b"\n":
        parts = parts[:-1]
    tail = value[len(core) :]
    return parts + ([(tail, None, Quoting.READ_ONLY)] if tail else [])


def scalar_parts(doc: Document, node: yaml.ScalarNode, parent_indent: int, editable: bool) -> list[Part] | None:
    """The parts whose text is the scalar's value, or None when it cannot be rebuilt from the file."""
    line = Quoting.LINE if editable else Quoting.READ_ONLY
    if node.style == "|":
        parts = _literal_parts(doc, node, parent_indent, line)
    elif node.style == ">":
        parts = _folded_parts(doc, node, parent_indent)
    else:
        parts = _flow_parts(doc, node, line if _plain_style(node) else Quoting.READ_ONLY)
    return None if parts is None else _with_value(parts, node.value.encode("utf-8"))


def _placeholder(length: int, number: int) -> bytes:
    """A bare word of length bytes, told apart from the others by number where it fits (`_1____`)."""
    numbered = f"_{number}_".encode()
    return numbered.ljust(length, b"_") if len(numbered) <= length else b"_" * length


def _opaque(
    parts: list[Part], pattern: re.Pattern[bytes] | None, escapes: Mapping[bytes, bytes] | None = None
) -> tuple[list[Part], list[tuple[bytes, bytes]]]:
    """Each match of pattern (GitHub's `${{ … }}`) becomes a placeholder of its length that maps nowhere.

    Also returns (placeholder, expression) for each, so that a rewrite in a
    message shows the expression (`Region.shown`). A match that is one of
    escapes becomes the text it stands for instead (Compose's `$$`: one `$`),
    mapping nowhere too.
    """
    if pattern is None:
        return parts, []
    found: list[Part] = []
    words: list[tuple[bytes, bytes]] = []
    for data, outer, quoting in parts:
        cursor = 0
        for match in pattern.finditer(data):
            if match.start() > cursor:
                found.append((data[cursor : match.start()], None if outer is None else outer + cursor, quoting))
            cursor = match.end()
            if escapes and match.group() in escapes:
                found.append((escapes[match.group()], None, quoting))
                continue
            placeholder = _placeholder(len(match.group()), len(words))
            words.append((placeholder, match.group()))
            found.append((placeholder, None, quoting))
        found.append((data[cursor:], None if outer is None else outer + cursor, quoting))
    return [part for part in found if part[0]], words


@dataclass(frozen=True)
class YamlScript:
    """Scalars that make one script (GitLab's list items run as one), and how they run."""

    nodes: tuple[yaml.ScalarNode, ...]
    parent_indent: int  # indentation of the mapping holding the key (for `|2` indicators)
    dialect: Dialect
    origin: str
    editable: bool = True  # False: the host may run it under another shell too (no fixes)
    options: frozenset[str] = frozenset()  # `set -o` names in force from the first line
    environment: Environment = ()  # the startup variables the host sets (`Region.environment`)
    unseen_code_before: bool = False  # code of another file runs first in its shell (`Region.unseen_code_before`)
    stdout_over_network: bool = False  # it runs on another host, whose output ssh carries back


def script_region(
    doc: Document,
    script: YamlScript,
    expressions: re.Pattern[bytes] | None = None,
    escapes: Mapping[bytes, bytes] | None = None,
    read_only: frozenset[int] = frozenset(),
) -> Region:
    """The region of a script: its scalars' values, a line break between two (`_opaque` for the others).

    read_only: ids of scalars no edit may change (`shared_outside_scripts`).
    """
    parts: list[Part] = []
    for index, node in enumerate(script.nodes):
        if index:
            parts.append((b"\n", None, Quoting.READ_ONLY))
        rebuilt = scalar_parts(doc, node, script.parent_indent, script.editable and id(node) not in read_only)
        parts += rebuilt if rebuilt is not None else [(node.value.encode("utf-8"), None, Quoting.READ_ONLY)]
    anchor = doc.byte(script.nodes[0].start_mark.index)
    parts, words = _opaque(parts, expressions, escapes)
    # Only numbered placeholders can be told apart in a message; `_____` may be the script's own.
    shown = tuple((placeholder, expression) for placeholder, expression in words if placeholder.strip(b"_"))
    facts = {
        "options": script.options,
        "anchor": anchor,
        "opaque": shown,
        "environment": script.environment,
        "unseen_code_before": script.unseen_code_before,
        "outer_code": _placeholders_at(parts, words),
        "stdout_over_network": script.stdout_over_network,
    }
    return Region.from_parts(parts, script.dialect, script.origin, **facts)


def _placeholders_at(parts: list[Part], words: list[tuple[bytes, bytes]]) -> tuple[tuple[int, bytes], ...]:
    """Where each placeholder is in the region's text, with the expression it stands for: the host
    substitutes the expression's value into the script, which the shell then reads as code."""
    expressions = dict(words)
    found = []
    at = 0
    for data, outer, _ in parts:
        if outer is None and data in expressions:
            found.append((at, expressions[data]))
        at += len(data)
    return tuple(found)


def shared_outside_scripts(doc: Document, script_keys: frozenset[str], holders: str | None = None) -> frozenset[int]:
    """Ids of the scalars that an alias also puts where no script is (issue 25, class 5).

    `copy: &copy cat f | sort` under `variables:` and `script: [*copy]`: one
    node, two places. An edit of the script changes the variable too, so no
    edit may change such a scalar. A scalar counts as a script where every
    place holding it is the value of one of script_keys, or an item of a list
    (nested lists too) that every place of is such a value. holders: the
    prefix of top-level keys the host reads nothing from, which only hold
    anchors (GitLab's hidden `.name:`, Compose's `x-name:`).
    """
    root_ids = {id(root) for root in doc.roots}
    slots: dict[int, list[tuple[yaml.Node, str | None]]] = {}
    for node in nodes_under(*doc.roots):
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                slots.setdefault(id(key), []).append((node, None))
                slots.setdefault(id(value), []).append((node, string(key)))
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                slots.setdefault(id(item), []).append((node, None))

    def in_script(node_id: int, depth: int) -> bool:
        places = slots.get(node_id, [])
        if not places or depth > MAX_NESTING:
            return False
        for parent, key in places:
            if isinstance(parent, yaml.SequenceNode):
                if not in_script(id(parent), depth + 1):
                    return False
            elif holders is not None and id(parent) in root_ids and (key or "").startswith(holders):
                continue  # `.count: &count …`: a place nothing reads
            elif key not in script_keys:
                return False
        return True

    return frozenset(node_id for node_id, places in slots.items() if len(places) > 1 and not in_script(node_id, 0))


def same_tree(before: yaml.Node, after: yaml.Node, exempt: set[int]) -> bool:
    """The same YAML, node for node, except the values (not the styles) of the scalars in exempt (ids of before's)."""
    seen: set[tuple[int, int]] = set()
    stack = [(before, after)]
    while stack:
        old, new = stack.pop()
        if (id(old), id(new)) in seen:
            continue
        seen.add((id(old), id(new)))
        if type(old) is not type(new) or old.tag != new.tag:
            return False
        if isinstance(old, yaml.ScalarNode):
            if old.style != new.style or (id(old) not in exempt and old.value != new.value):
                return False
            continue
        if len(old.value) != len(new.value):
            return False
        if isinstance(old, yaml.MappingNode):
            stack.extend(pair for pairs in zip(old.value, new.value) for pair in zip(*pairs))
        else:
            stack.extend(zip(old.value, new.value))
    return True


ScriptFinder = Callable[[Document], list[YamlScript]]


def scan(
    source: bytes,
    find: ScriptFinder,
    expressions: re.Pattern[bytes] | None = None,
    script_keys: frozenset[str] = frozenset(),
    holders: str | None = None,
) -> HostScan:
    """The regions of the scripts find sees in the file, or where the file stops being YAML.

    script_keys: the keys whose values are scripts (`run`, `script`): a scalar an alias also puts elsewhere
    takes no edit; holders: `shared_outside_scripts`.
    """
    doc = load(source)
    if not isinstance(doc, Document):
        return HostScan(failures=[doc])
    shared = shared_outside_scripts(doc, script_keys, holders)
    return HostScan(regions=[script_region(doc, script, expressions, read_only=shared) for script in distinct(find(doc))])


def distinct(scripts: list[YamlScript]) -> list[YamlScript]:
    """Each script once: the same scalars run the same way again through an alias (another job) add nothing.

    Scalars shared by scripts that differ (another shell, other items before
    them) stay in each: hosts.reported_once merges what they find there.
    """
    seen: set[tuple] = set()
    found = []
    for script in scripts:
        key = (
            tuple(id(node) for node in script.nodes),
            script.dialect,
            script.editable,
            script.options,
            script.environment,
            script.unseen_code_before,
        )
        if key not in seen:
            seen.add(key)
            found.append(script)
    return found


def same_structure(before: bytes, after: bytes, find: ScriptFinder) -> bool:
    """Both load, into the same nodes, apart from the values of the scripts find sees in before."""
    old, new = load(before), load(after)
    if not isinstance(old, Document) or not isinstance(new, Document) or len(old.roots) != len(new.roots):
        return False
    exempt = {id(node) for script in find(old) for node in script.nodes}
    return all(same_tree(a, b, exempt) for a, b in zip(old.roots, new.roots))
