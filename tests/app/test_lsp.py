"""``nospin lsp``: a real LSP client (pygls) over stdio against a real daemon.

The pure conversions of ``app/lsp/text.py`` are table-driven unit tests. The end-to-end tests
start ``nospin lsp`` as a subprocess, which starts a daemon on demand in a private NOSPIN_HOME:
with the embedded model (``slow``) for completions, cancellation and unsaved edits, and with the
scripted engine for what must be deterministic (the wire format, a cancel mid-generation).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

import zmq
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcRequestCancelled
from pygls.lsp.client import LanguageClient

from app.client import check_endpoint
from app.errors import ConfigError
from app.lsp.text import apply_change, first_line, to_client_units, to_code_points, word_start
from daemon import lifecycle
from daemon import protocol as p

REPO = Path(__file__).parents[2]


# --------------------------------------------------------------------------- pure helpers
@pytest.mark.parametrize(("line", "col", "encoding", "expected"), [
    ("abc", 2, "utf-16", 2),
    ("a😀b", 3, "utf-16", 2),  # the emoji is two UTF-16 units, one code point
    ("a😀b", 5, "utf-8", 2),  # ... and four UTF-8 bytes
    ("a😀b", 2, "utf-32", 2),
    ("é=1", 2, "utf-8", 1),
    ("abc", 99, "utf-16", 3),  # past the end: clamped
    ("a😀b", 2, "utf-16", 1),  # inside the surrogate pair: the emoji itself
])
def test_to_code_points(line: str, col: int, encoding: Any, expected: int) -> None:
    assert to_code_points(line, col, encoding) == expected
    if to_client_units(line, expected, encoding) == col:  # round trip where col is a boundary
        assert to_code_points(line, to_client_units(line, expected, encoding), encoding) == expected


@pytest.mark.parametrize(("text", "start", "end", "new", "expected", "edit_cols"), [
    ("def f():\n    \n", (1, 4), (1, 4), "ret", "def f():\n    ret\n", (1, 4, 1, 4)),
    ("x = '😀'\ny\n", (0, 7), (0, 7), "!", "x = '😀!'\ny\n", (0, 6, 0, 6)),
    ("a\nb\nc", (0, 1), (2, 0), "", "ac", (0, 1, 2, 0)),
    ("ab", (5, 0), (5, 0), "!", "ab!", (0, 2, 0, 2)),  # past the end: appended
])
def test_apply_change(text: str, start: tuple[int, int], end: tuple[int, int], new: str,
                      expected: str, edit_cols: tuple[int, int, int, int]) -> None:
    result, edit = apply_change(text, start, end, new, "utf-16")
    assert result == expected
    assert (edit.start_line, edit.start_col, edit.end_line, edit.end_col) == edit_cols
    assert edit.text == new


@pytest.mark.parametrize("endpoint", ["ipc:///run/user/1000/nospin.sock", "tcp://127.0.0.1:7777",
                                      "tcp://[::1]:7777", "tcp://localhost:1"])
def test_check_endpoint_accepts_daemon_addresses(endpoint: str) -> None:
    assert check_endpoint(endpoint) == endpoint


@pytest.mark.parametrize("endpoint", ["bogus", "", "ipc://", "tcp://127.0.0.1", "tcp://:7777",
                                      "tcp://127.0.0.1:x", "tcp://127.0.0.1:0",
                                      "tcp://127.0.0.1:70000", "http://127.0.0.1:80"])
def test_check_endpoint_refuses_the_rest(endpoint: str) -> None:
    with pytest.raises(ConfigError, match="invalid daemon endpoint"):
        check_endpoint(endpoint)


def test_initialization_options_take_counts_of_at_least_one() -> None:
    """deadlineMs 0 made every completion answer null at once; true counted as 1 ms."""
    from app.lsp.server import LspSettings

    base = LspSettings()
    for bad in (0, -5, True, "2500", 2.5):
        got = base.with_options({"deadlineMs": bad, "maxTokens": bad})
        assert (got.deadline_ms, got.max_tokens) == (base.deadline_ms, base.max_tokens), bad
    good = base.with_options({"deadlineMs": 900, "maxTokens": 12})
    assert (good.deadline_ms, good.max_tokens) == (900, 12)


def test_word_start_and_label() -> None:
    assert word_start("    retu", 8) == 4
    assert word_start("x = foo.ba", 10) == 8
    assert word_start("f(", 2) == 2
    assert first_line("\n  return a + b\n  more") == "return a + b"
    assert first_line("x" * 100).endswith("…")


# --------------------------------------------------------------------------- end to end
@dataclass
class Session:
    client: LanguageClient
    result: t.InitializeResult
    statuses: list[dict[str, Any]] = field(default_factory=list)
    versions: dict[str, int] = field(default_factory=dict)
    messages: list[t.ShowMessageParams] = field(default_factory=list)  # window/showMessage

    def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.versions[uri] = 1
        self.client.text_document_did_open(t.DidOpenTextDocumentParams(
            t.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        return uri

    def edit(self, uri: str, line: int, col: int, text: str) -> None:
        """Type ``text`` at (line, col) as one incremental change (UTF-16 columns)."""
        self.versions[uri] += 1
        pos = t.Position(line, col)
        self.client.text_document_did_change(t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [t.TextDocumentContentChangePartial(range=t.Range(pos, pos), text=text)]))

    async def inline(self, uri: str, line: int, col: int, *, msg_id: str | None = None
                     ) -> t.InlineCompletionList | None:
        params = t.InlineCompletionParams(
            context=t.InlineCompletionContext(trigger_kind=t.InlineCompletionTriggerKind.Automatic),
            text_document=t.TextDocumentIdentifier(uri), position=t.Position(line, col))
        result: t.InlineCompletionList | None = await asyncio.wait_for(
            self.client.protocol.send_request_async(
                t.TEXT_DOCUMENT_INLINE_COMPLETION, params, msg_id=msg_id), 240)
        return result

    async def command(self, name: str, *args: Any) -> Any:
        return as_dict(await asyncio.wait_for(self.client.workspace_execute_command_async(
            t.ExecuteCommandParams(command=name, arguments=list(args))), 60))


def as_dict(value: Any) -> Any:
    """pygls hands unknown notifications' params and commands' results over as namedtuples."""
    if hasattr(value, "_asdict"):
        return {k: as_dict(v) for k, v in value._asdict().items()}
    if isinstance(value, dict):
        return {k: as_dict(v) for k, v in value.items()}
    return value


@asynccontextmanager
async def lsp_session(home: Path, *, inline: bool = True, fake: bool = False,
                      options: dict[str, Any] | None = None,
                      env: dict[str, str] | None = None,
                      args: tuple[str, ...] = ()) -> AsyncIterator[Session]:
    """``nospin lsp`` as a subprocess, initialized; shut down and exited at the end."""
    client = LanguageClient("nospin-test", "1")
    statuses: list[dict[str, Any]] = []

    @client.feature("nospin/status")  # type: ignore[untyped-decorator]
    def on_status(params: Any) -> None:
        statuses.append(as_dict(params))

    messages: list[t.ShowMessageParams] = []

    @client.feature(t.WINDOW_SHOW_MESSAGE)  # type: ignore[untyped-decorator]
    def on_message(params: t.ShowMessageParams) -> None:
        messages.append(params)

    full_env = {**os.environ, "NOSPIN_HOME": str(home), "PYTHONPATH": str(REPO), **(env or {})}
    if fake:
        full_env["NOSPIN_ENGINE_FACTORY"] = "tests.daemon.fakes:make_engine"
    await client.start_io(sys.executable, "-m", "app.cli", "lsp", "--stdio", *args,
                          cwd=str(REPO), env=full_env)
    text_caps = t.TextDocumentClientCapabilities(
        synchronization=t.TextDocumentSyncClientCapabilities(),
        completion=t.CompletionClientCapabilities(),
        inline_completion=t.InlineCompletionClientCapabilities() if inline else None)
    result = await asyncio.wait_for(client.initialize_async(t.InitializeParams(
        capabilities=t.ClientCapabilities(text_document=text_caps),
        root_uri=(home / "proj").as_uri(), process_id=os.getpid(),
        initialization_options={"deadlineMs": 120_000, **(options or {})})), 60)
    client.initialized(t.InitializedParams())
    try:
        yield Session(client, result, statuses, messages=messages)
    finally:
        try:
            await asyncio.wait_for(client.shutdown_async(None), 10)
            client.exit(None)
        finally:
            await client.stop()  # type: ignore[no-untyped-call]


def stop_daemon(home: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NOSPIN_HOME", str(home))
        lifecycle.stop_daemon(20.0)


def make_home(prefix: str) -> Path:
    import tempfile

    home = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))  # ipc paths stay short
    proj = home / "proj"
    proj.mkdir()
    (proj / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    return home


@pytest.fixture
def fake_home() -> Iterator[Path]:
    import shutil

    home = make_home("nsl")
    try:
        yield home
    finally:
        stop_daemon(home)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def model_home() -> Iterator[Path]:
    """One home (and one daemon with the embedded model) for this module's slow tests."""
    import shutil

    from engine.models import embedded_model_path

    try:
        model = embedded_model_path()
    except Exception as exc:
        pytest.skip(f"embedded model not installed: {exc}")
    home = make_home("nsm")
    (home / "config").mkdir()
    (home / "config" / "config.toml").write_text(f'[engine]\nmodel = "{model}"\n')
    try:
        yield home
    finally:
        stop_daemon(home)
        shutil.rmtree(home, ignore_errors=True)


