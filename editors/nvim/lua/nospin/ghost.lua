-- Ghost text: ask the server for an inline completion after a pause in typing, show it with an
-- extmark (inline virtual text, the further lines as virtual lines), accept it whole, by word or
-- by line, dismiss it. Typing on cancels the request in flight ($/cancelRequest); typing the
-- start of the suggestion keeps the rest of it on screen without asking again.
local config = require('nospin.config')

local M = {}

local ns = vim.api.nvim_create_namespace('nospin_ghost')
M.namespace = ns
M.enabled = true
-- set vim.g.nospin_debug = true to record why suggestions were dropped (last 50 entries)
M.trace = {}

local function trace(msg)
  if vim.g.nospin_debug then
    M.trace[#M.trace + 1] = msg
    if #M.trace > 50 then
      table.remove(M.trace, 1)
    end
  end
end

-- bufnr -> { client, timer, request = {id}, suggestion = {row, col, text, tick, line, line_count},
--   skip_tick }
local buffers = {}

local function stop_timer(s)
  if s.timer then
    s.timer:stop()
  end
end

local function cancel(s)
  stop_timer(s)
  if s.request then
    pcall(function()
      s.client:cancel_request(s.request.id)
    end)
    s.request = nil
  end
end

local function clear(bufnr, s)
  s.suggestion = nil
  if vim.api.nvim_buf_is_valid(bufnr) then
    vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  end
end

local function show(bufnr, s, row, col, text)
  clear(bufnr, s)
  if text == '' then
    return
  end
  local hl = config.options.hl_group
  local lines = vim.split(text, '\n', { plain = true })
  local opts = { hl_mode = 'combine', right_gravity = false }
  if lines[1] ~= '' then
    opts.virt_text = { { lines[1], hl } }
    opts.virt_text_pos = 'inline'
  end
  if #lines > 1 then
    opts.virt_lines = {}
    for i = 2, #lines do
      opts.virt_lines[#opts.virt_lines + 1] = { { lines[i], hl } }
    end
  end
  vim.api.nvim_buf_set_extmark(bufnr, ns, row, col, opts)
  -- line and line_count: the buffer as it was when shown, to recognise typing through it
  s.suggestion = {
    row = row, col = col, text = text, tick = vim.api.nvim_buf_get_changedtick(bufnr),
    line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or '',
    line_count = vim.api.nvim_buf_line_count(bufnr),
  }
end

-- The text typed through the suggestion: when the only change since it was shown is text
-- inserted at its place, ending at the cursor, that is the start of the suggestion but not all
-- of it, that text; else nil (anything else: another character, a deletion, a move, a new line).
-- Checked on the suggestion's line and the number of lines.
local function typed_through(bufnr, sug)
  local cursor = vim.api.nvim_win_get_cursor(0)
  if cursor[1] - 1 ~= sug.row or cursor[2] <= sug.col
      or vim.api.nvim_buf_line_count(bufnr) ~= sug.line_count then
    return nil
  end
  local line = vim.api.nvim_buf_get_lines(bufnr, sug.row, sug.row + 1, false)[1] or ''
  local n = cursor[2] - sug.col
  local typed = line:sub(sug.col + 1, cursor[2])
  if n >= #sug.text or typed ~= sug.text:sub(1, n)
      or line ~= sug.line:sub(1, sug.col) .. typed .. sug.line:sub(sug.col + 1) then
    return nil
  end
  return typed
end

-- The insert text of the first item of an InlineCompletionList (or a bare item array), with the
-- part before the cursor removed when the item's range starts before it (other servers do that).
local function item_text(result, bufnr, row, col)
  local items = result.items or result
  local item = type(items) == 'table' and items[1] or nil
  if not item then
    return nil
  end
  local text = item.insertText
  if type(text) == 'table' then
    text = text.value -- a snippet string: shown as is
  end
  if type(text) ~= 'string' then
    return nil
  end
  local range = item.range
  if range and range.start.line == row then
    local line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
    local ok, start = pcall(vim.str_byteindex, line, 'utf-16', range.start.character, false)
    if ok and start < col then
      local typed = line:sub(start + 1, col)
      if text:sub(1, #typed) ~= typed then
        return nil
      end
      text = text:sub(#typed + 1)
    end
  end
  return text
end

-- Ask for a completion at the cursor now (the debounce timer calls this).
function M.request(bufnr)
  local s = buffers[bufnr]
  if not s or not M.enabled or bufnr ~= vim.api.nvim_get_current_buf() then
    return
  end
  if not vim.api.nvim_get_mode().mode:match('^i') then
    return
  end
  cancel(s)
  local win = vim.api.nvim_get_current_win()
  local cursor = vim.api.nvim_win_get_cursor(win)
  local row, col = cursor[1] - 1, cursor[2]
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local params = vim.lsp.util.make_position_params(win, s.client.offset_encoding)
  params.context = { triggerKind = 2 } -- Automatic
  local ok, id
  ok, id = s.client:request('textDocument/inlineCompletion', params, function(err, result)
    if not (s.request and s.request.id == id) then
      trace('dropped: cancelled or superseded')
      return -- dismissed, toggled off, or another request took its place
    end
    s.request = nil
    if not M.enabled then
      trace('dropped: ghost text off')
      return
    end
    if err or not result or not vim.api.nvim_buf_is_valid(bufnr) then
      trace('no result: ' .. vim.inspect(err))
      return
    end
    local now = vim.api.nvim_win_get_cursor(0)
    if vim.api.nvim_get_current_buf() ~= bufnr or vim.api.nvim_buf_get_changedtick(bufnr) ~= tick
        or now[1] - 1 ~= row or now[2] ~= col or not vim.api.nvim_get_mode().mode:match('^i') then
      trace(string.format('stale: tick %d/%d, cursor %d:%d/%d:%d, mode %s', tick,
        vim.api.nvim_buf_get_changedtick(bufnr), row, col, now[1] - 1, now[2],
        vim.api.nvim_get_mode().mode))
      return -- the user moved on: this answer is stale
    end
    local text = item_text(result, bufnr, row, col)
    trace('shown: ' .. vim.inspect(text))
    if text and text ~= '' then
      show(bufnr, s, row, col, text)
    end
  end, bufnr)
  if ok and id then
    s.request = { id = id }
  end
end

-- The cursor settled on another line in normal mode: ask the daemon to prefill the prompt there
-- (nospin.warm), so the first completion after entering insert mode finds it cached.
M.last_warm = nil -- the daemon's answer to the last warm request ("warming", ...), for checks
function M.warm(bufnr)
  local s = buffers[bufnr]
  if not s or not M.enabled or bufnr ~= vim.api.nvim_get_current_buf() then
    return
  end
  local win = vim.api.nvim_get_current_win()
  local row = vim.api.nvim_win_get_cursor(win)[1] - 1
  if s.warm_row == row then
    return
  end
  s.warm_row = row
  local params = vim.lsp.util.make_position_params(win, s.client.offset_encoding)
  s.client:request('workspace/executeCommand', {
    command = 'nospin.warm',
    arguments = { params.textDocument.uri, params.position },
  }, function(err, result)
    M.last_warm = err and ('error: ' .. tostring(err.message)) or (result and result.warm)
    trace('warm: ' .. vim.inspect(M.last_warm))
  end, bufnr)
end

-- Typing, moving or entering insert mode: drop the suggestion, cancel, ask again after a pause.
-- Typing the start of the suggestion keeps the rest of it on screen instead (type-through).
local function on_activity(bufnr)
  local s = buffers[bufnr]
  if not s then
    return
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  if s.skip_tick == tick then
    return -- our own partial accept
  end
  local sug = s.suggestion
  if sug then
    local cursor = vim.api.nvim_win_get_cursor(0)
    if sug.tick == tick and sug.row == cursor[1] - 1 and sug.col == cursor[2] then
      return -- nothing changed
    end
    local typed = sug.tick ~= tick and typed_through(bufnr, sug)
    if typed then
      -- typed the start of the suggestion: show the rest where the cursor is now, ask nothing
      cancel(s)
      trace('typed through: ' .. vim.inspect(typed))
      show(bufnr, s, sug.row, sug.col + #typed, sug.text:sub(#typed + 1))
      return
    end
  end
  cancel(s)
  clear(bufnr, s)
  if M.enabled and config.options.auto_trigger then
    s.timer:start(config.options.debounce_ms, 0, vim.schedule_wrap(function()
      M.request(bufnr)
    end))
  end
end

local function take_word(text)
  return text:match('^\n[ \t]*') or text:match('^[ \t]*[%w_]+') or text:match('^[ \t]*[^%w_%s]+')
    or text:match('^[ \t]+') or text
end

local function take_line(text)
  local first = text:match('^[^\n]*')
  if first == '' and #text > 0 then
    return text:match('^\n[^\n]*') -- the suggestion starts with a newline: take the next line
  end
  return first
end

-- whether a suggestion is where the cursor is (the current window)
local function at_cursor(sug)
  local cursor = vim.api.nvim_win_get_cursor(0)
  return sug.row == cursor[1] - 1 and sug.col == cursor[2]
end

-- Insert all ('accept'), the next word ('accept_word') or the rest of the line ('accept_line')
-- of the suggestion at the cursor. Returns false when there is no suggestion here.
function M.accept(kind, bufnr)
  if not bufnr or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local s = buffers[bufnr]
  local sug = s and s.suggestion
  if not sug then
    return false
  end
  if not at_cursor(sug) then
    clear(bufnr, s)
    return false
  end
  cancel(s)
  local take = sug.text
  if kind == 'accept_word' then
    take = take_word(sug.text)
  elseif kind == 'accept_line' then
    take = take_line(sug.text)
  end
  local rest = sug.text:sub(#take + 1)
  local lines = vim.split(take, '\n', { plain = true })
  clear(bufnr, s)
  local row = sug.row + #lines - 1
  local col = (#lines == 1 and sug.col or 0) + #lines[#lines]
  if bufnr == vim.api.nvim_get_current_buf() and vim.api.nvim_get_mode().mode:match('^i') then
    -- pasted, not set: Neovim (0.11+) keeps a paste in the insert's redo, so `.` inserts the
    -- accepted text again with the typing around it, as it was (no autoindent on its lines);
    -- the cursor ends after it
    vim.api.nvim_paste(take, false, -1)
  else
    vim.api.nvim_buf_set_text(bufnr, sug.row, sug.col, sug.row, sug.col, lines)
    vim.api.nvim_win_set_cursor(0, { row + 1, col })
  end
  if rest ~= '' then
    s.skip_tick = vim.api.nvim_buf_get_changedtick(bufnr)
    show(bufnr, s, row, col, rest)
  end
  return true
end

-- Remove the suggestion and stop the one coming (debounce timer, request in flight). Returns
-- whether a suggestion was on screen.
function M.dismiss(bufnr)
  if not bufnr or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local s = buffers[bufnr]
  if not s then
    return false
  end
  local shown = s.suggestion ~= nil
  cancel(s)
  clear(bufnr, s)
  return shown
end

-- Ghost text on or off in every buffer; off drops what is shown and what is coming.
function M.set_enabled(on)
  M.enabled = on
  if not on then
    for bufnr in pairs(buffers) do
      M.dismiss(bufnr)
    end
  end
end

-- The suggestion shown in a buffer, or nil (for statuslines and tests).
function M.current(bufnr)
  if not bufnr or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local s = buffers[bufnr]
  return s and s.suggestion or nil
end

-- The plugin's keys are buffer-local <expr> mappings. With a suggestion at the cursor a key
-- returns <Cmd> to accept or dismiss it (an <expr> mapping may not change text itself). Without
-- one it returns <Plug>(nospin-fallback-<action>), a copy of the insert-mode mapping the key had
-- (the buffer's own, else the global one: the user's, a plugin's, Neovim's default <Tab>) or the
-- key itself: the fallback is expanded where the key stands in the typeahead, so fast typing,
-- macros and dot-repeat keep it in its place.

local function same_key(a, b)
  return vim.fn.keytrans(vim.keycode(a)) == vim.fn.keytrans(vim.keycode(b))
end

local function ours(map)
  return type(map.desc) == 'string' and map.desc:sub(1, 8) == 'nospin: '
end

local function find_map(maps, key)
  for _, map in ipairs(maps) do
    if same_key(map.lhs, key) and not ours(map) then
      return map
    end
  end
end

-- (Re)define the fallback of a key as a copy of `map` (nil: the key itself, not remapped).
local function set_fallback(bufnr, action, key, map)
  local plug = '<Plug>(nospin-fallback-' .. action .. ')'
  local opts = { noremap = true, desc = 'nospin: ' .. key .. ' without a suggestion' }
  local rhs = key
  if map then
    rhs = map.rhs or ''
    opts.noremap = map.noremap == 1
    opts.expr = map.expr == 1
    opts.silent = map.silent == 1
    opts.callback = map.callback
    if opts.expr then
      opts.replace_keycodes = map.replace_keycodes == 1
    end
  end
  vim.api.nvim_buf_set_keymap(bufnr, 'i', plug, rhs, opts)
  return plug
end

-- The fallbacks follow the global mappings as they are now (a plugin may map <Tab> once loaded):
-- called when the keys are mapped and on each InsertEnter.
local function update_fallbacks(bufnr)
  local s = buffers[bufnr]
  local global = vim.api.nvim_get_keymap('i')
  for action, key in pairs(s.keys or {}) do
    set_fallback(bufnr, action, key, s.own_maps[action] or find_map(global, key))
  end
end

local function map_keys(bufnr)
  local s = buffers[bufnr]
  local own = vim.api.nvim_buf_get_keymap(bufnr, 'i')
  s.keys, s.own_maps = {}, {}
  for action, key in pairs(config.options.keys) do
    if key then
      s.keys[action] = key
      s.own_maps[action] = find_map(own, key) -- the buffer's own mapping, replaced below
      local fallback = '<Plug>(nospin-fallback-' .. action .. ')'
      local call = string.format("<Cmd>lua require('nospin.ghost').accept('%s', %d)<CR>", action,
        bufnr)
      if action == 'dismiss' then
        call = string.format("<Cmd>lua require('nospin.ghost').dismiss(%d)<CR>", bufnr)
      end
      vim.keymap.set('i', key, function()
        local sug = s.suggestion
        if sug and at_cursor(sug) then
          return call
        elseif action == 'dismiss' then
          return call .. fallback -- stop the suggestion still coming, then do what the key did
        end
        return fallback
      end, { buffer = bufnr, expr = true, remap = true, desc = 'nospin: ' .. action:gsub('_', ' ') })
    end
  end
  update_fallbacks(bufnr)
end

-- Called on LspAttach of the nospin client.
function M.attach(bufnr, client)
  if buffers[bufnr] then
    return
  end
  buffers[bufnr] = { client = client, timer = vim.uv.new_timer(), warm_timer = vim.uv.new_timer() }
  local group = vim.api.nvim_create_augroup('nospin_ghost_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ 'TextChangedI', 'TextChangedP', 'CursorMovedI', 'InsertEnter' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      on_activity(bufnr)
    end,
  })
  vim.api.nvim_create_autocmd('InsertEnter', {
    group = group,
    buffer = bufnr,
    callback = function()
      update_fallbacks(bufnr)
    end,
  })
  vim.api.nvim_create_autocmd({ 'CursorMoved', 'BufEnter' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      local s = buffers[bufnr]
      if s and config.options.auto_trigger then
        s.warm_timer:start(config.options.warm_debounce_ms, 0, vim.schedule_wrap(function()
          M.warm(bufnr)
        end))
      end
    end,
  })
  vim.api.nvim_create_autocmd({ 'InsertLeave', 'BufLeave' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      local s = buffers[bufnr]
      if s then
        cancel(s)
        clear(bufnr, s)
      end
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufUnload' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      M.detach(bufnr)
    end,
  })
  map_keys(bufnr)
end

function M.detach(bufnr)
  local s = buffers[bufnr]
  if not s then
    return
  end
  cancel(s)
  clear(bufnr, s)
  s.timer:close()
  s.warm_timer:close()
  buffers[bufnr] = nil
  pcall(vim.api.nvim_del_augroup_by_name, 'nospin_ghost_' .. bufnr)
end

return M
