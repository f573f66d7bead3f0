"""tree-sitter-bash parsing and the small vocabulary rules use to read nodes."""

from __future__ import annotations

import bisect
import functools
import operator
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Query, Tree

# tree-sitter and its bash grammar are imported by the first parse or query, not with this module:
# the command line reads a script's #! line, its cached findings and its rule table without them.


@functools.cache
def language() -> Language:
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Language(tree_sitter_bash.language())


@functools.cache
def _parser() -> Parser:
    from tree_sitter import Parser

    return Parser(language())


@functools.cache
def query(text: str) -> Query:
    """A tree-sitter query over the bash grammar, compiled once per process."""
    from tree_sitter import Query

    return Query(language(), text)


def parse(source: bytes, old_tree: Tree | None = None) -> Tree:
    """The tree of source; with old_tree (edited to match source with `Tree.edit`), re-using its unchanged parts.

    The tree a fresh parse gives. From an old tree, tree-sitter may recover
    from a syntax error otherwise than afresh, since its recovery depends on
    the parse's history: 2 of 906 generated scripts the parse guards repaired
    got their ERROR elsewhere, and the 5 MB benchmark script one ERROR over the
    whole file where a fresh parse has it from line 149,596. What pipelint
    reports must not depend on the way the tree was reached (the editor's
    against the command line's), so a tree with an error is parsed again from
    scratch, and from an old tree with an error (an edit elsewhere leaves it
    in) the parse starts from scratch at once. Error-free trees from an old one
    matched fresh parses in every comparison (tests/lsp/test_lsp_reparse.py,
    tests/test_parse_guards.py).
    """
    parser = _parser()
    if old_tree is None or old_tree.root_node.has_error:
        return parser.parse(source)
    tree = parser.parse(source, old_tree)
    return parser.parse(source) if tree.root_node.has_error else tree


def text(node: Node) -> bytes:
    return node.text or b""


def error_ranges(root: Node) -> list[tuple[int, int]]:
    """Byte ranges of ERROR nodes and of MISSING tokens (zero-width, widened by one)."""
    ranges: list[tuple[int, int]] = []
    if not root.has_error:
        return ranges
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error:
            ranges.append((node.start_byte, node.end_byte))
            continue
        if node.is_missing:
            ranges.append((max(node.start_byte - 1, 0), node.end_byte + 1))
            continue
        stack.extend(child for child in node.children if child.has_error or child.is_missing)
    return sorted(ranges)


def is_line_continuation(source: bytes, newline: int) -> bool:
    """The newline at this offset follows an odd run of backslashes: the line goes on, nothing ends."""
    start = newline
    while start > 0 and source[start - 1] == 0x5C:
        start -= 1
    return (newline - start) % 2 == 1


def walk(root: Node) -> Iterator[Node]:
    """Every node below root in document order, skipping ERROR subtrees."""
    if isinstance(root, JoinedWord):
        yield from root.descendants()
        return
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None and not node.is_error:
            yield node
            if cursor.goto_first_child():
                continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


# tree-sitter's query cursor counts depth in 16 bits: below 65,535 levels
# (32k nested `$(…)`) captures go missing and the search turns quadratic.
# Deeper trees are searched in bands of this many levels, each by its own cursor.
QUERY_DEPTH = 60_000


def captures(
    query: Query, root: Node, *, outside_errors: bool = True, kept_in_errors: frozenset[str] = frozenset()
) -> dict[str, list[Node]]:
    """The query's captures below root, by capture name, in document order.

    outside_errors: leave out ERROR subtrees, as `walk` does (except the captures named in kept_in_errors).

    The query runs in C: capturing every command of a script costs a fraction
    of a Python walk over its nodes (candidates.py has the numbers).
    """
    found = _captures_in_bands(query, root)
    if not outside_errors or not root.has_error:
        return found
    errors = [(node.start_byte, node.end_byte) for node in outermost_errors(root)]
    starts = [start for start, _ in errors]

    def in_error(node: Node) -> bool:
        index = bisect.bisect_right(starts, node.start_byte) - 1
        return index >= 0 and node.end_byte <= errors[index][1]

    return {
        name: nodes if name in kept_in_errors else [node for node in nodes if not in_error(node)]
        for name, nodes in found.items()
    }


