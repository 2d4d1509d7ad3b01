-- nospin options: defaults, merged with what the user passes to require('nospin').setup().
local M = {}

M.defaults = {
  -- the language server; it starts the nospin daemon when none runs
  cmd = { 'nospin', 'lsp' },
  -- filetypes to attach to; nil: every buffer that holds a file
  filetypes = nil,
  root_markers = { '.git', 'pyproject.toml', 'package.json', 'go.mod', 'Cargo.toml' },
  -- passed to the server as initializationOptions (deadlineMs, maxTokens, endpoint, completion)
  init_options = {},
  -- milliseconds without typing before asking for a completion
  debounce_ms = 150,
  -- milliseconds the cursor rests on a new line (normal mode) before the daemon warms the prompt
  -- there (nospin.warm: prefill in the background, so the first completion is quicker)
  warm_debounce_ms = 200,
  -- show ghost text automatically while typing in insert mode
  auto_trigger = true,
  -- insert-mode keys; false disables one. Without a suggestion a key does what it did before.
  keys = {
    accept = '<Tab>',
    accept_word = '<M-Right>',
    accept_line = '<M-C-Right>',
    dismiss = '<C-]>',
  },
  -- highlight group of the ghost text (linked to Comment unless defined)
  hl_group = 'NospinSuggestion',
}

M.options = vim.deepcopy(M.defaults)

function M.set(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  return M.options
end

return M
