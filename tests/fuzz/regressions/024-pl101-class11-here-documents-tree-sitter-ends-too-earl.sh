#!/bin/bash
# fuzz regression: PL101 class 11 (here-documents tree-sitter ends too early)
# differs: [bash, inputs present] files: done: file 644 0 bytes sha256:e3b0c44298fc → None
# found by: python -m tests.fuzz --seed 2026 (script 522)
> job.sh <<EOF
EOFX
$v
EOF
for i in 2; do { echo a; sleep 0.3; echo b; touch done; } | tee | head -n 1; echo "i=$i"; done