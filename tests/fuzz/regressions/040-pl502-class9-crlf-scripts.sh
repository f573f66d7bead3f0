#!/bin/bash
# fuzz regression: PL502 class 9 (CRLF scripts)
# differs: [bash, inputs present] stdout: b'got: 1)\nps=0 0 0\r\n' → b'got: 1)\nps=0 0\r\n'
# found by: python -m tests.fuzz --seed 2026 (script 3847)
x=-n
LC_ALL=C sort | uniq | echo "got: 1)"; echo "ps=${PIPESTATUS[*]}"