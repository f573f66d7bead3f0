#!/bin/bash
# fuzz regression: PL001 class 10 (missing, unreadable or directory inputs)
# differs: [bash, access.log a directory] stderr: b'access.log: Is a directory\n' → b"uniq: error reading '-'\n"
# classified by hand: uniq names no reason for a read error; stderr_wording reads it as the directory
# found by: python -m tests.fuzz --seed 2411 (script 590)
echo "got $(cat "$(echo access.log)" | uniq >> out)"