-- End-to-end test of `hashalloc lsp` in Neovim's built-in LSP client, run by
-- TestNeovim as `nvim --headless --clean -u e2e.lua`. It works with Neovim
-- 0.7 (Debian 12) and later.
--
-- It sets hashalloc up with hashalloc.lua beside it, the snippet of
-- docs/integrations.md (hashalloc is on the PATH), then for each step of the
-- plan it opens a file.
--
-- The environment gives:
--   HASHALLOC_ROOT  the module to work in (the current directory)
--   HASHALLOC_PLAN  a JSON list of steps: {file, message, action, only?}
--                   file is relative to the root; message picks the finding
--                   whose message contains it (any finding when empty);
--                   action is "quickfix", "ignore" or "fixall".
--   HASHALLOC_OUT   where to write the JSON report
--   HASHALLOC_WAIT  milliseconds to wait for the server at each step
--
-- For each step it opens the file, waits for hashalloc's diagnostics,
-- requests the code actions at the finding, applies the chosen one with
-- vim.lsp.util.apply_workspace_edit, writes the file, and waits for the
-- diagnostics published after the save. Every wait is bounded; any error
-- ends the script with the error in the report.

local root = os.getenv('HASHALLOC_ROOT')
local out = os.getenv('HASHALLOC_OUT')
local wait_ms = tonumber(os.getenv('HASHALLOC_WAIT') or '60000')
local report = { nvim = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch), steps = {} }

local function finish(err)
  report.error = err
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode(report))
  f:close()
  vim.cmd('qall!')
end

-- What the server published, by URI: the last diagnostics, how many
-- publications, and when the last one came (ms since start).
local published = {}
local function now_ms()
  return vim.loop.hrtime() / 1e6
end

local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  local p = published[result.uri] or { count = 0 }
  p.count = p.count + 1
  p.diagnostics = result.diagnostics
  p.at = now_ms()
  published[result.uri] = p
  return default_publish(err, result, ctx, config)
end

-- Headless with --clean, Neovim 0.7 detects no file types: turn it on, as
-- a normal start does.
vim.cmd('filetype on')
dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/hashalloc.lua')

-- client returns the hashalloc client attached to bufnr, if any.
local function client(bufnr)
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(clients) do
    if c.name == 'hashalloc' then
      return c
    end
  end
end

local client_id -- of the hashalloc client, once attached

local function count(uri)
  return (published[uri] or { count = 0 }).count
end

-- wait_publish waits until the diagnostics of uri were published more than
-- after times.
local function wait_publish(uri, after, what)
  local ok = vim.wait(wait_ms, function()
    return count(uri) > after
  end, 20)
  assert(ok, 'timed out waiting for diagnostics ' .. what .. ' of ' .. uri)
  return published[uri].diagnostics
end

-- wait_settled waits as wait_publish does, then until no more diagnostics
-- of uri come for settle_ms: an edit publishes diagnostics of its own
-- (moved, or cleared), which may arrive after the save that follows it and
-- before the save's.
local settle_ms = 2000
local function wait_settled(uri, after, what)
  wait_publish(uri, after, what)
  while true do
    local n = count(uri)
    if not vim.wait(settle_ms, function() return count(uri) > n end, 20) then
      return published[uri].diagnostics
    end
  end
end

local function summarize(diags)
  local s = {}
  for _, d in ipairs(diags) do
    table.insert(s, {
      line = d.range.start.line,
      character = d.range.start.character,
      code = d.code,
      href = d.codeDescription and d.codeDescription.href or vim.NIL,
      source = d.source,
      message = d.message,
    })
  end
  return s
end

local function run_step(step)
  local rec = { file = step.file, action = step.action }
  table.insert(report.steps, rec)

  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. step.file))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  assert(vim.wait(wait_ms, function() return client(bufnr) ~= nil end, 20), 'no hashalloc client attached to ' .. uri)
  local c = client(bufnr)
  client_id = c.id

  local diags = wait_publish(uri, 0, 'on open')
  rec.before = summarize(diags)
  -- The editor shows them too.
  rec.shown = #vim.diagnostic.get(bufnr)

  local target
  for _, d in ipairs(diags) do
    if step.message == '' or string.find(d.message, step.message, 1, true) then
      target = d
      break
    end
  end
  assert(target, 'no diagnostic with message ' .. step.message)
  rec.target = summarize({ target })[1]

  local params = {
    textDocument = { uri = uri },
    range = target.range,
    context = { diagnostics = { target } },
  }
  if step.only then
    params.context.only = { step.only }
  end
  local responses, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, wait_ms)
  assert(responses, 'codeAction: ' .. tostring(err))
  local actions = {}
  for _, resp in pairs(responses) do
    assert(not resp.error, 'codeAction: ' .. vim.inspect(resp.error))
    for _, a in ipairs(resp.result or {}) do
      table.insert(actions, a)
    end
  end
  rec.actions = {}
  local chosen
  for _, a in ipairs(actions) do
    table.insert(rec.actions, { title = a.title, kind = a.kind })
    local ignore = string.sub(a.title, 1, 6) == 'Ignore'
    if not chosen and (
          (step.action == 'quickfix' and a.kind == 'quickfix' and not ignore)
          or (step.action == 'ignore' and a.kind == 'quickfix' and ignore)
          or (step.action == 'fixall' and a.kind == 'source.fixAll.hashalloc')) then
      chosen = a
    end
  end
  assert(chosen, 'no ' .. step.action .. ' action among ' .. vim.inspect(rec.actions))
  rec.applied = chosen.title

  vim.lsp.util.apply_workspace_edit(chosen.edit, c.offset_encoding or 'utf-16')
  local before = count(uri)
  local saved = now_ms()
  vim.cmd('write')
  local after = wait_settled(uri, before, 'after the save')
  rec.after = summarize(after)
  rec.save_to_diagnostics_ms = published[uri].at - saved
end

local ok, err = pcall(function()
  local plan = vim.fn.json_decode(os.getenv('HASHALLOC_PLAN'))
  for _, step in ipairs(plan) do
    run_step(step)
  end
  -- Shut the server down and wait for it to exit.
  if client_id then
    vim.lsp.stop_client(client_id)
    local stopped = vim.wait(wait_ms, function()
      return vim.lsp.get_client_by_id(client_id) == nil
    end, 20)
    report.stopped = stopped
  end
end)
finish(ok and vim.NIL or tostring(err))
