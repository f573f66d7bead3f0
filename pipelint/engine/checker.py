"""One pass over a parsed script: the candidates the rules start from (candidates.py), handed to their hooks."""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from tree_sitter import Node, Tree

from pipelint.engine import candidates, suppression
from pipelint.embedded import find as embedded
from pipelint.embedded import inner_code
from pipelint.facts import exit_status
from pipelint.shell import directives, syntax
from pipelint.shell.parsed import ParsedScript, parse_script
from pipelint.programs import pipeline as pipelines
from pipelint.shell.dialect import SHELLS, Dialect, detect
from pipelint.finding import Applicability, Finding, FixAvailability, Note, NoteCause, ParseFailure, RuleCrash
from pipelint.programs.table import WRAPPERS, Trait, has
from pipelint.embedded.regions import Region
from pipelint.facts.outside import Outside, OutsideReads
from pipelint.facts.script import ScriptFacts
from pipelint.rule import CommandModels, Context, Rule

if TYPE_CHECKING:
    from pipelint.engine.config import Settings
    from pipelint.facts.script import VariableFacts

# Set to 1 (the test suite does, tests/conftest.py) to check every finding a
# rule reports against its declared fix_availability: a violation raises.
CHECK_FIX_AVAILABILITY = "PIPELINT_CHECK_FIX_AVAILABILITY"


@dataclass(frozen=True)
class Only:
    """Part of a script to lint (the language server's provisional lint, `lsp/provisional.py`).

    Rules see only the candidates (nodes, commands, pipelines) that lie
    within one of `ranges` (byte ranges, sorted, not overlapping), except
    the rules named in `everywhere`, which see the whole script; embedded
    scripts are found in the ranges only. The parse, the facts, the
    suppressions and the filters on findings stay the whole script's.
    """

    ranges: tuple[tuple[int, int], ...]
    everywhere: frozenset[str] = frozenset()

    def holds(self, node: Node) -> bool:
        index = bisect.bisect_right(self.ranges, (node.start_byte, float("inf"))) - 1
        return index >= 0 and node.end_byte <= self.ranges[index][1]


@dataclass
class CheckResult:
    source: bytes
    dialect: Dialect
    findings: list[Finding] = field(default_factory=list)
    parse_failures: list[ParseFailure] = field(default_factory=list)
    crashes: list[RuleCrash] = field(default_factory=list)  # rules that raised on this file
    notes: list[Note] = field(default_factory=list)  # what was read otherwise than tree-sitter-bash parsed it
    parsed: ParsedScript | None = None  # the parse (None for a host file)
    # Scripts that commands of this one run (`sh -c '…'`), for the linter to lint in turn.
    regions: list[Region] = field(default_factory=list)
    suppressions: list[suppression.Suppression] = field(default_factory=list)
    error_count: int = 0  # ERROR nodes and MISSING tokens, for the fixer's "parses no worse" test
    outside_read: frozenset[Outside] = frozenset()  # what the lint read from outside the file (cache.py)

    @property
    def unread(self) -> list[ParseFailure]:
        """What was not linted: the parse failures, reported as such or, where the shell accepts the
        script, as notes (`settings.strict_parse`)."""
        return self.parsed.failures if self.parsed is not None else self.parse_failures


