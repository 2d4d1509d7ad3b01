"""The Vim plugin (editors/vim) in a real Vim 9 in a pseudo-terminal against a real daemon.

Vim runs in a pty as in a terminal emulator (TERM=xterm); the test writes keys to it exactly
as a user types them (``\\t`` for <Tab>, ``\\x1b`` for <Esc>, ``\\x1b[1;3C`` for <M-Right>) and
reads what Vim draws through pyte, a terminal emulator: the ghost text after the cursor, its
highlight, the lines below. What accepting inserted is read back from the file after ``:w``.
The plugin starts ``nospin lsp``, which starts a daemon in a private home: the scripted fake
engine for the fast tests, the embedded model for the slow one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    import pyte
except ImportError:  # the dev extra
    pytest.skip("pyte is not installed (dev extra)", allow_module_level=True)

from tests.editors.harness import (
    FAKE_ENGINE,
    REPO,
    seed_crash_report,
    use_fake_engine,
    wait_for,
)

PLUGIN = REPO / "editors" / "vim"
TAB, ESC, CTRL_RBRACKET, M_RIGHT = "\t", "\x1b", "\x1d", "\x1b[1;3C"


def vim_binary() -> str:
    """The ``vim`` on PATH; skips when there is none, or it is older than 9.0 or lacks a
    feature the plugin needs."""
    vim = shutil.which("vim")
    if vim is None:
        pytest.skip("no vim on PATH")
    out = subprocess.run([vim, "--version"], capture_output=True, text=True, timeout=10,
                         stdin=subprocess.DEVNULL).stdout
    version = re.search(r"Vi IMproved (\d+)\.(\d+)", out)
    if version is None or (int(version[1]), int(version[2])) < (9, 0):
        pytest.skip(f"vim is not Vim 9.0 or newer: {out.splitlines()[:1]}")
    missing = [f for f in ("channel", "job", "textprop", "timers") if f"+{f}" not in out.split()]
    if missing:
        pytest.skip(f"vim lacks {', '.join('+' + f for f in missing)}")
    return vim


class VimTerm:
    """Vim in a pseudo-terminal, its screen rendered by pyte."""

    def __init__(self, argv: list[str], *, cwd: Path, env: dict[str, str], cols: int = 100,
                 rows: int = 30) -> None:
        import fcntl
        import pty
        import termios

        class Screen(pyte.Screen):
            # pyte 0.8 fails on Vim's private SGR (modifyOtherKeys, CSI > 4;2 m): ignored
            def select_graphic_rendition(self, *attrs: int, private: bool = False) -> None:
                if not private:
                    super().select_graphic_rendition(*attrs)

        self.screen = Screen(cols, rows)
        self._stream = pyte.ByteStream(self.screen)
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                     env={**os.environ, **env, "TERM": "xterm"},
                                     start_new_session=True)
        os.close(slave)
        self._fd = master

    def pump(self, timeout_s: float = 0.05) -> None:
        """Render what Vim wrote (waiting up to ``timeout_s`` for the first bytes)."""
        while select.select([self._fd], [], [], timeout_s)[0]:
            try:
                data = os.read(self._fd, 65536)
            except OSError:  # Vim exited
                return
            if not data:
                return
            self._stream.feed(data)
            timeout_s = 0.02

    def type(self, keys: str) -> None:
        os.write(self._fd, keys.encode())
        self.pump()

    def row(self, n: int) -> str:
        """Screen row ``n`` (0-based), trailing blanks removed."""
        return str(self.screen.display[n]).rstrip()

    @property
    def cursor(self) -> tuple[int, int]:
        """(row, column) of the cursor on screen, 0-based."""
        return self.screen.cursor.y, self.screen.cursor.x

    def fg(self, row: int, col: int) -> str:
        """The foreground colour pyte gives the cell."""
        return str(self.screen.buffer[row][col].fg)

    def wait(self, what: str, check: Callable[[], Any], timeout_s: float = 30) -> Any:
        def rendered() -> Any:
            self.pump()
            return check()
        try:
            return wait_for(what, rendered, timeout_s)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the screen:\n{self.dump()}") from None

    def dump(self) -> str:
        return "\n".join(f"{n:2} {line.rstrip()}" for n, line in enumerate(self.screen.display))

    def ex(self, command: str) -> None:
        """Run an Ex command from normal mode, as typed."""
        self.type(f":{command}\r")

    def messages(self, out: Path) -> list[str]:
        """The message history (:messages), as Vim writes it to ``out``."""
        out.unlink(missing_ok=True)
        self.ex(f"call writefile(split(execute('messages'), \"\\n\"), '{out}')")
        self.wait(":messages written", out.exists, 10)
        return out.read_text().splitlines()

    def close(self) -> None:
        """Quit Vim (killed when it does not exit within 10 s)."""
        with contextlib.suppress(OSError):
            self.type(f"{ESC}:qa!\r")
        try:
            deadline = time.monotonic() + 10
            while self.proc.poll() is None and time.monotonic() < deadline:
                self.pump(0.1)
            self.proc.wait(0.1)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._fd)


def vimrc(home: Path, *, cmd: list[str], options: str = "") -> Path:
    """A vimrc that loads the plugin from this checkout with ``cmd`` as the server."""
    path = home / "vimrc"
    path.write_text("\n".join((
        "set nocompatible noswapfile hidden ttimeoutlen=20 shortmess+=I laststatus=0",
        f"set runtimepath^={PLUGIN}",
        f"let g:nospin_cmd = {json.dumps(cmd)}",
        "let g:nospin_init_options = {'deadlineMs': 60000}",
        "let g:nospin_debounce_ms = 50",
        "syntax on",  # Comment, the ghost text's highlight, has a colour
        options,
        "runtime plugin/nospin.vim",
    )) + "\n")
    return path


@contextlib.contextmanager
def vim_session(home: Path, src: Path, monkeypatch: pytest.MonkeyPatch, *,
                cmd: list[str] | None = None, options: str = "", ready: str = ""
                ) -> Iterator[VimTerm]:
    """Vim editing ``src`` with the plugin, the server started from this checkout (NOSPIN_HOME
    ``home``); yields once the file is on screen (its name in the message line, or ``ready``
    on the first line)."""
    vim = vim_binary()
    monkeypatch.setenv("NOSPIN_HOME", str(home))
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    server = cmd or [sys.executable, "-m", "app.cli", "lsp", "--log", str(home / "lsp.log")]
    rc = vimrc(home, cmd=server, options=options)
    term = VimTerm([vim, "-N", "-u", str(rc), "-i", "NONE", "--noplugin", src.name],
                   cwd=src.parent, env={})
    try:
        term.wait("the file on screen", lambda: term.row(0) == ready if ready
                  else src.name in term.row(term.screen.lines - 1), 20)
        yield term
    finally:
        term.close()


@contextlib.contextmanager
def fake_vim(home: Path, monkeypatch: pytest.MonkeyPatch, *, text: str = "def add(a, b):\n    \n",
             pieces: tuple[str, ...] | None = None, token_delay_s: float = 0.005,
             options: str = "") -> Iterator[tuple[VimTerm, Path]]:
    """Vim on proj/calc.py (``text``) against a fake-engine daemon (``pieces``: what it
    generates instead of its usual answer), the server running; yields (vim, calc.py)."""
    src = home / "proj" / "calc.py"
    src.write_text(text)
    use_fake_engine(monkeypatch, pieces, token_delay_s)
    with vim_session(home, src, monkeypatch, options=options) as vim:
        connected(home)
        yield vim, src


def connected(home: Path) -> None:
    """Wait for the server to say it is connected to the daemon (in its log): the daemon is up,
    and the fixture stops it (one still starting when Vim quits would outlive the test)."""
    log = home / "lsp.log"
    wait_for("the daemon connected", lambda: log.exists() and '"state": "connected"'
             in log.read_text(), 60)


def saved(vim: VimTerm, src: Path) -> str:
    """The buffer's text, written with :w from normal mode (once Vim says "written")."""
    vim.type(":" + ESC)  # an empty command line: no "written" of an earlier :w
    vim.wait("the message line cleared", lambda: "written" not in vim.row(-1), 5)
    vim.ex("w!")
    vim.wait(":w", lambda: "written" in vim.row(-1), 10)
    return src.read_text()


