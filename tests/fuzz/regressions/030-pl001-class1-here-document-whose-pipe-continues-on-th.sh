#!/bin/sh
# fuzz regression: PL001 class 1 (here-document whose pipe continues on the next line)
# differs: [bash, inputs present] parse: `bash -n` rejects the fixed script
# differs: [bash, inputs present] stdout: b'i=1\ni=2\nend pwd=shrink\n' → b'i=1\ni=2\n'
# differs: [bash, inputs present] stderr: b'' → b"script: line 11: warning: here-document at line 6 delimited by end-of-file (wanted `EOF')\n"
# differs: [bash, inputs present] state: only the original reached its last line
# found by: python -m tests.fuzz --seed 2026 (script 1079)
set -u
file=${1:--}
n=0
fn() { read -r v; }
for i in 1 2; do cat <<"EOF" | fn 2>/dev/null; echo "i=$i"; done
a | b
cat words.txt |
EOF
echo "end pwd=${PWD##*/}"
