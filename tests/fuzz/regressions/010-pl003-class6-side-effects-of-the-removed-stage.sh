#!/bin/bash
# fuzz regression: PL003 class 6 (side effects of the removed stage)
# differs: [bash, inputs present] stdout: b'out=0\n' → b'out=5\n'
# found by: python -m tests.fuzz --seed 2026 (script 60)
run() { cat | return 5 | cat > out; }
run; echo "out=$?"