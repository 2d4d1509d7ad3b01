" nospin for Vim: the `nospin lsp` language server (one per Vim, over an LSP channel), the
" document sync (didOpen, didChange from listener_add(), didClose), the commands and the
" statusline. The ghost text itself lives in autoload/nospin/ghost.vim.

" off: not started (or exited; started again on next use), starting: initialize sent,
" running: initialized, failed: could not start (one message; :NospinRestart tries again)
let s:state = 'off'
let s:job = v:null
let s:channel = v:null
" notifications sent while starting, flushed once initialized
let s:queue = []
" bufnr -> {uri, num_lines}: the documents the server has open
let s:docs = {}
" the negotiated position encoding (we offer utf-8 first)
let s:encoding = 'utf-16'
" the server's last lines on stderr, for the failure message
let s:stderr = []
let s:stopping = 0
let s:started_at = []
let s:num_quick_exits = 0

" the last `nospin/status` notification (state, latency_ms, tier_name, fast_mode, ...)
let g:nospin_status = {}
" fast mode as last heard: 1, 0, or -1 (not known yet)
let s:fast_mode = -1

function! nospin#option(name, default) abort
  return get(g:, 'nospin_' . a:name, a:default)
endfunction

" Messages wait for the command or autocommand that caused them to end (a timer), so that
" opening a file shows one line, not a hit-enter prompt.
function! s:say(hl, msg) abort
  execute 'echohl' a:hl
  echomsg a:msg
  echohl None
endfunction

function! s:warn(msg) abort
  call timer_start(0, {-> s:say('WarningMsg', a:msg)})
endfunction

function! s:error(msg) abort
  call timer_start(0, {-> s:say('ErrorMsg', a:msg)})
endfunction

" -------------------------------------------------------------------- server

function! s:command() abort
  let cmd = nospin#option('cmd', ['nospin', 'lsp'])
  if type(cmd) == v:t_string
    let cmd = [cmd, 'lsp']
  endif
  return map(copy(cmd), 'v:key == 0 ? expand(v:val) : v:val')
endfunction

" The server's state: 'off', 'starting', 'running' or 'failed'.
function! nospin#state() abort
  return s:state
endfunction

" Start the server unless it runs (or failed: that was said once, :NospinRestart retries).
" Returns whether it is running or starting.
function! s:ensure_server() abort
  if s:state ==# 'running' || s:state ==# 'starting'
    return 1
  elseif s:state ==# 'failed'
    return 0
  endif
  let cmd = s:command()
  if empty(cmd) || !executable(cmd[0])
    return s:fail(printf("nospin: cannot start '%s': not an executable (g:nospin_cmd)",
          \ empty(cmd) ? '' : cmd[0]))
  endif
  let s:stderr = []
  let s:stopping = 0
  " starting before job_status(): a server that is gone already has its exit_cb run from
  " inside job_status(), which must see a start (one message, 'exited at start')
  let s:state = 'starting'
  let s:started_at = reltime()
  let s:job = job_start(cmd, {
        \ 'in_mode': 'lsp', 'out_mode': 'lsp', 'err_mode': 'nl', 'noblock': 1,
        \ 'out_cb': function('s:on_message'), 'err_cb': function('s:on_stderr'),
        \ 'exit_cb': function('s:on_exit')})
  if job_status(s:job) !=# 'run'
    if s:state ==# 'failed'
      return 0  " its exit was seen and said (s:on_exit)
    endif
    return s:fail(printf("nospin: cannot start the language server '%s'", join(cmd)))
  endif
  let s:channel = job_getchannel(s:job)
  let params = {
        \ 'processId': getpid(),
        \ 'clientInfo': {'name': 'vim', 'version': printf('%d.%d', v:version / 100, v:version % 100)},
        \ 'rootUri': nospin#uri(getcwd()),
        \ 'capabilities': {
        \   'general': {'positionEncodings': ['utf-8', 'utf-16']},
        \   'textDocument': {
        \     'synchronization': {'dynamicRegistration': v:false, 'didSave': v:false},
        \     'inlineCompletion': {'dynamicRegistration': v:false}},
        \   'workspace': {'executeCommand': {'dynamicRegistration': v:false}}},
        \ 'initializationOptions': nospin#option('init_options', {}),
        \ }
  call ch_sendexpr(s:channel, {'method': 'initialize', 'params': params},
        \ {'callback': function('s:on_initialize')})
  return 1
