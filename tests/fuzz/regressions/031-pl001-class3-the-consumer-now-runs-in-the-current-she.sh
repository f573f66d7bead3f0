#!/bin/bash
# fuzz regression: PL001 class 3 (the consumer now runs in the current shell)
# differs: [bash, inputs present] state: - declare -- i="2" + declare -- i="1"
# differs: [bash, my file.txt missing] status: 0 → 1
# differs: [bash, my file.txt a directory] state: - declare -- i="2" + declare -- i="1"
# found by: python -m tests.fuzz --seed 2026 (script 1167)
for i in 1 2; do /bin/cat 'my file.txt' | break 2>err; done