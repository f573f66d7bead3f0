import sys
from pathlib import Path

# Let tests import the shared helpers as `harness` whatever the working directory.
sys.path.insert(0, str(Path(__file__).parent))
