"""Keeping the engine alive: load it off the event loop, watch it, restart it with backoff,
and swap it for one built from new settings (``reload``).

A dead engine's pending requests get an error reply (``on_died``), never a hang; requests that
arrive while it restarts or reloads wait for it until their deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.errors import EngineDied, EngineUnavailable, NospinError
from engine.base import Engine

log = logging.getLogger(__name__)


def backoff_delay(attempt: int, *, base_s: float = 0.5, cap_s: float = 30.0) -> float:
    """Delay before restart number ``attempt`` (1-based): base * 2^(attempt-1), capped."""
    return float(min(cap_s, base_s * 2.0 ** max(0, attempt - 1)))


EngineFactory = Callable[[], Engine]

DRAIN_POLL_S = 0.02


@dataclass
class _Reload:
    """A pending ``reload``: the new factory, and how to tell the old engine is still busy."""

    factory: EngineFactory
    busy: Callable[[Engine], bool]
    drain_s: float
    done: asyncio.Future[NospinError | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class EngineSupervisor:
    """Owns the engine: loads it off the event loop, watches it, restarts it with backoff.

    ``on_died(exc)`` is called on the loop when a running engine dies, before the restart, so the
    service can answer its pending requests with an error. States: loading (also while a
    reload swaps engines), ready, restarting, failed (load failed; retried with backoff), stopped.
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
        self._reload: _Reload | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="engine-supervisor")

    def report_died(self) -> None:
        """A request saw the engine fail (engine_died): check it now instead of at the next poll."""
        self._wake.set()

    async def reload(self, factory: EngineFactory, *, busy: Callable[[Engine], bool],
                     drain_s: float = 5.0) -> NospinError | None:
        """Swap the engine for ``factory``'s; None once the new one is ready, else why it could
        not start, once the previous factory's engine is loaded again (ready, or failed).

        New requests wait from now on (state loading); requests the old engine runs are let
        finish while ``busy(old)`` says so, for ``drain_s`` at most, then ``on_died`` answers the
        rest; then the old engine is closed (its memory freed) before the new one loads. One
        at a time: the caller orders them (``Service._config_set_reloading``)."""
        if self._task is None or self._task.done():
            raise EngineUnavailable("the engine supervisor is not running")
        if self._reload is not None:
            raise EngineUnavailable("an engine reload is already under way")
        request = _Reload(factory, busy, drain_s)
        self._reload = request
        self._wake.set()
        return await asyncio.shield(request.done)

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

    async def _load(self, factory: EngineFactory | None = None) -> Engine:
        make = factory or self._factory

        def build() -> Engine:
            engine = make()
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
        engine: Engine | None = None  # loaded by a reload
        while True:
            if engine is None and self._reload is not None:  # none to drain: load the new one
                engine = await self._swap(None, self._reload)
            if engine is None:
                try:
                    engine = await self._load()
                except NospinError as exc:
                    attempt += 1
                    self.last_error = exc
                    log.error("engine failed to load (attempt %d): %s", attempt, exc)
                    self._set_state("failed")
                    await self._pause(backoff_delay(attempt, base_s=self._base, cap_s=self._cap))
                    continue
            self.engine = engine
            started = time.monotonic()
            self._set_state("ready")
            log.info("engine %s ready (%s)", engine.name, _model_of(engine))
            while engine.is_alive() and self._reload is None:
                self._wake.clear()
                # asyncio.timeout, not wait_for: on 3.11 wait_for swallows a cancel that comes
                # with the wake-up, and close() would wait for this task forever
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self._interval):
                        await self._wake.wait()
            request = self._reload
            if request is not None and engine.is_alive():
                engine = await self._swap(engine, request)
                attempt = 0
                continue
            # the engine died
            dead: Engine = engine
            engine = None
            self.engine = None
            self.restarts += 1
            died = EngineDied("the engine died and is being restarted")
            self.last_error = died
            log.error("engine %s died; restart %d", dead.name, self.restarts)
            self._set_state("restarting")
            self._on_died(died)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(dead.close)
            if time.monotonic() - started > self._healthy_reset_s:
                attempt = 0
            attempt += 1
            await self._pause(backoff_delay(attempt, base_s=self._base, cap_s=self._cap))

    async def _pause(self, delay_s: float) -> None:
        """The backoff before the next load; a reload asked meanwhile ends it."""
        self._wake.clear()
        give_up = time.monotonic() + delay_s
        while self._reload is None and (left := give_up - time.monotonic()) > 0:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await self._wake.wait()
            self._wake.clear()

    async def _swap(self, old: Engine | None, request: _Reload) -> Engine | None:
        """Drain and close ``old`` (if any), load ``request``'s engine and return it; when it
        does not start, the previous factory's (None when that fails too: the caller goes on
        with backoff)."""
        try:
            self.engine = None
            self._set_state("loading")
            if old is not None:
                give_up = time.monotonic() + request.drain_s
                while request.busy(old) and time.monotonic() < give_up and old.is_alive():
                    await asyncio.sleep(DRAIN_POLL_S)
                if request.busy(old):
                    self._on_died(EngineDied("the engine is being reloaded with new settings"))
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(old.close)
            try:
                engine = await self._load(request.factory)
            except NospinError as exc:
                log.error("the engine did not start with the new settings (%s); loading the "
                          "previous ones again", exc)
                self.last_error = exc
                try:  # answered once the previous engine serves again (ready when it returns)
                    return await self._load()
                except NospinError as again:
                    self.last_error = again
                    return None  # the caller retries it with backoff
                finally:
                    _resolve(request.done, exc)
            self._factory = request.factory
            self.last_error = None
            _resolve(request.done, None)
            return engine
        finally:
            self._reload = None
            _resolve(request.done, EngineUnavailable("the engine reload was interrupted"))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._reload is not None:
            _resolve(self._reload.done, EngineUnavailable("the daemon is shutting down"))
            self._reload = None
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


def _resolve(done: asyncio.Future[NospinError | None], result: NospinError | None) -> None:
    if not done.done():
        done.set_result(result)
