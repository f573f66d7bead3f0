#!/bin/bash
# fuzz regression: PL001 class 6 (side effects of the removed stage)
# differs: [bash, inputs present] stdout: b'zeta\nalpha\nbeta\nalpha\nps=0 0\n' → b'zeta\nalpha\nbeta\nalpha\nps=0\n'
# differs: [bash, words.txt missing] stdout: b'ps=1 0\n' → b'ps=1\n'
# differs: [bash, words.txt a directory] stdout: b'ps=1 0\n' → b'ps=1\n'
# found by: python -m tests.fuzz --seed 2026 (script 64)
fn() { read v; }
cat words.txt | tee fn; echo "ps=${PIPESTATUS[*]}"