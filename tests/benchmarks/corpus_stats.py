#!/usr/bin/env python3
"""Findings per rule, and per 1,000 lines, over folders of real scripts.

The precision check for the default rule set: run it over scripts nobody
wrote for pipelint (extracted Debian packages) and read what each rule
reports. A rule that fires often there is either finding a real cost or
crying wolf; the table says where to look.

    python tests/benchmarks/corpus_stats.py corpus/x/devscripts corpus/x/mariadb-client
    python tests/benchmarks/corpus_stats.py --all-text corpus/x/bash-completion
    python tests/benchmarks/corpus_stats.py --select ALL --show PL102,PL103 DIR

Files are picked as `pipelint check` picks them (extension or shell
shebang); `--all-text` lints every text file as a script instead, for
bash-completion's completions, which have neither. Nothing is fixed.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipelint.cli import files  # noqa: E402
from pipelint.engine import linter, registry  # noqa: E402
from pipelint.engine.config import Settings  # noqa: E402
from pipelint.cli.discovery import is_shell_script  # noqa: E402
from pipelint.finding import NoteCause  # noqa: E402
from pipelint.shell import acceptance  # noqa: E402


@dataclass
class Tally:
    files: int = 0
    lines: int = 0
    skipped: int = 0  # binary, unreadable, too large
    by_rule: Counter = field(default_factory=Counter)
    shown: list[str] = field(default_factory=list)
    # Parse errors reported, and those of them in files the script's shell accepts (`bash -n`): the goal is 0.
    parse_errors: int = 0
    parse_errors_accepted: int = 0
    parse_error_files: int = 0
    # Notes by cause: what a default run prints (not checked), and what only --verbose prints (repaired).
    notes_shown: Counter = field(default_factory=Counter)
    notes_verbose: Counter = field(default_factory=Counter)


def scripts(folder: Path, all_text: bool):
    """Every file under folder that is linted: sorted, so two runs list the same files."""
    for directory, subfolders, names in os.walk(folder):
        subfolders.sort()
        for name in sorted(names):
            path = Path(directory, name)
            if path.is_symlink() or not path.is_file():
                continue  # packages ship links to their own scripts: count each once
            if all_text or is_shell_script(path):
                yield path


def tally(folders: list[Path], settings: Settings, all_text: bool, show: set[str]) -> Tally:
    total = Tally()
    for folder in folders:
        for path in scripts(folder, all_text):
            try:
                script = files.read_script(path, settings.max_file_size)
            except files.InputError:
                total.skipped += 1
                continue
            result = linter.lint(script.source, settings, path)
            total.files += 1
            if result.parse_failures:
                total.parse_errors += len(result.parse_failures)
                total.parse_error_files += 1
                dialect = result.parsed.dialect if result.parsed is not None else None
                if dialect is not None and acceptance.shell_accepts(script.source, dialect):
                    total.parse_errors_accepted += len(result.parse_failures)
            for note in result.notes:
                shown = note.cause is NoteCause.UNREADABLE and not note.checked
                (total.notes_shown if shown else total.notes_verbose)[note.cause.value] += 1
            total.lines += script.source.count(b"\n") + (not script.source.endswith(b"\n"))
            for finding in result.findings:
                total.by_rule[finding.code] += 1
                if finding.code in show:
                    line = script.source.count(b"\n", 0, finding.start) + 1
                    text = script.source[finding.start : finding.end].decode("utf-8", "replace").replace("\n", "⏎")
                    total.shown.append(f"{path}:{line}: {finding.code} {text[:160]}")
    return total


def table(total: Tally) -> str:
    thousands = max(total.lines, 1) / 1000
    rows = [
        f"{total.files} files, {total.lines} lines ({total.skipped} skipped)",
        "",
        "| rule | findings | per 1,000 lines |",
        "|---|---:|---:|",
    ]
    for rule in registry.RULES:
        count = total.by_rule.get(rule.code, 0)
        if count:
            rows.append(f"| {rule.code} {rule.name} | {count} | {count / thousands:.2f} |")
    found = sum(total.by_rule.values())
    rows.append(f"| all | {found} | {found / thousands:.2f} |")
    rows += [
        "",
        f"parse errors: {total.parse_errors} in {total.parse_error_files} files; "
        f"{total.parse_errors_accepted} of them in files the shell accepts",
        "notes a default run prints (places): " + _counts(total.notes_shown),
        "notes only --verbose prints (places): " + _counts(total.notes_verbose),
    ]
    return "\n".join(rows)


def _counts(counter: Counter) -> str:
    return ", ".join(f"{cause} {count}" for cause, count in sorted(counter.items())) or "none"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, metavar="DIR")
    parser.add_argument("--all-text", action="store_true", help="lint every text file, not only those with a shell extension or shebang")
    parser.add_argument("--select", default="", help="comma-separated rule selectors, as `pipelint check --select` (default: the default set)")
    parser.add_argument("--show", default="", help="comma-separated codes whose findings are printed, or ALL")
    parser.add_argument("--strict-parse", action="store_true", help="as `pipelint check --strict-parse`: no note replaces a parse error")
    args = parser.parse_args()
    for folder in args.folders:
        if not folder.is_dir():
            parser.error(f"{folder}: not a folder")
    select = tuple(token for token in args.select.split(",") if token)
    settings = Settings(select=select or None, strict_parse=args.strict_parse)
    show = {rule.code for rule in registry.RULES} if args.show.upper() == "ALL" else set(args.show.upper().split(","))
    total = tally(args.folders, settings, args.all_text, show)
    print("\n".join(total.shown))
    print(table(total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
