#!/bin/bash
# fuzz regression: PL002 class 1 (here-document whose pipe continues on the next line)
# differs: [bash, inputs present] stdout: b'i=2\n' → b'zeta\nalpha\nbeta\nalpha\ni=2\n'
# differs: [bash, words.txt missing] stderr: b'' → b'words.txt: No such file or directory\n'
# differs: [bash, words.txt a directory] stderr: b'' → b'words.txt: Is a directory\n'
# found by: python -m tests.fuzz --seed 2026 (script 25)
fn() { read v; }
for i in 2; do cat <<\EOF |
cat words.txt
EOF
echo "i=$i"; done