"""One walk over a parsed script, handing each node to the rules that want it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pipelint import pipeline as pipelines
from pipelint import suppression, syntax
from pipelint.dialect import Dialect, detect
from pipelint.finding import Finding
from pipelint.rule import Context, Rule

# Text a fix may not add to a POSIX sh script.
BASHISMS = (b"<<<", b"|&", b"&>", b"[[", b"<(", b">(", b"$'")


@dataclass(frozen=True)
class ParseFailure:
    """Where tree-sitter could not parse; the rest of the file is still checked."""

    start: int
    end: int


@dataclass
class CheckResult:
    source: bytes
    dialect: Dialect
    findings: list[Finding] = field(default_factory=list)
    parse_failures: list[ParseFailure] = field(default_factory=list)


def check(
    source: bytes,
    rules: Iterable[Rule],
    path: str | None = None,
    settings: object | None = None,
    mountinfo: str | None = None,
) -> CheckResult:
    """Lint one script with the given rule instances."""
    tree = syntax.parse(source)
    root = tree.root_node
    dialect = detect(source, path)
    context = Context(source=source, root=root, dialect=dialect, path=path, settings=settings, mountinfo=mountinfo)
    rules = list(rules)
    on_pipeline = [r for r in rules if "pipeline" in r.subjects]
    on_command = [r for r in rules if "command" in r.subjects]
    on_program = [r for r in rules if "program" in r.subjects]

    findings: list[Finding] = []
    comments = []
    for rule in on_program:
        findings.extend(rule.check_program(root, context))
    for node in syntax.walk(root):
        kind = node.type
        if kind == "comment":
            comments.append(node)
        elif kind == "command":
            for rule in on_command:
                findings.extend(rule.check_command(node, context))
        if on_pipeline and kind in ("pipeline", "redirected_statement") and pipelines.is_pipeline_root(node):
            built = pipelines.build(node)
            if built is not None:
                for rule in on_pipeline:
                    findings.extend(rule.check_pipeline(built, context))

    errors = syntax.error_ranges(root)
    result = CheckResult(source=source, dialect=dialect)
    result.parse_failures = [ParseFailure(start, end) for start, end in errors]
    suppressions = suppression.collect(comments, len(source))
    for finding in sorted(findings, key=lambda f: (f.start, f.code)):
        if _touches(errors, finding.start, finding.end):
            continue
        if any(s.covers(finding.code, finding.start) for s in suppressions):
            continue
        result.findings.append(_guard_fix(finding, errors, dialect))
    return result


def _touches(ranges: list[tuple[int, int]], start: int, end: int) -> bool:
    """Inside or right next to one of the ranges."""
    return any(r_start <= end and start <= r_end for r_start, r_end in ranges)


def _guard_fix(finding: Finding, errors: list[tuple[int, int]], dialect: Dialect) -> Finding:
    """Drop a fix that edits next to a parse error or adds a bashism to an sh script."""
    fix = finding.fix
    if fix is None or not fix.edits:
        return finding
    start, end = fix.span
    if _touches(errors, start - 1, end + 1):
        return finding.with_fix(None)
    if dialect is Dialect.SH and any(token in edit.content for edit in fix.edits for token in BASHISMS):
        return finding.with_fix(None)
    return finding
