#!/bin/bash
# fuzz regression: PL003 class 10 (missing, unreadable or directory inputs)
# differs: [bash, src missing] stdout: b'no\n' → b''
# found by: python -m tests.fuzz --seed 2026 (script 35)
fn() { cd src; }
if conv=sparse | fn | cat > out; then echo no; fi