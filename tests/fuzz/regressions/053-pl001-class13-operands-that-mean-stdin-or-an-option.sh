#!/bin/bash
# fuzz regression: PL001 class 13 (operands that mean stdin or an option)
# differs: [bash, inputs present] files: out: file 644 0 bytes sha256:e3b0c44298fc → None
# found by: python -m tests.fuzz --seed 2411 (script 6049)
echo "got $(cat "$x" | uniq > out)"