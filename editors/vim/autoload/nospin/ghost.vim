" Ghost text: ask the server for an inline completion after a pause in typing, show it with
" text properties (virtual text at the cursor, the further lines below), accept it whole, by word
" or by line, dismiss it. Typing on cancels the request in flight ($/cancelRequest); typing the
" start of the suggestion keeps the rest of it on screen without asking again.

let s:enabled = 1
let s:prop = 'nospin_ghost'
" bufnr -> {timer, warm_timer, request, sug, drawn, accepting, warm_lnum, keys, own_maps}
"   sug: {lnum, col (1-based byte column), text, tick, line, num_lines} or {}
"   drawn: whether text properties of ours may be in the buffer
let s:bufs = {}
" the daemon's answer to the last warm request ('warming', ...), for checks
let g:nospin_last_warm = v:null
" let g:nospin_debug = 1 to record why answers were dropped in g:nospin_trace (last 50)
let g:nospin_trace = []

function! s:trace(msg) abort
  if get(g:, 'nospin_debug', 0)
    call add(g:nospin_trace, a:msg)
    if len(g:nospin_trace) > 50
      call remove(g:nospin_trace, 0)
    endif
  endif
endfunction

function! s:opt(name, default) abort
  return nospin#option(a:name, a:default)
endfunction

function! nospin#ghost#enabled() abort
  return s:enabled
endfunction

" -------------------------------------------------------------------- drawing

function! s:stop_timer(s) abort
  if a:s.timer >= 0
    call timer_stop(a:s.timer)
    let a:s.timer = -1
  endif
endfunction

function! s:cancel(s) abort
  call s:stop_timer(a:s)
  if a:s.request >= 0
    call nospin#cancel(a:s.request)
    let a:s.request = -1
  endif
endfunction

" Remove the ghost text; the buffer is searched for it only when some was drawn (not on every
" keystroke: lines may have moved it since).
function! s:clear(bufnr, s) abort
  let a:s.sug = {}
  if a:s.drawn && bufloaded(a:bufnr)
    call prop_remove({'type': s:prop, 'bufnr': a:bufnr, 'all': 1})
  endif
  let a:s.drawn = 0
endfunction

" Virtual text shows a Tab as one space: expanded here, from screen column `vcol` (0-based).
function! s:untab(text, vcol) abort
  if stridx(a:text, "\t") < 0
    return a:text
  endif
  let ts = &tabstop
  let out = ''
  let col = a:vcol
  for c in split(a:text, '\zs')
    if c ==# "\t"
      let n = ts - col % ts
      let out .= repeat(' ', n)
      let col += n
    else
      let out .= c
      let col += strdisplaywidth(c)
    endif
  endfor
  return out
endfunction

