-- What the Neovim drivers of tests/editors share (nvim_driver.lua,
-- nvim_hosts_driver.lua): a buffer's diagnostics as the report records them,
-- the clients attached to a buffer, and running the driver's steps into the
-- JSON report.  Runs on Neovim 0.7 and later.  Loaded with dofile() from the
-- drivers' folder.

local M = {}

-- An upper bound for a loaded CI machine, not a wait: vim.wait returns as soon
-- as what it waits for is there (the server's start costs ~1 s).
M.TIMEOUT_MS = 120000

function M.diagnostics(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, {
      code = d.code,
      lnum = d.lnum,
      col = d.col, -- Neovim's own byte column, converted from the LSP position
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      source = d.source,
      message = d.message,
    })
  end
  table.sort(found, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return found
end

function M.attached_clients(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf)) -- 0.7 to 0.9
end

-- Run the driver's steps; whatever they saw, or the error that stopped them,
-- goes to $PIPELINT_REPORT as JSON, and Neovim quits.
function M.finish(report, run)
  local ok, problem = xpcall(run, debug.traceback)
  if not ok then
    report.error = problem
  end
  vim.fn.writefile({ vim.fn.json_encode(report) }, os.getenv("PIPELINT_REPORT"))
  vim.cmd("qall!")
end

return M