def _captures_in_bands(query: Query, root: Node) -> dict[str, list[Node]]:
    from tree_sitter import QueryCursor

    deep = nodes_at_depth(root, QUERY_DEPTH)
    cursor = QueryCursor(query)
    if deep:
        cursor.set_max_start_depth(QUERY_DEPTH - 1)  # the deep nodes start bands of their own
    found = cursor.captures(root)
    for band in deep:
        for name, nodes in _captures_in_bands(query, band).items():
            found.setdefault(name, []).extend(nodes)
    for nodes in found.values():
        _in_document_order(nodes)
    return found


_START_BYTE = operator.attrgetter("start_byte")
_END_BYTE = operator.attrgetter("end_byte")


def _in_document_order(nodes: list[Node]) -> None:
    """Sort a capture's nodes by where they start (outer first): tree-sitter hands a query of
    several patterns its matches in an order that is not the document's (the same file gave
    `sh -c` before `ssh` in one process and after it in another)."""
    # Every step in C (attrgetter, set, sorted: no Python call per node; a lambda key cost
    # 0.4 s on the 216,000 captures of a 6.5 MB script). Most lists come in order already,
    # and two nodes that start together are rare.
    starts = list(map(_START_BYTE, nodes))
    if len(set(starts)) < len(starts):  # the outer of two that start together first: two stable sorts
        nodes.sort(key=_END_BYTE, reverse=True)
        nodes.sort(key=_START_BYTE)
    elif starts != sorted(starts):
        nodes.sort(key=_START_BYTE)


def nodes_at_depth(root: Node, depth: int) -> list[Node]:
    """The nodes exactly depth levels below root, found without visiting the tree's shallow parts.

    A node's descendant_count (itself included) bounds how deep its subtree
    goes, so only subtrees that can reach the depth are entered: one look at
    the root for almost every script, a walk down the deep spine for others.
    """
    if root.descendant_count <= depth:
        return []
    found: list[Node] = []
    stack = [(root, 0)]
    while stack:
        node, level = stack.pop()
        if level == depth:
            found.append(node)
            continue
        stack.extend((child, level + 1) for child in reversed(node.children) if child.descendant_count >= depth - level)
    return found


def command_name(command: Node) -> bytes | None:
    """The literal name of a simple command (`cat`, `/usr/bin/cat`), or None if computed."""
    if command.type != "command":
        return None
    name = command.child_by_field_name("name")
    if name is None or name.named_child_count != 1:
        return None
    word = name.named_children[0]
    if word.type != "word":
        return None
    return text(word)


def lookup_name(word: Node) -> bytes:
    """A command word as the shell looks it up: `\\set`, `'set'` and `"set"` are `set`.

    The caller asks only where the word holds no expansion (a computed name is
    anyone's guess): quotes and backslashes are removed.
    """
    value = literal_value(word)
    if value is not None:
        return value
    return text(word).replace(b"\\", b"").replace(b"'", b"").replace(b'"', b"")


def command_word(command: Node) -> bytes | None:
    """The name a simple command runs as the shell looks it up (`lookup_name`), or None where it is computed."""
    if command.type != "command":
        return None
    name = command.child_by_field_name("name")
    if name is None:
        return None
    written = text(name)
    if b"$" in written or b"`" in written:
        return None
    return lookup_name(name)


_NAME_VARIABLE = re.compile(rb'(")?\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})(")?')


def command_name_variable(command: Node) -> tuple[bytes, bool] | None:
    """(variable, quoted) when a simple command's name is one variable and nothing else: `$cmd`, `${cmd}`,
    `"$cmd"`; None otherwise (a literal name, `$cmd.sh`, `${cmd:-cat}`, `$1`)."""
    name = command.child_by_field_name("name") if command.type == "command" else None
    if name is None or name.named_child_count != 1 or name.named_children[0].type not in _NAME_VARIABLE_NODES:
        return None
    match = _NAME_VARIABLE.fullmatch(text(name))
    if match is None or bool(match.group(1)) != bool(match.group(4)):
        return None
    return match.group(2) or match.group(3), bool(match.group(1))


