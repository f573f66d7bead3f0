#!/bin/bash
# fuzz regression: PL502 class 6 (side effects of the removed stage)
# differs: [bash, inputs present] stdout: b'ps=0 0\n' → b'ps=0\n'
# found by: python -m tests.fuzz --seed 2026 (script 42)
sort -u | uniq; echo "ps=${PIPESTATUS[*]}"