def check(
    source: bytes,
    rules: Iterable[Rule],
    path: str | None = None,
    settings: Settings | None = None,
    mountinfo: str | None = None,
    region: Region | None = None,
    tree: Tree | None = None,
    only: Only | None = None,
    variables: Callable[[Node], VariableFacts] | None = None,
    report_unused: bool = True,
    outside: OutsideReads | None = None,
) -> CheckResult:
    """Lint one script with the given rule instances.

    region: when the script is the inner text of a region (`sh -c '…'`), the
    region, whose dialect and facts (errexit from the start…) apply.
    tree: tree-sitter's parse of source, when the caller has it (the language server's incremental one).
    only: lint only these parts of the script (`Only`); None: all of it.
    variables: how the script facts find the variable facts (`facts.ScriptFacts`); None: by their query.
    report_unused: report the directives that disabled nothing (PL900) here; False when the caller lints
    the scripts inside this one, which the directives may cover, and reports them after (linter.py).
    outside: the record of what the lint reads from outside the file, shared by a script and the scripts
    inside it (linter.py); None: one of its own.
    """
    forced = settings.forced_dialect if settings is not None else None
    dialect = region.dialect if region is not None else detect(source, path, forced)
    parsed = parse_script(source, dialect, tree)
    rules = list(rules)
    plan = candidates.plan(rules)
    found = candidates.find(plan, parsed.root)
    outside = OutsideReads(path, mountinfo) if outside is None else outside
    context = _context(source, dialect, parsed, found, rules, path, settings, outside, region, variables)
    if found.named_by_variable:  # `command=cat; $command f | …`: the facts say what such a name runs
        candidates.name_programs(plan, found, context.facts.program_named_by)
    guard = _Guard(os.environ.get(CHECK_FIX_AVAILABILITY) == "1")
    findings, comments, commands = _walk(parsed, found, rules, context, guard, only)
    result = CheckResult(source=source, dialect=dialect, crashes=guard.crashes, parsed=parsed)
    result.parse_failures, result.notes = _failures_and_notes(parsed, settings, outside)
    result.error_count = parsed.error_count
    if directives.may_hold_directives(source):
        result.suppressions = suppression.collect(directives.placed(comments, source))
    loops_only = settings.loops_only if settings is not None else frozenset()
    unreadable = None
    if region is not None and (region.outer_code or region.script_on_stdin):
        unreadable = inner_code.unreadable_from(parsed.root, region, context.command)
    suppressed = suppression.Coverage(result.suppressions)
    for finding in sorted(findings, key=lambda f: (f.start, f.code)):
        if not parsed.trusts_finding(finding.start, finding.end):
            continue
        if finding.code in loops_only and not syntax.in_loop(parsed.root, finding.start, finding.end, _leaves_loop):
            continue  # in the default set only where it runs once per iteration
        if suppressed.covers(finding.code, finding.start):
            continue
        result.findings.append(_unsafe_past(parsed.guard_fix(finding), unreadable))
    if report_unused and only is None:
        result.findings += suppression.report_unused(result.suppressions, rules, source, result.unread)
        result.findings.sort(key=lambda finding: (finding.start, finding.code))
    depth = 0 if region is None else region.depth
    remote = SHELLS[settings.remote_shell].dialect if settings is not None else Dialect.SH
    seen = partial(exit_status.command_status_observed, facts=context.facts)
    environment = (region.environment if region is not None else ()) + context.facts.exported_startup
    known = embedded.known_words(context.facts)
    result.regions = embedded.find_regions(commands, context.command, depth, remote, region, seen, environment, known)
    result.outside_read = frozenset(outside.read)
    return result


def _failures_and_notes(
    parsed: ParsedScript, settings: Settings | None, outside: OutsideReads
) -> tuple[list[ParseFailure], list[Note]]:
    """What did not parse, as parse failures, or as notes where the script's shell reads it without a
    syntax error (`acceptance.shell_accepts`, asked through `outside`: an installed shell is an input of
    the lint): then it is pipelint's limit, not the user's error."""
    notes = parsed.notes()
    if not parsed.failures or settings is None or settings.strict_parse:
        return parsed.failures, notes
    if not outside.shell_accepts(parsed.source, parsed.dialect):
        return parsed.failures, notes
    unreadable = [Note(NoteCause.UNREADABLE, failure.start, failure.end, checked=False) for failure in parsed.failures]
    return [], sorted(notes + unreadable, key=lambda note: note.start)


def _leaves_loop(name: bytes) -> bool:
    """A command after which the loop around it goes on no more (`exit`, `break`, `return`)."""
    return has(name, Trait.LEAVES_LOOP)


def _context(
    source: bytes,
    dialect: Dialect,
    parsed: ParsedScript,
    found: candidates.Found,
    rules: list[Rule],
    path: str | None,
    settings: Settings | None,
    outside: OutsideReads,
    region: Region | None,
    variables: Callable[[Node], VariableFacts] | None,
) -> Context:
    """What the rules read about this file, with the facts fed by the candidates' captures (not queried again)."""
    wrapped = None if parsed.root.has_error else found.wrapped  # captures skip ERROR subtrees: there, ask the tree
    reader = CommandModels(found.names, wrapped)
    start = region.start_options if region is not None else frozenset()
    handed_on = region.status_handed_on if region is not None else True
    unseen_first = region.runs_code_first if region is not None else False
    facts = ScriptFacts(parsed.root, reader, start, handed_on, found.captured, found.names, variables, unseen_first)
    return Context(
        source=source,
        root=parsed.root,
        dialect=dialect,
        facts=facts,
        command=reader,
        path=path,
        slow_mounts=settings.slow_mounts if settings is not None else (),
        outside=outside,
        enabled_codes=frozenset(rule.code for rule in rules),
        region=region,
    )


