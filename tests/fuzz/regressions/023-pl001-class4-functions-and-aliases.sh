#!/bin/bash
# fuzz regression: PL001 class 4 (functions and aliases)
# differs: [bash, inputs present] status: 0 → 1
# differs: [bash, inputs present] stderr: b'src: Is a directory\n' → b'read error: Is a directory\n'
# differs: [bash, src missing] status: 0 → 1
# found by: python -m tests.fuzz --seed 2026 (script 477)
cat() { command cat "$@"; }
( cat src | tr a-z A-Z )