#!/bin/sh
# fuzz regression: PL001 class 17 (a consumer that reads a regular file otherwise than a pipe (issue 25))
# differs: [dash, inputs present] files: out.gz: `gzip < words.txt` stores the file's modification time in its header, the pipe none
# found by: python -m tests.fuzz --seed 2501 (script 0), with the program table's gzip fact taken out
cat -- words.txt | gzip > out.gz
echo "end"
