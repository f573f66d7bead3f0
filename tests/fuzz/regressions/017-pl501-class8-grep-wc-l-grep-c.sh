#!/bin/sh
# fuzz regression: PL501 class 8 (grep | wc -l → grep -c)
# differs: [bash, inputs present] stdout: b'got 0\n' → b'got 2\n'
# differs: [bash, inputs present] stderr: b'grep: bin.dat: binary file matches\n' → b''
# differs: [bash, inputs present] files: out: file 644 2 bytes sha256:9a271f2a916b → file 644 2 bytes sha256:53c234e5e847
# differs: [dash, inputs present] stdout: b'got 0\n' → b'got 2\n'
# found by: python -m tests.fuzz --seed 2026 (script 121)
printf 'a\000b\nab\n' > bin.dat
echo "got $(grep a bin.dat | wc -l | tee out)"