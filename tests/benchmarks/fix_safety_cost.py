#!/usr/bin/env python3
"""What issue 13's contract ("safe means safe") cost: fixes per rule on Debian's scripts, before and after.

Lints the shell scripts that `bash-completion`, `devscripts` and
`initramfs-tools` install (extracted under corpus/x by fetch_debian_corpus.sh) with every rule,
once with an older pipelint source tree and once with this one, and prints
per rule: findings, safe fixes, unsafe fixes and findings without a fix, then
what became of each safe fix of the older tree (still safe, now unsafe, no
fix any more, or no finding any more), matched by file, rule and line.

    git archive 2954347 | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    python tests/benchmarks/fix_safety_cost.py --before /tmp/before

With `--everything`, every file under the corpus folder that `pipelint check
DIR` would pick (scripts by extension or shebang, Dockerfiles and CI files),
plus bash-completion's completions, whatever the package; it takes any
folder, `fixtures/` too:

    python tests/benchmarks/fix_safety_cost.py --before /tmp/before --everything
    python tests/benchmarks/fix_safety_cost.py --before /tmp/before --everything --corpus fixtures

Each tree runs in a process of its own (`--tree DIR` prints its findings as
JSON), so the two `pipelint` packages never meet. Nothing is fixed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from corpus_home import DEBIAN_CORPUS  # same folder: run as a script

HERE = Path(__file__).resolve().parents[2]
# (package folder, folder inside it, lint every text file): bash-completion's completions
# and initramfs-tools' hook functions are sourced shell without a shebang.
FOLDERS = (
    ("bash-completion", "usr/share/bash-completion", True),
    ("devscripts", "usr/bin", False),
    ("initramfs-tools", "usr", False),
    ("initramfs-tools", "etc", False),
    ("initramfs-tools-core", "usr/share/initramfs-tools", True),
    ("initramfs-tools-core", "usr/bin", False),
    ("initramfs-tools-core", "usr/sbin", False),
)
KINDS = ("safe", "unsafe", "no fix")


def _scripts(corpus: Path):
    """The files linted, in a fixed order: shell by extension or shebang, or all text where marked."""
    from pipelint.cli.discovery import is_shell_script

    for package, inside, all_text in FOLDERS:
        for directory, subfolders, names in os.walk(corpus / package / inside):
            subfolders.sort()
            for name in sorted(names):
                path = Path(directory, name)
                if path.is_symlink() or not path.is_file() or "/share/doc/" in str(path) or "/man/" in str(path):
                    continue
                if all_text or "bash-completion/completions" in str(path) or is_shell_script(path):
                    yield path


def _everything(corpus: Path):
    """What `pipelint check CORPUS` picks, and the completions of bash-completion (sourced shell, no shebang)."""
    from pipelint.cli.discovery import walk_scripts

    picked = set(walk_scripts(corpus, lambda name: False))
    picked |= {path for path in corpus.glob("**/bash-completion/completions/*") if path.is_file() and not path.is_symlink()}
    yield from sorted(picked)


def findings_of_tree(corpus: Path, everything: bool = False) -> dict:
    """Files and lines linted, and (file, rule, line, kind) for every finding of the pipelint imported."""
    from pipelint.cli import files as reading
    from pipelint.engine import linter, registry
    from pipelint.engine.config import Settings
    from pipelint.finding import Applicability

    settings = Settings(select=tuple(rule.code for rule in registry.RULES))
    found = []
    files = lines = 0
    for path in _everything(corpus) if everything else _scripts(corpus):
        try:
            script = reading.read_script(path, settings.max_file_size)
        except reading.InputError:
            continue
        files += 1
        lines += script.source.count(b"\n")
        for finding in linter.lint(script.source, settings, path, host=linter.host_kind(settings, path)).findings:
            fix = finding.fix
            kind = "no fix" if fix is None or fix.applicability is Applicability.DISPLAY_ONLY else fix.applicability.value
            line = script.source.count(b"\n", 0, finding.start) + 1
            found.append((str(path.relative_to(corpus)), finding.code, line, kind))
    return {"files": files, "lines": lines, "findings": found}


def run_tree(tree: Path, corpus: Path, everything: bool = False) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, __file__, "--tree", str(tree), "--corpus", str(corpus), *(["--everything"] if everything else [])],
        env=env, cwd=tree, capture_output=True, check=True,
    )  # fmt: skip
    result = json.loads(done.stdout)
    result["findings"] = [tuple(item) for item in result["findings"]]
    return result


def table(old: dict, new: dict) -> str:
    before, after = old["findings"], new["findings"]
    counts = {name: Counter((code, kind) for _, code, _, kind in found) for name, found in (("before", before), ("after", after))}
    codes = sorted({code for _, code, _, _ in before + after})
    rows = [
        f"{new['files']} scripts, {new['lines']} lines ({old['files']} before); {len(before)} findings before, {len(after)} after",
        "",
        "| rule | findings | safe | unsafe | no fix |",
        "|---|---:|---:|---:|---:|",
    ]
    for code in codes:
        cells = []
        total = [sum(counts[name][(code, kind)] for kind in KINDS) for name in ("before", "after")]
        cells.append(f"{total[0]} → {total[1]}")
        cells += [f"{counts['before'][(code, kind)]} → {counts['after'][(code, kind)]}" for kind in KINDS]
        rows.append(f"| {code} | " + " | ".join(cells) + " |")
    rows += ["", "What became of each safe fix of before (matched by file, rule and line):", ""]
    rows += ["| rule | safe before | still safe | now unsafe | no fix now | no finding now |", "|---|---:|---:|---:|---:|---:|"]
    now = {(f, code, line): kind for f, code, line, kind in after}
    fates: dict[str, Counter] = {}
    for f, code, line, kind in before:
        if kind == "safe":
            fates.setdefault(code, Counter())[now.get((f, code, line), "gone")] += 1
    for code in sorted(fates):
        fate = fates[code]
        rows.append(f"| {code} | {sum(fate.values())} | {fate['safe']} | {fate['unsafe']} | {fate['no fix']} | {fate['gone']} |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="an older pipelint source tree (git archive of a commit)")
    parser.add_argument("--corpus", type=Path, default=DEBIAN_CORPUS, help="extracted Debian packages (default corpus/x)")
    parser.add_argument("--everything", action="store_true", help="every file `pipelint check CORPUS` picks")
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)  # internal: lint with the tree on PYTHONPATH
    args = parser.parse_args()
    if args.tree is not None:
        json.dump(findings_of_tree(args.corpus, args.everything), sys.stdout)
        return 0
    if args.before is None or not (args.before / "pipelint").is_dir():
        parser.error("--before must name a pipelint source tree")
    corpus = args.corpus.resolve()
    print(table(run_tree(args.before.resolve(), corpus, args.everything), run_tree(HERE, corpus, args.everything)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
