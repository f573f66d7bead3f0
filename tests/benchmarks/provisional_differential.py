"""The provisional lint against the exact one, at scale: random edits of many scripts.

    python tests/benchmarks/provisional_differential.py [--edits 20000] [--seed 1]
        [--corpus DIR ...] [--rules default|all] [--disable CHECK]

Scripts: each rule's examples (rules/*.md), the fixtures, statements whose
findings reach across (tests/lsp/differential.py), the 5,000-line script's
first 600 lines, larger scripts mixed from these (five with CRLF line ends),
and the shell scripts found
under each --corpus folder (a shebang naming sh, bash or dash).  Edits go one
after another on each script, as a person types, pastes and deletes
(`differential.random_edit`); after one that leaves a parse error, the next
starts from the script again.  For each edit the provisional lint, where it
answers, must give the exact lint's findings (code, span, message, fix,
help).  Prints how many edits took the fast path, why the others did not,
and every mismatch (exit status 1 if any).

--disable turns one of the provisional lint's checks off, to see that the
comparison catches what it guards: `neighbours` (the statements before and
after the touched ones), `facts` (what the script's facts are made of),
`names` (names rules look for anywhere), `everywhere` (PL301/PL304 on the
whole script).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from differential import ACROSS, Tally, exact, mixed_script, rule_examples, walk  # noqa: E402
from large_script import large_script  # noqa: E402

from pipelint.engine.config import Settings  # noqa: E402
from pipelint.shell.dialect import shebang_shell  # noqa: E402
from pipelint.lsp import provisional  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[2]
SHELLS = ("sh", "bash", "dash")
MAX_BYTES = 64 * 1024  # a corpus script larger than this is left out: two exact lints per edit


def corpus_scripts(folder: Path) -> list[bytes]:
    found = []
    for path in sorted(folder.rglob("*")):
        try:
            if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_BYTES:
                continue
            head = path.read_bytes()[:256]
        except OSError:
            continue
        if shebang_shell(head) in SHELLS:
            found.append(path.read_bytes())
    return found


def disable(check: str) -> None:
    """Turn one check of the provisional lint off (to show the comparison catches it)."""
    if check == "facts":
        provisional._same_facts = lambda old, new, texts: None
    elif check == "names":
        made = provisional.baseline

        def without_names(*arguments):
            line = made(*arguments)
            return line and dataclasses.replace(line, names=frozenset())

        provisional.baseline = without_names
    elif check == "neighbours":
        made_touched = provisional.touched

        def only_touched(before, after, edit):
            area = made_touched(before, after, edit)
            hit = [(s, e) for s, e, _ in after if e >= edit.start and s <= edit.new_end]
            if not hit:
                return area
            start, end = min([edit.start] + [s for s, _ in hit]), max([edit.new_end] + [e for _, e in hit])
            return provisional.Touched(start, end, end - (edit.new_end - edit.old_end))

        provisional.touched = only_touched
    elif check == "everywhere":
        provisional.EVERYWHERE = frozenset()
    else:
        raise SystemExit(f"unknown check {check!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", type=Path, action="append", default=[])
    parser.add_argument("--rules", choices=("default", "all"), default="default")
    parser.add_argument("--disable", default=None)
    options = parser.parse_args()
    if options.disable:
        disable(options.disable)
    rng = random.Random(options.seed)
    pieces = rule_examples(REPOSITORY / "rules") + [p.read_bytes() for p in sorted((REPOSITORY / "fixtures").glob("*sh"))]
    pieces += [ACROSS, large_script(600).encode()[:4000]]
    scripts = [large_script(600).encode(), ACROSS] + [mixed_script(pieces, rng) for _ in range(20)] + pieces
    scripts += [mixed_script(pieces, rng).replace(b"\n", b"\r\n") for _ in range(5)]  # CRLF: `\r` ends no line for bash
    for folder in options.corpus:
        scripts += corpus_scripts(folder)
    settings = Settings(select=("ALL",)) if options.rules == "all" else Settings()
    per_script = max(1, options.edits // len(scripts))
    print(f"{len(scripts)} scripts, {per_script} edits each, rules: {options.rules}, seed {options.seed}")
    tally = Tally()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "script.sh"
        for script in scripts:
            walk(exact(script, settings, path), per_script, rng, settings, path, tally)
    took = time.perf_counter() - started
    print(f"{tally.edits} edits in {took:.0f} s: provisional result for {tally.fast} ({100 * tally.fast / tally.edits:.1f} %), "
          f"mismatches: {len(tally.mismatches)}")
    for reason, count in tally.skipped.most_common():
        print(f"  {count:6d}  no provisional result: {reason}")
    print("provisional results by kind of edit:")
    for kind, count in tally.kinds.most_common():
        print(f"  {tally.fast_kinds[kind]:6d} of {count:6d}  {kind}")
    for before, after, what in tally.mismatches[:20]:
        print("MISMATCH", what)
        print("  before:", before[:2000])
        print("  after: ", after[:2000])
    return 1 if tally.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
