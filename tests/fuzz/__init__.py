"""Differential fuzzer: generated scripts, fixed with safe fixes only, run before and after.

`python -m tests.fuzz --minutes 30` from the repository root; docs/fuzzing.md
explains how to run it, read its report and add to it.
"""

import sys
from pathlib import Path

# The fuzzer shares the behavioural harness with the tests, which import it
# as a top-level module (tests/conftest.py puts tests/ on sys.path too).
_TESTS = str(Path(__file__).resolve().parent.parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
