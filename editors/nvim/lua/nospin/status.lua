-- The statusline component: what the server's `nospin/status` notification last said.
local M = {}

-- last notification params: state, latency_ms, first_token_ms, tier, tier_name, tier_reason,
-- cache, finish_reason, num_tokens, fast_mode, engine_state, message (docs/editors.md)
M.last = nil
M.fast_mode = nil

local function redraw()
  vim.schedule(function()
    pcall(vim.cmd.redrawstatus)
  end)
end

-- handler of the `nospin/status` notification (registered in the client config)
function M.on_notification(_, result)
  if type(result) ~= 'table' then
    return
  end
  M.last = result
  if result.fast_mode ~= nil and result.fast_mode ~= vim.NIL then
    M.fast_mode = result.fast_mode
  end
  redraw()
  vim.schedule(function()
    vim.api.nvim_exec_autocmds('User', { pattern = 'NospinStatus', modeline = false, data = result })
  end)
end

-- "nospin 320ms normal", "nospin 45ms cache FAST", "nospin error"; "" before the server spoke.
function M.statusline()
  local s = M.last
  if not s then
    return ''
  end
  if s.state == 'error' then
    return 'nospin error'
  end
  local parts = { 'nospin' }
  if type(s.latency_ms) == 'number' then
    parts[#parts + 1] = string.format('%dms', math.floor(s.latency_ms + 0.5))
  end
  if type(s.tier_name) == 'string' and s.tier_name ~= '' then
    parts[#parts + 1] = s.tier_name
  end
  if M.fast_mode then
    parts[#parts + 1] = 'FAST'
  end
  return table.concat(parts, ' ')
end

return M
