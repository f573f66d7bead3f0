#!/usr/bin/env python3
"""How the text of a script travels through the parse: the calls between modules, and those that climb back.

    python tests/benchmarks/parse_path.py [SCRIPT…]

Lints each script (by default a sample holding what the parse layer
handles: a here-document, a line tree-sitter-bash joins (#316), a `$(…)`
holding a here-document, an ERROR node) with every rule, records every
call from one pipelint module into another while the text is parsed,
guarded, salvaged and trusted — not the rules' own work — and prints:

- stops: the distinct module-to-module call edges (caller function →
  callee function) the parse takes, and the modules it visits;
- climbs: the edges whose callee the caller's module does not import,
  directly or not: a callback into a higher layer, the bounce issue 24
  asked to remove;
- per module, how many distinct functions of it the parse enters.

A static count of the same edges can miss callbacks; this one follows what
runs. It is a measurement, not a test: nothing asserts on it.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

PACKAGE = Path(__file__).resolve().parents[2] / "pipelint"

SAMPLE = b"""#!/bin/bash
set -euo pipefail
[ -n "$1" ]
cat "$1" | wc -l > count.txt
[ -f out ]
x=$(cat <<EOF
hello
EOF
)
cat <<'END' | grep h
  body
END
ssh host 'cat f | wc -l'
if then fi
"""

# Where the parse lives: the modules whose functions count as the parse's work.
PARSE_MODULES = ("pipelint.shell.", "pipelint.engine.checker", "pipelint.engine.linter")
# The rules' own work, and what rules ask: not the parse.
NOT_PARSE = ("pipelint.rules.", "pipelint.rewrites.", "pipelint.facts.", "pipelint.programs.", "pipelint.rule")


def module_of(path: str) -> str | None:
    """The package module a code object's file belongs to; None outside the package (and for `<string>`,
    the code dataclasses generate)."""
    try:
        relative = Path(path).resolve().relative_to(PACKAGE)
    except ValueError:
        return None
    parts = ("pipelint", *relative.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_closure() -> dict[str, set[str]]:
    """Each package module and every package module it imports, directly or not (lazy imports included)."""
    modules = {module_of(str(path)): path for path in PACKAGE.rglob("*.py")}
    direct: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        direct[name] = {target for target in found if target in modules}
    closure: dict[str, set[str]] = {}
    for name in modules:
        seen: set[str] = set()
        stack = [name]
        while stack:
            for target in direct.get(stack.pop(), ()):
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        closure[name] = seen
    return closure


def trace_parse(source: bytes) -> set[tuple[str, str, str, str]]:
    """The distinct (caller module, caller function, callee module, callee function) edges between modules."""
    from pipelint.engine import linter
    from pipelint.engine.config import Settings

    settings = Settings(select=("ALL",))
    edges: set[tuple[str, str, str, str]] = set()

    def profile(frame, event, _argument):
        if event != "call":
            return
        callee = module_of(frame.f_code.co_filename)
        caller_frame = frame.f_back
        if callee is None or caller_frame is None:
            return
        caller = module_of(caller_frame.f_code.co_filename)
        if caller is None or caller == callee:
            return
        if not callee.startswith(PARSE_MODULES) or caller.startswith(NOT_PARSE):
            return
        edges.add((caller, caller_frame.f_code.co_name, callee, frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        linter.lint(source, settings, Path("sample.sh"))
    finally:
        sys.setprofile(None)
    return edges


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scripts", nargs="*", type=Path)
    arguments = parser.parse_args()
    sources = [path.read_bytes() for path in arguments.scripts] or [SAMPLE]
    closure = import_closure()
    edges: set[tuple[str, str, str, str]] = set()
    for source in sources:
        edges |= trace_parse(source)
    climbs = sorted(edge for edge in edges if edge[2] not in closure.get(edge[0], set()))
    modules = {edge[0] for edge in edges} | {edge[2] for edge in edges}
    entered = Counter(edge[2] for edge in edges)
    asked = sorted({(edge[2], edge[3]) for edge in edges if edge[0].startswith("pipelint.engine.") and edge[2].startswith("pipelint.shell.")})
    print(f"stops: {len(edges)} distinct calls between modules, {len(modules)} modules")
    print(f"asked: {len(asked)} functions of shell/ the engine calls: " + ", ".join(f"{m.rsplit('.', 1)[1]}.{f}" for m, f in asked))
    print(f"climbs: {len(climbs)} calls into a module the caller does not import")
    for caller, caller_function, callee, callee_function in climbs:
        print(f"  {caller}.{caller_function} -> {callee}.{callee_function}")
    print("entered (distinct functions called from another module):")
    for module, count in entered.most_common():
        print(f"  {module}: {count}")


if __name__ == "__main__":
    main()
