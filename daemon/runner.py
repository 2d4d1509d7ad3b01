"""Run one daemon: lock, sockets, service, signals, clean shutdown (``nospin daemon``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import zmq

from app.config import Config
from app.errors import DaemonError
from app.paths import state_dir
from daemon.crashlog import CrashWatch, collect, describe
from daemon.lifecycle import (
    DaemonLock,
    install_stop_signals,
    ipc_endpoint,
    prepare_socket_path,
    read_or_create_token,
    secure_socket,
    tcp_endpoint,
)
from daemon.metrics import Metrics, RequestLog
from daemon.server import Listener, Server
from daemon.service import Service
from daemon.snapshots import SnapshotStore
from daemon.speed_store import SpeedStore
from daemon.supervisor import EngineFactory

log = logging.getLogger(__name__)


async def run_daemon(
    config: Config,
    *,
    engine_factory: EngineFactory,
    config_path: Path | None = None,
    log_file: str = "",
    stop: asyncio.Event | None = None,
    handle_signals: bool = True,
    index_projects: bool = True,
    on_ready: Callable[[Service], None] | None = None,
    crash_reports: bool = False,
    engine_factory_for: Callable[[Config], EngineFactory] | None = None,
) -> None:
    """Run one daemon until ``stop`` is set (or SIGTERM/SIGINT): take the per-user lock, bind
    the ipc socket (0600) and, when configured, tcp://127.0.0.1 with the token; serve; then
    answer everything pending, stop the engine and release the lock and socket.

    ``crash_reports`` (the ``nospin daemon`` process only: faulthandler is process-wide)
    reports the previous daemon's fatal crash and records this one's (daemon/crashlog.py).
    ``engine_factory_for``: the factory of a changed configuration (Service)."""
    lock = DaemonLock()
    lock.acquire()  # AlreadyRunning says where the other one is
    last_crash = collect(state_dir()) if crash_reports else None
    if last_crash is not None:
        log.warning("the previous daemon crashed: %s; run `nospin doctor`",
                    describe(last_crash.to_dict(), time.time()))
    with CrashWatch(state_dir()) if crash_reports else contextlib.nullcontext():
        stop = stop or asyncio.Event()
        path = prepare_socket_path()
        request_log = RequestLog(state_dir() / "requests.jsonl")
        service = Service(
            config, engine_factory=engine_factory, config_path=config_path,
            snapshots=SnapshotStore(), metrics=Metrics(log=request_log),
            log_file=log_file, index_projects=index_projects,
            engine_factory_for=engine_factory_for, speed_store=SpeedStore(),
        )
        service.last_crash = last_crash.to_dict() if last_crash else {}
        listeners = [Listener(ipc_endpoint(), on_bound=lambda _: secure_socket(path))]
        if config.daemon.tcp_port:
            listeners.append(Listener(tcp_endpoint(config.daemon.tcp_port),
                                      token=read_or_create_token()))
        server = Server(service, listeners, max_message_bytes=config.daemon.max_message_bytes)
        old_umask = os.umask(0o077)  # the socket is created private, then chmod'ed to be sure
        try:
            server.bind()
        except zmq.ZMQError as exc:
            server.close(linger_ms=0)
            request_log.close()
            lock.release()
            raise DaemonError(f"cannot listen: {exc}") from exc
        finally:
            os.umask(old_umask)
        service.endpoints = server.endpoints
        service.count_peers = lambda: server.live_peers(60.0)
        lock.write_info(server.endpoints, log_file)
        loop = asyncio.get_running_loop()
        if handle_signals:
            install_stop_signals(loop, stop)
        try:
            await service.start()
            log.info("nospin daemon pid %d serving on %s", os.getpid(), ", ".join(server.endpoints))
            if on_ready is not None:
                on_ready(service)
            await server.serve(stop)
        finally:
            log.info("shutting down")
            await service.close()
            await asyncio.sleep(0)  # let queued sends go out before the sockets close
            server.close()
            if handle_signals:
                for sig in (signal.SIGTERM, signal.SIGINT):
                    loop.remove_signal_handler(sig)
            request_log.close()
            path.unlink(missing_ok=True)
            lock.release()
