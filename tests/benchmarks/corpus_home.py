"""Where tests/benchmarks/fetch_debian_corpus.sh unpacks the Debian scripts the benchmarks read.

`corpus/x` in the repository (git ignores it), or the folder `PIPELINT_CORPUS` names.
A module of its own, importing nothing of pipelint: fix_safety_cost.py runs
other pipelint trees in its children and must not load this one.
"""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEBIAN_CORPUS = Path(os.environ.get("PIPELINT_CORPUS") or REPO / "corpus" / "x")
