#!/bin/bash
# fuzz regression: PL002 class 4 (functions and aliases)
# differs: [bash, inputs present] state: - declare -- n=$'mysql\n4294967295 0' + declare -- n=$'mysql\n3515105045 1'
# found by: python -m tests.fuzz --seed 1501521446 (script 4710)
function cat { command "$@"; }
n=$(cat << EOF | mysql
$v
EOF
)