endfunction

function! s:fail(msg) abort
  let s:state = 'failed'
  call s:error(a:msg)
  return 0
endfunction

function! s:on_initialize(channel, reply) abort
  if s:state !=# 'starting' || a:channel isnot s:channel
    return
  endif
  if has_key(a:reply, 'error')
    call s:fail('nospin: the language server refused to start: '
          \ . get(a:reply.error, 'message', string(a:reply.error)))
    call s:stop_job()
    return
  endif
  let caps = get(get(a:reply, 'result', {}), 'capabilities', {})
  let s:encoding = get(caps, 'positionEncoding', 'utf-16')
  let s:state = 'running'
  call ch_sendexpr(s:channel, {'method': 'initialized', 'params': {}})
  for msg in s:queue
    call ch_sendexpr(s:channel, msg)
  endfor
  let s:queue = []
  " typing while it started: ask now
  call nospin#ghost#kick(bufnr('%'))
endfunction

" notifications and requests from the server
function! s:on_message(channel, msg) abort
  if type(a:msg) != v:t_dict
    return
  endif
  let method = get(a:msg, 'method', '')
  if method ==# 'nospin/status'
    call s:on_status(get(a:msg, 'params', {}))
  elseif method ==# 'window/showMessage'
    let params = get(a:msg, 'params', {})
    if get(params, 'type', 4) <= 2
      call s:warn('nospin: ' . get(params, 'message', ''))
    endif
  endif
  if has_key(a:msg, 'id') && method !=# ''
    " a request from the server (none is expected): answered, so that it does not wait
    call ch_sendexpr(a:channel, {'id': a:msg.id, 'result': v:null})
  endif
endfunction

function! s:on_stderr(channel, line) abort
  call add(s:stderr, a:line)
  if len(s:stderr) > 20
    call remove(s:stderr, 0)
  endif
endfunction

function! s:on_exit(job, status) abort
  if a:job isnot s:job
    return
  endif
  let was = s:state
  " ran less than 10 s: three of those in a row and it is not started again
  let s:num_quick_exits = reltimefloat(reltime(s:started_at)) < 10.0 ? s:num_quick_exits + 1 : 0
  call s:forget()
  if was ==# 'failed'
    " said once already (initialize refused)
    let s:state = 'failed'
    return
  elseif s:stopping
    return
  endif
  " the message waits 50 ms for the server's last words on stderr (they may come after this)
  if was ==# 'starting'
    " it cannot start (a bad option, a broken install): said once, not retried on every key
    let s:state = 'failed'
    call timer_start(50, {-> s:say('ErrorMsg', printf(
          \ 'nospin: the language server exited at start (status %d)%s', a:status, s:why()))})
  elseif s:num_quick_exits >= 3
    let s:state = 'failed'
    call timer_start(50, {-> s:say('ErrorMsg', printf('nospin: the language server exited'
          \ . ' again (status %d)%s; not started again (:NospinRestart)', a:status, s:why()))})
  else
    call timer_start(50, {-> s:say('WarningMsg', printf('nospin: the language server exited'
          \ . ' (status %d)%s; it starts again when you type', a:status, s:why()))})
  endif
endfunction

" ': ' and the server's last line on stderr, or ''
function! s:why() abort
  return empty(s:stderr) ? '' : ': ' . s:stderr[-1]
endfunction

" the server is gone: every document is to be opened again by the next one
function! s:forget() abort
  for bufnr in keys(s:docs)
    call s:unlisten(str2nr(bufnr))
    call nospin#ghost#reset(str2nr(bufnr))
  endfor
  let s:docs = {}
  let s:queue = []
  let s:job = v:null
  let s:channel = v:null
  let s:state = 'off'
endfunction

function! s:stop_job() abort
  let s:stopping = 1
  if s:job isnot v:null && job_status(s:job) ==# 'run'
    call job_stop(s:job)
  endif
endfunction

" VimLeavePre: shut the server down politely (it is killed when Vim exits anyway).
function! nospin#stop() abort
  let s:stopping = 1
  if s:state ==# 'running' && ch_status(s:channel) ==# 'open'
    call ch_evalexpr(s:channel, {'method': 'shutdown'}, {'timeout': 500})
    call ch_sendexpr(s:channel, {'method': 'exit'})
  endif