_NAME_VARIABLE_NODES = frozenset({"simple_expansion", "expansion", "string"})


def basename(name: bytes | None) -> bytes | None:
    return None if name is None else name.rsplit(b"/", 1)[-1]


def arguments(command: Node, wrapped: bool | None = None, redirects: Sequence[Node] | None = None) -> list[Node]:
    """The argument nodes of a simple command, in order, as bash reads them.

    tree-sitter-bash 0.25 takes the words after a redirect in the middle of a
    command for more destinations of that redirect (tree-sitter-bash #233:
    `grep 2>/dev/null -q pat f` parses as `grep` with a redirect to
    `/dev/null -q pat f`), or for words of a here-document operator (`cat
    <<EOF a`). bash gives a redirect one word and the command the rest.

    wrapped: whether the command is a redirected statement's body or a pipeline
    stage, when the caller knows (a query told it): `Node.parent` walks down from
    the root, so asking it of every command is quadratic in the nesting depth.
    redirects: the command's applied redirects (`applied_redirects`), when the caller
    has them (a pipeline stage's): none are looked for again.
    """
    words = command.children_by_field_name("argument")
    if redirects is not None:
        stray = [word for redirect in redirects for word in stray_words(redirect)]
        return _after_name(command, joined(sorted(words + stray, key=lambda node: node.start_byte) if stray else words))
    if wrapped is None:
        wrapped = command.parent is not None and command.parent.type in ("redirected_statement", "pipeline")
    if not wrapped:
        return _after_name(command, joined(words))
    return arguments(command, redirects=applied_redirects(command))


def _after_name(command: Node, words: list[Node]) -> list[Node]:
    """words without the piece of the command's own name tree-sitter-bash split off (#315: `$d/$tool.sh x`)."""
    name = command.child_by_field_name("name")
    if words and name is not None and words[0].start_byte == name.end_byte:
        return words[1:]
    return words


def stray_words(redirect: Node) -> list[Node]:
    """Words tree-sitter-bash put in a redirect that bash gives to the command (#233)."""
    if redirect.type == "file_redirect":
        return joined(redirect.children_by_field_name("destination"))[1:]
    if redirect.type == "heredoc_redirect":
        return redirect.children_by_field_name("argument")
    return []


# Words tree-sitter-bash splits in two (tree-sitter-bash #315, #180): after an
# expansion and some text, a `$name` followed by more text ends the word at the
# `$`: `$dir/$name.log` reads as `$dir/$` and a second word `name.log`, so `cat
# $dir/$name.log` seemed to have two operands. Nodes with no byte between them
# are one word to bash, whatever the grammar made of them: `joined` reads each
# such run again, whole, where the grammar reads it right (the value of a `case`,
# 69 runs in 10 of the 655 Debian scripts of tests/benchmarks/fetch_debian_corpus.sh).
_WORD_CONTEXT = (b"case ", b" in esac")


def joined(nodes: list[Node]) -> list[Node]:
    """nodes (a command's words, a redirect's destinations) as the shell's words: each run of nodes with
    no byte between them becomes one `JoinedWord`."""
    if len(nodes) < 2 or all(left.end_byte != right.start_byte for left, right in zip(nodes, nodes[1:])):
        return nodes  # almost every command: no join, no new list
    words: list[Node] = []
    run: list[Node] = [nodes[0]]
    for node in nodes[1:]:
        if node.start_byte == run[-1].end_byte:
            run.append(node)
        else:
            words.append(run[0] if len(run) == 1 else JoinedWord.of(run))
            run = [node]
    words.append(run[0] if len(run) == 1 else JoinedWord.of(run))
    return words


