#!/bin/bash
# fuzz regression: PL001+PL101 class 6 (side effects of the removed stage)
# differs: [bash, inputs present] files: out: file 644 0 bytes sha256:e3b0c44298fc → None
# classified by hand: "$f" is unset; `tr … < "$f" > out` never opened out, `tr … > out < "$f"` does
# found by: python -m tests.fuzz --seed 2411 (script 5728)
for i in 2; do cat "$f" | tee | tr a-z A-Z > out; echo "i=$i"; done