endfunction

" :NospinRestart: stop the server (if it runs) and start it again for the open buffers.
function! nospin#restart() abort
  let s:num_quick_exits = 0
  let job = s:job
  if job isnot v:null
    let s:stopping = 1
    call job_stop(job)
    call s:forget()
  endif
  let s:state = 'off'
  for bufnr in range(1, bufnr('$'))
    if bufloaded(bufnr)
      call nospin#attach(bufnr)
    endif
  endfor
endfunction

" Send a notification (queued while the server starts).
function! nospin#notify(method, params) abort
  let msg = {'method': a:method, 'params': a:params}
  if s:state ==# 'running'
    call ch_sendexpr(s:channel, msg)
  elseif s:state ==# 'starting'
    call add(s:queue, msg)
  endif
endfunction

" Send a request; Callback(reply) gets the whole reply ({result} or {error}). Returns its id, or
" -1 when the server is not running.
function! nospin#request(method, params, Callback) abort
  if s:state !=# 'running'
    return -1
  endif
  let sent = ch_sendexpr(s:channel, {'method': a:method, 'params': a:params},
        \ {'callback': {channel, reply -> a:Callback(reply)}})
  return type(sent) == v:t_dict ? get(sent, 'id', -1) : -1
endfunction

function! nospin#cancel(id) abort
  if a:id >= 0
    call nospin#notify('$/cancelRequest', {'id': a:id})
  endif
endfunction

" -------------------------------------------------------------------- documents

" file:// URI of a path, its bytes outside [A-Za-z0-9/._~-] percent-encoded
function! nospin#uri(path) abort
  let path = fnamemodify(a:path, ':p')
  let uri = 'file://'
  for i in range(len(path))
    let byte = path[i]
    let uri .= byte =~# '^[A-Za-z0-9/._~-]$' ? byte : printf('%%%02X', char2nr(byte))
  endfor
  return uri
endfunction

function! s:wanted(bufnr) abort
  if a:bufnr <= 0 || !bufloaded(a:bufnr) || getbufvar(a:bufnr, '&buftype') !=# ''
        \ || bufname(a:bufnr) ==# ''
    return 0
  endif
  let filetypes = nospin#option('filetypes', [])
  return empty(filetypes) || index(filetypes, getbufvar(a:bufnr, '&filetype')) >= 0
endfunction

function! s:text(bufnr) abort
  return join(getbufline(a:bufnr, 1, '$'), "\n") . "\n"
endfunction

" Open a buffer in the server (starting it) and give it ghost text. Returns whether the buffer
" is open there (or will be once the server has started).
function! nospin#attach(bufnr) abort
  if has_key(s:docs, a:bufnr)
    return 1
  endif
  if !s:wanted(a:bufnr) || !s:ensure_server()
    return 0
  endif
  let uri = nospin#uri(bufname(a:bufnr))
  let s:docs[a:bufnr] = {'uri': uri, 'num_lines': getbufinfo(a:bufnr)[0].linecount,
        \ 'listener': listener_add(function('s:on_lines'), a:bufnr)}
  let language = getbufvar(a:bufnr, '&filetype')
  call nospin#notify('textDocument/didOpen', {'textDocument': {
        \ 'uri': uri, 'languageId': language ==# '' ? 'plaintext' : language,
        \ 'version': getbufvar(a:bufnr, 'changedtick'), 'text': s:text(a:bufnr)}})
  call nospin#ghost#attach(a:bufnr)
  return 1
endfunction

function! s:unlisten(bufnr) abort
  let doc = get(s:docs, a:bufnr, {})
  if !empty(doc)
    call listener_remove(doc.listener)
  endif
endfunction

function! nospin#detach(bufnr) abort
  if !has_key(s:docs, a:bufnr)
    return
  endif
  call s:unlisten(a:bufnr)
  call nospin#ghost#detach(a:bufnr)
  call nospin#notify('textDocument/didClose', {'textDocument': {'uri': s:docs[a:bufnr].uri}})
  call remove(s:docs, a:bufnr)
endfunction