function! s:show(bufnr, s, lnum, col, text) abort
  call s:clear(a:bufnr, a:s)
  if a:text ==# ''
    return
  endif
  if empty(prop_type_get(s:prop))
    call prop_type_add(s:prop, {'highlight': 'NospinSuggestion'})
  endif
  let lines = split(a:text, "\n", 1)
  let line = getbufline(a:bufnr, a:lnum)[0]
  let a:s.drawn = 1
  if lines[0] !=# ''
    let vcol = strdisplaywidth(strpart(line, 0, a:col - 1))
    call prop_add(a:lnum, a:col, {'type': s:prop, 'bufnr': a:bufnr,
          \ 'text': s:untab(lines[0], vcol)})
  endif
  for more in lines[1:]
    " an empty line would be no line at all: one space
    call prop_add(a:lnum, 0, {'type': s:prop, 'bufnr': a:bufnr, 'text_align': 'below',
          \ 'text': more ==# '' ? ' ' : s:untab(more, 0)})
  endfor
  " line and num_lines: the buffer as it was when shown, to recognise typing through it
  let a:s.sug = {'lnum': a:lnum, 'col': a:col, 'text': a:text,
        \ 'tick': getbufvar(a:bufnr, 'changedtick'), 'line': line,
        \ 'num_lines': getbufinfo(a:bufnr)[0].linecount}
endfunction

" The text typed through the suggestion: when the only change since it was shown is text
" inserted at its place, ending at the cursor, that is the start of the suggestion but not all of
" it, that text; else v:null (another character, a deletion, a move, a new line).
function! s:typed_through(bufnr, sug) abort
  let [lnum, col] = [line('.'), col('.')]
  if lnum != a:sug.lnum || col <= a:sug.col || line('$') != a:sug.num_lines
    return v:null
  endif
  let line = getline('.')
  let n = col - a:sug.col
  let typed = strpart(line, a:sug.col - 1, n)
  if n >= len(a:sug.text) || typed !=# strpart(a:sug.text, 0, n)
        \ || line !=# strpart(a:sug.line, 0, a:sug.col - 1) . typed
        \ . strpart(a:sug.line, a:sug.col - 1)
    return v:null
  endif
  return typed
endfunction

" -------------------------------------------------------------------- requests

" The insert text of the first item of an InlineCompletionList (or a bare item list), with the
" part before the cursor removed when the item's range starts before it.
function! s:item_text(result, lnum, col) abort
  let items = type(a:result) == v:t_dict ? get(a:result, 'items', []) : a:result
  if type(items) != v:t_list || empty(items) || type(items[0]) != v:t_dict
    return v:null
  endif
  let item = items[0]
  let text = get(item, 'insertText', v:null)
  if type(text) == v:t_dict
    " a snippet string: shown as is
    let text = get(text, 'value', v:null)
  endif
  if type(text) != v:t_string
    return v:null
  endif
  let range = get(item, 'range', v:null)
  if type(range) == v:t_dict && range.start.line == a:lnum - 1
    let line = getline(a:lnum)
    let start = nospin#byte(line, range.start.character)
    if start < a:col - 1
      let typed = strpart(line, start, a:col - 1 - start)
      if strpart(text, 0, len(typed)) !=# typed
        return v:null
      endif
      let text = strpart(text, len(typed))
    endif
  endif
  return text
endfunction

" Ask for a completion at the cursor now (the debounce timer calls this).
function! nospin#ghost#request(bufnr) abort
  let s = get(s:bufs, a:bufnr, {})
  if empty(s) || !s:enabled || a:bufnr != bufnr('%') || mode() !~# '^i'
    return
  endif
  call s:cancel(s)
  if !nospin#ready(a:bufnr)
    call s:trace('not sent: the server is not running')
    return
  endif
  let [lnum, col] = [line('.'), col('.')]
  let tick = b:changedtick
  let params = {'textDocument': {'uri': nospin#doc_uri(a:bufnr)},
        \ 'position': {'line': lnum - 1, 'character': nospin#character(getline('.'), col - 1)},
        \ 'context': {'triggerKind': 2}}
  let box = {'id': -1}
  let box.id = nospin#request('textDocument/inlineCompletion', params,
        \ {reply -> s:on_reply(a:bufnr, box.id, lnum, col, tick, reply)})
  let s.request = box.id
endfunction

function! s:on_reply(bufnr, id, lnum, col, tick, reply) abort
  let s = get(s:bufs, a:bufnr, {})
  if empty(s) || s.request != a:id
    return s:trace('dropped: cancelled or superseded')
  endif
  let s.request = -1
  if !s:enabled
    return s:trace('dropped: ghost text off')
  endif
  let result = get(a:reply, 'result', v:null)
  if has_key(a:reply, 'error') || result is v:null || !bufloaded(a:bufnr)
    return s:trace('no result: ' . string(get(a:reply, 'error', v:null)))
  endif
  if bufnr('%') != a:bufnr || b:changedtick != a:tick || line('.') != a:lnum
        \ || col('.') != a:col || mode() !~# '^i'
    return s:trace(printf('stale: tick %d/%d, cursor %d:%d/%d:%d, mode %s', a:tick,
          \ getbufvar(a:bufnr, 'changedtick'), a:lnum, a:col, line('.'), col('.'), mode()))
  endif
  let text = s:item_text(result, a:lnum, a:col)
  call s:trace('shown: ' . string(text))
  if type(text) == v:t_string && text !=# ''
    call s:show(a:bufnr, s, a:lnum, a:col, text)
  endif
endfunction

" The cursor settled on another line in normal mode: ask the daemon to prefill the prompt there
" (nospin.warm), so the first completion after entering insert mode finds it cached.
function! nospin#ghost#warm(bufnr) abort
  let s = get(s:bufs, a:bufnr, {})
  let s.warm_timer = -1
  if empty(s) || !s:enabled || a:bufnr != bufnr('%') || mode() !=# 'n'
    return
  endif
  let lnum = line('.')
  if s.warm_lnum == lnum || !nospin#ready(a:bufnr)
    return
  endif
  let s.warm_lnum = lnum
  let position = {'line': lnum - 1, 'character': nospin#character(getline('.'), col('.') - 1)}
  call nospin#request('workspace/executeCommand',
        \ {'command': 'nospin.warm', 'arguments': [nospin#doc_uri(a:bufnr), position]},
        \ function('s:on_warm'))
endfunction

function! s:on_warm(reply) abort
  let result = get(a:reply, 'result', v:null)
  let g:nospin_last_warm = has_key(a:reply, 'error')
        \ ? 'error: ' . get(a:reply.error, 'message', '') : type(result) == v:t_dict
        \ ? get(result, 'warm', v:null) : v:null
  call s:trace('warm: ' . string(g:nospin_last_warm))
endfunction

" Typing, moving or entering insert mode: drop the suggestion, cancel, ask again after a pause.
" Typing the start of the suggestion keeps the rest of it on screen instead (type-through).
function! s:on_activity(bufnr) abort
  let s = get(s:bufs, a:bufnr, {})
  if empty(s)
    return
  endif
  let tick = b:changedtick
  if !empty(s.accepting)
    " the text of an accept went in: the rest of the suggestion (accept word/line) stays,
    " unless more was typed before this (then it is dropped like any other typing)
    let accepted = s.accepting
    let s.accepting = {}
    if accepted.rest !=# '' && line('.') == accepted.lnum && col('.') == accepted.col
      call s:show(a:bufnr, s, accepted.lnum, accepted.col, accepted.rest)
      return
    endif
  endif
  let sug = s.sug
  if !empty(sug)
    if sug.tick == tick && sug.lnum == line('.') && sug.col == col('.')
      " nothing changed
      return
    endif
    let typed = sug.tick != tick ? s:typed_through(a:bufnr, sug) : v:null
    if typed isnot v:null
      " typed the start of the suggestion: show the rest where the cursor is now, ask nothing
      call s:cancel(s)
      call s:trace('typed through: ' . string(typed))
      call s:show(a:bufnr, s, sug.lnum, sug.col + len(typed), strpart(sug.text, len(typed)))
      return
    endif
  endif
  call s:cancel(s)
  call s:clear(a:bufnr, s)
  if s:enabled && s:opt('auto_trigger', 1)
    let s.timer = timer_start(s:opt('debounce_ms', 150),
          \ {-> nospin#ghost#request(a:bufnr)})
  endif
endfunction

" The server is ready: in insert mode with nothing shown, ask (the request the typing made
" while it started was not sent).
function! nospin#ghost#kick(bufnr) abort
  let s = get(s:bufs, a:bufnr, {})
  if !empty(s) && empty(s.sug) && s.request < 0 && mode() =~# '^i' && s:opt('auto_trigger', 1)
    call s:stop_timer(s)
    let s.timer = timer_start(s:opt('debounce_ms', 150), {-> nospin#ghost#request(a:bufnr)})
  endif
endfunction

function! s:on_cursor_moved(bufnr) abort
  let s = get(s:bufs, a:bufnr, {})
  if empty(s)
    return
  endif
  if !empty(s.sug)
    call s:cancel(s)
    call s:clear(a:bufnr, s)
  endif
  if s:opt('auto_trigger', 1)
    if s.warm_timer >= 0
      call timer_stop(s.warm_timer)
    endif
    let s.warm_timer = timer_start(s:opt('warm_debounce_ms', 200),
          \ {-> nospin#ghost#warm(a:bufnr)})
  endif
endfunction

function! s:on_leave(bufnr) abort
  let s = get(s:bufs, a:bufnr, {})
  if !empty(s)
    call s:cancel(s)
    call s:clear(a:bufnr, s)
  endif
endfunction

" -------------------------------------------------------------------- accepting

function! s:take_word(text) abort
  for pat in ['^\n[ \t]*', '^[ \t]*\k\+', '^[ \t]*[^[:alnum:]_[:space:]]\+', '^[ \t]\+']
    let m = matchstr(a:text, pat)
    if m !=# ''
      return m
    endif
  endfor
  return a:text
endfunction

function! s:take_line(text) abort
  let first = matchstr(a:text, '^[^\n]*')
  if first ==# '' && a:text !=# ''
    " the suggestion starts with a new line: the next one
    return matchstr(a:text, '^\n[^\n]*')
  endif
  return first
endfunction

function! s:at_cursor(sug) abort
  return !empty(a:sug) && a:sug.lnum == line('.') && a:sug.col == col('.')
endfunction

" The part of the suggestion at the cursor that an accept key inserts ('accept': all of it,
" 'accept_word', 'accept_line'), or v:null when no suggestion is at the cursor.
function! s:portion(action) abort
  let s = get(s:bufs, bufnr('%'), {})
  if empty(s) || !s:at_cursor(s.sug)
    return v:null
  endif
  let text = s.sug.text
  return a:action ==# 'accept_word' ? s:take_word(text)
        \ : a:action ==# 'accept_line' ? s:take_line(text) : text
endfunction

" Called from the accept keys (in <Cmd>) just before the text goes in.
function! nospin#ghost#prepare_accept(num_bytes) abort
  let bufnr = bufnr('%')
  let s = get(s:bufs, bufnr, {})
  if empty(s) || empty(s.sug)
    return
  endif
  let lines = split(strpart(s.sug.text, 0, a:num_bytes), "\n", 1)
  " where the cursor will be after the text, where the rest of the suggestion is shown
  let s.accepting = {'rest': strpart(s.sug.text, a:num_bytes),
        \ 'lnum': s.sug.lnum + len(lines) - 1,
        \ 'col': (len(lines) == 1 ? s.sug.col : 1) + len(lines[-1])}
  call s:cancel(s)
  call s:clear(bufnr, s)
endfunction

" The end of a bracketed paste as Vim recognises it (a terminal without one: xterm's, which
" then ends the text the keys below put in).
function! s:paste_end() abort
  if !exists('&t_PE') || &t_PE ==# ''
    execute "set t_PE=\<Esc>[201~"
  endif
  return &t_PE
endfunction

" The <expr> of the plugin's insert-mode keys. With a suggestion at the cursor an accept key
" returns its text as a bracketed paste: inserted literally, as one undo step with the typing,
" with no autoindent, 'smartindent', 'indentexpr', 'expandtab' or 'textwidth' applied, the
" cursor after it. Without one a key returns <Plug>(nospin-fallback-ACTION): the mapping it had
" or the key itself, expanded where it stands among the keys typed.
function! nospin#ghost#key(action) abort
  let fallback = "\<Plug>(nospin-fallback-" . a:action . ')'
  if a:action ==# 'dismiss'
    return "\<Cmd>call nospin#ghost#dismiss()\<CR>"
          \ . (s:portion('accept') is v:null ? fallback : '')
  endif
  let take = s:portion(a:action)
  if take is v:null || take ==# ''
    return fallback
  endif
  return "\<Cmd>call nospin#ghost#prepare_accept(" . len(take) . ")\<CR>"
        \ . "\<PasteStart>" . take . s:paste_end()
endfunction

" Accept all ('accept'), the next word or the rest of the line of the suggestion at the cursor,
" for mappings of your own: `inoremap <expr> <C-l> nospin#ghost#accept('accept_word')`.
" Returns the keys to insert it, or '' when there is no suggestion at the cursor.
function! nospin#ghost#accept(...) abort
  let action = a:0 ? a:1 : 'accept'
  let keys = nospin#ghost#key(action)
  return keys =~# '^\V' . "\<Plug>" ? '' : keys
endfunction

" Remove the suggestion and stop the one coming (debounce timer, request in flight). Returns
" whether a suggestion was on screen.
function! nospin#ghost#dismiss(...) abort
  let bufnr = a:0 ? a:1 : bufnr('%')
  let s = get(s:bufs, bufnr, {})
  if empty(s)
    return 0
  endif
  let shown = !empty(s.sug)
  call s:cancel(s)
  call s:clear(bufnr, s)
  return shown
endfunction

" Ghost text on or off in every buffer; off drops what is shown and what is coming.
function! nospin#ghost#set_enabled(on) abort
  let s:enabled = a:on
  if !a:on
    for bufnr in keys(s:bufs)
      call nospin#ghost#dismiss(str2nr(bufnr))
    endfor
  endif
endfunction

" The suggestion shown in a buffer ({lnum, col, text, ...}), or {} (for statuslines and tests).
function! nospin#ghost#current(...) abort
  return copy(get(get(s:bufs, a:0 ? a:1 : bufnr('%'), {}), 'sug', {}))
endfunction

" -------------------------------------------------------------------- keys

" A copy of the insert-mode mapping `key` had (maparg() dict) as <Plug>(nospin-fallback-ACTION)
" in the current buffer, or the key itself (not remapped) when it had none.
function! s:set_fallback(action, key, map) abort
  let plug = '<Plug>(nospin-fallback-' . a:action . ')'
  if empty(a:map)
    execute printf('inoremap <buffer> %s %s', plug, a:key)
    return
  endif
  let map = copy(a:map)
  let map.lhs = plug
  let map.lhsraw = "\<Plug>(nospin-fallback-" . a:action . ')'
  silent! unlet map.lhsrawalt
  let map.buffer = 1
  call mapset('i', 0, map)
endfunction

function! s:ours(map) abort
  return get(a:map, 'rhs', '') =~# 'nospin#ghost#key('
endfunction

" the global insert-mode mapping of `key`, or {}
function! s:global_map(key) abort
  let raw = maparg(a:key, 'i', 0, 1)
  if !empty(raw) && !raw.buffer
    return raw
  endif
  let lhsraw = empty(raw) ? '' : raw.lhsraw
  for map in maplist()
    if !map.buffer && map.lhsraw ==# lhsraw && lhsraw !=# '' && and(map.mode_bits, 0x10)
      return map
    endif
  endfor
  return {}
endfunction

" The fallbacks follow the global mappings as they are now (a plugin may map <Tab> once loaded):
" set when the keys are mapped and on each InsertEnter.
function! s:update_fallbacks(bufnr) abort
  let s = get(s:bufs, a:bufnr, {})
  if empty(s) || bufnr('%') != a:bufnr
    return
  endif
  for [action, key] in items(s.keys)
    let own = get(s.own_maps, action, {})
    call s:set_fallback(action, key, empty(own) ? s:global_map(key) : own)
  endfor
endfunction

function! s:map_keys(bufnr) abort
  let s = s:bufs[a:bufnr]
  let keys = extend({'accept': '<Tab>', 'accept_word': '<M-Right>',
        \ 'accept_line': '<M-C-Right>', 'dismiss': '<C-]>'}, s:opt('keys', {}))
  let s.keys = {}
  let s.own_maps = {}
  for [action, key] in items(keys)
    if type(key) != v:t_string || key ==# ''
      continue
    endif
    let s.keys[action] = key
    let current = maparg(key, 'i', 0, 1)
    if !empty(current) && current.buffer && !s:ours(current)
      " the buffer's own mapping, replaced below
      let s.own_maps[action] = current
    endif
    execute printf('imap <buffer> <silent> <expr> <nowait> %s nospin#ghost#key(%s)', key,
          \ string(action))
  endfor
  call s:update_fallbacks(a:bufnr)
endfunction

" Called by nospin#attach() once the buffer is open in the server.
function! nospin#ghost#attach(bufnr) abort
  if has_key(s:bufs, a:bufnr)
    return
  endif
  let s:bufs[a:bufnr] = {'timer': -1, 'warm_timer': -1, 'request': -1, 'sug': {}, 'drawn': 0,
        \ 'accepting': {}, 'warm_lnum': -1, 'keys': {}, 'own_maps': {}}
  execute 'augroup nospin_ghost_' . a:bufnr
    autocmd!
    execute printf('autocmd TextChangedI,TextChangedP,CursorMovedI,InsertEnter <buffer=%d>'
          \ . ' call s:on_activity(%d)', a:bufnr, a:bufnr)
    execute printf('autocmd InsertEnter <buffer=%d> call s:update_fallbacks(%d)', a:bufnr,
          \ a:bufnr)
    execute printf('autocmd CursorMoved,BufEnter <buffer=%d> call s:on_cursor_moved(%d)',
          \ a:bufnr, a:bufnr)
    execute printf('autocmd InsertLeave,BufLeave <buffer=%d> call s:on_leave(%d)', a:bufnr,
          \ a:bufnr)
    " CTRL-C leaves insert mode without InsertLeave
    execute printf('autocmd ModeChanged i*:[^i]* call s:on_leave(%d)', a:bufnr)
  augroup END
  if bufnr('%') == a:bufnr
    call s:map_keys(a:bufnr)
  else
    execute printf('autocmd nospin_ghost_%d BufEnter <buffer=%d> ++once call s:map_keys(%d)',
          \ a:bufnr, a:bufnr, a:bufnr)
  endif
endfunction

" The server went away: nothing shown, nothing coming. The keys stay mapped (without a
" suggestion they do what they did).
function! nospin#ghost#reset(bufnr) abort
  let s = get(s:bufs, a:bufnr, {})
  if empty(s)
    return
  endif
  " its answer will not come: nothing to cancel
  let s.request = -1
  call s:stop_timer(s)
  call s:clear(a:bufnr, s)
endfunction

" The buffer is unloaded: its state and autocommands go (attach() maps the keys again).
function! nospin#ghost#detach(bufnr) abort
  call nospin#ghost#reset(a:bufnr)
  if has_key(s:bufs, a:bufnr)
    let s = remove(s:bufs, a:bufnr)
    if s.warm_timer >= 0
      call timer_stop(s.warm_timer)
    endif
    execute 'augroup nospin_ghost_' . a:bufnr . ' | autocmd! | augroup END'
    execute 'augroup! nospin_ghost_' . a:bufnr
  endif
endfunction