@functools.lru_cache(maxsize=512)
def _word_tree(word: bytes) -> Node | None:
    """The node of word read as the value of a `case`, or None when that reading is not one clean word."""
    prefix, suffix = _WORD_CONTEXT
    root = _parser().parse(prefix + word + suffix).root_node
    node = root.descendant_for_byte_range(len(prefix), len(prefix) + len(word))
    if root.has_error or node is None or (node.start_byte, node.end_byte) != (len(prefix), len(prefix) + len(word)):
        return None
    return node


class JoinedWord:
    """One shell word that tree-sitter-bash split into several nodes, read again whole (`joined`).

    It answers what rules and the helpers here ask of a word node (type,
    text, offsets, children, parent) with the offsets of the script; its
    children are the re-read word's, shifted. Where even that reading fails,
    its children are the split nodes themselves, under the type
    "concatenation": no static value, maybe several words.
    """

    __slots__ = ("_node", "_shift", "_parent", "_parts")

    def __init__(self, node: Node | None, shift: int, parent: object, parts: tuple[Node, ...] = ()):
        self._node = node  # the re-read node (None: not re-readable; parts stand for it)
        self._shift = shift
        self._parent = parent
        self._parts = parts  # the script's own nodes, for the outermost word

    @classmethod
    def of(cls, parts: list[Node]) -> JoinedWord:
        node = _word_tree(b"".join(text(part) for part in parts))
        shift = parts[0].start_byte - len(_WORD_CONTEXT[0])
        return cls(node, shift, parts[0].parent, tuple(parts))

    def _wrap(self, node: Node | None) -> JoinedWord | None:
        return None if node is None else JoinedWord(node, self._shift, self)

    @property
    def type(self) -> str:
        return "concatenation" if self._node is None else self._node.type

    @property
    def text(self) -> bytes:
        if self._parts:
            return b"".join(text(part) for part in self._parts)
        return self._node.text or b""  # type: ignore[union-attr]

    @property
    def start_byte(self) -> int:
        return self._parts[0].start_byte if self._parts else self._node.start_byte + self._shift  # type: ignore[union-attr]

    @property
    def end_byte(self) -> int:
        return self._parts[-1].end_byte if self._parts else self._node.end_byte + self._shift  # type: ignore[union-attr]

    @property
    def start_point(self):  # noqa: ANN201 - tree_sitter.Point
        return self._parts[0].start_point if self._parts else None

    @property
    def end_point(self):  # noqa: ANN201
        return self._parts[-1].end_point if self._parts else None

    @property
    def children(self) -> list[Node]:
        if self._node is None:
            return list(self._parts)
        return [JoinedWord(child, self._shift, self) for child in self._node.children]  # type: ignore[misc]

    @property
    def named_children(self) -> list[Node]:
        if self._node is None:
            return [part for part in self._parts if part.is_named]
        return [JoinedWord(child, self._shift, self) for child in self._node.named_children]  # type: ignore[misc]

    @property
    def child_count(self) -> int:
        return len(self.children)

    @property
    def named_child_count(self) -> int:
        return len(self.named_children)

    @property
    def parent(self) -> object:
        return self._parent

    @property
    def next_sibling(self) -> Node | None:
        return self._parts[-1].next_sibling if self._parts else self._wrap(self._node.next_sibling)  # type: ignore[union-attr]

    @property
    def prev_sibling(self) -> Node | None:
        return self._parts[0].prev_sibling if self._parts else self._wrap(self._node.prev_sibling)  # type: ignore[union-attr]

    is_named = True
    is_error = False
    is_missing = False
    has_error = False

    @property
    def id(self) -> int:
        """A number no tree-sitter node has (theirs are addresses, never negative), one per span and type."""
        return -1 - hash((self.type, self.start_byte, self.end_byte)) % (1 << 62)

    def child_by_field_name(self, name: str) -> Node | None:
        return None if self._node is None else self._wrap(self._node.child_by_field_name(name))

    def children_by_field_name(self, name: str) -> list[Node]:
        if self._node is None:
            return []
        return [JoinedWord(child, self._shift, self) for child in self._node.children_by_field_name(name)]  # type: ignore[misc]

    def descendants(self) -> Iterator[Node]:
        """Itself and every node below it, in document order (`walk`)."""
        stack: list[Node] = [self]  # type: ignore[list-item]
        while stack:
            node = stack.pop()
            if not node.is_error:
                yield node
                stack.extend(reversed(node.children))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, JoinedWord)
            and (self.type, self.start_byte, self.end_byte) == (other.type, other.start_byte, other.end_byte)
        )

    def __hash__(self) -> int:
        return hash((self.type, self.start_byte, self.end_byte))

    def __repr__(self) -> str:
        return f"JoinedWord({self.text!r} at {self.start_byte})"


