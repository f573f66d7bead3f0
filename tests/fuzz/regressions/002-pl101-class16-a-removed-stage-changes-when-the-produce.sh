#!/bin/bash
# fuzz regression: PL101 class 16 (a removed stage changes when the producer dies)
# differs: [bash, inputs present] files: done: file 644 0 bytes sha256:e3b0c44298fc → None
# found by: python -m tests.fuzz --seed 2026 (script 10)
{ echo a; sleep 0.3; echo b; touch done; } | tee | head -n 1