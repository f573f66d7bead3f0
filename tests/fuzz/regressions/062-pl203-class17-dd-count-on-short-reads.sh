#!/bin/bash
# fuzz regression: PL203 class 17 (a consumer that reads a regular file otherwise than a pipe (issue 25))
# differs: [bash, inputs present] files: out: `count=1 bs=1M` copies one short read of the pipe (64 KiB), 1 MiB of the file
# found by: python -m tests.fuzz --seed 2501, with the program table's dd facts taken out
seq 1 300000 > big.txt
dd if=big.txt bs=64k status=none | dd of=out bs=1M count=1 status=none
echo "end"
