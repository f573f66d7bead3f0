#!/bin/sh
# fuzz regression: PL001 class 11 (here-documents tree-sitter ends too early)
# differs: [bash, inputs present] files: job.sh: file 644 305 bytes sha256:4592a660b8e9 → file 644 301 bytes sha256:f42e75ca93d9
# differs: [bash, words.txt missing] files: job.sh: file 644 305 bytes sha256:4592a660b8e9 → file 644 301 bytes sha256:f42e75ca93d9
# differs: [bash, words.txt a directory] files: job.sh: file 644 305 bytes sha256:4592a660b8e9 → file 644 301 bytes sha256:f42e75ca93d9
# differs: [dash, inputs present] files: job.sh: file 644 230 bytes sha256:4384093359fb → file 644 226 bytes sha256:182952938805
# found by: python -m tests.fuzz --seed 2026 (script 68)
cat > job.sh <<-EOF
 EOF
cat words.txt | sort