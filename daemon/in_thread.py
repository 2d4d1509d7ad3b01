"""The daemon in a thread of the calling process, on its real socket.

For callers that read the daemon's own objects while clients talk to it over ZeroMQ: the test
suite (its service, the engines it made) and the GPU check (``torch.cuda.memory_allocated``
before and after an engine reload). ``nospin daemon`` runs :func:`daemon.runner.run_daemon` in
its own process instead.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import Config
from app.errors import DaemonError
from daemon.runner import run_daemon
from daemon.service import Service
from daemon.supervisor import EngineFactory

__all__ = ["DaemonThread", "daemon_in_thread"]


@dataclass(frozen=True, slots=True)
class DaemonThread:
    service: Service
    endpoint: str  # the first endpoint it serves (its ipc socket)
    loop: asyncio.AbstractEventLoop  # the daemon's event loop, in its thread

    def call(self, fn: Callable[[], Any], timeout_s: float = 5.0) -> Any:
        """Run ``fn`` on the daemon's loop and return its result (what it raises, raised)."""
        future = asyncio.run_coroutine_threadsafe(_call(fn), self.loop)
        return future.result(timeout_s)


async def _call(fn: Callable[[], Any]) -> Any:
    return fn()


@contextmanager
def daemon_in_thread(
    config: Config,
    *,
    engine_factory: EngineFactory,
    engine_factory_for: Callable[[Config], EngineFactory] | None = None,
    config_path: Path | None = None,
    index_projects: bool = False,
    start_timeout_s: float = 15.0,
    stop_timeout_s: float = 15.0,
) -> Iterator[DaemonThread]:
    """Serve until the block ends, then stop as on SIGTERM (everything pending answered).

    What the daemon raised while starting is raised here; DaemonError when it is not ready in
    ``start_timeout_s`` or does not stop in ``stop_timeout_s``; an error the daemon ended with
    is raised when the block ends."""
    ready = threading.Event()
    started: list[DaemonThread] = []
    errors: list[BaseException] = []
    stops: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def stop_it() -> None:
        if stops:
            loop, stop = stops[0]
            loop.call_soon_threadsafe(stop.set)

    async def serve() -> None:
        stop = asyncio.Event()
        stops.append((asyncio.get_running_loop(), stop))

        def on_ready(service: Service) -> None:
            started.append(DaemonThread(service, service.endpoints[0],
                                        asyncio.get_running_loop()))
            ready.set()

        await run_daemon(config, engine_factory=engine_factory, stop=stop,
                         handle_signals=False, config_path=config_path,
                         index_projects=index_projects, on_ready=on_ready,
                         engine_factory_for=engine_factory_for)

    def thread_main() -> None:
        try:
            asyncio.run(serve())
        except BaseException as exc:  # raised in the caller's thread
            errors.append(exc)
        finally:
            ready.set()

    thread = threading.Thread(target=thread_main, daemon=True, name="nospin-daemon")
    thread.start()
    ready.wait(start_timeout_s)
    if not started:
        if errors:
            raise errors[0]
        stop_it()  # still starting: it stops once it serves
        raise DaemonError(f"the daemon did not start within {start_timeout_s:.0f} s")
    try:
        yield started[0]
    finally:
        stop_it()
        thread.join(stop_timeout_s)
        if thread.is_alive():
            raise DaemonError(f"the daemon did not stop within {stop_timeout_s:.0f} s")
    if errors:
        raise errors[0]
