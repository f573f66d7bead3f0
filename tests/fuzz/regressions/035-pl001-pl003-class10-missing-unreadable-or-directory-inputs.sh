#!/bin/bash
# fuzz regression: PL001+PL003 class 10 (missing, unreadable or directory inputs)
# differs: [bash, inputs present] status: 0 → 1
# differs: [bash, inputs present] files: in=0: file 644 0 bytes sha256:e3b0c44298fc → None
# differs: [bash, words.txt missing] status: 0 → 1
# differs: [bash, words.txt a directory] status: 0 → 1
# found by: python -m tests.fuzz --seed 2026 (script 1612)
run() { cat "~/words.txt" | cut -c1-3 | cat > "in=$?"; }
run;