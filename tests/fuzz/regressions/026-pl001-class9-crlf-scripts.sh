#!/bin/bash
# fuzz regression: PL001 class 9 (CRLF scripts)
# differs: [bash, inputs present] status: 0 → 1
# differs: [bash, inputs present] stderr: b"/bin/cat: invalid option -- '\r'\nTry '/bin/cat --help' for more information.\n" → b'-\r: No such file or directory\n'
# found by: python -m tests.fuzz --seed 2026 (script 736)
file=${1:--}
n=$(/bin/cat "$file" | uniq)