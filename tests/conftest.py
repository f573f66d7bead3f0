import os
import sys
from pathlib import Path

# Let tests import the shared helpers as `harness` whatever the working directory.
sys.path.insert(0, str(Path(__file__).parent))

# Every finding any test produces, in this process or in a `pipelint` it
# starts, is checked against its rule's fix_availability (checker.py).
os.environ["PIPELINT_CHECK_FIX_AVAILABILITY"] = "1"


def pytest_report_header(config):
    """Whether the harness can take an input away by making it unreadable, and how (or why not)."""
    from harness import unreadable_support

    return f"unreadable inputs: {unreadable_support().how}"
