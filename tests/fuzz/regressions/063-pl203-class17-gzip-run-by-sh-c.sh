#!/bin/bash
# fuzz regression: PL203 class 17 (a consumer that reads a regular file otherwise than a pipe (issue 25))
# differs: [bash, inputs present] files: out.gz: the gzip that `sh -c` runs inherits the file as its stdin
# found by: python -m tests.fuzz --seed 2501 (script 67), with the program table's gzip fact taken out
dd if=words.txt bs=64k status=none | sh -c 'gzip > out.gz'
echo "end"
