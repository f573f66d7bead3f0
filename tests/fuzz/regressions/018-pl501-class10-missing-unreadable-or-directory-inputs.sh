#!/bin/sh
# fuzz regression: PL501 class 10 (missing, unreadable or directory inputs)
# differs: [bash, inputs present] stdout: b'got 0\n' → b'got \n'
# differs: [dash, inputs present] stdout: b'got 0\n' → b'got \n'
# found by: python -m tests.fuzz --seed 2026 (script 138)
echo "got $(grep a bin.dat | wc -l | sort 2>&1)"