def test_capabilities_and_completion_for_clients_without_inline(fake_home: Path) -> None:
    """Scripted engine: what the server announces, the classic completion item, commands."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    \n")

    async def main() -> None:
        async with lsp_session(fake_home, inline=True, fake=True) as s:
            caps = s.result.capabilities
            assert caps.inline_completion_provider is not None
            assert caps.completion_provider is None  # inline clients get inline only
            assert caps.execute_command_provider is not None
            assert "nospin.toggleFastMode" in caps.execute_command_provider.commands
        async with lsp_session(fake_home, inline=False, fake=True) as s:
            assert s.result.capabilities.completion_provider is not None
            uri = s.open(src, "def add(a, b):\n    re\n")
            result = await asyncio.wait_for(s.client.text_document_completion_async(
                t.CompletionParams(t.TextDocumentIdentifier(uri), t.Position(1, 6))), 60)
            assert isinstance(result, t.CompletionList) and result.is_incomplete
            item = result.items[0]
            assert isinstance(item.text_edit, t.TextEdit)
            # the word before the cursor ("re") is replaced by itself plus the completion
            assert item.text_edit.range.start == t.Position(1, 4)
            assert item.text_edit.new_text.startswith("re")
            assert s.statuses and s.statuses[-1]["state"] == "ready"
            assert s.statuses[-1]["latency_ms"] > 0 and s.statuses[-1]["tier"] in (0, 1, 2, 3)
            warm = await s.command("nospin.warm", uri, {"line": 1, "character": 4})
            assert warm == {"warm": "warming"}
            far = await s.command("nospin.warm", uri, {"line": 9, "character": 0})
            assert far == {"warm": "outside the document"}
            on = await s.command("nospin.toggleFastMode")
            assert on == {"fast_mode": True}
            status = await s.command("nospin.status")
            assert status["fast_mode"] is True  # (the metrics window restarted with it)
            assert s.statuses[-1]["fast_mode"] is True

    asyncio.run(main())


def test_cancel_request_cancels_the_daemon_request(fake_home: Path) -> None:
    """Scripted engine with slow tokens: a cancel mid-generation reaches the daemon."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    \n")

    async def main() -> None:
        async with lsp_session(fake_home, fake=True,
                               env={"NOSPIN_FAKE_TOKEN_DELAY_S": "0.5"}) as s:
            uri = s.open(src, src.read_text())
            request = asyncio.ensure_future(s.inline(uri, 1, 4, msg_id="slow-1"))
            await asyncio.sleep(1.5)  # the daemon streams its first tokens by now
            s.client.cancel_request(t.CancelParams(id="slow-1"))
            with pytest.raises(JsonRpcRequestCancelled):
                await request
            # counted once the engine has stopped it (its record carries what the engine did)
            for _ in range(50):
                status = await s.command("nospin.status")
                if status["num_cancelled"] >= 1:
                    break
                await asyncio.sleep(0.1)
            assert status["num_cancelled"] >= 1

    asyncio.run(main())


