-- nospin for Neovim (0.11+; 0.12 recommended): ghost-text completions from the nospin daemon,
-- through the `nospin lsp` language server (vim.lsp). See editors/nvim/README.md.
--
--   require('nospin').setup({ debounce_ms = 150, keys = { accept = '<Tab>' } })
local config = require('nospin.config')
local ghost = require('nospin.ghost')
local status = require('nospin.status')

local M = {}

M.statusline = status.statusline

local function root_dir(markers)
  return function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    if vim.bo[bufnr].buftype ~= '' or name == '' then
      return -- scratch and special buffers: no completions
    end
    on_dir(vim.fs.root(bufnr, markers) or vim.fs.dirname(name))
  end
end

function M.setup(opts)
  local o = config.set(opts)
  vim.api.nvim_set_hl(0, o.hl_group, { link = 'Comment', default = true })
  vim.lsp.config('nospin', {
    cmd = o.cmd,
    filetypes = o.filetypes,
    root_dir = root_dir(o.root_markers),
    init_options = o.init_options,
    handlers = { ['nospin/status'] = status.on_notification },
  })
  vim.lsp.enable('nospin')
  vim.api.nvim_create_autocmd('LspAttach', {
    group = vim.api.nvim_create_augroup('nospin_attach', { clear = true }),
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == 'nospin' then
        ghost.attach(args.buf, client)
      end
    end,
  })
end

-- the nospin client of a buffer (the current one by default), or nil
function M.client(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr or 0, name = 'nospin' })[1]
    or vim.lsp.get_clients({ name = 'nospin' })[1]
end

-- run a server command (workspace/executeCommand); on_result(err, result)
function M.exec(command, arguments, on_result)
  local client = M.client()
  if not client then
    vim.notify('nospin: the language server is not running here', vim.log.levels.WARN)
    return
  end
  client:request('workspace/executeCommand', { command = command, arguments = arguments or {} },
    function(err, result)
      if on_result then
        on_result(err, result)
      elseif err then
        vim.notify('nospin: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      end
    end)
end

-- :NospinFastMode [on|off|toggle]
function M.fast_mode(arg)
  local function report(err, result)
    if err then
      vim.notify('nospin: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    status.fast_mode = result and result.fast_mode == true
    vim.notify('nospin: fast mode ' .. (status.fast_mode and 'on' or 'off'))
  end
  if arg == 'on' or arg == 'off' then
    M.exec('nospin.fastMode', { arg == 'on' }, report)
  elseif arg == nil or arg == '' or arg == 'toggle' then
    M.exec('nospin.toggleFastMode', {}, report)
  else
    vim.notify(string.format("nospin: :NospinFastMode takes on, off or toggle, not '%s'", arg),
      vim.log.levels.ERROR)
  end
end

-- a figure of the status answer: null (vim.NIL) before the daemon has one
local function num(v)
  return type(v) == 'number' and string.format('%.0f', v) or '?'
end

local function ms(v)
  return type(v) == 'table' and string.format('p50 %s ms, p95 %s ms', num(v.p50), num(v.p95)) or '-'
end

-- :NospinStatus
function M.show_status()
  M.exec('nospin.status', {}, function(err, r)
    if err then
      vim.notify('nospin: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    status.fast_mode = r.fast_mode == true
    local lines = {
      string.format('nospin %s (daemon pid %s), engine %s: %s', r.version, r.pid, r.engine,
        r.engine_state),
      string.format('fast mode %s%s; %s requests; total %s; first token %s',
        r.fast_mode == true and 'on' or 'off', r.paused == true and ', paused' or '',
        num(r.num_requests),
        ms(r.total_ms), ms(r.first_token_ms)),
      'last: ' .. (status.statusline() ~= '' and status.statusline() or '-'),
    }
    if type(r.last_crash) == 'string' and r.last_crash ~= '' then
      table.insert(lines, 'the previous daemon crashed: ' .. r.last_crash)
    end
    vim.notify(table.concat(lines, '\n'))
  end)
end

M.accept = ghost.accept
M.dismiss = ghost.dismiss

-- :NospinToggle: ghost text on/off
function M.toggle()
  ghost.set_enabled(not ghost.enabled)
  vim.notify('nospin: ghost text ' .. (ghost.enabled and 'on' or 'off'))
end

return M
