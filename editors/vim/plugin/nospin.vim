" nospin for Vim 9: ghost-text completions from the local nospin daemon, through the
" `nospin lsp` language server over a Vim LSP channel. See editors/vim/README.md.
"
" Options (set before the plugin loads or before the first buffer is opened):
"   g:nospin_cmd               ['nospin', 'lsp']  the language server (a string: the executable)
"   g:nospin_filetypes         []     filetypes to attach to; empty: every buffer holding a file
"   g:nospin_init_options      {}     initializationOptions: deadlineMs, maxTokens, endpoint
"   g:nospin_debounce_ms       150    pause in typing before asking
"   g:nospin_warm_debounce_ms  200    cursor rest on a new line before warming the prompt there
"   g:nospin_auto_trigger      1      ask while typing in insert mode
"   g:nospin_keys              {}     merged into {'accept': '<Tab>', 'accept_word': '<M-Right>',
"                                     'accept_line': '<M-C-Right>', 'dismiss': '<C-]>'};
"                                     '' disables one
if exists('g:loaded_nospin')
  finish
endif
let g:loaded_nospin = 1

if v:version < 900 || !has('channel') || !has('job') || !has('textprop') || !has('timers')
  echohl WarningMsg
  echomsg 'nospin: needs Vim 9.0 or newer with +channel, +job, +textprop and +timers'
  echohl None
  finish
endif

highlight default link NospinSuggestion Comment

command! NospinStatus call nospin#show_status()
command! -nargs=? -complete=customlist,nospin#fast_mode_complete NospinFastMode
      \ call nospin#fast_mode(<q-args>)
command! NospinToggle call nospin#toggle()
command! NospinRestart call nospin#restart()

augroup nospin
  autocmd!
  autocmd BufEnter,FileType * call nospin#attach(str2nr(expand('<abuf>')))
  autocmd BufFilePost * call nospin#reattach(str2nr(expand('<abuf>')))
  autocmd BufUnload * call nospin#detach(str2nr(expand('<abuf>')))
  autocmd VimLeavePre * call nospin#stop()
  autocmd ColorScheme * highlight default link NospinSuggestion Comment
augroup END

if v:vim_did_enter
  " loaded late (:packadd, :runtime): the buffer already open
  call nospin#attach(bufnr('%'))
endif
