#!/bin/sh
# fuzz regression: PL003 class 4 (functions and aliases)
# differs: [bash, words.txt missing] status: 0 → 2
# differs: [bash, words.txt a directory] status: 0 → 2
# differs: [dash, inputs present] files: in=0: file 644 50 bytes sha256:35cd532aa44d → file 644 22 bytes sha256:784527224359
# differs: [dash, words.txt missing] status: 0 → 2
# found by: python -m tests.fuzz --seed 2026 (script 71)
alias cat='cat -n'
fn() { wc -l; }
run() { sort "$HOME/words.txt" | cat > "in=$?"; }
run;