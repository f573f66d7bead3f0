"""`pipelint lsp`: the language server, built on pygls.

One idea per module: `ranges` (byte offsets ↔ LSP positions, in the
negotiated encoding), `documents` (lint one open document), `diagnostics`
(findings → LSP diagnostics), `actions` (quick fixes, fix-all, disable),
`directive` (where a disable directive goes), `hover` (rule documents over
directive codes) and `server` (the handlers, debouncing, config reloads).
Nothing here re-implements the engine: it calls `linter.process`, `fixer`
and `positions.LineIndex`.
"""
