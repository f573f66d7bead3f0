#!/bin/sh
# fuzz regression: PL004 class 10 (missing, unreadable or directory inputs)
# differs: [bash, inputs present] stderr: b'src: Is a directory\n' → b''
# differs: [bash, src missing] status: 0 → 1
# differs: [dash, inputs present] stderr: b'src: Is a directory\n' → b''
# differs: [dash, src missing] status: 0 → 2
# found by: python -m tests.fuzz --seed 2026 (script 846)
for i in 2; do /bin/cat src | mysql "i=$i"; done