def own_redirects(command: Node) -> list[Node]:
    """Redirects written inside a command node (`cat <<<"$x"`, `<f cat`)."""
    return command.children_by_field_name("redirect")


REDIRECT_TYPES = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})


def applied_redirects(node: Node) -> list[Node]:
    """Every redirect the shell applies to a command (or compound statement), in source order.

    tree-sitter-bash puts some inside the command (`<f cat`), and wraps the
    rest around it in `redirected_statement` nodes; a redirect after the last
    stage of a pipeline wraps the whole pipeline (`a | b 2>/dev/null | c` is
    `(a | b) 2>/dev/null | c`), yet belongs to that last stage; one after the
    last command of a list wraps the list (`cd b && make 2>/dev/null` is `(cd
    b && make) 2>/dev/null`, tree-sitter-bash #345), yet belongs to `make`.
    Redirects of a `{ …; }` group around the command are the group's, not
    listed here. For a pipeline node: the redirects that reach its last stage
    from around it.
    """
    found = own_redirects(node) if node.type == "command" else []
    while node.parent is not None:
        parent = node.parent
        if parent.type == "redirected_statement" and parent.child_by_field_name("body") == node:
            found += [child for child in parent.children if child.type in REDIRECT_TYPES]
        elif parent.type in ("pipeline", "list"):
            parts = [child for child in parent.named_children if child.type != "comment"]
            if not parts or parts[-1] != node:
                break
        else:
            break
        node = parent
    return sorted(found, key=lambda redirect: redirect.start_byte)


def fed_text(redirect: Node) -> bytes:
    """What a here-document or here-string puts on standard input, as far as it is known.

    A here-document's body as written; a here-string's static value, or its
    text as written when it expands something. b"" for other redirects.
    """
    if redirect.type == "heredoc_redirect":
        return b"".join(text(child) for child in redirect.children if child.type == "heredoc_body")
    if redirect.type == "herestring_redirect" and redirect.named_children:
        word = redirect.named_children[-1]
        value = literal_value(word)
        return value if value is not None else text(word)
    return b""


def has_assignments(command: Node) -> bool:
    return any(child.type == "variable_assignment" for child in command.children)


def literal_value(node: Node) -> bytes | None:
    """The value a word expands to when it is fully static, else None.

    Handles plain words, '…' and "…" without expansions, and concatenations of them.
    """
    if node.type == "word":
        value = text(node)
        # Braces stay literal unless they expand (`{}` of find and xargs, not `{a,b}`).
        if node.named_child_count or _EXPANDS_OR_ESCAPES.search(value) or _has_braces(value):
            return None
        return value
    if node.type == "raw_string":
        return text(node)[1:-1]
    if node.type == "string":
        parts = node.named_children
        if all(part.type == "string_content" for part in parts):
            inner = text(node)[1:-1]
            return None if b"\\" in inner else inner
        return None
    if node.type == "concatenation":
        # Brace expansion spans parts: `{a,b}` parses as the words `{`, `a,b`, `}`.
        if _has_glob_or_braces(b"".join(text(part) for part in node.named_children if part.type == "word")):
            return None
        values = [literal_value(part) for part in node.named_children]
        return None if any(v is None for v in values) else b"".join(values)  # type: ignore[arg-type]
    if node.type == "number":
        return text(node)
    return None


