"""Lint and fix one script: the step the CLI and the language server share."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from tree_sitter import Node, Tree

from pipelint.engine import checker
from pipelint.embedded import hosts
from pipelint.engine.config import Settings
from pipelint.facts.outside import Outside, OutsideReads
from pipelint.shell.dialect import Dialect
from pipelint.finding import Edit, Finding, Note, NoteCause, ParseFailure, apply_edits
from pipelint.engine.fixer import accept_all, fix_source
from pipelint.engine.report import FileReport
from pipelint.embedded.regions import Region
from pipelint.engine.suppression import Coverage, Suppression, collect, report_unused

if TYPE_CHECKING:
    from pipelint.facts.script import VariableFacts


def host_kind(settings: Settings, path: Path | None, language_id: str | None = None) -> hosts.HostKind | None:
    """The kind of a file that holds scripts (a Dockerfile, a workflow), when embedded shell is linted."""
    return hosts.kind_of(path, language_id) if settings.embedded else None


def lint(
    source: bytes,
    settings: Settings,
    path: Path | None,
    mountinfo: str | None = None,
    host: hosts.HostKind | None = None,
    tree: Tree | None = None,
    only: checker.Only | None = None,
    variables: Callable[[Node], VariableFacts] | None = None,
) -> checker.CheckResult:
    """Lint a script and the scripts inside it (`sh -c '…'`), all in the script's bytes.

    host: the file is no script but holds some (a Dockerfile): lint only the scripts it holds.
    tree: tree-sitter's parse of source, when the caller has it (a script's only).
    only: lint only part of a script, and the scripts inside that part (`checker.Only`).
    variables: how the script's facts find its variable facts (`facts.ScriptFacts`; not the inner scripts').
    """
    rules = settings.enabled_rules(path)
    name = str(path) if path else None
    outside = OutsideReads(name, mountinfo)  # one record for the script and the scripts inside it

    def check_region(region: Region) -> checker.CheckResult:
        return checker.check(
            region.text, [rule() for rule in rules], name, settings, mountinfo, region=region, report_unused=False,
            outside=outside,
        )  # fmt: skip

    def idle_directives(linted: checker.CheckResult, suppressions: list[Suppression] | None = None) -> list[Finding]:
        """PL900's findings on a script (or host) whose every finding, inner scripts' included, was looked up."""
        chosen = linted.suppressions if suppressions is None else suppressions
        return report_unused(chosen, rules, linted.source, linted.unread)

    if host is not None:
        scan = host.scan(source)
        result = checker.CheckResult(source, Dialect.SH, parse_failures=list(scan.failures), error_count=len(scan.failures))
        host_directives = collect(scan.directives)
        _lint_regions(result, scan.regions, [Coverage(host_directives)], check_region, idle_directives)
        result.findings = hosts.reported_once(result.findings, scan.regions) + idle_directives(result, host_directives)
    else:
        result = checker.check(
            source, [rule() for rule in rules], name, settings, mountinfo, tree=tree, only=only, variables=variables,
            report_unused=not settings.embedded, outside=outside,
        )  # fmt: skip
        if not settings.embedded:
            return result
        _lint_regions(result, result.regions, [Coverage(result.suppressions)], check_region, idle_directives)
        if only is None:  # a provisional lint saw part of the findings only
            result.findings += idle_directives(result)
    result.findings.sort(key=lambda finding: (finding.start, finding.code))
    result.outside_read = frozenset(outside.read)
    return result


def _lint_regions(
    host: checker.CheckResult,
    found: list[Region],
    suppressed: list[Coverage],
    check: Callable[[Region], checker.CheckResult],
    idle_directives: Callable[[checker.CheckResult], list[Finding]],
    parent: Region | None = None,
) -> None:
    """Lint each region found in parent's text (or the script's) and add what it finds to host, mapped back.

    suppressed: the host's directives, then those of each script the regions lie in (in the host's bytes).
    idle_directives: PL900's findings on a region's script, asked once the scripts inside it are linted too.
    """
    for region in found:
        region = replace(region, depth=1) if parent is None else region.inside(parent)
        inner = check(region)
        host.notes.extend(_inner_notes(inner, region))
        host.error_count += inner.error_count
        host.crashes.extend(inner.crashes)
        if region.reports_parse_failures:
            host.parse_failures.extend(ParseFailure(*region.outer_span(f.start, f.end)) for f in inner.parse_failures)
        # Directives inside the inner script cover what is nested deeper too.
        if inner.suppressions and inner.regions:
            directives = Coverage(s.moved(*region.outer_span(s.start, s.end)) for s in inner.suppressions)
            _lint_regions(host, inner.regions, [*suppressed, directives], check, idle_directives, region)
        else:
            _lint_regions(host, inner.regions, suppressed, check, idle_directives, region)
        for finding in inner.findings + idle_directives(inner):
            mapped = map_finding(finding, region)
            if not any(coverage.covers(mapped.code, mapped.start) for coverage in suppressed):
                host.findings.append(mapped)


def _inner_notes(inner: checker.CheckResult, region: Region) -> list[Note]:
    """The notes on a region's script, at the host file's bytes; what it could not read only where the
    region reports parse failures."""
    return [
        note.moved(*region.outer_span(note.start, note.end))
        for note in inner.notes
        if region.reports_parse_failures or note.cause is not NoteCause.UNREADABLE
    ]


def map_finding(finding: Finding, region: Region) -> Finding:
    """A finding in a region's text, in the host's bytes.

    Its fix goes along where every edit round-trips the host's quoting;
    otherwise the finding keeps no fix and its message shows the rewrite.
    """
    start, end = region.outer_span(finding.start, finding.end)
    if region.opaque:  # words the rule quoted may be placeholders: show the host's text
        finding = _shown(finding, region)
    fix = finding.fix
    if fix is None:
        return replace(finding, start=start, end=end)
    placed = region.place_edits(fix.edits)
    if not isinstance(placed, str):
        return replace(finding, start=start, end=end, fix=replace(fix, edits=placed))
    rewritten = region.shown(_rewritten_lines(region.text, list(fix.edits)))
    message = f"{finding.message} (in {region.origin}: `{rewritten}`)"
    advice = f"{fix.title} by hand: {placed}"
    return replace(finding, start=start, end=end, fix=None, message=message, help=finding.help or advice)


def _shown(finding: Finding, region: Region) -> Finding:
    """The finding's words with the region's placeholders back to the host text they stand for."""
    fix = finding.fix and replace(finding.fix, title=region.shown(finding.fix.title))
    help_text = finding.help and region.shown(finding.help)
    return replace(finding, message=region.shown(finding.message), help=help_text, fix=fix)


def _rewritten_lines(text: bytes, edits: list[Edit]) -> str:
    """The lines of text the edits change, as they read after them (one line, `; ` between)."""
    import difflib  # only for an inner script's finding that cannot be fixed in place

    before = text.decode("utf-8", "replace").splitlines()
    after = apply_edits(text, sorted(edits)).decode("utf-8", "replace").splitlines()
    changed = []
    for tag, _, _, low, high in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag != "equal":
            changed.extend(line.strip() for line in after[low:high])
    return "; ".join(line for line in changed if line)


@contextlib.contextmanager
def _cyclic_collection_paused():
    """No cyclic garbage collection while one file is linted.

    Linting a file makes many objects that live until it is done (nodes, command
    models, facts), and Python's collector walks them again at each of its
    frequent collections: a dense 1 MB script (a finding on every line) took
    3.1 s, 2.4 s paused and with no cycle left. A lint makes no cycle of its own
    (tests/test_collection_pause.py):
    what it leaves goes by reference counting, so pausing costs no memory, and
    garbage others make in a cycle meanwhile is collected once the file is done.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


