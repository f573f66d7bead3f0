#!/bin/sh
# fuzz regression: PL001 class 13 (operands that mean stdin or an option)
# differs: `cat $x` with x=-n is `cat -n`, which numbers standard input; the fix `< "$x"` opens a file named -n
# found by: python -m tests.fuzz --seed 92 (script 1174), the unquoted form of 053
set -e
x=-n
for i in 1 2; do cat $x | tee /dev/null | sort | continue 2>/dev/null; echo "i=$i"; done
echo "end"