def static_prefix(node: Node) -> bytes:
    """The literal text a word begins with, quotes removed, up to its first expansion, glob or escape:
    `-u$USER` → `-u`, `"--port=$PORT"` → `--port=`, `'-p'"$P"` → `-p`, `$opts` → ``."""
    kind = node.type
    if kind == "word":
        value = text(node)
        found = _EXPANDS_OR_ESCAPES.search(value)
        return value if found is None else value[: found.start()]
    if kind == "raw_string":
        return text(node)[1:-1]
    if kind == "string":
        start = b""
        for part in node.named_children:
            if part.type != "string_content" or b"\\" in text(part):
                break
            start += text(part)
        return start
    if kind == "concatenation":
        start = b""
        for part in node.named_children:
            value = literal_value(part)
            if value is None:
                return start + static_prefix(part)
            start += value
        return start
    return b""


# One search in C, not a generator over the characters: literal_value runs on most words of a script.
_EXPANDS_OR_ESCAPES = re.compile(rb"[*?\[\]$`~\\]")  # globs, expansions, a tilde, a backslash
_GLOB = re.compile(rb"[*?\[]")


def _has_glob_or_braces(value: bytes) -> bool:
    return _GLOB.search(value) is not None or _has_braces(value)


def _has_braces(value: bytes) -> bool:
    return b"{" in value and (b"," in value or b".." in value)


def _expands_to_many(node: Node, quoted: bool) -> bool:
    kind = node.type
    if kind in ("word", "number"):
        value = text(node)
        return not quoted and _has_glob_or_braces(value)
    if kind in ("raw_string", "string_content", "ansi_c_string", "translated_string"):
        return False
    if kind in ("simple_expansion", "expansion"):
        body = text(node)
        if body.startswith(b"${!"):
            return True  # indirection and ${!prefix@} name lists
        if b"@" in body or (b"[*]" in body and not quoted):
            return True
        if body in (b"$*", b"${*}"):
            return not quoted
        return not quoted
    if kind == "brace_expression":
        return True
    if kind == "string":
        return any(_expands_to_many(child, True) for child in node.named_children)
    if kind == "concatenation":
        # Brace expansion spans parts: `{a,b}.log` parses as words `{`, `a,b`, `}`, `.log`.
        unquoted = b"".join(text(child) for child in node.named_children if child.type == "word")
        if not quoted and _has_glob_or_braces(unquoted):
            return True
        return any(_expands_to_many(child, quoted) for child in node.named_children if child.type != "word")
    if kind == "command_substitution":
        return False  # word splitting is reported as "unquoted expansion" by callers
    if kind == "arithmetic_expansion":
        return False
    return True  # process substitution, extglob, anything unknown: assume the worst


def is_single_word(node: Node) -> bool:
    """True when the argument cannot expand to several words (nor none)."""
    return not _expands_to_many(node, quoted=False)


def has_unquoted_expansion(node: Node) -> bool:
    """An unquoted $(…), `…` or $var whose field splitting could matter."""
    if node.type in ("command_substitution", "simple_expansion", "expansion"):
        return True
    if node.type == "concatenation":
        return any(has_unquoted_expansion(child) for child in node.named_children)
    return False


def comment_starts(root: Node, comments: list[Node] | None = None) -> list[int]:
    """Where each comment below root begins, in order; comments: all of them, when a query found them already."""
    if comments is None:
        comments = captures(query("(comment) @comment"), root, outside_errors=False).get("comment", [])
    return sorted(node.start_byte for node in comments)


def defined_functions(root: Node, names: list[Node] | None = None) -> frozenset[bytes]:
    """Names of the functions a script defines (they run in the current shell); names: their nodes, when
    a query found them already."""
    if names is None:
        names = captures(query("(function_definition name: (word) @name)"), root, outside_errors=False).get("name", [])
    return frozenset(text(node) for node in names)


