#!/bin/sh
# fuzz regression: PL001 class 0 (not in issue 13)
# differs: [bash, inputs present] files: out: file 644 24 bytes sha256:24aded9d5aaf → file 644 9 bytes sha256:fa9739f79421
# differs: [bash, my file.txt missing] files: out: file 644 24 bytes sha256:ba0618b34fb3 → file 644 0 bytes sha256:e3b0c44298fc
# differs: [dash, my file.txt missing] files: out: file 644 2 bytes sha256:9a271f2a916b → file 644 0 bytes sha256:e3b0c44298fc
# found by: python -m tests.fuzz --seed 1501521446 (script 261)
alias wc='wc -c'
( cat "my file.txt" | wc | cat > out )