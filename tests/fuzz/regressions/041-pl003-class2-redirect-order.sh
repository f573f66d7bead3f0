#!/bin/bash
# fuzz regression: PL003 class 2 (redirect order)
# found by: hand, from issue 13's reproducer for class 2 (the fuzzer's run did not meet it)
ls missing.txt words.txt 2>&1 | cat > out
