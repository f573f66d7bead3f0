#!/bin/sh
# fuzz regression: PL002 class 11 (here-documents tree-sitter ends too early)
# differs: [bash, inputs present] files: out: file 644 0 bytes sha256:e3b0c44298fc → None
# differs: [dash, inputs present] files: out: file 644 0 bytes sha256:e3b0c44298fc → None
# classified by hand: `set -u` and `$v` unset: the body fails to expand and the redirects after it are skipped; PL002 now puts it after `> out`, PL003 is unsafe there
# found by: python -m tests.fuzz --seed 2414 (script 3558)
set -u
echo "got $(cat <<- EOF | cat > out
$v
	EOF
)"