def _walk(
    parsed: ParsedScript, found: candidates.Found, rules: list[Rule], context: Context, guard: _Guard, only: Only | None = None
) -> tuple[list[Finding], list[Node], list[Node]]:
    """Each candidate node handed to the rules whose hooks want it; the comments and trusted commands seen
    (with `only`, the commands within its ranges: where embedded scripts are looked for)."""
    findings: list[Finding] = []
    by_type: dict[str, list[Rule]] = {}
    for rule in rules:
        for kind in rule.node_types:
            by_type.setdefault(kind, []).append(rule)
    wanted = _Wanted(only)
    for node in found.nodes:
        for rule in wanted(by_type.get(node.type, ()), node):
            findings.extend(guard.run(rule, rule.check_node, node, context))
    commands = [node for node in found.commands if parsed.trusts(node.start_byte, node.end_byte)]
    on_command = [rule for rule in rules if rule.uses("check_command")]
    for node in commands:
        _check_command(node, wanted(on_command, node), context, guard, findings)
    on_pipeline = [rule for rule in rules if rule.uses("check_pipeline")]
    for root in found.pipelines if on_pipeline else ():
        on_this = wanted(on_pipeline, root)
        if not on_this or not parsed.trusts(root.start_byte, root.end_byte):
            continue
        built = pipelines.build(root, context.command)
        if built is not None:
            for rule in on_this:
                findings.extend(guard.run(rule, rule.check_pipeline, built, context))
            built.release()  # what the rules shared refers back to it (`UselessReader.pipeline`)
    if only is not None:
        commands = [node for node in commands if only.holds(node)]
    return findings, found.comments, commands


class _Wanted:
    """The rules that see a candidate: all of them, or with `Only` outside its ranges, those it names everywhere."""

    def __init__(self, only: Only | None) -> None:
        self._only = only

    def __call__(self, rules: Sequence[Rule], node: Node) -> Sequence[Rule]:
        only = self._only
        if only is None or not rules or only.holds(node):
            return rules
        return [rule for rule in rules if rule.code in only.everywhere]


def _check_command(node: Node, rules: list[Rule], context: Context, guard: _Guard, findings: list[Finding]) -> None:
    """The command's model to each rule that starts from its program (read only when one does)."""
    if not rules:
        return
    name = context.command.program_name(node)
    if all(rule.programs is not None and name not in rule.programs and name not in WRAPPERS for rule in rules):
        return  # neither the program nor a wrapper that may run it: the model says the same, slower
    model = context.command(node)
    for rule in rules:
        if rule.programs is None or model.program in rule.programs:
            findings.extend(guard.run(rule, rule.check_command, model, context))


class _Guard:
    """Calls rule hooks so that a rule that raises costs only its own findings on this file.

    The exception becomes one `RuleCrash` (reported as an internal error) and
    the rule is not called again on the file; the other rules carry on.
    """

    def __init__(self, check_fix_availability: bool = False) -> None:
        self.crashes: list[RuleCrash] = []
        self._crashed: set[str] = set()
        self._check_fix_availability = check_fix_availability

    def run(self, rule: Rule, hook: Callable[..., Iterable[Finding]], *arguments: object) -> list[Finding]:
        if rule.code in self._crashed:
            return []
        try:
            found = list(hook(*arguments))
        except Exception as error:  # a rule bug must not abort the run
            self._crashed.add(rule.code)
            summary = " ".join(f"{type(error).__name__}: {error}".split())
            import traceback  # a crash is rare: not imported by every run

            self.crashes.append(RuleCrash(rule.code, summary, traceback.format_exc()))
            return []
        if self._check_fix_availability:
            for finding in found:
                check_fix_availability(rule, finding)
        return found


class FixAvailabilityError(AssertionError):
    """A rule reported a finding its fix_availability says it never reports."""


def check_fix_availability(rule: Rule, finding: Finding) -> None:
    """ALWAYS: a fix with edits; NEVER: no fix; and a Fix always has edits (advice goes in help)."""
    fix = finding.fix
    if fix is not None and not fix.edits:
        raise FixAvailabilityError(f"{rule.code}: a fix without edits ({fix.title!r}): put advice in Finding.help")
    if rule.fix_availability is FixAvailability.ALWAYS and fix is None:
        raise FixAvailabilityError(
            f"{rule.code} declares fixes always available, yet reports {finding.message!r} without one"
        )
    if rule.fix_availability is FixAvailability.NEVER and fix is not None:
        raise FixAvailabilityError(f"{rule.code} declares fixes never available, yet offers {fix.title!r}")


def _unsafe_past(finding: Finding, unreadable: inner_code.Unreadable | None) -> Finding:
    """A safe fix made unsafe in an inner script from where its text may not run as written
    (`embedded.inner_code`: an outer expansion, a reader of the stdin the script comes from)."""
    fix = finding.fix
    if unreadable is None or fix is None or fix.applicability is not Applicability.SAFE or not fix.edits:
        return finding
    if fix.span[1] <= unreadable.offset:
        return finding
    help_text = finding.help or f"The fix is unsafe: {unreadable.reason}."
    return replace(finding, fix=replace(fix, applicability=Applicability.UNSAFE), help=help_text)