@_cyclic_collection_paused()
def process(
    source: bytes,
    display_name: str,
    settings: Settings,
    path: Path | None = None,
    *,
    fix: bool = False,
    mountinfo: str | None = None,
    language_id: str | None = None,
    tree: Tree | None = None,
    variables: Callable[[Node], VariableFacts] | None = None,
) -> FileReport:
    """Lint source; with fix, apply what the settings allow and lint the result.

    language_id: what an editor calls the document, for a host file without a telling name.
    tree: tree-sitter's parse of source, when the caller has it (the language server's incremental one).
    variables: for source's lint, how its facts find its variable facts (`facts.ScriptFacts`: the
    language server keeps the exact lint's for later provisional lints).
    """
    host = host_kind(settings, path, language_id)
    report = FileReport(display_name=display_name, source=source, host=host.name if host else None)
    # The fixer's last pass lints the final text already: keep that result.
    latest: dict[bytes, checker.CheckResult] = {}

    def lint_once(text: bytes) -> checker.CheckResult:
        if text not in latest:
            latest.clear()
            same = text == source  # the caller's tree and variable facts are the original text's
            latest[text] = lint(
                text, settings, path, mountinfo, host, tree if same else None, variables=variables if same else None
            )
        return latest[text]

    if fix:
        outcome = fix_source(
            source,
            lambda text: lint_once(text).findings,
            settings.unsafe_fixes,
            lambda text: lint_once(text).error_count,
            (lambda before, edits, after: hosts.keeps_host(host, before, edits, after)) if host else accept_all,
        )
        if outcome.changed:
            report.fixed = outcome.applied
            report.fixed_source = outcome.source
    result = lint_once(report.final_source)
    report.findings = result.findings
    report.parse_failures = result.parse_failures
    report.crashes = result.crashes
    report.dialect = result.dialect
    report.notes = result.notes
    report.outside_read = result.outside_read
    return report
