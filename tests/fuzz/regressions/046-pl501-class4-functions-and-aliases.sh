#!/bin/bash
# fuzz regression: PL501 class 4 (functions and aliases)
# differs: [bash, latin.txt missing] status: 0 → 1
# differs: [bash, latin.txt missing] state: only the original reached its last line
# found by: python -m tests.fuzz --seed 1501521446 (script 1020)
set -e
alias grep='grep -i'
( grep GET latin.txt | wc -l | { read cat; } >> out )