" :file, :saveas: the document has a new name
function! nospin#reattach(bufnr) abort
  call nospin#detach(a:bufnr)
  call nospin#attach(a:bufnr)
endfunction

" The URI of an open buffer, or '' when the server does not have it.
function! nospin#doc_uri(bufnr) abort
  return get(get(s:docs, a:bufnr, {}), 'uri', '')
endfunction

" Whether a buffer can ask for completions now; starts the server (and opens the buffer) when
" it is not running, e.g. after it exited: the next keystroke's request goes out.
function! nospin#ready(bufnr) abort
  if !has_key(s:docs, a:bufnr)
    call nospin#attach(a:bufnr)
  endif
  if s:state ==# 'running' && has_key(s:docs, a:bufnr)
    " the edits before the request, sent before it
    call listener_flush(a:bufnr)
    return 1
  endif
  return 0
endfunction

" listener_add() callback: one change is sent as the lines it replaced (an incremental change
" by whole lines), several (a macro, :g) as the whole text. The line count checks the result.
function! s:on_lines(bufnr, start, end, added, changes) abort
  let doc = get(s:docs, a:bufnr, {})
  if empty(doc)
    return
  endif
  let num_lines = getbufinfo(a:bufnr)[0].linecount
  let change = {}
  if len(a:changes) == 1 && doc.num_lines + a:added == num_lines
    let c = a:changes[0]
    let last = c.end - 1 + c.added
    let lines = last >= c.lnum ? getbufline(a:bufnr, c.lnum, last) : []
    let change = {'range': {'start': {'line': c.lnum - 1, 'character': 0},
          \ 'end': {'line': c.end - 1, 'character': 0}},
          \ 'text': empty(lines) ? '' : join(lines, "\n") . "\n"}
  else
    let change = {'text': s:text(a:bufnr)}
  endif
  let doc.num_lines = num_lines
  call nospin#notify('textDocument/didChange', {
        \ 'textDocument': {'uri': doc.uri, 'version': getbufvar(a:bufnr, 'changedtick')},
        \ 'contentChanges': [change]})
endfunction

" The LSP character offset of byte offset `col` (0-based) in `line`, in the negotiated encoding.
function! nospin#character(line, col) abort
  if s:encoding ==# 'utf-8'
    return a:col
  endif
  let chars = str2list(strpart(a:line, 0, a:col))
  if s:encoding ==# 'utf-32'
    return len(chars)
  endif
  return len(chars) + len(filter(chars, 'v:val > 0xFFFF'))
endfunction

