#!/bin/sh
# fuzz regression: PL004 class 10 (missing, unreadable or directory inputs)
# differs: [bash, inputs present] stdout: b'mysql [shop]\n4294967295 0\ni=2\n' → b'i=2\n'
# classified by hand: missing.txt never exists, so the allowances apply to every run (missing_inputs.absent_inputs)
# found by: python -m tests.fuzz --seed 2411 (script 1933)
for i in 2; do /bin/cat missing.txt | mysql shop; echo "i=$i"; done