#!/bin/sh
# fuzz regression: PL101 class 4 (functions and aliases)
# differs: [bash, inputs present] stdout: b'tee-fn\ni=2\n' → b'done\ni=2\n'
# differs: [dash, inputs present] stdout: b'tee-fn\ni=2\n' → b'done\ni=2\n'
# found by: python -m tests.fuzz --seed 2026 (script 160)
printf 'tee() { echo tee-fn; }' > lib.sh
. ./lib.sh
for i in 2; do { echo done; } | tee | head -n 1; echo "i=$i"; done