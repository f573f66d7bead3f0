#!/bin/bash
# fuzz regression: PL002 class 12 (expansions in the consumer that read stdin)
# differs: [bash, inputs present] stdout: b'got: spaces\n' → b'got: \n'
# found by: python -m tests.fuzz --seed 2026 (script 41)
cat <<"EOF" | echo "got: $(head -n 1)"
spaces
EOF