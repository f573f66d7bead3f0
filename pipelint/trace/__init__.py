"""`pipelint trace`: run a script once and rank its pipelines by what they really cost, joined with the findings.

`runner` starts the command under `pipelint-tracer` (runtime/tracer.c) and
reads its `record`; `attribute` finds the script line behind every process
(`scripts`: the units a script holds, read with the command model);
`report` sums the costs per pipeline, joins the findings of
`engine.linter` and ranks; `full` and `json_format` print it, and
`measured` reads a saved JSON trace back for `pipelint check --trace` and
the language server's hover. docs/trace.md explains the choices and their
measurements.
"""

from __future__ import annotations

FORMATS = ("full", "json")
DEFAULT_TOP = 15  # pipelines the terminal report lists: `--top N` (0: all)
