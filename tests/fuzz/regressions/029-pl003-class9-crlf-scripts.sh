#!/bin/bash
# fuzz regression: PL003 class 9 (CRLF scripts)
# differs: [bash, inputs present] stdout: b'ps=1 0 0\r\n' → b'ps=1 0\r\n'
# found by: python -m tests.fuzz --seed 2026 (script 1017)
f=words.txt
dd "if=$f" | ( wc ) | cat > out; echo "ps=${PIPESTATUS[*]}"