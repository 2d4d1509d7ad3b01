"""The service's settings and reports: ``config.get``/``config.set`` (a change that needs a new
engine loads it first), the learnt engine speed kept per engine settings, the status reply and
the state and metrics events; and the service's background tasks. ``daemon.service.Service``
builds on it; its attributes are set in ``Service.__init__``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import app
from app import config as cfg
from app.errors import ConfigError, DaemonError, NospinError
from daemon import protocol as p
from daemon.completion_cache import CompletionCache
from daemon.documents import DocumentStore
from daemon.engine_settings import needs_new_engine
from daemon.events import EventHub
from daemon.hints import PromptHints
from daemon.latency_model import LatencyModel
from daemon.live import Live
from daemon.metrics import Metrics
from daemon.projects import Projects
from daemon.scheduler import Scheduler
from daemon.server import Peer
from daemon.session import SessionStore
from daemon.snapshots import SnapshotStore
from daemon.speed_store import SpeedStore, speed_key
from daemon.supervisor import EngineFactory, EngineSupervisor
from daemon.tokens import LineCachedCounter
from engine.base import Engine
from engine.factory import engine_kind

log = logging.getLogger("daemon.service")


class ServiceSettings:
    """Settings, reports and tasks of ``daemon.service.Service`` (see the module docstring)."""

    # set in Service.__init__ (daemon/service.py), which says what each holds
    config: cfg.Config
    metrics: Metrics
    scheduler: Scheduler
    supervisor: EngineSupervisor
    endpoints: list[str]
    count_peers: Any
    last_crash: dict[str, Any]
    _speed_store: SpeedStore | None
    _speed_saved_at: int
    _speed_key: str
    _engine_factory_for: Callable[[cfg.Config], EngineFactory] | None
    _engine_config: cfg.EngineConfig
    _reloads: asyncio.Lock
    _config_waiting: dict[str, Peer]
    _config_path: Path | None
    _snapshots: SnapshotStore | None
    _log_file: str
    _docs: DocumentStore
    _scan_gate: threading.Event
    _projects: Projects
    _cache: CompletionCache
    _sessions: SessionStore
    _live: dict[str, Live]
    _token_counter: tuple[Engine, LineCachedCounter] | None
    _hints: PromptHints
    _events: EventHub
    _started: float
    _tasks: set[asyncio.Task[Any]]
    _history_work: concurrent.futures.ThreadPoolExecutor
    _loop: asyncio.AbstractEventLoop | None

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run ``coro`` as a task of the service (cancelled by ``close``; a failure logged)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("task failed", exc_info=task.exception())

    def _in_history_order(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        """Run ``fn`` on the edit-history thread, after the history work asked for before."""
        loop = asyncio.get_running_loop()

        async def run() -> None:
            await loop.run_in_executor(self._history_work, functools.partial(fn, *args, **kwargs))

        self._spawn(run())

    def _learnt_speed(self, config: cfg.Config) -> LatencyModel | None:
        """The latency model an earlier daemon learnt with ``config``'s engine settings (None:
        the priors); what is learnt from now on is saved under those settings."""
        self._speed_key = speed_key(config)
        if self._speed_store is None:
            return None
        figures = self._speed_store.load(self._speed_key)
        if figures is None:
            return None
        log.info("engine speed learnt before with these settings: %s",
                 ", ".join(f"{k} {v:.3g}" for k, v in sorted(figures.items())
                           if isinstance(v, (int, float))))
        return LatencyModel.restored(figures)

    def _save_speed(self, *, in_background: bool = False) -> None:
        """Save what the latency model learnt since the last save (none: nothing to save);
        ``in_background``: on a worker thread (the write ends with an fsync), not this loop's."""
        store, model = self._speed_store, self.scheduler.model
        if store is None or model.num_samples <= self._speed_saved_at:
            return
        save = functools.partial(store.save, self._speed_key, model.figures(),
                                 samples=model.num_samples)
        self._speed_saved_at = model.num_samples  # a failed save is logged, not retried at once
        if in_background:
            self._spawn(asyncio.to_thread(save))
        else:
            save()

    def _metrics_data(self) -> dict[str, Any]:
        data = dict(self.metrics.snapshot(time.time()) or {})
        data["queue"] = self.scheduler.snapshot()
        data["completion_cache"] = self._cache.stats()
        if self._token_counter is not None:  # the exact tokenizer's per-line counts
            data["token_line_cache"] = self._token_counter[1].stats()
        return data

    def _state_data(self) -> dict[str, Any]:
        return {
            "engine_state": self.supervisor.state,
            "engine_restarts": self.supervisor.restarts,
            "fast_mode": self.config.tiers.force_fast,
            "paused": self.config.completion.paused,
            "speculation": self.config.engine.speculation,
            "indexing": self._projects.busy(),
            "root_problems": self._projects.problems(),
        }

    def status_reply(self, request_id: str) -> p.StatusReply:
        return p.StatusReply(
            id=request_id, version=app.__version__, pid=os.getpid(),
            uptime_s=round(time.monotonic() - self._started, 1), endpoints=self.endpoints,
            log_path=self._log_file,
            engine={"kind": engine_kind(self.config.engine), **self.supervisor.info()},
            metrics=self._metrics_data(), fast_mode=self.config.tiers.force_fast,
            paused=self.config.completion.paused, num_documents=len(self._docs),
            num_clients=int(self.count_peers()), num_queued=self.scheduler.num_waiting,
            roots=self._projects.roots(), indexing=self._projects.busy(),
            root_problems=self._projects.problems(), last_crash=self.last_crash,
        )

    def _config_get(self, key: str | None) -> dict[str, Any]:
        data = cfg.to_dict(self.config)
        if key is None:
            return data
        return {key: cfg.value_at(data, key)}

    def _on_config_set(self, peer: Peer, request: p.ConfigSetRequest) -> None:
        """Apply at once, or, when the change needs a new engine (or one is being loaded),
        in order behind the engine reloads (``_config_set_reloading``)."""
        new = cfg.with_changes(self.config, request.changes)  # invalid: refused now
        if not self._reloads.locked() and not self._wants_new_engine(new):
            snap = self.set_config(request.changes, reason=request.note or _describe(
                request.changes))
            peer.send(p.ConfigReply(id=request.id, values=cfg.to_dict(self.config),
                                    snapshot=snap))
            return
        self._config_waiting[request.id] = peer
        self._spawn(self._config_set_reloading(peer, request))

    def _wants_new_engine(self, new: cfg.Config) -> bool:
        return self._engine_factory_for is not None and needs_new_engine(
            self._engine_config, new.engine)

    async def _config_set_reloading(self, peer: Peer, request: p.ConfigSetRequest) -> None:
        """A config.set whose engine settings need a new engine: load it first (requests wait
        meanwhile, the client gets heartbeats), then save and apply the whole change. When the
        new engine does not start, or the change cannot be saved, the previous engine is
        loaded again and nothing changes: an error reply says why."""
        reason = request.note or _describe(request.changes)
        try:
            async with self._reloads:
                new = cfg.with_changes(self.config, request.changes)
                reloaded = self._wants_new_engine(new)
                if reloaded:
                    await self._reload_engine(new)
                try:
                    snap = self.set_config(request.changes, reason=reason)
                except ConfigError:
                    if reloaded:  # not saved: back to the engine the saved settings describe
                        with contextlib.suppress(NospinError):
                            await self._reload_engine(self.config)
                    raise
            reply: p.Reply = p.ConfigReply(id=request.id, values=cfg.to_dict(self.config),
                                           snapshot=snap)
        except NospinError as exc:
            reply = p.error_reply(request.id, exc)
        except asyncio.CancelledError:  # the daemon is closing: still one final reply
            peer.send(p.error_reply(request.id, DaemonError(
                "the daemon is shutting down; the configuration was not changed")))
            raise
        finally:
            self._config_waiting.pop(request.id, None)
        peer.send(reply)

    async def _reload_engine(self, config: cfg.Config) -> None:
        """Swap the engine for one built from ``config``; raise ConfigError when it would not
        start (the previous one is running again by then)."""
        assert self._engine_factory_for is not None
        started = time.monotonic()
        log.info("loading a new engine for the changed engine settings")
        error = await self.supervisor.reload(
            self._engine_factory_for(config),
            busy=lambda old: any(live.given is old and live.kind != "warmup"
                                 for live in self._live.values()))
        if error is not None:  # the previous settings' engine runs again
            raise ConfigError(f"the engine did not start with these settings, so nothing was "
                              f"changed: {error}", detail=error.detail) from error
        self._save_speed()  # under the settings it learnt them with
        self._engine_config = config.engine
        # other settings: their speed is learnt afresh (or taken from an earlier daemon with
        # them), another model's completions are not this one's (what its KV cache held went
        # when it became ready: _on_engine_state)
        self.scheduler.engine_changed(self._learnt_speed(config))
        self._speed_saved_at = 0
        self._cache.clear()
        log.info("new engine ready in %.1f s", time.monotonic() - started)

    def set_config(self, changes: dict[str, Any], *, reason: str) -> str | None:
        """Validate, save atomically, snapshot with the metrics before, apply. Returns the
        snapshot id (None when no snapshot store).

        Only the changed keys are written, into the file as it is on disk now (comments and
        the user's other edits stay; cfg.update_file); those other edits take effect at the
        next start, as before. A file that does not parse changes nothing (ConfigError)."""
        new = cfg.with_changes(self.config, changes)
        if self._config_path is not None:
            try:
                cfg.update_file(self._config_path, changes)
            except OSError as exc:  # a full disk, an unwritable folder: nothing changes
                raise ConfigError(
                    f"the configuration could not be saved to {self._config_path}; "
                    "nothing was changed", detail=str(exc)) from exc
        snap_id = None
        if self._snapshots is not None:
            now = time.time()
            try:
                snap = self._snapshots.save(new, self.metrics.snapshot(now) or {},
                                            reason=reason, now=now)
            except OSError as exc:  # the change is saved; only its metrics record is lost
                log.warning("configuration snapshot not saved (%s): %s", reason, exc)
            else:
                snap_id = snap.id
                self.metrics.reset()
        self.config = new
        self.scheduler.configure(new.tiers, budget_tokens=new.context.budget_tokens)
        self._hints.warm.slots = max(1, new.engine.kv_state_slots)
        self.scheduler.set_force_fast(new.tiers.force_fast)
        self._sessions.idle_current_file_s = new.context.session_idle_current_file_s
        self._sessions.reset_s = new.context.session_reset_s
        log.info("configuration changed: %s", reason)
        self._events.publish("state", self._state_data())
        return snap_id


def _describe(changes: dict[str, Any]) -> str:
    return "config set " + ", ".join(f"{k}={v!r}" for k, v in sorted(changes.items()))
