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
    root = syntax.parse(source).root_node
    error_nodes = syntax.outermost_errors(root)
    failures = [ParseFailure(syntax.first_broken_offset(e), e.end_byte) for e in error_nodes]
    # No fix may touch what did not parse: the broken part of each ERROR node
    # (complete statements before it ran fine) and every MISSING token.
    # "Next to" means on the same line.
    errors = [
        _whole_lines(source, start, end)
        for start, end in [(f.start, f.end) for f in failures]
        + [
            (start, end)
            for start, end in syntax.error_ranges(root)
            if not any(e.start_byte <= start and end <= e.end_byte for e in error_nodes)
        ]
    ]
    if root.has_error:
        # Lint the complete statements tree-sitter left inside ERROR nodes; their
        # findings keep no fix (the checks below: they touch an error range).
        root = syntax.parse(syntax.salvage(source, syntax.outermost_errors(root))).root_node
        if not failures:
            failures = [ParseFailure(start, end) for start, end in errors]
    dialect = detect(source, path)
    rules = list(rules)
    context = Context(
        source=source,
        root=root,
        dialect=dialect,
        path=path,
        settings=settings,
        mountinfo=mountinfo,
        enabled_codes=frozenset(rule.code for rule in rules),
    )
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

    still_broken = syntax.error_ranges(root)
    result = CheckResult(source=source, dialect=dialect, parse_failures=failures)
    suppressions = suppression.collect(comments, len(source))
    for finding in sorted(findings, key=lambda f: (f.start, f.code)):
        if _touches(still_broken, finding.start, finding.end):
            continue
        if any(s.covers(finding.code, finding.start) for s in suppressions):
            continue
        result.findings.append(_guard_fix(finding, errors, dialect))
    return result


def _whole_lines(source: bytes, start: int, end: int) -> tuple[int, int]:
    line_start = source.rfind(b"\n", 0, start) + 1
    line_end = source.find(b"\n", end)
    return line_start, len(source) if line_end == -1 else line_end


def _touches(ranges: list[tuple[int, int]], start: int, end: int) -> bool:
    """Inside or right next to one of the ranges."""
    return any(r_start <= end and start <= r_end for r_start, r_end in ranges)


def _guard_fix(finding: Finding, errors: list[tuple[int, int]], dialect: Dialect) -> Finding:
    """Drop a fix that edits next to a parse error or adds a bashism to an sh script."""
    fix = finding.fix
    if fix is None or not fix.edits:
        return finding
    start, end = fix.span
    if _touches(errors, start, end):
        return finding.with_fix(None)
    if dialect is Dialect.SH and any(token in edit.content for edit in fix.edits for token in BASHISMS):
        return finding.with_fix(None)
    return finding
