#!/bin/bash
# fuzz regression: PL001 class 13 (operands that mean stdin or an option)
# differs: [bash, inputs present] stderr: b'' → b'-: No such file or directory\n'
# differs: [bash, inputs present] files: out: file 644 0 bytes sha256:e3b0c44298fc → None
# found by: python -m tests.fuzz --seed 2026 (script 100)
file=${1:--}
echo "got $(cat "$file" | tr exit 7 >> out)"