"""Hover over a code in a disable directive: the rule's document; over a traced pipeline: what it cost.

`# pipelint: disable=PL001,useless-cat` shows the document of the code (or
name) under the cursor; `# shellcheck disable=SC2002` shows the documents of
the pipelint rules that honour it.  Only real comments count: the same text
inside a string or a here-document is left alone.  With `trace-file` set,
a pipeline that `pipelint trace` measured shows its cost (`trace.measured`).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from pipelint.engine import registry, ruledocs
from pipelint.lsp.documents import DocumentText
from pipelint.lsp.ranges import to_offset, to_range
from pipelint.shell.positions import Encoding
from pipelint.rule import Rule
from pipelint.shell.directives import ALL, SHELLCHECK, tokens


def _rules_for(token: str, shellcheck: bool) -> list[type[Rule]]:
    if token.lower() == ALL:
        return list(registry.RULES)
    if shellcheck:
        return registry.rule_for_shellcheck(token)
    rule = registry.lookup(token)
    return [rule] if rule is not None else []


def _markdown(token: str, shellcheck: bool, rules: list[type[Rule]]) -> str:
    if token.lower() == ALL:
        return f"`{token}` disables every rule:\n\n```text\n{ruledocs.table()}\n```\n"
    if not rules:
        return f"`{token}`: no pipelint rule has this code or name (see `pipelint rule --all`)."
    documents = [ruledocs.read(rule) for rule in rules]
    if shellcheck:
        names = ", ".join(f"{rule.code} ({rule.name})" for rule in rules)
        documents.insert(0, f"ShellCheck's `{token}` also disables {names}.\n")
    return "\n---\n\n".join(documents)


def _comment_at(document: DocumentText, offset: int):
    root = document.tree.root_node
    for at in (offset, offset - 1):  # the cursor may sit just after the last character
        if at < 0:
            continue
        node = root.descendant_for_byte_range(at, at)
        if node is not None and node.type == "comment":
            return node
    return None


def hover(document: DocumentText, position: types.Position, encoding: Encoding, markdown: bool = True) -> types.Hover | None:
    offset = to_offset(document.index, position, encoding)
    comment = _comment_at(document, offset)
    if comment is None:
        return None
    text = document.source[comment.start_byte : comment.end_byte]
    for written in tokens(text) or ():
        start, end, shellcheck = written.start, written.end, written.tool == SHELLCHECK
        if comment.start_byte + start <= offset <= comment.start_byte + end:
            token = written.text
            if shellcheck and token.lower() != ALL and not _rules_for(token, shellcheck):
                return None  # a ShellCheck code pipelint has nothing to say about
            value = _markdown(token, shellcheck, _rules_for(token, shellcheck))
            kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
            return types.Hover(
                contents=types.MarkupContent(kind=kind, value=value),
                range=to_range(document.index, comment.start_byte + start, comment.start_byte + end, encoding),
            )
    return None


def measured_hover(
    document: DocumentText, position: types.Position, encoding: Encoding, trace_file: Path, markdown: bool = True
) -> types.Hover | None:
    """What the configured trace measured of the pipeline under the cursor (the script as traced only)."""
    from pipelint.trace.measured import TraceFileError, hover as trace_hover, load_cached

    if document.path is None:
        return None
    try:
        trace = load_cached(trace_file)
    except (OSError, TraceFileError):
        return None  # no trace yet, or an old one: nothing to show
    found = trace_hover(trace, document.path, document.source, to_offset(document.index, position, encoding))
    if found is None:
        return None
    unit, value = found
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    return types.Hover(
        contents=types.MarkupContent(kind=kind, value=value), range=to_range(document.index, unit.start, unit.end, encoding)
    )
