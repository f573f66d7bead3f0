#!/bin/bash
# fuzz regression: PL001 class 5 (several readers of one stdin)
# differs: [bash, inputs present] stdout: b'id,name\n 0 0 0\n' → b'id,name\n 4 4 30\n'
# differs: [bash, data.csv missing] status: 0 → 1
# differs: [bash, data.csv a directory] status: 0 → 1
# differs: [bash, data.csv a directory] stderr: b'data.csv: Is a directory\n' → b'data.csv: Is a directory\ndata.csv: Is a directory\n'
# found by: python -m tests.fuzz --seed 2026 (script 686)
for i in 2; do cat data.csv | ( head -n 1; wc ); done