#!/bin/sh
# fuzz regression: PL203 class 7 (dd)
# differs: [bash, words.txt missing] status: 0 → 1
# differs: [dash, words.txt missing] status: 0 → 2
# found by: python -m tests.fuzz --seed 2026 (script 119)
for i in 2; do dd if=words.txt status=none | echo "i=$i"; done