def lsp_env(home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "NOSPIN_HOME": str(home), "PYTHONPATH": str(REPO), **extra}


def test_bad_endpoint_is_a_usage_error(fake_home: Path) -> None:
    """A bad daemon address stops ``nospin lsp`` at start-up with one line, instead of every
    completion failing with a zmq traceback."""
    for args, env, status in ((["--endpoint", "bogus"], {}, 2),
                              (["--endpoint", "tcp://127.0.0.1"], {}, 2),
                              ([], {"NOSPIN_ENDPOINT": "bogus"}, 1)):
        proc = subprocess.run([sys.executable, "-m", "app.cli", "lsp", *args], cwd=REPO,
                              env=lsp_env(fake_home, **env), input="", capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == status, (args, env, proc.stderr)
        assert "invalid daemon endpoint" in proc.stderr and "Traceback" not in proc.stderr
        assert proc.stdout == ""

    async def main() -> None:  # the editor's setting (initializationOptions) fails initialize
        client = LanguageClient("nospin-test", "1")
        await client.start_io(sys.executable, "-m", "app.cli", "lsp", "--no-start",
                              cwd=str(REPO), env=lsp_env(fake_home))
        try:
            with pytest.raises(JsonRpcInvalidParams) as info:
                await asyncio.wait_for(client.initialize_async(t.InitializeParams(
                    capabilities=t.ClientCapabilities(), process_id=os.getpid(),
                    initialization_options={"endpoint": "bogus"})), 60)
            assert "invalid daemon endpoint 'bogus'" in info.value.message
            assert info.value.data is None  # no traceback
        finally:
            client.exit(None)
            await client.stop()  # type: ignore[no-untyped-call]

    asyncio.run(main())


def test_commands_refuse_bad_arguments_with_invalid_params(fake_home: Path) -> None:
    """Every command answers missing or ill-typed arguments with -32602 and one line (no
    traceback, to the client or the log); good arguments still work after them."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    \n")
    log = fake_home / "lsp.log"

    async def main() -> None:
        async with lsp_session(fake_home, fake=True, args=("--log", str(log))) as s:
            uri = s.open(src, src.read_text())
            pos = {"line": 1, "character": 4}
            bad: list[tuple[str, list[Any]]] = [
                ("nospin.warm", []), ("nospin.warm", [uri]), ("nospin.warm", [uri, {}]),
                ("nospin.warm", [uri, {"line": "1", "character": 4}]),
                ("nospin.warm", [uri, {"line": -1, "character": 4}]),
                ("nospin.warm", [uri, {"line": 1, "character": True}]),
                ("nospin.warm", [uri, 5]), ("nospin.warm", [7, pos]),
                ("nospin.warm", [uri, pos, "extra"]),
                ("nospin.fastMode", ["maybe"]), ("nospin.fastMode", [1]),
                ("nospin.fastMode", [None]), ("nospin.fastMode", [True, False]),
                ("nospin.toggleFastMode", ["x"]), ("nospin.status", [1]),
            ]
            for name, arguments in bad:
                with pytest.raises(JsonRpcException) as info:
                    await s.command(name, *arguments)
                error = info.value
                assert error.code == -32602, (name, arguments, error.message)
                assert error.message.startswith(f"{name}: "), error.message
                assert "Traceback" not in error.message and "\n" not in error.message
                assert error.data is None, (name, arguments, error.data)
            assert await s.command("nospin.warm", uri, pos) == {"warm": "warming"}
            assert (await s.command("nospin.status"))["pid"] > 0
        text = log.read_text()
        assert "nospin.warm: takes a document URI and a position (0 given)" in text
        assert "Traceback" not in text and "never retrieved" not in text

    asyncio.run(main())


def test_fast_mode_takes_booleans_and_on_off_strings(fake_home: Path) -> None:
    """JSON booleans (what the VS Code and Neovim plugins send) and "true"/"false"/"on"/"off"
    in any case (what a command line may send); "false" used to turn fast mode on."""

    async def main() -> None:
        async with lsp_session(fake_home, fake=True) as s:
            for argument, expected in ((False, False), ("true", True), ("false", False),
                                       ("ON", True), (" Off ", False), (True, True),
                                       ("FALSE", False), ("on", True), ("off", False)):
                assert await s.command("nospin.fastMode", argument) == {"fast_mode": expected}
                assert (await s.command("nospin.status"))["fast_mode"] is expected, argument
            assert await s.command("nospin.fastMode") == {"fast_mode": True}  # no argument: on

    asyncio.run(main())


def free_tcp_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


class StandInDaemon:
    """A daemon at a tcp address, on a thread: says hello, answers config.get, records the
    requests it got; ``answer`` gives the reply to the rest (None: no reply). ``start`` and
    ``stop`` may be called again: it comes back at the same address."""

    def __init__(self) -> None:
        self.port = free_tcp_port()
        self.requests: list[Any] = []
        self.peers: list[bytes] = []  # the connections' identities, in the order they came
        self.peer = b""  # the one whose request ``answer`` gets
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> StandInDaemon:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def answer(self, request: Any) -> Any:
        return p.OkReply(id=request.id)

    def _serve(self) -> None:
        ctx = zmq.Context()
        sock = ctx.socket(zmq.ROUTER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.bind(f"tcp://127.0.0.1:{self.port}")
        try:
            while not self._stop.is_set():
                if not sock.poll(50):
                    continue
                peer, data = sock.recv_multipart()
                request = p.decode_request(data, max_bytes=10_000_000)
                self.requests.append(request)
                if peer not in self.peers:
                    self.peers.append(peer)
                self.peer = peer
                if isinstance(request, p.HelloRequest):
                    reply: Any = p.HelloReply(
                        id=request.id, protocol=p.PROTOCOL_VERSION, version="0", pid=1,
                        engine="fake", engine_state="ready")
                elif isinstance(request, p.ConfigGetRequest):
                    reply = p.ConfigReply(id=request.id, values={"tiers.force_fast": False})
                else:
                    reply = self.answer(request)
                if reply is not None:
                    sock.send_multipart([peer, p.encode(reply)])
        finally:
            sock.close(linger=0)
            ctx.term()


class SilentDaemon(StandInDaemon):
    """A daemon that says hello and accepts documents but never answers a completion (hung
    mid-request: no chunk, no heartbeat)."""

    def answer(self, request: Any) -> Any:
        return None if isinstance(request, p.CompleteRequest) else p.OkReply(id=request.id)


async def timed_completions(s: Session, uri: str) -> list[tuple[float, Any]]:
    """An inline completion then a classic one, with the time each took to answer."""
    results = []
    for method, params in (
            (t.TEXT_DOCUMENT_INLINE_COMPLETION, t.InlineCompletionParams(
                context=t.InlineCompletionContext(
                    trigger_kind=t.InlineCompletionTriggerKind.Automatic),
                text_document=t.TextDocumentIdentifier(uri), position=t.Position(1, 4))),
            (t.TEXT_DOCUMENT_COMPLETION, t.CompletionParams(
                t.TextDocumentIdentifier(uri), t.Position(1, 4)))):
        started = time.monotonic()
        result = await asyncio.wait_for(s.client.protocol.send_request_async(method, params), 120)
        results.append((time.monotonic() - started, result))
    return results


def test_completions_answer_by_the_deadline_with_no_daemon_listening(fake_home: Path) -> None:
    """Nothing listening on the endpoint (the hello never gets an answer): every completion
    answers null by its deadline, not after the connection attempts (31 s before)."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    \n")
    endpoint = f"tcp://127.0.0.1:{free_tcp_port()}"

    async def main() -> None:
        async with lsp_session(fake_home, options={"deadlineMs": 1000, "completion": "on"},
                               args=("--endpoint", endpoint, "--no-start")) as s:
            uri = s.open(src, src.read_text())
            for _ in range(2):  # the second joins the connection attempt under way
                for took, result in await timed_completions(s, uri):
                    assert result is None
                    assert took < 1.0 + 2.0, took
            assert s.statuses[-1]["state"] == "error"
            assert "no completion within 1000 ms" in s.statuses[-1]["message"]

    asyncio.run(main())


