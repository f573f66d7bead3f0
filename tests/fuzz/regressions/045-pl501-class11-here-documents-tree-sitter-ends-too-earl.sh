#!/bin/sh
# fuzz regression: PL501 class 11 (here-documents tree-sitter ends too early)
# differs: [bash, my file.txt missing] stdout: b'mysql\n4200087900 2\n' → b'mysql\n4294967295 0\n'
# differs: [dash, my file.txt missing] stdout: b'mysql\n4200087900 2\n' → b'mysql\n4294967295 0\n'
# found by: python -m tests.fuzz --seed 1501521446 (script 170)
> job.sh <<EOF
	EOF
EOF
( grep a "my file.txt" | wc -l | tee | mysql )