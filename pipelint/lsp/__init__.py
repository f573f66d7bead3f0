"""`pipelint lsp`: the language server, built on pygls.

One idea per module: `framing` (reading messages off stdin, surviving bad
frames), `protocol` (JSON-RPC errors for what a client gets wrong),
`server` (the state of open documents and the lint scheduling), `handlers`
(what each LSP message does), `worker` (where lints run: off the event loop),
`documents` (one document's text, its lint job and the result), `ranges`
(byte offsets ↔ LSP positions, in the negotiated encoding), `diagnostics`
(findings → LSP diagnostics), `actions` (quick fixes, fix-all, disable),
`directive` (where a disable directive goes) and `hover` (rule documents over
directive codes).  Nothing here re-implements the engine: it calls
`linter.process`, `fixer` and `positions.LineIndex`.
"""
