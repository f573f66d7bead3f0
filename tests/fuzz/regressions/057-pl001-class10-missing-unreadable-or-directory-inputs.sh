#!/bin/sh
# fuzz regression: PL001 class 10 (missing, unreadable or directory inputs)
# differs: [dash, inputs present] status: 0 → 2
# differs: [dash, inputs present] state: only the original reached its last line
# classified by hand: `:` is a special builtin, so `: out < missing.txt` ends dash
# found by: python -m tests.fuzz --seed 2413 (script 911)
for i in 2; do cat missing.txt | : out; echo "i=$i"; done