#!/bin/sh
# fuzz regression: PL101 class 6 (side effects of the removed stage)
# differs: [bash, inputs present] files: err: file 644 0 bytes sha256:e3b0c44298fc → None
# differs: [dash, inputs present] files: err: file 644 0 bytes sha256:e3b0c44298fc → None
# found by: python -m tests.fuzz --seed 2026 (script 15)
for i in 2; do cat | tee 2>err | echo "i=$i"; done