"""Client library for the nospin daemon: an asyncio core and a thin blocking wrapper.

Used by the CLI, the tray and editor bridges::

    async with AsyncClient() as client:          # starts a daemon when none runs
        done = await client.complete("/src/app.py", line=10, col=4)
        print(done.text, done.tier, done.timings.total_ms)

    with Client() as client:                     # the same, blocking (own loop in a thread)
        print(client.status().metrics)

Error replies become exceptions of the one hierarchy (``app.errors``) chosen by their code.
A request waits while the daemon sends heartbeats; ``idle_timeout_s`` without any message for it
raises DaemonError, so a caller never waits forever. A daemon that goes away (stopped,
restarted, crashed: its end of the connection closes) is noticed at once through the socket's
monitor: every request waiting on the connection, and every later one, raises DaemonError, and
``on_lost`` is called. The client does not reconnect by itself: a new daemon knows nothing of
this one's documents, so the caller makes a new client and opens them again.

A daemon that hangs with its connection open (SIGSTOP, a debugger, a stuck event loop) is told
from a slow one by a probe: when a request has waited ``probe_after_s`` (2 s) with nothing at all
from the daemon (a live one answers at once or sends heartbeats about every second), the client
sends a ``hello``, which a live daemon answers at once whatever its engine does. So it does while
a subscription is open (``subscribe``: the tray's), whose events may be 5 s apart. When
``probe_timeout_s`` (2 s) more pass without any message, the daemon is not responding: every
request waiting on the connection raises DaemonError("the daemon is not responding ..."), so do
later ones when sent (they are not sent), ``hung`` says why and ``on_hung`` is called; open
subscriptions stay open (their events come again when the daemon runs). The
connection stays open and the daemon is left alone (it may be in a debugger): its first message
after that (the probe's answer, when it runs again) clears ``hung`` and calls ``on_resumed``.
Requests it was sent before it stopped are still served then (their answers are dropped); what
failed unsent never reached it, so a caller that keeps documents there sends them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import os
import secrets
import subprocess
import threading
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Coroutine
from typing import Any, Literal, TypeVar

import msgspec
import zmq
import zmq.asyncio
from zmq.utils.monitor import parse_monitor_message

from app import errors
from app.errors import ConfigError, DaemonError, NospinError, ProtocolError
from daemon import lifecycle
from daemon import protocol as p

T = TypeVar("T")

_ERRORS: dict[str, type[NospinError]] = {
    cls.code: cls
    for name in errors.__all__
    if isinstance(cls := getattr(errors, name), type) and issubclass(cls, NospinError)
    and name not in ("SkippedFile",)
}
DEFAULT_MAX_MESSAGE_BYTES = 8_000_000
LOST_GRACE_S = 0.1  # after the disconnect event: replies already received are read first
PROBE_AFTER_S = 2.0  # a request waited this long with nothing from the daemon: probe it
PROBE_TIMEOUT_S = 2.0  # no message this long after the probe: the daemon is not responding


def error_from_reply(reply: p.ErrorReply) -> NospinError:
    """The exception for an error reply (class chosen by its code; NospinError if unknown)."""
    cls = _ERRORS.get(reply.code, NospinError)
    exc = cls(reply.message, detail=reply.detail)
    if cls is NospinError:
        exc.code = reply.code
    exc.retry_after_ms = reply.retry_after_ms  # type: ignore[attr-defined]
    return exc


class AsyncClient:
    """One DEALER connection to the daemon; requests may run concurrently on it."""

    def __init__(
        self,
        endpoint: str | None = None,
        *,
        token: str | None = None,
        autostart: bool = True,
        start_timeout_s: float = 30.0,
        idle_timeout_s: float = 15.0,
        probe_after_s: float = PROBE_AFTER_S,
        probe_timeout_s: float = PROBE_TIMEOUT_S,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        client_name: str = "nospin-client",
        context: zmq.asyncio.Context | None = None,
    ) -> None:
        self.endpoint = endpoint or default_endpoint()
        self._token = token
        self._autostart = autostart
        self._start_timeout_s = start_timeout_s
        self.idle_timeout_s = idle_timeout_s
        self.probe_after_s = probe_after_s
        self.probe_timeout_s = probe_timeout_s
        self._max_bytes = max_message_bytes
        self._client_name = client_name
        self._ctx = context or zmq.asyncio.Context.instance()
        self._sock: zmq.asyncio.Socket | None = None
        self._reader: asyncio.Task[None] | None = None
        self._queues: dict[str, asyncio.Queue[p.Reply]] = {}
        self._ids = itertools.count()
        self._prefix = secrets.token_hex(3)
        self.hello: p.HelloReply | None = None
        self.started_daemon = False  # this client started the daemon it talks to
        # ... and its process: left running at close (it is the user's daemon), reaped when it
        # exits while this process runs (``lifecycle.spawn_daemon``)
        self.daemon_process: subprocess.Popen[bytes] | None = None
        self.num_unexpected_finals = 0  # final replies for no pending request (duplicates)
        self._unawaited: set[str] = set()  # requests left early and their cancels: finals due
        self._monitor: zmq.asyncio.Socket | None = None  # the socket's disconnect events
        self._watcher: asyncio.Task[None] | None = None
        self.lost: str | None = None  # why the connection is gone (the daemon closed it)
        self.on_lost: Callable[[], None] | None = None  # called once when it goes
        self._prober: asyncio.Task[None] | None = None  # tells a hung daemon from a slow one
        self._waiting: dict[str, float] = {}  # request id -> when sent, until its final reply
        self._following: dict[str, float] = {}  # subscription id -> when sent: probed, not failed
        self._abandoned: set[str] = set()  # waiting requests failed as not responding
        self._num_heard = 0  # messages received from the daemon
        self._heard_at = -math.inf  # loop time of the last one
        self._wake: asyncio.Event | None = None  # a request started waiting, a message came
        self.hung: str | None = None  # why the daemon is taken as not responding (None: it is)
        self.on_hung: Callable[[], None] | None = None  # called when it stops responding
        self.on_resumed: Callable[[], None] | None = None  # ... and when it responds again

    # ------------------------------------------------------------------ connection
    async def __aenter__(self) -> AsyncClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> p.HelloReply:
        """Connect and say hello; start a daemon first when none runs (and autostart is on).
        A failed hello closes the socket again: nothing is left open for the caller to close
        (``async with`` does not run ``__aexit__`` when ``__aenter__`` raised)."""
        try:
            return await self._connect()
        except BaseException:
            await self.close()
            raise

    async def _connect(self) -> p.HelloReply:
        check_endpoint(self.endpoint)
        if self.endpoint.startswith("ipc://") and lifecycle.read_daemon_info() is None:
            if not self._autostart:
                raise DaemonError(
                    "no nospin daemon is running", detail="start one with `nospin daemon`")
            await asyncio.to_thread(self._start_daemon)
        if self._token is None and self.endpoint.startswith("tcp://"):
            self._token = lifecycle.read_token() or ""
        self._open_socket()
        self.hello = await self.request(
            p.HelloRequest(id=self._next_id(), client=self._client_name, token=self._token or ""),
            p.HelloReply, timeout_s=min(self.idle_timeout_s, 10.0))
        if self.hello.protocol != p.PROTOCOL_VERSION:
            raise ProtocolError(f"the daemon speaks protocol {self.hello.protocol}, "
                                f"this client {p.PROTOCOL_VERSION}")
        return self.hello

    def _start_daemon(self) -> None:
        proc, log_file = lifecycle.spawn_daemon()
        self.daemon_process = proc
        lifecycle.wait_for_socket(proc, log_file, timeout_s=self._start_timeout_s)
        self.started_daemon = True

    def _open_socket(self) -> None:
        if self._sock is not None:
            return
        sock = self._ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RCVHWM, 0)
        sock.setsockopt(zmq.SNDHWM, 0)
        if self.endpoint.startswith("tcp://"):
            sock.setsockopt(zmq.HEARTBEAT_IVL, 2000)
            sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, 6000)
        try:
            sock.connect(self.endpoint)
        except zmq.ZMQError as exc:  # an address check_endpoint let through
            sock.close(linger=0)
            raise ConfigError(f"invalid daemon endpoint {self.endpoint!r}",
                              detail=exc.strerror) from exc
        self._sock = sock
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read_loop())
        self._monitor = sock.get_monitor_socket(zmq.EVENT_DISCONNECTED)
        self._watcher = loop.create_task(self._watch_loop(self._monitor))
        self._wake = asyncio.Event()
        self._prober = loop.create_task(self._probe_loop(self._wake))

    async def close(self) -> None:
        for task in (self._prober, self._watcher, self._reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._prober = self._watcher = self._reader = None
        if self._monitor is not None:
            if self._sock is not None:
                with contextlib.suppress(zmq.ZMQError):
                    self._sock.disable_monitor()
            self._monitor.close(linger=0)
            self._monitor = None
        if self._sock is not None:
            self._sock.close(linger=0)
            self._sock = None

    async def _read_loop(self) -> None:
        assert self._sock is not None
        while True:
            frames = await self._sock.recv_multipart()
            self._heard()
            try:
                reply = p.decode_reply(frames[-1])
            except ProtocolError:
                continue
            if reply.id is not None and (queue := self._queues.get(reply.id)) is not None:
                queue.put_nowait(reply)
            elif reply.id in self._unawaited:  # a request left or a cancel: no one waits
                if p.is_final(reply):
                    self._unawaited.discard(reply.id)
            elif p.is_final(reply):
                self.num_unexpected_finals += 1  # a second final reply: must stay 0

    async def _watch_loop(self, monitor: zmq.asyncio.Socket) -> None:
        """Wait for the daemon's end of the connection to close (a ZeroMQ DEALER would
        otherwise queue requests for it, silently, until the idle timeout)."""
        while True:
            event = parse_monitor_message(await monitor.recv_multipart())
            if event["event"] == zmq.EVENT_DISCONNECTED:
                break
        await asyncio.sleep(LOST_GRACE_S)  # the reader takes the replies sent before it closed
        self._lose("the daemon closed the connection (stopped or restarted)")

    def _lose(self, why: str) -> None:
        """Fail every request waiting on this connection; later ones fail when sent."""
        if self.lost is not None:
            return
        self.lost = why
        for request_id, queue in self._queues.items():
            queue.put_nowait(p.ErrorReply(id=request_id, code=DaemonError.code, message=why))
        if self.on_lost is not None:
            self.on_lost()

    def _heard(self) -> None:
        """A message came: the daemon is alive (again, when it was taken as hung)."""
        self._num_heard += 1
        self._heard_at = asyncio.get_running_loop().time()
        self._poke()
        if self.hung is not None and self.lost is None:
            self.hung = None
            if self.on_resumed is not None:
                self.on_resumed()

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def _probe_loop(self, wake: asyncio.Event) -> None:
        """Tell a hung daemon from a slow one: a request that has waited ``probe_after_s`` with
        nothing from the daemon (no reply, chunk or heartbeat, for it or any other request)
        gets a ``hello`` probe sent after it; no message within ``probe_timeout_s`` of the probe
        and the daemon is not responding (``_hang``). A live daemon answers a hello at once,
        whatever its engine is doing, and sends heartbeats about every second for a
        completion it is still working on. An open subscription counts as a waiting request
        here (a quiet daemon is probed every ``probe_after_s`` between its events)."""
        loop = asyncio.get_running_loop()

        async def sleep(timeout_s: float | None) -> None:  # until poked or timeout_s
            wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout_s):
                    await wake.wait()

        while True:
            if (self.hung is not None or self.lost is not None
                    or not (self._waiting or self._following)):
                await sleep(None)
                continue
            quiet_since = max(self._heard_at,
                              min([*self._waiting.values(), *self._following.values()]))
            due = quiet_since + self.probe_after_s
            if loop.time() < due:
                await sleep(due - loop.time())
                continue
            heard = self._num_heard
            probe = p.HelloRequest(id=self._next_id(), client=self._client_name,
                                   token=self._token or "")
            self._unawaited.add(probe.id)  # its answer is dropped by the reader
            try:
                await self._send(probe)
            except NospinError:  # lost meanwhile: the watcher says so
                continue
            give_up = loop.time() + self.probe_timeout_s
            while self._num_heard == heard and self.lost is None and loop.time() < give_up:
                await sleep(give_up - loop.time())
            if self._num_heard == heard and self.lost is None:
                self._hang(loop.time() - quiet_since)

    def _hang(self, silent_s: float) -> None:
        """The daemon does not answer: fail every request waiting for a reply (its answer,
        should it come, is dropped); later ones fail when sent. The connection stays."""
        self.hung = (f"the daemon is not responding (nothing from it for {silent_s:.1f} s, "
                     "not even an answer to a probe: stopped or stuck)")
        for request_id in self._waiting:
            self._abandoned.add(request_id)
            self._queues[request_id].put_nowait(
                p.ErrorReply(id=request_id, code=DaemonError.code, message=self.hung))
        if self.on_hung is not None:
            self.on_hung()

    def _next_id(self) -> str:
        return f"{self._prefix}-{next(self._ids)}"

    async def _send(self, message: msgspec.Struct, *, even_if_hung: bool = False) -> None:
        """Send ``message``; DaemonError when the connection is closed or gone, and when the
        daemon is not responding (``hung``) unless ``even_if_hung`` (a cancel: it gets there
        when the daemon runs again)."""
        if self._sock is None:
            raise DaemonError("not connected")
        if self.lost is not None:
            raise DaemonError(self.lost)
        if self.hung is not None and not even_if_hung:
            raise DaemonError(self.hung)
        data = p.encode(message)
        if len(data) > self._max_bytes:
            raise ProtocolError(
                f"message of {len(data)} bytes is over the limit of {self._max_bytes}")
        await self._sock.send_multipart([data])

    # ------------------------------------------------------------------ core
    async def stream(self, message: Any, *, timeout_s: float | None = None
                     ) -> AsyncIterator[p.Reply]:
        """Send ``message`` and yield every reply for it (chunks, events), the final one last.

        Error replies raise. Heartbeats are consumed here. Leaving the iteration early of a
        complete/generate request cancels it in the daemon. While it waits, a daemon that says
        nothing at all is probed (see ``_probe_loop``).
        """
        request_id: str = message.id
        queue: asyncio.Queue[p.Reply] = asyncio.Queue()
        self._queues[request_id] = queue
        idle = timeout_s if timeout_s is not None else self.idle_timeout_s
        finished = sent = False
        try:
            self._waiting[request_id] = asyncio.get_running_loop().time()
            await self._send(message)
            sent = True
            self._poke()
            while True:
                try:  # asyncio.timeout, not wait_for: that may swallow a cancel on 3.11
                    async with asyncio.timeout(idle):
                        reply = await queue.get()
                except TimeoutError:
                    raise DaemonError(
                        f"no reply from the daemon within {idle:.0f} s",
                        detail=f"request {request_id} ({type(message).__name__})") from None
                if isinstance(reply, p.HeartbeatReply):
                    continue
                if isinstance(reply, p.ErrorReply):
                    finished = request_id not in self._abandoned  # else its final is still due
                    raise error_from_reply(reply)
                finished = p.is_final(reply)
                yield reply
                if finished:
                    return
        finally:
            del self._queues[request_id]
            self._waiting.pop(request_id, None)
            self._abandoned.discard(request_id)
            if sent and not finished and self._sock is not None and self.lost is None:
                if len(self._unawaited) > 4096:  # finals that never came (a daemon restart)
                    self._unawaited.clear()
                self._unawaited.add(request_id)  # its final is still due: not a duplicate
                if isinstance(message, p.CompleteRequest | p.GenerateRequest):
                    cancel = p.CancelRequest(id=self._next_id(), target=request_id)
                    self._unawaited.add(cancel.id)
                    with contextlib.suppress(Exception):
                        await self._send(cancel, even_if_hung=True)

    async def request(self, message: Any, expect: type[T], *, timeout_s: float | None = None
                      ) -> T:
        """Send ``message`` and return its final reply, which must be an ``expect``."""
        async for reply in self.stream(message, timeout_s=timeout_s):
            if p.is_final(reply):
                if not isinstance(reply, expect):
                    raise ProtocolError(f"expected a {expect.__name__} reply, got "
                                        f"{type(reply).__name__}")
                return reply
        raise ProtocolError("the daemon closed the request without a final reply")

    # ------------------------------------------------------------------ API
    async def complete(
        self,
        path: str,
        line: int,
        col: int,
        *,
        text: str | None = None,
        root: str | None = None,
        max_tokens: int | None = None,
        multiline: bool | Literal["auto"] = "auto",
        deadline_ms: int = p.DEFAULT_DEADLINE_MS,
        on_chunk: Callable[[str], None] | None = None,
    ) -> p.DoneReply:
        """A completion at (line, col), 0-based; chunks go to ``on_chunk`` as they come."""
        msg = p.CompleteRequest(
            id=self._next_id(), path=path, line=line, col=col, text=text, root=root,
            options=p.CompleteOptions(max_tokens=max_tokens, multiline=multiline,
                                      deadline_ms=deadline_ms))
        async for reply in self.stream(msg):
            if isinstance(reply, p.ChunkReply) and on_chunk is not None:
                on_chunk(reply.text)
            elif isinstance(reply, p.DoneReply):
                return reply
        raise ProtocolError("complete ended without a done reply")

    async def generate(self, session: str, instruction: str, *, code: str | None = None,
                       path: str | None = None, max_tokens: int = 512,
                       deadline_ms: int = 60_000,
                       on_chunk: Callable[[str], None] | None = None) -> p.DoneReply:
        """One conversation round; returns the final code."""
        msg = p.GenerateRequest(id=self._next_id(), session=session, instruction=instruction,
                                code=code, path=path, options=p.GenerateOptions(
                                    max_tokens=max_tokens, deadline_ms=deadline_ms))
        async for reply in self.stream(msg):
            if isinstance(reply, p.ChunkReply) and on_chunk is not None:
                on_chunk(reply.text)
            elif isinstance(reply, p.DoneReply):
                return reply
        raise ProtocolError("generate ended without a done reply")

    async def open(self, path: str, text: str, *, language: str | None = None,
                   version: int = 0, root: str | None = None) -> None:
        await self.request(p.OpenRequest(id=self._next_id(), path=path, text=text,
                                         language=language, version=version, root=root),
                           p.OkReply)

    async def warm(self, path: str, line: int, col: int, *, text: str | None = None,
                   root: str | None = None) -> str:
        """Ask the daemon to prefill the prompt at the cursor in the background (send on cursor
        moves, not per keystroke); returns "warming", "warm" or why not."""
        reply = await self.request(p.WarmRequest(id=self._next_id(), path=path, line=line,
                                                 col=col, text=text, root=root), p.OkReply)
        return reply.detail

    async def change(self, path: str, *, text: str | None = None,
                     edits: list[p.TextEdit] | None = None, version: int = 0) -> None:
        await self.request(p.ChangeRequest(id=self._next_id(), path=path, text=text,
                                           edits=edits, version=version), p.OkReply)

    async def close_document(self, path: str) -> None:
        await self.request(p.CloseRequest(id=self._next_id(), path=path), p.OkReply)

    async def status(self) -> p.StatusReply:
        return await self.request(p.StatusRequest(id=self._next_id()), p.StatusReply)

    async def config_get(self, key: str | None = None) -> dict[str, Any]:
        reply = await self.request(p.ConfigGetRequest(id=self._next_id(), key=key), p.ConfigReply)
        return reply.values

    async def config_set(self, changes: dict[str, Any], *, note: str = "") -> p.ConfigReply:
        return await self.request(
            p.ConfigSetRequest(id=self._next_id(), changes=changes, note=note), p.ConfigReply)

    async def fast_mode(self, on: bool) -> None:
        await self.request(p.FastModeRequest(id=self._next_id(), on=on), p.OkReply)

    async def subscribe(self, topics: tuple[p.Topic, ...] = p.ALL_TOPICS
                        ) -> AsyncGenerator[p.EventReply, None]:
        """Events as the daemon pushes them, until the caller stops iterating. Raises
        DaemonError when the connection goes; a daemon that stops responding meanwhile is
        probed and reported as for a waiting request (``hung``, ``on_hung``), and the
        subscription stays open."""
        msg = p.SubscribeRequest(id=self._next_id(), topics=list(topics))
        queue: asyncio.Queue[p.Reply] = asyncio.Queue()
        self._queues[msg.id] = queue
        try:
            await self._send(msg)
            self._following[msg.id] = asyncio.get_running_loop().time()
            self._poke()
            while True:
                reply = await queue.get()
                if isinstance(reply, p.ErrorReply):
                    raise error_from_reply(reply)
                if isinstance(reply, p.EventReply):
                    yield reply
        finally:
            self._queues.pop(msg.id, None)
            self._following.pop(msg.id, None)
            if self._sock is not None and self.lost is None:
                unsubscribe = p.UnsubscribeRequest(id=self._next_id(), target=msg.id)
                self._unawaited.add(unsubscribe.id)  # its ok is not a duplicate final
                with contextlib.suppress(Exception):
                    await self._send(unsubscribe, even_if_hung=True)


class Client:
    """Blocking wrapper: the same AsyncClient, driven on a private loop in a thread."""

    def __init__(self, endpoint: str | None = None, **options: Any) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="nospin-client")
        self._thread.start()
        self._endpoint = endpoint
        self._options = options
        self.aio: AsyncClient = self._run(self._make())

    async def _make(self) -> AsyncClient:
        # created on the private loop so its zmq.asyncio context binds there
        return AsyncClient(self._endpoint, context=zmq.asyncio.Context(), **self._options)

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def __enter__(self) -> Client:
        try:
            self.connect()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect(self) -> p.HelloReply:
        return self._run(self.aio.connect())

    def close(self) -> None:
        if self._loop.is_closed():
            return
        with contextlib.suppress(Exception):
            self._run(self.aio.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self.aio._ctx.term()
        self._loop.close()

    def complete(self, path: str, line: int, col: int, **options: Any) -> p.DoneReply:
        return self._run(self.aio.complete(path, line, col, **options))

    def generate(self, session: str, instruction: str, **options: Any) -> p.DoneReply:
        return self._run(self.aio.generate(session, instruction, **options))

    def open(self, path: str, text: str, **options: Any) -> None:
        self._run(self.aio.open(path, text, **options))

    def change(self, path: str, **options: Any) -> None:
        self._run(self.aio.change(path, **options))

    def warm(self, path: str, line: int, col: int, **options: Any) -> str:
        return self._run(self.aio.warm(path, line, col, **options))

    def close_document(self, path: str) -> None:
        self._run(self.aio.close_document(path))

    def status(self) -> p.StatusReply:
        return self._run(self.aio.status())

    def config_get(self, key: str | None = None) -> dict[str, Any]:
        return self._run(self.aio.config_get(key))

    def config_set(self, changes: dict[str, Any], *, note: str = "") -> p.ConfigReply:
        return self._run(self.aio.config_set(changes, note=note))

    def fast_mode(self, on: bool) -> None:
        self._run(self.aio.fast_mode(on))


def default_endpoint() -> str:
    """ipc socket of this user's daemon (``NOSPIN_ENDPOINT`` overrides, e.g. a tcp one)."""
    return os.environ.get("NOSPIN_ENDPOINT") or lifecycle.ipc_endpoint()


def check_endpoint(endpoint: str) -> str:
    """``endpoint`` if it is a daemon address (``ipc://PATH``, ``tcp://HOST:PORT``); else
    ConfigError (a flag, ``NOSPIN_ENDPOINT`` or an editor setting with a typo)."""
    scheme, sep, rest = endpoint.partition("://")
    host, colon, port = rest.rpartition(":")
    if sep and scheme == "ipc" and rest:
        return endpoint
    if sep and scheme == "tcp" and host and colon and port.isdigit() and 0 < int(port) < 65536:
        return endpoint
    raise ConfigError(f"invalid daemon endpoint {endpoint!r}",
                      detail="expected ipc://PATH or tcp://HOST:PORT")


__all__ = ["AsyncClient", "Client", "check_endpoint", "default_endpoint", "error_from_reply"]
