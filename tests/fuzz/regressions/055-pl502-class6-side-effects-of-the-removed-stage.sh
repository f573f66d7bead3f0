#!/bin/bash
# fuzz regression: PL502 class 6 (side effects of the removed stage)
# differs: [bash, inputs present] status: 0 → 1
# differs: [bash, inputs present] files: out: file 644 0 bytes sha256:e3b0c44298fc → None
# found by: python -m tests.fuzz --seed 2412 (script 1589)
set -u
sort -u "$f" | uniq >> out
echo "end pwd=${PWD##*/}"