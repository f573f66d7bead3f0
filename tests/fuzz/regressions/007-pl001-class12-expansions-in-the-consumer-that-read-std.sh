#!/bin/bash
# fuzz regression: PL001 class 12 (expansions in the consumer that read stdin)
# differs: [bash, inputs present] files: out: file 644 457 bytes sha256:2cbe7b9e2249 → file 644 452 bytes sha256:8dc62fa9933d
# differs: [bash, latin.txt missing] status: 0 → 1
# found by: python -m tests.fuzz --seed 2026 (script 38)
run() { cat latin.txt | X="$(head -n 1)" env >> out; }
run;