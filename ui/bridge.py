"""The tray's line to the daemon: follows its event stream, sends commands, emits Qt signals.

A :class:`DaemonBridge` runs the asyncio client library (``app.client.AsyncClient``) on a private
event loop in one worker thread. That loop:

1. waits for a daemon (the lock file, checked once a second while none runs, or at once when the
   tray starts one);
2. connects, asks ``status`` and ``config.get`` once, and subscribes to ``state``, ``requests``
   and ``metrics``: from then on the daemon pushes everything (no polling);
3. notices the daemon's end at once (its closed connection; a pidfd on Linux), reports "not
   running", and goes back to 1: a restarted daemon is picked up by itself;
4. tells a hung daemon (stopped, in a debugger, stuck: its connection stays open) from a quiet
   one with the client library's probe (``AsyncClient.hung``: a ``hello`` after 2 s without a
   message, unanswered 2 s later), reports "not responding" (about 4 s after it fell silent),
   and "responding" again on its first message, on the same connection.

Every change becomes a new immutable :class:`ui.state.DaemonView`, emitted as ``viewChanged`` in
the GUI thread (queued signal). Commands (toggles, settings, start/restart) run as coroutines on
the worker loop; their outcome comes back as ``commandFinished`` or ``configApplied`` /
``configRefused``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import msgspec
import zmq
import zmq.asyncio
from PySide6.QtCore import QObject, Signal

from app.client import AsyncClient, default_endpoint
from app.errors import DaemonError, NospinError
from app.paths import state_dir
from daemon import lifecycle
from daemon import protocol as p
from ui import state as st

log = logging.getLogger(__name__)

__all__ = ["DaemonBridge"]

WAIT_S = 1.0  # while no daemon runs: how often the lock file is looked at
LOG_HISTORY_LINES = 200  # request-log lines read on connect, to seed the latency chart


class DaemonBridge(QObject):
    """Follows one daemon (reconnecting across restarts) and forwards commands to it."""

    viewChanged = Signal(object)  # DaemonView: after every change
    commandFinished = Signal(str, bool, str)  # what ("fast_mode", "restart", ...), ok, message
    configApplied = Signal(object, str)  # the new configuration (dict), snapshot id
    configRefused = Signal(str)  # the daemon's reason

    def __init__(self, *, endpoint: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.endpoint = endpoint or default_endpoint()
        self.view = st.DaemonView()  # latest view, as seen by the GUI thread
        self._worker_view = st.DaemonView()  # the worker's copy (worker thread only)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._client: AsyncClient | None = None
        self._wake: asyncio.Event | None = None
        self._stopping = False
        self._emitted = False  # a view was emitted (the first one always is)
        self.viewChanged.connect(self._remember)

    # ------------------------------------------------------------------ GUI thread
    def start(self) -> None:
        """Start following the daemon (returns at once)."""
        if self._thread is not None:
            return
        ready = threading.Event()
        self._thread = threading.Thread(target=self._thread_main, args=(ready,),
                                        name="nospin-tray-bridge", daemon=True)
        self._thread.start()
        ready.wait(5)

    def stop(self) -> None:
        """Stop following and close the connection (the daemon keeps running)."""
        self._stopping = True
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._cancel_all)
            thread.join(10)
        self._thread = None

    def _remember(self, view: st.DaemonView) -> None:
        self.view = view

    def set_fast_mode(self, on: bool) -> None:
        """Force fast mode on or off (the daemon's ``fast_mode`` message)."""
        self._submit("fast_mode", lambda c: c.fast_mode(on))

    def set_speculation(self, on: bool) -> None:
        self._submit("speculation", lambda c: c.config_set(
            {"engine.speculation": on}, note=f"speculation {'on' if on else 'off'} (tray)"))

    def set_paused(self, on: bool) -> None:
        self._submit("paused", lambda c: c.config_set(
            {"completion.paused": on}, note=f"completions {'paused' if on else 'resumed'} (tray)"))

    def apply_config(self, changes: dict[str, Any], *, note: str = "settings (tray)") -> None:
        """Send ``config.set``; the answer comes as ``configApplied`` or ``configRefused``."""
        self._call(self._apply_config(changes, note))

    def start_daemon(self) -> None:
        """Start a daemon in the background (``nospin daemon`` detached, logging to a file)."""
        self._call(self._start_daemon())

    def restart_daemon(self) -> None:
        """Stop the running daemon (SIGTERM, clean shutdown) and start a new one."""
        self._call(self._restart_daemon())

    def _submit(self, what: str, fn: Callable[[AsyncClient], Coroutine[Any, Any, Any]]) -> None:
        async def run() -> None:
            client = self._client
            if client is None:
                self.commandFinished.emit(what, False, "the daemon is not running")
                return
            try:
                result = await fn(client)
            except NospinError as exc:
                self.commandFinished.emit(what, False, str(exc))
                return
            values = getattr(result, "values", None)
            if isinstance(values, dict):
                self._update(st.apply_config(self._worker_view, values))
            self.commandFinished.emit(what, True, "")

        self._call(run())

    def _call(self, coro: Coroutine[Any, Any, None]) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            coro.close()
            return
        asyncio.run_coroutine_threadsafe(coro, loop)

    # ------------------------------------------------------------------ worker thread
    def _thread_main(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        ctx = zmq.asyncio.Context()
        self._wake = asyncio.Event()
        ready.set()
        try:
            self._main_task = loop.create_task(self._follow(ctx))
            with contextlib.suppress(asyncio.CancelledError):
                loop.run_until_complete(self._main_task)
            pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        finally:
            ctx.term()
            loop.close()

    def _cancel_all(self) -> None:
        self._main_task.cancel()

    def _update(self, view: st.DaemonView) -> None:
        if view == self._worker_view and self._emitted:
            return
        self._worker_view = view
        self._emitted = True
        self.viewChanged.emit(view)

    async def _follow(self, ctx: zmq.asyncio.Context) -> None:
        error = ""
        while not self._stopping:
            if self.endpoint.startswith("ipc://") and lifecycle.read_daemon_info() is None:
                self._update(st.disconnected(self._worker_view, ""))
                await self._wait_for_daemon()
                continue
            client = AsyncClient(self.endpoint, autostart=False, idle_timeout_s=5.0,
                                 client_name="nospin-tray", context=ctx)
            client.on_hung = lambda c=client: self._update(
                st.not_responding(self._worker_view, c.hung or ""))
            client.on_resumed = lambda: self._update(st.responding(self._worker_view))
            try:
                await self._session(client)
                error = ""
            except (NospinError, zmq.ZMQError, TimeoutError, OSError) as exc:
                error = str(exc)
                log.info("daemon connection ended: %s", exc)
            except Exception as exc:  # a bug here must not stop the tray from reconnecting
                error = f"{type(exc).__name__}: {exc}"
                log.exception("daemon connection failed")
            finally:
                self._client = None
                with contextlib.suppress(Exception):
                    await client.close()
            if self._stopping:
                break
            view = st.disconnected(self._worker_view, error)
            if client.hung is not None and client.lost is None:  # hung before it was followed
                view = st.not_responding(view, client.hung)
            self._update(view)
            await asyncio.sleep(0.2)

    async def _wait_for_daemon(self) -> None:
        assert self._wake is not None
        self._wake.clear()
        with contextlib.suppress(TimeoutError):  # not wait_for: it may swallow a cancel (3.11)
            async with asyncio.timeout(WAIT_S):
                await self._wake.wait()

    async def _session(self, client: AsyncClient) -> None:
        """One connection: hello, status, config, then events until the daemon goes away (its
        connection closes, or its process exits). A daemon that stops responding meanwhile is
        reported by ``client.on_hung`` / ``on_resumed``: the connection and the subscription
        stay."""
        hello = await client.connect()
        view = st.connected(self._worker_view, pid=hello.pid, engine_kind=hello.engine,
                            engine_state=hello.engine_state)
        if not view.points:
            view = st.with_history(view, await asyncio.to_thread(_read_history))
        view = st.apply_status(view, msgspec.to_builtins(await client.status()))
        view = st.apply_config(view, await client.config_get())
        self._client = client
        self._update(view)
        died = self._watch_pid(hello.pid)
        events = client.subscribe()
        try:
            while True:
                next_event: asyncio.Future[p.EventReply] = asyncio.ensure_future(anext(events))
                waiters: set[asyncio.Future[Any]] = {next_event, died}
                done, _ = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
                if next_event not in done:
                    next_event.cancel()
                    with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                        await next_event
                    raise TimeoutError("the daemon stopped")
                event = next_event.result()
                old_state = self._worker_view.engine_state
                self._update(st.apply_event(self._worker_view, event.topic, event.data,
                                            now=time.time()))
                if event.topic == "state" and event.data.get("engine_state") != old_state:
                    # engine (re)loaded: model name and engine details are in status only
                    try:
                        status = msgspec.to_builtins(await client.status())
                    except DaemonError:
                        if client.hung is None:
                            raise
                        continue  # not responding: the next state event asks again
                    self._update(st.apply_status(self._worker_view, status))
        finally:
            died.cancel()
            with contextlib.suppress(Exception):
                await events.aclose()

    def _watch_pid(self, pid: int) -> asyncio.Future[None]:
        """A future that completes when process ``pid`` exits (pidfd; never without one)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if not self.endpoint.startswith("ipc://") or not hasattr(os, "pidfd_open"):
            return future
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            return future

        def on_exit() -> None:
            if not future.done():
                future.set_result(None)

        loop.add_reader(fd, on_exit)

        def cleanup(_: object) -> None:
            loop.remove_reader(fd)
            os.close(fd)

        future.add_done_callback(cleanup)
        return future

    async def _apply_config(self, changes: dict[str, Any], note: str) -> None:
        client = self._client
        if client is None:
            self.configRefused.emit("the daemon is not running")
            return
        try:
            reply = await client.config_set(changes, note=note)
        except NospinError as exc:
            self.configRefused.emit(exc.message)
            return
        self._update(st.apply_config(self._worker_view, reply.values))
        self.configApplied.emit(reply.values, reply.snapshot or "")

    async def _start_daemon(self) -> None:
        if lifecycle.read_daemon_info() is not None:
            self.commandFinished.emit("start", True, "a daemon is already running")
            return
        try:
            await asyncio.to_thread(_spawn)
        except NospinError as exc:
            self.commandFinished.emit("start", False, str(exc))
            return
        if self._wake is not None:
            self._wake.set()
        self.commandFinished.emit("start", True, "daemon started")

    async def _restart_daemon(self) -> None:
        try:
            await asyncio.to_thread(lifecycle.stop_daemon, 30.0)
        except NospinError as exc:
            self.commandFinished.emit("restart", False, str(exc))
            return
        await self._start_daemon()


def _spawn() -> None:
    proc, log_file = lifecycle.spawn_daemon()  # outlives the tray; reaped should it exit first
    lifecycle.wait_for_socket(proc, log_file, timeout_s=30.0)


def _read_history() -> tuple[st.RequestPoint, ...]:
    """The tail of the daemon's request log, for the chart's first points."""
    path = Path(state_dir()) / "requests.jsonl"
    try:
        with open(path, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - 64_000))
            data = fh.read().decode("utf-8", errors="replace")
    except OSError:
        return ()
    lines = data.splitlines()[-LOG_HISTORY_LINES:]
    return st.points_from_log(lines)
