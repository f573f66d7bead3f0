#!/bin/sh
# fuzz regression: PL002 class 11 (here-documents tree-sitter ends too early)
# differs: [bash, inputs present] stdout: b'in=0\n' → b'in=127\n'
# differs: [bash, inputs present] stderr: b'' → b'script: line 2: EOF: command not found\n'
# differs: [dash, inputs present] stdout: b'in=0\n' → b'in=127\n'
# differs: [dash, inputs present] stderr: b'' → b'script: 2: EOF: not found\n'
# found by: python -m tests.fuzz --seed 2026 (script 1)
run() { cat <<-\EOF |
 EOF
EOF
echo "in=$?"; }
run;