def test_completions_answer_by_the_deadline_when_the_daemon_hangs(fake_home: Path) -> None:
    """A daemon that accepts the completion and then says nothing: the completion answers
    null by its deadline and the daemon request is cancelled."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    \n")

    async def main() -> None:
        with SilentDaemon() as daemon:
            async with lsp_session(
                    fake_home, options={"deadlineMs": 1500, "completion": "on"},
                    args=("--endpoint", f"tcp://127.0.0.1:{daemon.port}", "--no-start")) as s:
                uri = s.open(src, src.read_text())
                for took, result in await timed_completions(s, uri):
                    assert result is None
                    assert took < 1.5 + 2.0, took
                for _ in range(50):
                    if sum(isinstance(r, p.CancelRequest) for r in daemon.requests) >= 2:
                        break
                    await asyncio.sleep(0.1)
            completes = [r for r in daemon.requests if isinstance(r, p.CompleteRequest)]
            cancels = {r.target for r in daemon.requests if isinstance(r, p.CancelRequest)}
            assert len(completes) == 2 and {r.id for r in completes} <= cancels
            # the daemon is asked for what is left of the deadline, less the reply margin
            assert all(r.options.deadline_ms <= 1500 - 100 for r in completes)
            assert s.statuses[-1]["state"] == "error"
            assert "no completion within 1500 ms" in s.statuses[-1]["message"]

    asyncio.run(main())


@pytest.mark.slow
def test_inline_completion_cancel_and_unsaved_edits_with_the_embedded_model(
        model_home: Path) -> None:
    """The issue's checks with the real model: an inline completion comes back; a cancelled
    request is cancelled in the daemon; edits sent with didChange (never saved) shape the next
    completion."""
    src = model_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    \n")  # what is on disk, and stays there

    async def main() -> None:
        async with lsp_session(model_home) as s:
            uri = s.open(src, src.read_text())
            first = await s.inline(uri, 1, 4)
            assert first is not None and first.items, "no inline completion"
            text = first.items[0].insert_text
            assert isinstance(text, str) and text.strip()
            assert first.items[0].range == t.Range(t.Position(1, 4), t.Position(1, 4))
            ready = [st for st in s.statuses if st["state"] == "ready"]
            assert ready and ready[-1]["latency_ms"] > 0 and ready[-1]["tier"] in (1, 2, 3)
            print("first inline completion:", repr(text), ready[-1])

            # cancellation: a cold request on another document, cancelled while it runs
            other = model_home / "proj" / "shapes.py"
            body = "".join(f"def area_{i}(w, h):\n    return w * h * {i}\n\n" for i in range(40))
            other.write_text(body + "def volume(w, h, d):\n    \n")
            other_uri = s.open(other, other.read_text())
            before = await s.command("nospin.status")
            request = asyncio.ensure_future(s.inline(other_uri, 120, 4, msg_id="cancel-me"))
            await asyncio.sleep(0.5)
            s.client.cancel_request(t.CancelParams(id="cancel-me"))
            with pytest.raises(JsonRpcRequestCancelled):
                await request
            # counted once the engine has stopped it: the request may have taken over the
            # document's warm-up and be mid-prefill (its record carries what the engine did)
            for _ in range(50):
                after = await s.command("nospin.status")
                if after["num_cancelled"] > before["num_cancelled"]:
                    break
                await asyncio.sleep(0.1)
            assert after["num_cancelled"] > before["num_cancelled"], (before, after)

            # unsaved edits: a name that exists only in the editor's buffer, typed in pieces
            s.edit(uri, 0, 0, "import math\n\ndef circle_area(radius):\n    return \n\n")
            s.edit(uri, 3, 11, "math.pi")
            s.edit(uri, 3, 18, " * ")
            edited = await s.inline(uri, 3, 21)
            assert edited is not None and edited.items, "no completion after the edit"
            completion = edited.items[0].insert_text
            print("after the unsaved edits:", repr(completion))
            assert isinstance(completion, str) and "radius" in completion
            assert src.read_text() == "def add(a, b):\n    \n"  # nothing was saved

    asyncio.run(main())


def test_edits_typed_while_the_daemon_is_down_are_applied_once(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`nospin stop`, then type on a line: the server starts a daemon again and re-opens the
    document with its current copy; the edits queued behind the dead connection used to be
    applied again on top of it (``...xyzyz``), and the daemon's copy stayed longer than the
    buffer's line for every later completion."""
    from app.client import AsyncClient
    from app.errors import CursorError

    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    return 1\n")
    monkeypatch.setenv("NOSPIN_HOME", str(fake_home))

    async def main() -> None:
        async with lsp_session(fake_home, fake=True, options={"deadlineMs": 2000}) as s:
            uri = s.open(src, src.read_text())
            assert (await s.command("nospin.status"))["num_documents"] == 1
            await asyncio.to_thread(stop_daemon, fake_home)
            for i, ch in enumerate("xyz"):  # typed while the daemon is gone
                s.edit(uri, 1, 12 + i, ch)
                await asyncio.sleep(0.4)
            # nospin.warm waits for every document update before it (and reconnects)
            for _ in range(3):
                try:
                    await s.command("nospin.warm", uri, {"line": 1, "character": 15})
                    break
                except JsonRpcException:
                    await asyncio.sleep(1)
            async with AsyncClient(autostart=False) as probe:
                assert (await probe.status()).num_documents == 1
                done = await probe.complete(str(src), 1, 15, deadline_ms=10_000)
                assert done.text  # the end of "    return 1xyz": the daemon's line is as long
                with pytest.raises(CursorError):  # ... and no longer ("    return 1xyzyz")
                    await probe.complete(str(src), 1, 17, deadline_ms=10_000)

    asyncio.run(main())


