"""`python -m tests.fuzz --minutes 30 [--seed N] [--jobs 2]`: the long run, by hand.

Prints each new kind of failure as it is found and a summary at the end:
scripts per second, failures, distinct failures by rule and issue-13 class,
new or known, with the file of each saved reproducer.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

from harness import unreadable_support

from .runner import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.splitlines()[0])
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, default=1.0, help="stop after this long (default 1)")
    budget.add_argument("--count", type=int, help="check exactly this many scripts instead")
    parser.add_argument("--seed", type=int, help="which scripts (default: a random seed, printed)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: one per CPU)")
    parser.add_argument("--no-save", action="store_true", help="do not shrink and save new failures")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    print(f"fuzzing with seed {seed}, {args.jobs} worker(s); unreadable inputs: {unreadable_support().how}", flush=True)
    report = run(
        seed,
        seconds=None if args.count else args.minutes * 60,
        count=args.count,
        jobs=args.jobs,
        save=not args.no_save,
        say=lambda line: print(line, flush=True),
    )
    print(report.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
