"""The shape of the package: rules share facts through modules, and imports never go round in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "pipelint"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(path: Path, known: set[str]) -> set[str]:
    """The package modules path imports when it runs (imports under `if TYPE_CHECKING:` left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node)
               for child in node.body for inner in ast.walk(child)}  # fmt: skip
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name in known}


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(paths)
    return {name: runtime_imports(path, known) - {name} for name, path in paths.items()}


def is_rule_module(name: str) -> bool:
    """A rule's own module (`pipelint.rules.pl001_useless_cat`), not a helper beside them (`rules.evidence`)."""
    return name.startswith("pipelint.rules.pl")


def test_no_rule_imports_another_rule():
    graph = import_graph()
    for name, imported in graph.items():
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
    cycle = find_cycle(import_graph())
    assert cycle is None, " → ".join(cycle)


@pytest.mark.parametrize(
    ("graph", "has_cycle"),
    [({"a": {"b"}, "b": {"c"}, "c": set()}, False), ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, True)],
)
def test_find_cycle_finds_cycles(graph, has_cycle):
    assert (find_cycle(graph) is not None) is has_cycle


def test_the_adding_a_rule_walk_through_runs_as_written():
    """docs/architecture.md's example rule, executed as it is printed there."""
    from pipelint.engine import checker

    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    walk_through = text.split("## Adding a rule", 1)[1]
    code = walk_through.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "docs/architecture.md", "exec"), namespace)
    rule = namespace["SortHeadRule"]()
    (finding,) = checker.check(b"sort names.txt | head -n 1\n", [rule]).findings
    assert finding.code == "PL504" and finding.fix is None and "awk" in finding.help
    for quiet in (b"sort names.txt | head -n 5\n", b"sort -o x names.txt | head -n 1\n", b'sort "-$o" f | head -n1\n'):
        assert checker.check(quiet, [rule]).findings == [], quiet
    assert checker.check(b"sort f | head -n1\n", [rule]).findings