async def wait_for_status(s: Session, after: int, state: str, timeout_s: float
                          ) -> dict[str, Any] | None:
    """The first ``nospin/status`` in ``state`` among those after the first ``after``."""
    give_up = time.monotonic() + timeout_s
    while True:
        for status in s.statuses[after:]:
            if status["state"] == state:
                return status
        if time.monotonic() > give_up:
            return None
        await asyncio.sleep(0.05)


def test_a_stopped_daemon_is_noticed_at_once_and_started_again(fake_home: Path) -> None:
    """`nospin stop`: the server used to notice only when a request got no reply for 15 s
    (completions meanwhile missed their deadline, the statusline still said ready, and
    nospin.status hung). Now the closed connection is reported within moments; the daemon,
    stopped on purpose, stays stopped until the next completion starts it with the
    documents."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    \n")

    async def main() -> None:
        async with lsp_session(fake_home, fake=True, options={"deadlineMs": 2000}) as s:
            uri = s.open(src, src.read_text())
            assert await wait_for_status(s, 0, "connected", 30)
            old = await s.command("nospin.status")
            seen = len(s.statuses)
            await asyncio.to_thread(stop_daemon, fake_home)  # returns once the daemon is gone
            lost = await wait_for_status(s, seen, "error", 3)
            assert lost is not None, s.statuses[seen:]
            assert "closed the connection" in lost["message"]
            assert "starts again with the next edit or completion" in lost["message"]
            await asyncio.sleep(1.0)  # stopped on purpose: not started again while idle
            assert lifecycle.read_daemon_info() is None
            result = await s.inline(uri, 1, 4)  # the next completion starts one
            new = await s.command("nospin.status")
            assert new["pid"] != old["pid"] and new["num_documents"] == 1
            assert result is not None or (await s.inline(uri, 1, 4)) is not None

    asyncio.run(main())


def test_a_crashed_daemon_is_shown_as_a_warning_by_the_next_connection(fake_home: Path) -> None:
    """The daemon dies of a fatal signal (the scripted engine's SIGSEGV at the first
    completion; 2026-12-02: llama.cpp's AMX kernels did so on a VM). Connected to the daemon
    started after it, the server shows the crash as a warning (``window/showMessage``: any LSP
    editor shows it, nospin's plugins or not), once, and ``nospin.status`` carries it."""
    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    \n")

    async def main() -> None:
        async with lsp_session(fake_home, fake=True, options={"deadlineMs": 5000},
                               env={"NOSPIN_FAKE_SEGFAULT": "1"}) as s:
            uri = s.open(src, src.read_text())
            assert await wait_for_status(s, 0, "connected", 30)
            assert (await s.command("nospin.status"))["last_crash"] == ""
            seen = len(s.statuses)
            with contextlib.suppress(JsonRpcException):
                await s.inline(uri, 1, 4)  # the daemon dies of it
            assert await wait_for_status(s, seen, "error", 10), s.statuses[seen:]
            assert not s.messages
            s.edit(uri, 1, 4, "r")  # the next edit starts a daemon again
            give_up = time.monotonic() + 60
            while not s.messages and time.monotonic() < give_up:
                await asyncio.sleep(0.1)
            assert [m.type for m in s.messages] == [t.MessageType.Warning]
            text = s.messages[0].message
            assert text.startswith("the previous nospin daemon crashed: Segmentation fault in "
                                   "daemon/fakes.py:"), text
            assert "last-crash.txt" in text and "nospin doctor" in text
            status = await s.command("nospin.status")
            assert status["last_crash"].startswith("Segmentation fault in daemon/fakes.py:")
            await asyncio.sleep(0.5)
            assert len(s.messages) == 1
            # stopped cleanly, the daemon after it has no crash to tell: nothing is shown again
            seen = len(s.statuses)
            await asyncio.to_thread(stop_daemon, fake_home)
            assert await wait_for_status(s, seen, "error", 10), s.statuses[seen:]
            s.edit(uri, 1, 5, "e")  # the next edit starts a daemon again
            third = await s.command("nospin.status")
            assert third["pid"] != status["pid"]
            assert third["last_crash"] == ""
            await asyncio.sleep(1.0)
            assert len(s.messages) == 1, [m.message for m in s.messages]

    asyncio.run(main())


def test_a_daemon_gone_on_tcp_is_noticed_at_once(fake_home: Path) -> None:
    """The same for a daemon at a tcp address (no autostart): its closed connection is
    reported at once instead of after the next request's 15 s without a reply."""

    async def main() -> None:
        with SilentDaemon() as daemon:
            async with lsp_session(
                    fake_home, options={"deadlineMs": 1000},
                    args=("--endpoint", f"tcp://127.0.0.1:{daemon.port}", "--no-start")) as s:
                assert await wait_for_status(s, 0, "connected", 30)
                seen = len(s.statuses)
                daemon.__exit__(None, None, None)  # closes its socket
                lost = await wait_for_status(s, seen, "error", 3)
                assert lost is not None, s.statuses[seen:]
                assert lost["message"].endswith("closed the connection (stopped or restarted)"
                                                 "; reconnecting")

    asyncio.run(main())


class DocDaemon(StandInDaemon):
    """A stand-in daemon at a tcp address that keeps the documents it is sent (open, change
    with edits in code points) and can go away and come back fresh at the same address."""

    def __init__(self) -> None:
        super().__init__()
        self.docs: dict[str, str] = {}

    def start(self) -> None:
        self.docs = {}
        super().start()

    def answer(self, request: Any) -> Any:
        if isinstance(request, p.OpenRequest):
            self.docs[request.path] = request.text
        elif isinstance(request, p.ChangeRequest):
            if request.path not in self.docs:
                return p.ErrorReply(id=request.id, code="bad_input",
                                    message=f"document {request.path} is not open")
            self._apply(request)
        return p.OkReply(id=request.id)

    def _apply(self, request: p.ChangeRequest) -> None:
        if request.text is not None:
            self.docs[request.path] = request.text
            return
        for edit in request.edits or []:
            lines = self.docs[request.path].split("\n")

            def offset(pos: p.Position, lines: list[str] = lines) -> int:
                return sum(len(line) + 1 for line in lines[:pos.line]) + pos.col

            text = self.docs[request.path]
            start, end = offset(edit.range.start), offset(edit.range.end)
            self.docs[request.path] = text[:start] + edit.text + text[end:]


def test_a_reopen_and_the_queued_edits_never_apply_twice(fake_home: Path) -> None:
    """Edits typed while the daemon is away wait behind the connection; the new connection
    opens the document with the server's text, which has them already: the daemon's copy is
    exactly the buffer (it was ``xyzxyz`` where ``xyz`` was typed)."""
    src = fake_home / "proj" / "calc.py"
    text = "def add(a, b):\n    return 1\n"
    daemon = DocDaemon()

    async def main() -> None:
        daemon.start()
        try:
            async with lsp_session(
                    fake_home, options={"deadlineMs": 1000},
                    args=("--endpoint", f"tcp://127.0.0.1:{daemon.port}", "--no-start")) as s:
                uri = s.open(src, text)
                assert await wait_for_status(s, 0, "connected", 30)
                await s.command("nospin.warm", uri, {"line": 1, "character": 0})
                assert daemon.docs == {str(src): text}
                daemon.stop()
                await asyncio.sleep(0.5)
                for i, ch in enumerate("xyz"):  # typed while it is away
                    s.edit(uri, 1, 12 + i, ch)
                    await asyncio.sleep(0.2)
                daemon.start()  # back, knowing no document
                s.edit(uri, 1, 15, "!")  # and one more after it
                for _ in range(3):  # waits for every document update before it
                    with contextlib.suppress(JsonRpcException):
                        await s.command("nospin.warm", uri, {"line": 1, "character": 0})
                        break
                assert daemon.docs == {str(src): "def add(a, b):\n    return 1xyz!\n"}
        finally:
            daemon.stop()

    asyncio.run(main())


def test_a_stopped_daemon_is_reported_not_responding_and_recovers(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A daemon that hangs with its connection open (SIGSTOP here; a debugger, a stuck event
    loop) used to be noticed only at a request's deadline or its 15 s without a reply, and
    every completion, edit and command waited meanwhile. Now the first request that gets
    nothing reports it not responding within about 4 s and the rest fail at once; the daemon
    is neither restarted nor disconnected from, and when it runs again the server sends the
    documents again (with what was typed meanwhile) and completes as before."""
    from app.client import AsyncClient
    from app.errors import CursorError

    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    return 1\n")
    monkeypatch.setenv("NOSPIN_HOME", str(fake_home))

    async def main() -> None:
        async with lsp_session(fake_home, fake=True, options={"deadlineMs": 10_000}) as s:
            uri = s.open(src, src.read_text())
            assert await wait_for_status(s, 0, "connected", 30)
            pid = (await s.command("nospin.status"))["pid"]
            seen = len(s.statuses)
            os.kill(pid, signal.SIGSTOP)
            try:
                started = time.monotonic()
                assert await s.inline(uri, 1, 12) is None  # by 10 s, the deadline: no
                took = time.monotonic() - started
                hung = await wait_for_status(s, seen, "error", 1)
                assert hung is not None, s.statuses[seen:]
                print(f"completion answered null after {took:.2f} s: {hung['message']}")
                assert took < 7.0, took  # (about 2 s to a probe + 2 s without its answer)
                assert hung["message"].startswith("the daemon is not responding")
                assert "waiting for it to answer again" in hung["message"]
                for i, ch in enumerate("xyz"):  # typed while it is stopped
                    s.edit(uri, 1, 12 + i, ch)
                started = time.monotonic()  # meanwhile everything fails at once
                assert await s.inline(uri, 1, 15) is None
                with pytest.raises(JsonRpcException) as info:
                    await s.command("nospin.status")
                assert info.value.code == t.LSPErrorCodes.RequestFailed
                assert info.value.data == {"code": "daemon"}
                assert "the daemon is not responding" in info.value.message
                assert time.monotonic() - started < 2.0
                assert s.statuses[-1]["state"] == "error"
                seen = len(s.statuses)
            finally:
                os.kill(pid, signal.SIGCONT)
            assert await wait_for_status(s, seen, "connected", 5), s.statuses[seen:]
            status = await s.command("nospin.status")
            assert status["pid"] == pid and status["num_documents"] == 1  # not restarted
            result = await s.inline(uri, 1, 15)
            assert result is not None and result.items
            async with AsyncClient(autostart=False) as probe:  # the daemon's copy is the buffer
                done = await probe.complete(str(src), 1, 15, deadline_ms=10_000)
                assert done.finish_reason != "deadline"  # "    return 1xyz": as long ...
                with pytest.raises(CursorError):  # ... and no longer
                    await probe.complete(str(src), 1, 16, deadline_ms=10_000)

    asyncio.run(main())


class FirstConnectionFails(StandInDaemon):
    """The first connection never gets an answer to ``status`` and gets ``error`` ``daemon``
    for a document; later ones get ``ok``."""

    def answer(self, request: Any) -> Any:
        if self.peer != self.peers[0]:
            return p.OkReply(id=request.id)
        if isinstance(request, p.StatusRequest):
            return None
        return p.ErrorReply(id=request.id, code="daemon", message="shutting down")


def test_a_failed_command_closes_only_the_connection_it_failed_on(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command that failed with a daemon error closed whatever connection was current by
    then: when the one it failed on had been replaced meanwhile (a reconnection), the new,
    good one. The server runs in this process: the timing is the test's."""
    from app.lsp.server import CMD_STATUS, LspSettings, NospinLanguageServer, StatusParams

    src = fake_home / "proj" / "calc.py"

    async def main() -> None:
        with FirstConnectionFails() as daemon:
            server = NospinLanguageServer(LspSettings(
                endpoint=f"tcp://127.0.0.1:{daemon.port}", autostart=False))
            statuses: list[StatusParams] = []
            monkeypatch.setattr(server, "_notify", statuses.append)  # no editor here
            status_command = server._command(CMD_STATUS, server._cmd_status)
            try:
                first = await server._daemon()
                first.idle_timeout_s = 3.0  # the command's request gives up after 3 s
                command = asyncio.ensure_future(status_command())
                while not any(isinstance(r, p.StatusRequest) for r in daemon.requests):
                    await asyncio.sleep(0.01)
                # a document update fails on the first connection: it is closed, and the
                # next user connects again
                server._on_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(
                    uri=src.as_uri(), language_id="python", version=1, text="x = 1\n")))
                assert server._sync_tail is not None
                await server._sync_tail
                assert server._client is None
                second = await server._daemon()
                assert second is not first and not command.done()
                with pytest.raises(JsonRpcException) as info:  # no reply on the first: 3 s
                    await command
                assert info.value.data == {"code": "daemon"}
                assert "no reply from the daemon" in info.value.message
                assert server._client is second  # (closed before the fix)
                assert await second.warm(str(src), 0, 0) == ""
            finally:
                await server._on_shutdown(None)

    asyncio.run(main())


def in_process_server(home: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[Any]]:
    """A language server in this process, for this user's ipc socket (a daemon started on
    demand with the scripted engine), and the ``nospin/status`` params it sends, in order."""
    from app.lsp.server import LspSettings, NospinLanguageServer

    monkeypatch.setenv("NOSPIN_HOME", str(home))
    monkeypatch.setenv("NOSPIN_ENGINE_FACTORY", "tests.daemon.fakes:make_engine")
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    server = NospinLanguageServer(LspSettings(deadline_ms=10_000))
    statuses: list[Any] = []
    monkeypatch.setattr(server, "_notify", statuses.append)  # no editor here
    return server, statuses


def open_document(server: Any, path: Path) -> None:
    server._on_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(
        uri=path.as_uri(), language_id="python", version=1, text=path.read_text())))


