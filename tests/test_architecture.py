"""The shape of the package: folders that show the layers, imports that only go down, one home per fact.

Every import counts here, those under `if TYPE_CHECKING:` and those inside
functions too: a type-only import from a higher layer is still a lower layer
that knows a higher one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "pipelint"
README = PACKAGE.parent / "README.md"

# The layers, lowest first: a module may import its own layer and those before it, never one after.
LAYERS = (
    "finding",  # what a check reports: findings, fixes, edits, parse failures
    "shell",  # the shell's own language: parse, here-documents, dialect, options, directives, positions
    "programs",  # what programs do: the one table, the command model, pipelines, launchers
    "facts",  # what depends on the whole script: options in force, exit statuses, variables, mounts
    "embedded",  # shell inside other text: regions, the scripts commands run, host files
    "rule",  # the rule API: Rule, Context
    "rewrites",  # the rewrites several rules share, and when each is safe
    "rules",  # one module per rule
    "engine",  # one file's check, the fixer, settings, the rule registry, suppressions
    "output",  # the report formats
    "trace",  # measuring a script's pipelines by running it
    "lsp",  # the language server
    "cli",  # the command line and a run over many files
)
# What sits at the top of pipelint/: the layers (folders or the rule API's modules) and the package's own files.
TOP_LEVEL_FILES = {"__init__.py", "__main__.py", "finding.py", "rule.py"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """Every package module path imports, wherever the import stands (type-only and lazy ones included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name in known}


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(paths)
    return {name: imports(path, known) - {name} for name, path in paths.items()}


def layer_of(module: str) -> int | None:
    """The index of a module's layer in LAYERS; None for the package itself (`pipelint`, `pipelint.__main__`)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return LAYERS.index(parts[1])


def test_the_top_level_shows_the_layers():
    entries = {path.name for path in PACKAGE.iterdir() if path.name != "__pycache__" and not path.name.startswith(".")}
    folders = {name for name in entries if (PACKAGE / name).is_dir() and name != "rule_docs"}
    files = entries - folders - {"rule_docs"}
    assert files <= TOP_LEVEL_FILES | {f"{layer}.py" for layer in LAYERS}, sorted(files - TOP_LEVEL_FILES)
    assert folders <= set(LAYERS), sorted(folders - set(LAYERS))
    assert len(folders) <= 12, "about ten folders: a reader sees the design before opening a file"


def test_every_module_belongs_to_a_layer():
    outside = [name for name in import_graph() if layer_of(name) is None and name not in ("pipelint", "pipelint.__main__")]
    assert not outside, outside


def test_a_lower_layer_never_imports_a_higher_one():
    upward = []
    for name, imported in sorted(import_graph().items()):
        low = layer_of(name)
        for target in sorted(imported):
            high = layer_of(target)
            if low is not None and high is not None and high > low:
                upward.append(f"{name} ({LAYERS[low]}) imports {target} ({LAYERS[high]})")
    assert not upward, "\n".join(upward)


def is_rule_module(name: str) -> bool:
    """A rule's own module (`pipelint.rules.pl001_useless_cat`), not a helper beside them (`rules.evidence`)."""
    return name.startswith("pipelint.rules.pl")


def test_no_rule_imports_another_rule():
    for name, imported in import_graph().items():
        if is_rule_module(name):
            others = {other for other in imported if is_rule_module(other)}
            assert not others, f"{name} imports {sorted(others)}: share the fact through a module rules import"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, as the list of modules around it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_package_has_no_import_cycle():
    """None at all: the language server's modules included, type-only and lazy imports included."""
    graph = {name: {target for target in imported if target != "pipelint"} for name, imported in import_graph().items()}
    cycle = find_cycle(graph)
    assert cycle is None, " → ".join(cycle)


@pytest.mark.parametrize(
    ("graph", "has_cycle"),
    [({"a": {"b"}, "b": {"c"}, "c": set()}, False), ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, True)],
)
def test_find_cycle_finds_cycles(graph, has_cycle):
    assert (find_cycle(graph) is not None) is has_cycle


def readme_rule_rows() -> list[tuple[str, str]]:
    """(codes, names) cells of the README's rule table: `| PL101–PL103 | tee-devnull, tee-slow-mount, stray-tee | … |`."""
    rows = re.findall(r"^\| (PL\d{3}(?:[–,] ?PL\d{3})*) \| ([a-z0-9, -]+) \|", README.read_text(encoding="utf-8"), re.MULTILINE)
    return [(codes, names) for codes, names in rows]


def test_the_readme_rule_table_lists_every_registered_rule():
    from pipelint.engine import registry

    codes: set[str] = set()
    names: set[str] = set()
    for written_codes, written_names in readme_rule_rows():
        for part in written_codes.split(","):
            first, _, last = part.strip().partition("–")
            codes.update(code for code in registry.BY_CODE if first <= code <= (last or first))
        names.update(name.strip() for name in written_names.split(","))
    assert codes == set(registry.BY_CODE), sorted(set(registry.BY_CODE) ^ codes)
    assert names == set(registry.BY_NAME), sorted(set(registry.BY_NAME) ^ names)


