#!/bin/bash
# fuzz regression: PL502 class 10 (missing, unreadable or directory inputs)
# differs: [bash, words.txt missing] status: 0 → 2
# differs: [bash, words.txt a directory] status: 0 → 2
# found by: python -m tests.fuzz --seed 2026 (script 287)
sort -u ~/words.txt | uniq