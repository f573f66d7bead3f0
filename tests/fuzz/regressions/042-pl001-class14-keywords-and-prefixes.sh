#!/bin/bash
# fuzz regression: PL001 class 14 (keywords and prefixes)
# found by: hand, from issue 13's reproducer for class 14 (the fuzzer's run did not meet it)
cat words.txt | time wc -l 2>/dev/null
