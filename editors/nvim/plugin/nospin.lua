-- nospin user commands; call require('nospin').setup() in your config to start completions.
if vim.g.loaded_nospin then
  return
end
vim.g.loaded_nospin = true

vim.api.nvim_create_user_command('NospinStatus', function()
  require('nospin').show_status()
end, { desc = 'nospin: daemon status, latency and tier' })

vim.api.nvim_create_user_command('NospinFastMode', function(args)
  require('nospin').fast_mode(args.args)
end, {
  nargs = '?',
  complete = function()
    return { 'on', 'off', 'toggle' }
  end,
  desc = 'nospin: fast mode on, off or toggle',
})

vim.api.nvim_create_user_command('NospinToggle', function()
  require('nospin').toggle()
end, { desc = 'nospin: ghost text on/off' })
