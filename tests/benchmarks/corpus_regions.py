#!/usr/bin/env python3
"""Shell inside strings on real scripts: what is found there, and that fixing it breaks nothing.

A measurement like the benchmarks (not collected by pytest). For every shell
script under the given folders (a `.sh`/`.bash` name or a sh/bash/dash/ksh
shebang, under 1 MiB) it lints with and without `embedded`, then applies
every fix (`--unsafe-fixes`) and checks that a script `bash -n`/`dash -n`
accepted before is still accepted after. It reports:

- scripts, inner scripts found (by kind: `ssh`, `sh -c`, here-document…),
  findings, and how many came from inside strings and here-documents;
- parse failures that come only from inner scripts (a wrong region shows
  there first), rule crashes and exceptions;
- fixed scripts whose syntax check breaks (must be none).

--any-name takes every text file (bash-completion's files have no shebang).

    python tests/benchmarks/corpus_regions.py corpus/x /usr/share /usr/lib /etc
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipelint.engine import checker  # noqa: E402
from pipelint.engine.config import Settings  # noqa: E402
from pipelint.shell.dialect import Dialect, detect  # noqa: E402
from pipelint.engine.linter import process  # noqa: E402

MAX_SIZE = 1 << 20
_SHEBANG = re.compile(rb"^#![ \t]*\S*/(?:env[ \t]+)?(?:sh|bash|dash|ksh)\b")


def scripts(folders: list[str], any_name: bool = False) -> list[Path]:
    found = []
    for folder in folders:
        for root, _, names in os.walk(folder):
            for name in names:
                path = Path(root, name)
                try:
                    if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_SIZE:
                        continue
                    with open(path, "rb") as handle:
                        head = handle.read(128)
                except OSError:
                    continue
                if name.endswith((".sh", ".bash")) or _SHEBANG.match(head) or (any_name and b"\0" not in head):
                    found.append(path)
    return sorted(set(found))


def _kind(origin: str) -> str:
    """ "the command `ssh` runs remotely in `docker exec`" → "ssh (docker exec)"."""
    names = re.findall(r"`([^`]+)`", origin)
    kind = ("here-document " if "here-" in origin else "") + (names[0] if names else origin)
    return kind + (f" ({names[1]})" if len(names) > 1 else "")


def syntax_ok(source: bytes, shell: str) -> bool:
    with tempfile.NamedTemporaryFile(suffix=".sh") as handle:
        handle.write(source)
        handle.flush()
        return subprocess.run([shell, "-n", handle.name], capture_output=True, timeout=30).returncode == 0


def one(path: Path) -> dict:
    result: dict = {"path": str(path), "kinds": collections.Counter(), "error": None}
    try:
        source = path.read_bytes()
        if b"\0" in source[:8192]:
            return result
        name = str(path)
        embedded = process(source, name, Settings(), path)
        alone = process(source, name, Settings(embedded=False), path)
        found = checker.check(source, [], name, Settings())
        result["kinds"].update(_kind(region.origin) for region in found.regions)
        plain = {(f.code, f.start, f.end) for f in alone.findings}
        result["findings"] = len(embedded.findings)
        result["inner_findings"] = sum((f.code, f.start, f.end) not in plain for f in embedded.findings)
        result["inner_codes"] = collections.Counter(
            f.code for f in embedded.findings if (f.code, f.start, f.end) not in plain
        )
        result["inner_parse_failures"] = len(embedded.parse_failures) - len(alone.parse_failures)
        result["crashes"] = [crash.code for crash in embedded.crashes]
        fixed = process(source, name, Settings(unsafe_fixes=True), path, fix=True)
        result["fixes"] = len(fixed.fixed)
        if fixed.fixed_source is not None:
            shell = "dash" if detect(source, name) is Dialect.SH else "bash"
            if syntax_ok(source, shell) and not syntax_ok(fixed.fixed_source, shell):
                result["broken_by_fix"] = shell
    except Exception as error:  # a corpus run reports, it does not stop
        result["error"] = f"{type(error).__name__}: {error}"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--any-name", action="store_true", help="every text file (bash-completion files have no shebang)")
    arguments = parser.parse_args()
    paths = scripts(arguments.folders, arguments.any_name)
    with multiprocessing.Pool(arguments.jobs) as pool:
        results = pool.map(one, paths, chunksize=8)
    kinds: collections.Counter = collections.Counter()
    codes: collections.Counter = collections.Counter()
    for result in results:
        kinds.update(result["kinds"])
        codes.update(result.get("inner_codes", {}))
    print(f"scripts: {len(results)}")
    print(f"inner scripts: {sum(kinds.values())} in {sum(bool(r['kinds']) for r in results)} scripts")
    for kind, count in kinds.most_common():
        print(f"  {count:6d}  {kind}")
    print(
        f"findings: {sum(r.get('findings', 0) for r in results)}, from inner scripts: {sum(r.get('inner_findings', 0) for r in results)}"
    )
    for code, count in codes.most_common():
        print(f"  {count:6d}  {code}")
    print(f"fixes applied (unsafe included): {sum(r.get('fixes', 0) for r in results)}")
    for label, key in (("parse failures only inside inner scripts", "inner_parse_failures"),):
        hits = [r for r in results if r.get(key, 0) > 0]
        print(f"{label}: {sum(r[key] for r in hits)} in {len(hits)} scripts")
        for r in hits[:20]:
            print(f"    {r['path']}")
    for label, key in (
        ("rule crashes", "crashes"),
        ("exceptions", "error"),
        ("fixes that break the syntax check", "broken_by_fix"),
    ):
        hits = [r for r in results if r.get(key)]
        print(f"{label}: {len(hits)}")
        for r in hits[:20]:
            print(f"    {r['path']}: {r[key]}")


if __name__ == "__main__":
    main()
