#!/bin/sh
# fuzz regression: PL003 class 6 (side effects of the removed stage)
# differs: [bash, inputs present] files: out: file 644 0 bytes sha256:e3b0c44298fc → None
# differs: [dash, inputs present] files: out: file 644 0 bytes sha256:e3b0c44298fc → None
# found by: python -m tests.fuzz --seed 2026 (script 2842)
set -u
( sort "$x" | cat > out )
echo "end pwd=${PWD##*/}"