#!/bin/sh
# fuzz regression: PL001+PL101 class 11 (here-documents tree-sitter ends too early)
# differs: [bash, words.txt missing] stderr: b'src: Is a directory\n' → b'words.txt: Is a directory\n'
# classified by hand: harness, not rule: `cat words.txt` is in the body, src a folder in every run; both away, stdin errors are about either
# found by: python -m tests.fuzz --seed 2412 (script 1972)
> job.sh <<-EOF
EOF;
cat words.txt
EOF
run() { cat src | tee | cat | printf "in=$?"; }
run;