"""Keeping the engine alive: load it off the event loop, watch it, restart it with backoff.

A dead engine's pending requests get an error reply (``on_died``), never a hang; requests that
arrive while it restarts wait for it until their deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from app.errors import EngineDied, EngineUnavailable, NospinError
from engine.base import Engine

log = logging.getLogger(__name__)


def backoff_delay(attempt: int, *, base_s: float = 0.5, cap_s: float = 30.0) -> float:
    """Delay before restart number ``attempt`` (1-based): base * 2^(attempt-1), capped."""
    return float(min(cap_s, base_s * 2.0 ** max(0, attempt - 1)))


EngineFactory = Callable[[], Engine]


class EngineSupervisor:
    """Owns the engine: loads it off the event loop, watches it, restarts it with backoff.

    ``on_died(exc)`` is called on the loop when a running engine dies, before the restart, so the
    service can answer its pending requests with an error. States: loading, ready, restarting,
    failed (load failed; retried with backoff), stopped.
    """

    def __init__(
        self,
        factory: EngineFactory,
        *,
        on_died: Callable[[NospinError], None],
        on_state: Callable[[str], None] | None = None,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 30.0,
        check_interval_s: float = 0.5,
        healthy_reset_s: float = 60.0,
    ) -> None:
        self._factory = factory
        self._on_died = on_died
        self._on_state = on_state
        self._base = backoff_base_s
        self._cap = backoff_cap_s
        self._interval = check_interval_s
        self._healthy_reset_s = healthy_reset_s
        self.state = "loading"
        self.engine: Engine | None = None
        self.restarts = 0
        self.last_error: NospinError | None = None
        self._ready = asyncio.Event()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="engine-supervisor")

    def report_died(self) -> None:
        """A request saw the engine fail (engine_died): check it now instead of at the next poll."""
        self._wake.set()

    async def wait_ready(self, timeout_s: float) -> Engine | None:
        """The engine once ready, or None if it is not ready within ``timeout_s``."""
        if self.engine is not None and self.state == "ready":
            return self.engine
        with contextlib.suppress(TimeoutError):  # asyncio.timeout: see Service._ticker
            async with asyncio.timeout(timeout_s):
                await self._ready.wait()
        return self.engine if self.state == "ready" else None

    def info(self) -> dict[str, Any]:
        engine = self.engine
        data: dict[str, Any] = {
            "state": self.state,
            "restarts": self.restarts,
            "last_error": str(self.last_error) if self.last_error else "",
            "last_error_code": self.last_error.code if self.last_error else "",
        }
        if engine is not None:
            stats = engine.stats()
            caps = engine.capabilities
            data.update(
                name=engine.name,
                model=stats.model,
                speculation_enabled=stats.speculation_enabled,
                speculation_note=stats.speculation_note,
                acceptance_rate=round(stats.acceptance_rate, 3),
                extra={k: round(v, 3) for k, v in stats.extra.items()},
                capabilities={
                    "fim": caps.fim, "speculation": caps.speculation, "batching": caps.batching,
                    "max_batch": caps.max_batch, "n_ctx": caps.n_ctx,
                },
            )
        return data

    def _set_state(self, state: str) -> None:
        self.state = state
        if state == "ready":
            self._ready.set()
        else:
            self._ready.clear()
        if self._on_state is not None:
            self._on_state(state)

    async def _load(self) -> Engine:
        def build() -> Engine:
            engine = self._factory()
            engine.start()
            return engine

        try:
            return await asyncio.to_thread(build)
        except NospinError:
            raise
        except Exception as exc:  # a backend bug must not kill the daemon
            raise EngineUnavailable(f"engine failed to start: {exc!r}") from exc

    async def _run(self) -> None:
        attempt = 0
        while True:
            try:
                engine = await self._load()
            except NospinError as exc:
                attempt += 1
                self.last_error = exc
                log.error("engine failed to load (attempt %d): %s", attempt, exc)
                self._set_state("failed")
                await asyncio.sleep(backoff_delay(attempt, base_s=self._base, cap_s=self._cap))
                continue
            self.engine = engine
            started = time.monotonic()
            self._set_state("ready")
            log.info("engine %s ready (%s)", engine.name, _model_of(engine))
            while engine.is_alive():
                self._wake.clear()
                # asyncio.timeout, not wait_for: on 3.11 wait_for swallows a cancel that comes
                # with the wake-up, and close() would wait for this task forever
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self._interval):
                        await self._wake.wait()
            # the engine died
            self.engine = None
            self.restarts += 1
            died = EngineDied("the engine died and is being restarted")
            self.last_error = died
            log.error("engine %s died; restart %d", engine.name, self.restarts)
            self._set_state("restarting")
            self._on_died(died)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(engine.close)
            if time.monotonic() - started > self._healthy_reset_s:
                attempt = 0
            attempt += 1
            await asyncio.sleep(backoff_delay(attempt, base_s=self._base, cap_s=self._cap))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        engine, self.engine = self.engine, None
        self.state = "stopped"
        if engine is not None:
            await asyncio.to_thread(engine.close)


def _model_of(engine: Engine) -> str:
    """The model an engine loaded, for the log ("?" when its stats cannot say)."""
    try:
        return engine.stats().model or "?"
    except Exception:  # a log line must not fail the load
        return "?"
