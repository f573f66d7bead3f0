#!/bin/bash
# fuzz regression: PL001+PL101 class 10 (missing, unreadable or directory inputs)
# differs: [bash, words.txt a directory] stderr: b'/tmp/pipelint-fuzz-0i2hawhb/22858/shrink/words.txt: Is a directory\n' → b'words.txt: Is a directory\n'
# found by: python -m tests.fuzz --seed 1501521446 (script 5308)
echo "got $(cat "$HOME/words.txt" | tee | sort | exit 3)"