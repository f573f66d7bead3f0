#!/bin/bash
# fuzz regression: PL001 class 10 (missing, unreadable or directory inputs)
# differs: [bash, inputs present] status: 0 → 1
# classified by hand: "$f" is unset, so the operand is an empty name
# found by: python -m tests.fuzz --seed 2026 (script 2105)
cat "$f" | sort