def shape(node: Node) -> str:
    """A word as the script spells it, quotes dropped: `"$dir"/a.gz` → `$dir/a.gz`.

    Two words naming the same file through the same variables have the same
    shape, whatever the variables hold at run time.
    """
    spelled = text(node).replace(b'"', b"").replace(b"'", b"").decode("utf-8", "replace")
    return re.sub(r"\$\{(\w+)\}", r"$\1", spelled)


def mentioned_outside(name: bytes, source: bytes, spans: list[tuple[int, int]]) -> bool:
    """Whether name appears in source outside every (start, end) span, comments included.

    How rules tell "this file is used again": a deliberately generous text
    match, so a later "$TMPDIR/run.log" or a comment naming it counts.
    """
    start = source.find(name)
    while start != -1:
        if not any(low <= start < high for low, high in spans):
            return True
        start = source.find(name, start + 1)
    return False


def redirect_parts(redirect: Node) -> tuple[int | None, str, Node | None]:
    """(file descriptor, operator, destination) of a file redirect: `2>/dev/null` → (2, '>', word)."""
    descriptor = None
    operator = ""
    for child in redirect.children:
        if child.type == "file_descriptor":
            descriptor = int(text(child)) if text(child).isdigit() else None
        elif not child.is_named:
            operator = child.type
    destinations = joined(redirect.children_by_field_name("destination"))
    return descriptor, operator, destinations[0] if destinations else None


def redirects_stdin(redirect: Node) -> bool:
    """The redirect replaces descriptor 0: an input one without a descriptor, or any on `0` (`0>f` too)."""
    if redirect.type not in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
        return False
    descriptor, operator, _ = redirect_parts(redirect)
    if redirect.type != "file_redirect":
        return descriptor in (None, 0)  # `3<<<"$PW"` feeds descriptor 3, not stdin
    return descriptor == 0 or (operator in ("<", "<&", "<>", "<&-") and descriptor is None)


def redirects_stdout(redirect: Node) -> bool:
    """The redirect replaces descriptor 1: an output one without a descriptor, `&>`, or any on `1` (`1<>f` too)."""
    if redirect.type != "file_redirect":
        return False
    descriptor, operator, _ = redirect_parts(redirect)
    if operator in ("&>", "&>>") or descriptor == 1:
        return True
    return operator in (">", ">>", ">|", ">&", ">&-") and descriptor is None


# Complete statements that tree-sitter may leave as children of an ERROR node.
SALVAGEABLE = frozenset(
    {
        "pipeline", "command", "redirected_statement", "list", "negated_command",
        "if_statement", "while_statement", "for_statement", "c_style_for_statement",
        "case_statement", "compound_statement", "subshell", "function_definition",
        "variable_assignment", "declaration_command", "test_command", "comment",
    }
)


def outermost_errors(root: Node) -> list[Node]:
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error:
            found.append(node)
        elif node.has_error:
            stack.extend(node.children)
    return sorted(found, key=lambda n: n.start_byte)


def salvage(source: bytes, errors: list[Node]) -> tuple[bytes, list[tuple[int, int]]]:
    """The source with each ERROR node blanked except the complete statements inside it.

    tree-sitter-bash often wraps a whole file in one ERROR node when a single
    `fi` is missing; its children are still well-formed statements. Blanking
    (spaces, newlines kept) keeps every byte offset and row, so findings on
    the re-parsed text point at the original. Returns the text and the byte
    ranges of the statements kept: only what lies wholly inside one of them
    can be trusted, since the re-parse may join neighbours across the blanks.
    """
    buffer = bytearray(source)
    kept_all: list[tuple[int, int]] = []
    for error in errors:
        kept = [
            (child.start_byte, child.end_byte)
            for child in error.named_children
            if child.type in SALVAGEABLE and not child.has_error
        ]
        kept_all.extend(kept)
        cursor = error.start_byte
        for start, end in [*kept, (error.end_byte, error.end_byte)]:
            for offset in range(cursor, start):
                if buffer[offset] not in (0x0A, 0x0D):
                    buffer[offset] = 0x20
            cursor = max(cursor, end)
    return bytes(buffer), kept_all


