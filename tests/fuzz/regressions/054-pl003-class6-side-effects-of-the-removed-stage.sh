#!/bin/sh
# fuzz regression: PL003 class 6 (side effects of the removed stage)
# differs: [dash, inputs present] stdout: b'end pwd=s\n' → b'trapped\nend pwd=s\n'
# differs: [dash, inputs present] files: out: file 644 8 bytes sha256:35612ad8fc9c → file 644 0 bytes sha256:e3b0c44298fc
# found by: python -m tests.fuzz --seed 2412 (script 1111)
tee | trap 'echo trapped' EXIT | cat > out
echo "end pwd=${PWD##*/}"