#!/bin/bash
# fuzz regression: PL101 class 9 (CRLF scripts)
# differs: [bash, inputs present] stdout: b'done\nps=0 0 0\r\n' → b'done\nps=0 0\r\n'
# found by: python -m tests.fuzz --seed 2026 (script 156)
{ echo done; } | tee | head -n 1; echo "ps=${PIPESTATUS[*]}"