def test_program_names_are_not_listed_outside_the_program_table():
    """A literal set that names two programs of the table, anywhere but `programs/table.py`, is a second copy of it.

    A rule may still name the one program it is about (`stage.name == b"cat"`); a set of names is what
    `programs.table` says with a trait (`named(Trait.GREP)`), and a copy of it drifts.
    """
    from pipelint.programs.table import PROGRAMS

    literal_set = re.compile(rb"(?:frozenset\(\{|\{|\(|\[)\s*((?:b\"[^\"]+\"\s*,\s*)+b\"[^\"]+\")")
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).as_posix() == "programs/table.py":
            continue
        for match in literal_set.finditer(path.read_bytes()):
            names = re.findall(rb'b"([^"]+)"', match.group(1))
            if sum(name in PROGRAMS for name in names) >= 2:
                offenders.append(f"{path.relative_to(PACKAGE)}: {match.group(0)[:70]!r}")
    assert not offenders, "\n".join(offenders)


def test_the_adding_a_rule_walk_through_runs_as_written():
    """docs/architecture.md's example rule, executed as it is printed there."""
    from pipelint.engine import checker, registry

    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    walk_through = text.split("## Adding a rule", 1)[1]
    code = walk_through.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "docs/architecture.md", "exec"), namespace)
    rule = namespace["SortHeadRule"]()
    (finding,) = checker.check(b"sort names.txt | head -n 1\n", [rule]).findings
    assert finding.code == "PL504" and finding.fix is None and "awk" in finding.help
    quiet = (b"sort names.txt | head -n 5\n", b"sort -o x names.txt | head -n 1\n", b'sort "-$o" f | head -n1\n',
             b"sort f | head -c 1\n", b"sort f > x | head -n 1\n", b"sort -c f | head -n 1\n")  # fmt: skip
    for source in quiet:
        assert checker.check(source, [rule]).findings == [], source
    for source in (b"sort f | head -n1\n", b"sort f | head -1\n", b"sort f | head --lines=1\n"):
        assert checker.check(source, [rule]).findings, source
    assert rule.enabled_by_default is False
    registered = registry.BY_CODE["PL504"]()
    for source in (*quiet, b"sort f | head -n1\n", b"sort f | head -1\n"):
        printed = [(f.start, f.end, f.message) for f in checker.check(source, [rule]).findings]
        assert printed == [(f.start, f.end, f.message) for f in checker.check(source, [registered]).findings], source


# Issue 25 class 8: what a lint reads from outside the file is declared in facts/outside.py and read through it,
# or the results cache answers stale. The lint's layers may not open files or list folders themselves.
_LINT_LAYERS = ("shell", "programs", "facts", "embedded", "rule", "rewrites", "rules")
_LINT_ENGINE = {"pipelint.engine.checker", "pipelint.engine.linter", "pipelint.engine.candidates", "pipelint.engine.fixer",
                "pipelint.engine.suppression", "pipelint.engine.inline", "pipelint.engine.patterns"}  # fmt: skip
_OUTSIDE_READERS = {
    "pipelint.facts.outside": "the one reader of outside inputs",
    "pipelint.facts.mounts": "parses the mount table for outside.mount_table()",
    "pipelint.shell.dialect": "is_shell_script: for discovery, and for outside.sibling_scripts()",
    "pipelint.shell.acceptance": "runs the installed shell for outside.shell_accepts()",
}
_FILE_CALLS = {"open", "scandir", "listdir", "stat", "lstat", "read_text", "read_bytes", "iterdir", "glob", "rglob",
               "exists", "is_file", "is_dir", "getcwd", "getenv"}  # fmt: skip
# The environment the cache keys: `PIPELINT_*` variables are in the engine's fingerprint (cli/cache.py).
_ENVIRONMENT_READERS = {"pipelint.engine.checker": "PIPELINT_CHECK_FIX_AVAILABILITY"}


def test_only_facts_outside_reads_beyond_the_linted_file():
    offenders = []
    for name, path in {module_name(p): p for p in PACKAGE.rglob("*.py")}.items():
        layer = layer_of(name)
        if name in _OUTSIDE_READERS or not (name in _LINT_ENGINE or (layer is not None and LAYERS[layer] in _LINT_LAYERS)):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if called in _FILE_CALLS or ast.unparse(node.func) == "os.walk":
                    offenders.append(f"{name}:{node.lineno}: {ast.unparse(node)[:60]}")
            elif isinstance(node, ast.Attribute) and node.attr == "environ" and name not in _ENVIRONMENT_READERS:
                offenders.append(f"{name}:{node.lineno}: os.environ")
    assert not offenders, "\n".join(offenders)