def first_broken_offset(error: Node) -> int:
    """Where an ERROR node stops holding complete statements: the place to point at."""
    for child in error.children:
        if child.type not in SALVAGEABLE or child.has_error:
            return child.start_byte
    return error.start_byte


# Nodes whose output is captured or sent elsewhere than the script's stdout.
_OUTPUT_CAPTURED = frozenset({"command_substitution", "process_substitution", "function_definition", "heredoc_body"})


def writes_script_stdout(node: Node) -> bool:
    """Whether what node (a command) writes on stdout is the whole script's stdout.

    Not when a redirect sends it elsewhere (on the command or on any
    statement around it), when a later pipeline stage reads it, or when it is
    captured (`$(…)`, `<(…)`); a function body counts as captured, since its
    output goes wherever each call's does.
    """
    if any(redirects_stdout(r) for r in own_redirects(node)):
        return False
    child, parent = node, node.parent
    while parent is not None:
        kind = parent.type
        if kind in _OUTPUT_CAPTURED:
            return False
        if kind == "pipeline":
            stages = [c for c in parent.named_children if c.type != "comment"]
            if stages and stages[-1] != child:
                return False
        elif (
            kind == "redirected_statement"
            and parent.child_by_field_name("body") == child
            and any(redirects_stdout(c) or _pipes_on(c) for c in parent.children)
        ):
            return False
        child, parent = parent, parent.parent
    return True


def _pipes_on(redirect: Node) -> bool:
    """A here-document operator followed by `| more stages` (tree-sitter files them under it)."""
    return redirect.type == "heredoc_redirect" and any(child.type == "pipeline" for child in redirect.children)

_LOOPS = frozenset({"for_statement", "c_style_for_statement", "while_statement"})  # `until` and `select` too


# Blocks whose statements run one after the other in the same shell, where a statement that leaves the
# loop (`exit 1`) ends the loop for the statements before it too. Not a subshell: its `exit` ends it alone.
_SEQUENCES = frozenset({"do_group", "compound_statement", "if_statement", "elif_clause", "else_clause", "case_item"})


def in_loop(root: Node, start: int, end: int, leaves_loop: Callable[[bytes], bool] | None = None) -> bool:
    """Whether the text start..end runs once per iteration of a loop of the same function.

    A loop's body and a `while`/`until` condition run on every iteration; a
    `for` word list once. A function body is a boundary: where the function
    is called from is not followed. leaves_loop(name): whether a command of
    that name ends the loop (`exit`, `break`, `return`: the program table's);
    text followed in its block by one, as on an error path (`if ! x; then
    echo "$err" | mail …; exit 1; fi`), runs once, not per iteration.
    """
    node = root.descendant_for_byte_range(start, end)
    while node is not None and node.parent is not None:
        parent = node.parent
        if parent.type == "function_definition":
            return False
        if parent.type in _LOOPS and (node.type == "do_group" or parent.child_by_field_name("condition") == node):
            return parent.type == "while_statement" or node.type == "do_group"
        if leaves_loop is not None and parent.type in _SEQUENCES and _left_after(node, parent, leaves_loop):
            return False
        node = parent
    return False


def _left_after(node: Node, block: Node, leaves_loop: Callable[[bytes], bool]) -> bool:
    """A statement after node in block, run whenever node is, leaves the loop (`…; exit 1`)."""
    conditions = {child.id for child in block.children_by_field_name("condition")}
    if node.id in conditions:
        return False  # an `if` condition runs whether or not its branch exits
    after = False
    for child in block.named_children:
        if child.id == node.id:
            after = True
            continue
        if not after or child.id in conditions:
            continue
        if child.type in ("elif_clause", "else_clause"):
            return False  # another branch: it does not run after node's
        statement = child.child_by_field_name("body") if child.type == "redirected_statement" else child
        if statement is not None and statement.type == "command":
            name = command_name(statement)
            if name is not None and leaves_loop(name):
                return True
    return False
