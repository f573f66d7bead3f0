#!/bin/bash
# fuzz regression: PL501 class 9 (CRLF scripts)
# differs: [bash, latin.txt missing] stdout: b'got 1 1 2\r\n' → b'got 0 0 0\r\n'
# found by: python -m tests.fuzz --seed 1501521446 (script 378)
echo "got $(grep a latin.txt | wc -l | wc 2>/dev/null)"