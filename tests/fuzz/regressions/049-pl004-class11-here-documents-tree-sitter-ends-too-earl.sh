#!/bin/sh
# fuzz regression: PL004 class 11 (here-documents tree-sitter ends too early)
# differs: [bash, src/hello.txt missing] files: in=0: file 644 19 bytes sha256:a5a1418411c5 → file 644 0 bytes sha256:e3b0c44298fc
# differs: [dash, src/hello.txt missing] files: in=0: file 644 19 bytes sha256:a5a1418411c5 → file 644 0 bytes sha256:e3b0c44298fc
# found by: python -m tests.fuzz --seed 1501521446 (script 9588)
> job.sh <<-EOF
EOF 
EOF
run() { /bin/cat src/hello.txt | mysql | cat > "in=$?"; }
run;