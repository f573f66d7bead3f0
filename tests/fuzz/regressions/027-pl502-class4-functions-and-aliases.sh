#!/bin/bash
# fuzz regression: PL502 class 4 (functions and aliases)
# differs: [bash, my file.txt missing] status: 0 → 2
# differs: [bash, my file.txt a directory] status: 0 → 2
# found by: python -m tests.fuzz --seed 2026 (script 745)
alias uniq='uniq -c'
sort -u 'my file.txt' | uniq