" The byte offset (0-based) of LSP character offset `character` in `line`.
function! nospin#byte(line, character) abort
  if s:encoding ==# 'utf-8'
    return a:character
  endif
  let units = 0
  let col = 0
  for c in str2list(a:line)
    if units >= a:character
      break
    endif
    let units += (s:encoding ==# 'utf-16' && c > 0xFFFF) ? 2 : 1
    let col += len(nr2char(c))
  endfor
  return col
endfunction

" -------------------------------------------------------------------- status and commands

function! s:on_status(params) abort
  if type(a:params) != v:t_dict
    return
  endif
  let g:nospin_status = a:params
  if type(get(a:params, 'fast_mode', v:null)) == v:t_bool
    let s:fast_mode = a:params.fast_mode ? 1 : 0
  endif
  redrawstatus!
  if exists('#User#NospinStatus')
    doautocmd <nomodeline> User NospinStatus
  endif
endfunction

" 'nospin 320ms normal', 'nospin 45ms cache FAST', 'nospin error'; '' before the server spoke.
function! nospin#statusline() abort
  let s = g:nospin_status
  if empty(s)
    return ''
  elseif get(s, 'state', '') ==# 'error'
    return 'nospin error'
  endif
  let parts = ['nospin']
  let latency = get(s, 'latency_ms', v:null)
  if type(latency) == v:t_float || type(latency) == v:t_number
    call add(parts, printf('%dms', float2nr(round(latency))))
  endif
  if type(get(s, 'tier_name', v:null)) == v:t_string && s.tier_name !=# ''
    call add(parts, s.tier_name)
  endif
  if s:fast_mode is 1
    call add(parts, 'FAST')
  endif
  return join(parts, ' ')
endfunction

" Run a server command (workspace/executeCommand) and wait for its answer (at most 5 s: the
" server answers within about 4 s even when the daemon hangs); Callback(error, result).
function! nospin#exec(command, arguments, Callback) abort
  if s:state !=# 'running'
    call nospin#attach(bufnr('%'))
    return s:say('WarningMsg', s:state ==# 'starting'
          \ ? 'nospin: the language server is starting; try again'
          \ : 'nospin: the language server is not running here')
  endif
  let reply = ch_evalexpr(s:channel, {'method': 'workspace/executeCommand',
        \ 'params': {'command': a:command, 'arguments': a:arguments}}, {'timeout': 5000})
  if empty(reply)
    return a:Callback({'message': a:command . ': no answer within 5 s'}, v:null)
  endif
  call a:Callback(get(reply, 'error', v:null), get(reply, 'result', v:null))
endfunction

function! s:message(error) abort
  return 'nospin: ' . (type(a:error) == v:t_dict ? get(a:error, 'message', string(a:error))
        \ : string(a:error))
endfunction

function! s:report_fast_mode(error, result) abort
  if a:error isnot v:null
    return s:say('ErrorMsg', s:message(a:error))
  endif
  let s:fast_mode = type(a:result) == v:t_dict && get(a:result, 'fast_mode', v:false) is v:true
  redrawstatus!
  echomsg 'nospin: fast mode ' . (s:fast_mode ? 'on' : 'off')
endfunction

" :NospinFastMode [on|off|toggle]
function! nospin#fast_mode(arg) abort
  if a:arg ==# 'on' || a:arg ==# 'off'
    call nospin#exec('nospin.fastMode', [a:arg ==# 'on' ? v:true : v:false],
          \ function('s:report_fast_mode'))
  elseif a:arg ==# '' || a:arg ==# 'toggle'
    call nospin#exec('nospin.toggleFastMode', [], function('s:report_fast_mode'))
  else
    call s:say('ErrorMsg', printf("nospin: :NospinFastMode takes on, off or toggle, not '%s'",
          \ a:arg))
  endif
endfunction

function! nospin#fast_mode_complete(lead, line, pos) abort
  return filter(['on', 'off', 'toggle'], 'v:val =~# "^" . a:lead')
endfunction

function! s:num(v) abort
  return type(a:v) == v:t_float || type(a:v) == v:t_number ? printf('%.0f', a:v * 1.0) : '?'
endfunction

function! s:ms(v) abort
  return type(a:v) == v:t_dict ? printf('p50 %s ms, p95 %s ms', s:num(get(a:v, 'p50', v:null)),
        \ s:num(get(a:v, 'p95', v:null))) : '-'
endfunction

function! s:report_status(error, r) abort
  if a:error isnot v:null || type(a:r) != v:t_dict
    return s:say('ErrorMsg', s:message(a:error))
  endif
  let s:fast_mode = get(a:r, 'fast_mode', v:false) is v:true
  let last = nospin#statusline()
  echomsg printf('nospin %s (daemon pid %s), engine %s: %s', get(a:r, 'version', '?'),
        \ get(a:r, 'pid', '?'), get(a:r, 'engine', '?'), get(a:r, 'engine_state', '?'))
  echomsg printf('fast mode %s%s; %s requests; total %s; first token %s',
        \ s:fast_mode ? 'on' : 'off', get(a:r, 'paused', v:false) is v:true ? ', paused' : '',
        \ s:num(get(a:r, 'num_requests', v:null)), s:ms(get(a:r, 'total_ms', v:null)),
        \ s:ms(get(a:r, 'first_token_ms', v:null)))
  echomsg 'last: ' . (last ==# '' ? '-' : last)
  if type(get(a:r, 'last_crash', v:null)) == v:t_string && a:r.last_crash !=# ''
    echomsg 'the previous daemon crashed: ' . a:r.last_crash
  endif
endfunction

" :NospinStatus
function! nospin#show_status() abort
  call nospin#exec('nospin.status', [], function('s:report_status'))
endfunction

" :NospinToggle: ghost text on/off
function! nospin#toggle() abort
  call nospin#ghost#set_enabled(!nospin#ghost#enabled())
  echomsg 'nospin: ghost text ' . (nospin#ghost#enabled() ? 'on' : 'off')
endfunction
