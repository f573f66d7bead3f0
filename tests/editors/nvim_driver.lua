-- What a Neovim user does with pipelint, run by tests/editors/test_neovim.py
-- after a snippet of docs/editors.md has been sourced (as init.lua would be):
-- open the script, wait for the diagnostics, pick a quick fix from the
-- code-action menu, run :PipelintFixAll, and wait for the diagnostics of the
-- result.  Everything seen goes to a JSON report for the Python side to check.
-- Runs on Neovim 0.7 and later, so it uses only APIs that 0.7 has.
--
-- Environment: PIPELINT_SCRIPT (the file to open), PIPELINT_REPORT (where the
-- JSON goes), PIPELINT_QUICK_FIX (the menu title to pick) and
-- PIPELINT_REMAINING (how many diagnostics the fixed text should have).

local report = { steps = {} }
local common = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/nvim_common.lua")
local TIMEOUT_MS = common.TIMEOUT_MS

local function step(name)
  table.insert(report.steps, name)
end

local function buffer_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
end

-- The code-action menu is vim.ui.select: answer it as a user would, by title.
local function choose_in_menus(title)
  vim.ui.select = function(items, opts, on_choice)
    local offered, chosen = {}, nil
    for index, item in ipairs(items) do
      local shown = opts.format_item and opts.format_item(item) or tostring(item)
      table.insert(offered, shown)
      if chosen == nil and shown:find(title, 1, true) then
        chosen = index
      end
    end
    report.offered = offered
    on_choice(chosen and items[chosen], chosen)
  end
end

local function wait_for_change(buf, tick, what)
  local changed = vim.wait(TIMEOUT_MS, function()
    return vim.api.nvim_buf_get_changedtick(buf) ~= tick
  end, 20)
  assert(changed, what .. " did not change the buffer")
end

local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("PIPELINT_SCRIPT")))
  local buf = vim.api.nvim_get_current_buf()
  report.filetype = vim.bo[buf].filetype
  step("opened")

  assert(vim.wait(TIMEOUT_MS, function()
    return #vim.diagnostic.get(buf) > 0
  end, 20), "no diagnostics arrived")
  local clients = common.attached_clients(buf)
  report.clients = vim.tbl_map(function(client)
    return { name = client.name, offset_encoding = client.offset_encoding }
  end, clients)
  report.diagnostics = common.diagnostics(buf)
  step("diagnostics")

  -- The cursor inside the first finding, a few bytes past its start.
  local first = report.diagnostics[1]
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col + 4 })
  choose_in_menus(os.getenv("PIPELINT_QUICK_FIX"))
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  vim.lsp.buf.code_action()
  wait_for_change(buf, tick, "the quick fix")
  report.after_quick_fix = buffer_text(buf)
  step("quick fix")

  tick = vim.api.nvim_buf_get_changedtick(buf)
  vim.cmd("PipelintFixAll")
  wait_for_change(buf, tick, ":PipelintFixAll")
  report.after_fix_all = buffer_text(buf)
  step("fix all")

  local remaining = tonumber(os.getenv("PIPELINT_REMAINING"))
  vim.wait(TIMEOUT_MS, function()
    return #vim.diagnostic.get(buf) == remaining
  end, 20)
  report.remaining = common.diagnostics(buf)
  step("remaining")
end

common.finish(report, run)
