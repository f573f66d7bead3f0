#!/bin/bash
# fuzz regression: PL001 class 10 (missing, unreadable or directory inputs)
# differs: [bash, my file.txt missing] stdout: b'out=0\n' → b'out=1\n'
# differs: [bash, my file.txt a directory] stdout: b'out=0\n' → b'out=1\n'
# found by: python -m tests.fuzz --seed 2026 (script 19)
run() { /bin/cat "my file.txt" | tee "in=$?"; }
run; echo "out=$?"