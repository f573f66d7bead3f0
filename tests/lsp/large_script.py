"""A realistic 5,000-line script for the timing test and tests/benchmarks/bench_lsp.py.

Functions with if/for/while bodies, here-strings of quoting, command
substitutions and one finding every 5 lines on average (PL001 in pipelines,
in `$(…)` and before a `uniq -c` chain) — parse-clean, so the whole file is
linted.
"""

from __future__ import annotations

BLOCK = """\
# section {i}: rotate and summarise the logs
process_{i}() {{
  local dir="$1"
  if [ -d "$dir" ]; then
    cat "$dir/access.log" | grep -v healthcheck | sort | uniq -c > "$dir/summary.{i}"
  fi
  for f in "$dir"/*.log; do
    wc -l < "$f"
  done
  while read -r line; do
    echo "$line" | cut -d' ' -f1
  done < "$dir/hosts"
  count=$(cat access.log | wc -l)
  echo "total: $count"
}}
"""


def large_script(lines: int = 5000) -> str:
    """Whole blocks up to `lines` lines, padded with `echo done`; ends with a newline."""
    out = ["#!/bin/bash", "set -eu"]
    block_lines = BLOCK.count("\n")
    i = 0
    while len(out) + block_lines <= lines:
        out.extend(BLOCK.format(i=i).splitlines())
        i += 1
    out.extend(["echo done"] * (lines - len(out)))
    return "\n".join(out) + "\n"
