#!/bin/bash
# fuzz regression: PL502 class 6 (side effects of the removed stage)
# differs: [bash, inputs present] status: 0 → 1
# found by: python -m tests.fuzz --seed 2026 (script 1482)
set -u
( LC_ALL=C sort "$x" | uniq )