LOST_MESSAGE = ("the daemon closed the connection (stopped or restarted); it starts again "
                "with the next edit or completion")


def test_a_daemon_lost_while_the_documents_are_sent_again_is_reported(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A daemon that resumes after it hung gets every document again on the same connection;
    when the connection went during that re-send, the loss was not reported as a loss (the
    lost connection was no longer the current one): the status said only that the connection
    closed, not what happens next, and a tcp daemon was not connected to again. Now it goes
    through the same report as any loss. The server runs in this process, the daemon is real:
    it is killed (SIGKILL) as the re-send begins."""
    from app.errors import DaemonError

    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    return 1\n")

    async def main() -> None:
        server, statuses = in_process_server(fake_home, monkeypatch)
        try:
            open_document(server, src)
            await server._sync_tail  # connected (a daemon started), the document opened
            client = server._client
            assert client is not None and client.hello is not None
            pid = client.hello.pid
            os.kill(pid, signal.SIGSTOP)
            try:
                with pytest.raises(DaemonError, match="not responding"):
                    await client.status()
                assert statuses[-1].message.startswith("the daemon is not responding")
                send_open = client.open

                async def killed_then_open(*args: Any, **kwargs: Any) -> None:
                    os.kill(pid, signal.SIGKILL)  # the connection goes as the re-send starts
                    await send_open(*args, **kwargs)

                client.open = killed_then_open
                seen = len(statuses)
            finally:
                os.kill(pid, signal.SIGCONT)
            for _ in range(100):
                if any(s.state == "error" and "closed" in s.message for s in statuses[seen:]):
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # (and nothing after it)
            assert [(s.state, s.message) for s in statuses[seen:]] == [("error", LOST_MESSAGE)]
            assert server._client is None and client._sock is None  # closed
            # the next request starts a daemon again, with the document
            status = await (await server._daemon()).status()
            assert status.pid != pid and status.num_documents == 1
        finally:
            await server._on_shutdown(None)

    asyncio.run(main())


def test_a_daemon_lost_while_a_new_connection_opens_the_documents_is_reported(
        fake_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit after `nospin stop` connects again (starting a daemon) and opens the
    documents; when that connection went during the opens, nothing was reported (a document
    update only logs its failure): the statusline still said the last thing it said. Now the
    loss is reported as any other. The daemon is killed (SIGKILL) as the opens begin."""
    from app.client import AsyncClient

    src = fake_home / "proj" / "calc.py"
    src.write_text("def add(a, b):\n    return 1\n")
    other = fake_home / "proj" / "util.py"
    other.write_text("X = 1\n")

    async def main() -> None:
        server, statuses = in_process_server(fake_home, monkeypatch)
        try:
            open_document(server, src)
            await server._sync_tail
            await asyncio.to_thread(stop_daemon, fake_home)
            for _ in range(100):
                if server._client is None:
                    break
                await asyncio.sleep(0.05)
            assert [(s.state, s.message) for s in statuses] == [("error", LOST_MESSAGE)]
            send_open = AsyncClient.open
            killed: list[int] = []

            async def killed_then_open(client: AsyncClient, *args: Any, **kwargs: Any) -> None:
                if not killed and client.hello is not None:
                    killed.append(client.hello.pid)
                    os.kill(client.hello.pid, signal.SIGKILL)
                await send_open(client, *args, **kwargs)

            monkeypatch.setattr(AsyncClient, "open", killed_then_open)
            open_document(server, other)  # connects, starting a daemon: killed at the opens
            await server._sync_tail
            assert killed
            for _ in range(100):
                if len(statuses) > 1:
                    break
                await asyncio.sleep(0.05)
            assert [(s.state, s.message) for s in statuses[1:]] == [("error", LOST_MESSAGE)]
            monkeypatch.setattr(AsyncClient, "open", send_open)
            status = await (await server._daemon()).status()  # the next one starts one again
            assert status.pid != killed[0] and status.num_documents == 2
        finally:
            await server._on_shutdown(None)

    asyncio.run(main())
