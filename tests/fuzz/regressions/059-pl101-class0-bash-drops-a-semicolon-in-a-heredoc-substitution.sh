#!/bin/sh
# fuzz regression: PL101 class 0 (not in issue 13: bash 5.2 runs `$(…)` with a here-document from its printout, which drops the `;` in `( head -n 1; wc -l )` unless a redirect stands between)
# differs: [bash, inputs present] stdout: b'n=5\n…' → b'n=0\n…'
# differs: [bash, inputs present] stderr: b'' → b"head: invalid option -- 'l'\n…"
# found by: python -m tests.fuzz --seed 2418 (script 4639)
set -u
n=$(cat <<-\EOF | tee /dev/null 2>/dev/null | ( head -n 1; wc -l ) | cat | wc -c
$v
	EOF
)
echo "n=$n"
