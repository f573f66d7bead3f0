#!/bin/sh
# fuzz regression: PL101 class 1 (here-document whose pipe continues on the next line)
# differs: [dash, inputs present] stdout: b'1000\n' → b'1\n'
# found by: python -m tests.fuzz --seed 2026 (script 3343)
tee() { echo tee-fn; tee "$@"; }
cat <<-EOF |
	$v
EOF
tr a-z A-Z | tee 2>/dev/null | echo "$(wc -l)"