def test_ghost_text_is_drawn_after_the_cursor_and_tab_accepts_it_as_one_undo_step(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake engine answers "return a + b" (its first line) to a line started with "x = ".
    Drawn after the cursor, in the NospinSuggestion (Comment) colour, not in the buffer; <Tab>
    inserts it, the cursor after it; ``u`` takes typing and suggestion back in one step."""
    with fake_vim(fake_home, monkeypatch) as (vim, src):
        before = src.read_text()
        vim.type("Gox = ")
        row = vim.wait("ghost text", lambda: "return a + b" in vim.row(2) and 2, 30)
        assert vim.row(row) == "x = return a + b"
        assert vim.cursor == (row, 4)  # the cursor stays before the ghost text
        assert vim.fg(row, 4) != vim.fg(row, 0)  # drawn in another colour than the typing
        vim.type(TAB)
        vim.wait("the cursor after the accepted text", lambda: vim.cursor == (row, 16), 5)
        vim.type("  # sum" + ESC)
        assert saved(vim, src) == before + "x = return a + b  # sum\n"
        vim.type("u")
        assert saved(vim, src) == before


def test_multi_line_accept_keeps_its_indentation_under_autoindent(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A multi-line suggestion shows its first line at the cursor and the others below it, and
    goes in exactly as suggested: no 'autoindent', 'smartindent' or Python 'indentexpr'
    indentation added to its lines, whether it is accepted whole or the first line
    (<M-C-Right>) and then the rest. The terminal here has no bracketed paste (tmux, screen):
    the plugin's accept works without it."""
    pieces = ("s = 0", "\n", "    for x in xs:", "\n", "        if x:", "\n", "            s += x",
              "\n", "    return s", "\n")
    with fake_vim(fake_home, monkeypatch, text="def total(xs):\n    \n\ndef size(xs):\n",
                  pieces=pieces, options="filetype plugin indent on\nset t_BE= t_PS= t_PE=",
                  ) as (vim, src):
        vim.ex("setlocal autoindent smartindent expandtab shiftwidth=4 softtabstop=4 tabstop=8")
        vim.type("2GA")
        vim.wait("ghost text", lambda: vim.row(1) == "    s = 0", 30)
        # the further lines below the cursor's line
        assert [vim.row(n) for n in range(2, 6)] == [
            "    for x in xs:", "        if x:", "            s += x", "    return s"]
        assert vim.row(6) == ""  # the buffer's own blank line 3, pushed down
        vim.type("\x1b[1;7C")  # <M-C-Right>: the line; the rest stays below it
        vim.wait("the line accepted", lambda: vim.cursor == (1, 9), 5)
        assert [vim.row(n) for n in range(1, 6)] == [
            "    s = 0", "    for x in xs:", "        if x:", "            s += x", "    return s"]
        vim.type(TAB)
        vim.wait("the suggestion accepted", lambda: vim.cursor == (5, 12), 5)
        vim.type("  # sum" + ESC)
        assert saved(vim, src) == ("def total(xs):\n    s = 0\n    for x in xs:\n        if x:\n"
                                   "            s += x\n    return s  # sum\n\ndef size(xs):\n")
        vim.type("u")
        assert saved(vim, src) == "def total(xs):\n    \n\ndef size(xs):\n"


def test_typing_on_dismisses_or_keeps_the_rest_and_asks_again(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Typing the start of the suggestion keeps the rest on screen; <M-Right> accepts a word;
    another character removes it and a new one comes after the debounce; <C-]> and CTRL-C
    remove it; the cursor resting on another line in normal mode warms the prompt there."""
    with fake_vim(fake_home, monkeypatch, options="let g:nospin_debounce_ms = 100") as (vim, src):
        vim.type("Gox = ")
        vim.wait("ghost text", lambda: vim.row(2) == "x = return a + b", 30)
        vim.type("re")  # typed through: the rest stays
        vim.wait("the typing", lambda: vim.cursor == (2, 6), 5)
        assert vim.row(2) == "x = return a + b", vim.dump()
        vim.type(M_RIGHT)  # the rest of the word "return"
        vim.wait("a word accepted", lambda: vim.cursor == (2, 10), 5)
        assert vim.row(2) == "x = return a + b"
        vim.type("Z")  # not the suggestion: removed, asked again
        vim.wait("the ghost text removed", lambda: vim.row(2) == "x = returnZ", 5)
        vim.wait("a new suggestion", lambda: vim.row(2) != "x = returnZ", 30)
        vim.type(CTRL_RBRACKET)
        vim.wait("dismissed", lambda: vim.row(2) == "x = returnZ", 5)
        time.sleep(1.0)
        vim.pump()
        assert vim.row(2) == "x = returnZ"  # nothing comes back until typing goes on
        vim.type(" q")
        vim.wait("the next suggestion", lambda: vim.row(2) == "x = returnZ qreturn a + b", 30)
        # a word accepted and a key typed at once: the rest is not drawn after that key
        vim.type(M_RIGHT + "!")
        line = vim.wait("the typing", lambda: vim.cursor == (2, 20) and vim.row(2), 5)
        assert line in ("x = returnZ qreturn!", "x = returnZ qreturn!return a + b"), line
        vim.type("\x03")  # CTRL-C: leaves insert mode without InsertLeave
        vim.wait("the ghost text removed", lambda: vim.row(2) == "x = returnZ qreturn!", 5)
        assert saved(vim, src).endswith("x = returnZ qreturn!\n")
        # the cursor rests on line 1 in normal mode: warmed
        vim.type("gg")
        warm = fake_home / "warm.json"

        def last_warm() -> Any:
            vim.ex(f"call writefile([json_encode(g:nospin_last_warm)], '{warm}')")
            return warm.exists() and json.loads(warm.read_text())

        assert vim.wait("the warm-up", last_warm, 10) == "warming"


def test_typing_on_cancels_the_request_in_flight(fake_home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A key typed while the answer is being generated (5 tokens of 0.3 s) sends
    $/cancelRequest for it: the server cancels that request (its log says so), and the
    suggestion that comes is the one for the new text."""
    with fake_vim(fake_home, monkeypatch, token_delay_s=0.3) as (vim, _):
        log = fake_home / "lsp.log"
        vim.type("Gox = ")
        for key in "yzw":  # under load the request may be late: typed again
            time.sleep(0.6)  # past the debounce (50 ms): asked, not answered
            vim.type(key)
            if "Cancelled request" in log.read_text():
                break
        typed = vim.row(2)
        assert "Cancelled request" in log.read_text()
        vim.wait("the new suggestion", lambda: vim.row(2) == typed + "return a + b", 30)


def test_keys_without_a_suggestion_do_what_they_did(fake_home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing on screen each key runs the insert-mode mapping it had (plain, <expr>, or
    through a <Plug> mapping) or is the key itself: <Tab> a tab, <C-]> an abbreviation."""
    mappings = "\n".join((
        "let g:nospin_auto_trigger = 0", "iabbrev teh the", "inoremap <expr> <M-Right> '[w]'",
        "imap <M-C-Right> <Plug>(mine)", "inoremap <Plug>(mine) [l]"))
    with fake_vim(fake_home, monkeypatch, options=mappings) as (vim, src):
        vim.type(f"Goa{TAB}b{M_RIGHT}c\x1b[1;7Cd teh{CTRL_RBRACKET}x{ESC}")
        assert saved(vim, src).endswith("\na\tb[w]c[l]d thex\n")


def test_status_fast_mode_toggle_and_statusline(fake_home: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """:NospinStatus shows the daemon's figures; :NospinFastMode refuses an unknown argument and
    turns fast mode on (FAST in the statusline); :NospinToggle turns ghost text off and on. The
    daemon before this one left a crash report: a warning says so, and :NospinStatus."""
    seed_crash_report(fake_home, monkeypatch)
    with fake_vim(fake_home, monkeypatch,
                  options="set laststatus=2 statusline=%f%=%{nospin#statusline()}") as (vim, _):
        vim.type("Gox = ")
        vim.wait("a statusline", lambda: re.search(r"nospin \d+ms", vim.row(-2)), 30)
        vim.type(ESC)
        vim.ex("NospinFastMode bogus")
        vim.ex("NospinFastMode on")
        vim.wait("fast mode", lambda: "FAST" in vim.row(-2), 10)
        vim.ex("NospinStatus")
        vim.wait("the status", lambda: "p50" in "\n".join(vim.screen.display), 10)
        vim.type("\r")  # the hit-enter prompt
        # ghost text off: nothing comes, <Tab> is a tab; on again: it comes
        vim.ex("NospinToggle")
        vim.type("oy = ")
        time.sleep(1.0)
        vim.pump()
        assert vim.row(3) == "y ="  # (trailing blanks stripped)
        vim.type(f"{TAB}{ESC}")
        vim.ex("NospinToggle")
        vim.type("oz = ")
        vim.wait("ghost text again", lambda: vim.row(4) == "z = return a + b", 30)
        vim.type(ESC)
        vim.wait("the ghost text removed by <Esc>", lambda: vim.row(4) == "z =", 5)
        messages = vim.messages(fake_home / "messages.txt")
        assert "nospin: ghost text off" in messages and "nospin: ghost text on" in messages
        assert "nospin: :NospinFastMode takes on, off or toggle, not 'bogus'" in messages
        assert "nospin: fast mode on" in messages
        assert any(line.startswith("fast mode on; ") for line in messages), messages
        crashed = "the previous nospin daemon crashed: Segmentation fault in " \
            "llama_cpp/_internals.py:329 in decode"
        assert any(line.startswith(f"nospin: {crashed}") for line in messages), messages
        assert any(line.startswith("the previous daemon crashed: Segmentation fault in ")
                   for line in messages), messages


@pytest.mark.parametrize("broken", ["missing", "exits"])
def test_a_server_that_cannot_start_is_said_once(broken: str, fake_home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``nospin`` to start, or one that exits at once: one message, whatever is typed or
    opened next; <Tab> still inserts a tab."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("x = 1\n")
    missing = str(fake_home / "bin" / "nospin")
    cmd, expected = [missing, "lsp"], f"nospin: cannot start '{missing}': not an executable" \
        " (g:nospin_cmd)"
    if broken == "exits":
        cmd = ["sh", "-c", "echo 'nospin lsp: bad endpoint' >&2; exit 2"]
        expected = "nospin: the language server exited at start (status 2): nospin lsp: bad" \
            " endpoint"
    with vim_session(fake_home, src, monkeypatch, cmd=cmd, ready="x = 1") as vim:
        vim.type(f"ox = {TAB}y{ESC}")
        time.sleep(0.3)
        vim.ex("edit other.py")
        vim.type(f"ia{ESC}")
        vim.ex("buffer calc.py")
        time.sleep(0.3)
        messages = [m for m in vim.messages(fake_home / "messages.txt") if "nospin" in m]
        assert messages == [expected], messages
        assert saved(vim, src) == "x = 1\nx = \ty\n"


def test_the_server_exiting_is_noticed_and_restarted_on_next_use(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with fake_vim(fake_home, monkeypatch) as (vim, _):
        vim.type("Gox = ")
        vim.wait("ghost text", lambda: vim.row(2) == "x = return a + b", 30)
        vim.type(ESC)
        server = _server_pid(fake_home)
        os.kill(server, signal.SIGKILL)
        vim.wait("the exit noticed", lambda: "language server exited" in vim.row(-1), 10)
        vim.type("oy = ")
        vim.wait("ghost text from a new server", lambda: vim.row(3) == "y = return a + b", 30)
        assert _server_pid(fake_home) != server


# `nospin lsp` writing its copy of the document to $NOSPIN_TEST_DOC after every didChange
RECORDING_SERVER = """
import os, pathlib, sys
from app.lsp import server
from app import cli

on_did_change = server.NospinLanguageServer._on_did_change

def recorded(self, params):
    on_did_change(self, params)
    doc = self._docs.get(params.text_document.uri)
    pathlib.Path(os.environ["NOSPIN_TEST_DOC"]).write_text(doc or "")

server.NospinLanguageServer._on_did_change = recorded
sys.exit(cli.main(sys.argv[1:]))
"""


def test_the_server_sees_the_buffer_as_it_is_after_each_edit(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each change goes to the server as the lines it replaced (several at once: the whole
    text); after typing, pasting, deleting, joining, :s, :g, undo and redo the server's copy of
    the document is the buffer's text."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("".join(f"line {n} a\n" for n in range(1, 9)))
    doc = fake_home / "doc.txt"
    monkeypatch.setenv("NOSPIN_TEST_DOC", str(doc))
    monkeypatch.setenv("NOSPIN_ENGINE_FACTORY", FAKE_ENGINE)
    with vim_session(fake_home, src, monkeypatch, options="let g:nospin_auto_trigger = 0",
                     cmd=[sys.executable, "-c", RECORDING_SERVER, "lsp", "--log",
                          str(fake_home / "lsp.log")]) as vim:
        connected(fake_home)
        for keys in ("Goabc\x1b", "ggyy3p", "2G3dd", "ggJ", ":%s/a/X/g\r", "u", "\x12",
                     ":g/X$/d\r", "ix\ry\rz\x1b", "ggdGione\rtwo\x1b", "ggOzero\x1b", "3u"):
            vim.type(keys)
            text = saved(vim, src)
            wait_for(f"the server's copy after {keys!r}",
                     lambda: doc.exists() and doc.read_text() == text, 10)  # noqa: B023


def _server_pid(home: Path) -> int:
    """The pid of the ``nospin lsp`` started for ``home``."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
                env = (entry / "environ").read_bytes().split(b"\0")
                if b"lsp" in cmd and f"NOSPIN_HOME={home}".encode() in env:
                    return int(entry.name)
    raise AssertionError("no nospin lsp running")


@pytest.mark.slow
def test_ghost_text_from_the_embedded_model(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real model: a function body typed in Vim gets a suggestion drawn after the cursor,
    and <Tab> inserts exactly what was drawn."""
    proj = home / "proj"
    proj.mkdir()
    (proj / "pyproject.toml").write_text("[project]\nname = 'shapes'\n")
    src = proj / "shapes.py"
    src.write_text('"""Areas of shapes."""\nimport math\n\n\ndef circle_area(radius):\n')
    with vim_session(home, src, monkeypatch,
                     options="let g:nospin_init_options = {'deadlineMs': 120000}") as vim:
        typed = "    return math.pi * "  # no indent plugin: the indentation typed too
        vim.type("Go" + typed)
        row = 5
        shown = vim.wait("ghost text", lambda: len(vim.row(row)) > len(typed) and vim.row(row), 180)
        assert shown.startswith(typed) and vim.cursor == (row, len(typed))
        suggestion = shown[len(typed):]
        print("suggestion:", repr(suggestion))
        assert "radius" in suggestion
        vim.type(TAB)
        vim.wait("accepted", lambda: vim.cursor[1] > len(typed) or vim.cursor[0] > row, 10)
        vim.type(ESC)
        text = saved(vim, src)
        assert text.splitlines()[row].startswith(typed + suggestion), text
