-- Files that hold shell, in Neovim, run by tests/editors/test_neovim.py after a
-- snippet of docs/editors.md has been sourced (as init.lua would be): open a
-- Dockerfile and a workflow and wait for their diagnostics; then open every
-- sample path of editors/vscode/test/host-files.json and note whether the
-- pipelint client attached to it (the snippets attach to YAML files by name
-- only).  Everything seen goes to a JSON report for the Python side to check.
-- Runs on Neovim 0.7 and later, so it uses only APIs that 0.7 has.
--
-- Environment: PIPELINT_LINTED (JSON: path -> number of diagnostics to wait
-- for), PIPELINT_SAMPLES (JSON: list of paths), PIPELINT_REPORT (where the
-- JSON goes). Paths are relative to the working directory.

local report = { steps = {}, linted = {}, attached = {} }
local common = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/nvim_common.lua")
local TIMEOUT_MS = common.TIMEOUT_MS

local function attached(buf)
  for _, client in pairs(common.attached_clients(buf)) do
    if client.name == "pipelint" then
      return true
    end
  end
  return false
end

local function run()
  local linted = vim.fn.json_decode(os.getenv("PIPELINT_LINTED"))
  local paths = vim.tbl_keys(linted)
  table.sort(paths)
  for _, path in ipairs(paths) do
    vim.cmd("edit " .. vim.fn.fnameescape(path))
    local buf = vim.api.nvim_get_current_buf()
    local wanted = linted[path]
    local arrived = vim.wait(TIMEOUT_MS, function()
      return #vim.diagnostic.get(buf) >= wanted
    end, 20)
    assert(arrived, path .. ": " .. #vim.diagnostic.get(buf) .. " diagnostics, not " .. wanted)
    report.linted[path] = { filetype = vim.bo[buf].filetype, attached = attached(buf), diagnostics = common.diagnostics(buf) }
    table.insert(report.steps, path)
  end
  -- A snippet may attach a buffer on a later turn of the event loop (0.11's
  -- root_dir function schedules the start): open every sample, then a shell
  -- script that is always attached, and wait for that one. Attachments run in
  -- the order they were scheduled, so every sample's has run by then.
  local buffers = {}
  for _, path in ipairs(vim.fn.json_decode(os.getenv("PIPELINT_SAMPLES"))) do
    vim.cmd("edit " .. vim.fn.fnameescape(path))
    buffers[path] = vim.api.nvim_get_current_buf()
  end
  vim.cmd("edit last-opened.sh")
  local last = vim.api.nvim_get_current_buf()
  assert(vim.wait(TIMEOUT_MS, function()
    return attached(last)
  end, 20), "the shell script opened last got no pipelint client")
  for path, buf in pairs(buffers) do
    report.attached[path] = { filetype = vim.bo[buf].filetype, attached = attached(buf) }
  end
  table.insert(report.steps, "samples")
end

common.finish(report, run)
