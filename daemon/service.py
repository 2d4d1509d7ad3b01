"""The daemon's glue: requests in, the pipeline, replies out (on the event loop).

A completion goes through: resolve the document text (open buffer, else disk) -> completion cache
(type-through) -> scheduler (tier from predicted latency, supersede, shed) -> assemble the context
(off the loop) -> engine.submit (the engine's own thread; events hop back with
``call_soon_threadsafe``) -> chunks streamed -> post-process -> one final reply, metrics, events.

Invariant: every request gets exactly one final reply. Completions and generations live in
``self._live`` from arrival until that reply; the scheduler emits exactly one ``RequestEnded`` per
request, and ``_finish`` is the only place that sends a final reply for them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import itertools
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import app
from app import config as cfg
from app.errors import (
    ConfigError,
    DaemonError,
    EngineDied,
    InputError,
    NospinError,
)
from daemon import protocol as p
from daemon.completion_cache import CompletionCache, EntryStatus
from daemon.context.types import ContextRequest
from daemon.documents import (
    Document,
    DocumentStore,
    Edit,
    find_root,
    normalise_path,
    offset_of,
    read_disk_text,
)
from daemon.engine_settings import needs_new_engine
from daemon.events import EventHub
from daemon.fast_budget import tier_budget
from daemon.hints import Cursor, PromptHints
from daemon.languages import detect_language, editor_language
from daemon.latency_model import LatencyModel
from daemon.live import Follower, Live
from daemon.metrics import Metrics
from daemon.projects import Projects, assemble
from daemon.records import (
    Recorder,
    cache_record,
    deadline_record,
    final_record,
    warmup_record,
)
from daemon.replies import clean_generated, done, done_reply, finish_reason
from daemon.scheduler import (
    EndReason,
    NewRequest,
    RequestEnded,
    Scheduler,
    StartInstruction,
)
from daemon.server import Peer
from daemon.session import SessionStore
from daemon.snapshots import SnapshotStore
from daemon.speed_store import SAVE_EVERY, SpeedStore, speed_key
from daemon.supervisor import EngineFactory, EngineSupervisor
from daemon.tokens import LineCachedCounter
from engine.avoid import placeholder_starts
from engine.base import (
    Engine,
    EngineEvent,
    EngineTokenCounter,
    Finished,
    FinishReason,
    GenerationRequest,
    GenerationStats,
    Priority,
    TextChunk,
    TokenCounter,
)
from engine.postprocess import CUT_SHORT, decide_multiline, mid_line, postprocess

log = logging.getLogger(__name__)

TICK_S = 0.05  # scheduler step while requests are live (deadlines, expiry)
# the ticker's period while nothing is live (a request or an engine state change wakes it):
# 20 wake-ups a second cost an idle daemon 0.5% of a core
IDLE_TICK_S = 1.0
HEARTBEAT_S = 1.0  # heartbeat to clients of queued/running requests; detects vanished clients
# this long before its deadline, a running request is answered with what it has: the reply is
# on time even when the engine is in the middle of a prefill step (the ticker runs every TICK_S)
BACKSTOP_S = 2 * TICK_S


WARMUP_DEADLINE_MS = 30_000  # a background warm-up older than this is dropped
METRICS_EVENT_S = 5.0  # metrics event at least this often to subscribers (and a liveness probe)
_COMPLETED = {FinishReason.STOP, FinishReason.LENGTH, FinishReason.NEWLINE, FinishReason.REPETITION}
# the engine stopped the completion before it ended: shown up to its last whole line
_CUT_SHORT = frozenset(reason.value for reason in CUT_SHORT)


def _scheduling_deadline(deadline_ms: float) -> float:
    """The deadline the scheduler works to: BACKSTOP_S early, so that its expiries and cuts reach
    the client before the deadline the client asked for."""
    return max(1.0, float(deadline_ms) - BACKSTOP_S * 1000)


class Service:
    """Serves protocol requests; see the module docstring. Create, ``start()``, ``close()``."""

    def __init__(
        self,
        config: cfg.Config,
        *,
        engine_factory: EngineFactory,
        config_path: Path | None = None,
        snapshots: SnapshotStore | None = None,
        metrics: Metrics | None = None,
        log_file: str = "",
        index_projects: bool = True,
        engine_factory_for: Callable[[cfg.Config], EngineFactory] | None = None,
        speed_store: SpeedStore | None = None,
    ) -> None:
        """``engine_factory_for`` builds the engine factory of a changed configuration: with
        it, a ``config.set`` of engine settings loads a new engine before it answers
        (``_config_set_reloading``); without it they take effect at the next start.
        ``speed_store``: where the scheduler's learnt engine speed is kept across restarts
        (``daemon.speed_store``); None: learnt afresh from the priors each time."""
        self.config = config
        self._speed_store = speed_store
        self._speed_saved_at = 0  # the latency model's sample count at the last save
        self._speed_key = speed_key(config)  # the settings the latency model is learning
        self._engine_factory_for = engine_factory_for
        self._engine_config = config.engine  # what the running engine was built from
        self._reloads = asyncio.Lock()  # config.set requests that load a new engine, in order
        self._config_waiting: dict[str, Peer] = {}  # their ids: heartbeats while they load
        self._config_path = config_path
        self._snapshots = snapshots
        self.metrics = metrics or Metrics()
        self._log_file = log_file
        self.last_crash: dict[str, Any] = {}  # the previous daemon's (daemon/crashlog.py)
        self._docs = DocumentStore()
        # set while the engine is loaded and runs no editor's request: a root's first scan
        # waits for it (daemon/projects.py)
        self._scan_gate = threading.Event()
        self._projects = Projects(enabled=index_projects, scan_gate=self._scan_gate)
        self._cache = CompletionCache()
        self._sessions = SessionStore(
            idle_current_file_s=config.context.session_idle_current_file_s,
            reset_s=config.context.session_reset_s,
        )
        self.scheduler = Scheduler(config.tiers, default_deadline_ms=p.DEFAULT_DEADLINE_MS,
                                   budget_tokens=config.context.budget_tokens,
                                   model=self._learnt_speed(config))
        self.scheduler.set_force_fast(config.tiers.force_fast)
        self.supervisor = EngineSupervisor(
            engine_factory, on_died=self._on_engine_died, on_state=self._on_engine_state
        )
        self._live: dict[str, Live] = {}
        self._token_counter: tuple[Engine, LineCachedCounter] | None = None
        self._hints = PromptHints(self.config.engine.kv_state_slots)
        self._warming: dict[str, str] = {}  # document -> key of its pending warm-up
        self._warm_ids = itertools.count()
        self._events = EventHub()
        self._tick_wake = asyncio.Event()  # ends the ticker's idle wait
        self._projects_seen: tuple[bool, dict[str, str]] = (False, {})  # in the last state event
        self._recorder = Recorder(self.metrics, self._events, self._metrics_data)
        self._started = time.monotonic()
        self._tasks: set[asyncio.Task[Any]] = set()
        # edit-history writes (an edit, a closed buffer's edits forgotten) on one thread, in
        # the order the editor sent them: in a pool a close's forget could run before the
        # edits it forgets, which then stayed in the history for good
        self._history_work = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="nospin-history"
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self.endpoints: list[str] = []
        self.count_peers: Any = lambda: 0  # set by the daemon: live client count

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._recorder.attach(self._loop)
        self.supervisor.start()
        self._spawn(self._ticker())

    async def close(self) -> None:
        """Answer everything pending with an error, stop the engine and watchers."""
        for live in list(self._live.values()):
            live.error = DaemonError("the daemon is shutting down")
            self.scheduler.cancel(live.key)
        self._step()
        for live in list(self._live.values()):  # anything the scheduler did not end yet
            if live.replied_early:
                continue
            self._send_final(live, p.error_reply(live.request_id, DaemonError(
                "the daemon is shutting down")))
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.supervisor.close()
        self._save_speed()
        self._recorder.flush(math.inf)
        await asyncio.to_thread(self._history_work.shutdown)
        await asyncio.to_thread(self._projects.close)

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

    def _in_history_order(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        """Run ``fn`` on the edit-history thread, after the history work asked for before."""
        loop = asyncio.get_running_loop()

        async def run() -> None:
            await loop.run_in_executor(self._history_work, functools.partial(fn, *args, **kwargs))

        self._spawn(run())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("task failed", exc_info=task.exception())

    async def _ticker(self) -> None:
        last_beat = last_metrics = time.monotonic()
        while True:
            if self._live or self._config_waiting:
                await asyncio.sleep(TICK_S)
            else:
                self._tick_wake.clear()
                # asyncio.timeout, not wait_for: on 3.11 wait_for swallows a cancel that comes
                # with the wake-up, and close() then waited for the ticker forever
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(IDLE_TICK_S):
                        await self._tick_wake.wait()
            now = time.monotonic()
            if self._live:
                self._step()
                self._backstop(now)
            if self._recorder:
                self._recorder.flush_stale(now)
            self._update_scan_gate()
            self._projects_changed()  # a few attribute reads, and only with subscribers
            if now - last_beat >= HEARTBEAT_S:
                last_beat = now
                self._heartbeat(now)
            if now - last_metrics >= METRICS_EVENT_S:
                last_metrics = now
                self._events.publish("metrics", self._metrics_data())

    # ------------------------------------------------------------------ dispatch
    def dispatch(self, peer: Peer, request: p.Request) -> None:
        """Handle one request (called by the server on the loop; never blocks)."""
        self._tick_wake.set()
        if isinstance(request, p.CompleteRequest | p.GenerateRequest):
            # not quiet from now: a root's first scan that this request starts (ensure) waits
            # until it is answered, not only until the next tick sees it live
            self._scan_gate.clear()
        match request:
            case p.CompleteRequest():
                self._on_complete(peer, request)
            case p.GenerateRequest():
                self._on_generate(peer, request)
            case p.CancelRequest():
                self._on_cancel(peer, request)
            case p.OpenRequest():
                self._on_open(peer, request)
            case p.WarmRequest():
                self._on_warm(peer, request)
            case p.ChangeRequest():
                self._on_change(peer, request)
            case p.CloseRequest():
                path = normalise_path(request.path)
                doc = self._docs.get(path)
                if doc is not None and self._loop is not None:
                    self._in_history_order(
                        self._projects.close_buffer, doc.root, path, doc.text,
                        max_bytes=self.config.context.max_file_bytes)
                self._docs.close(path)
                self._projects.note_buffer(path, None)
                self.scheduler.cancel_document(path)
                self._cache.invalidate(path)
                self._cache.invalidate_others(path)  # closed unsaved: its definitions went
                self._step()
                peer.send(p.OkReply(id=request.id))
            case p.HelloRequest():
                peer.send(p.HelloReply(
                    id=request.id, protocol=p.PROTOCOL_VERSION, version=app.__version__,
                    pid=os.getpid(), engine=self.config.engine.kind,
                    engine_state=self.supervisor.state,
                ))
            case p.StatusRequest():
                peer.send(self.status_reply(request.id))
            case p.ConfigGetRequest():
                peer.send(p.ConfigReply(id=request.id, values=self._config_get(request.key)))
            case p.ConfigSetRequest():
                self._on_config_set(peer, request)
            case p.FastModeRequest():
                snap = self.set_config({"tiers.force_fast": request.on},
                                       reason=f"fast mode {'on' if request.on else 'off'}")
                peer.send(p.OkReply(id=request.id, detail=f"snapshot {snap}" if snap else ""))
            case p.SubscribeRequest():
                self._events.subscribe(peer, request.id, frozenset(request.topics))
                peer.send(p.OkReply(id=request.id, detail="subscribed"))
                self._events.publish("state", self._state_data(), only=(peer, request.id))
            case p.UnsubscribeRequest():
                gone = self._events.unsubscribe(peer, request.target)
                peer.send(p.OkReply(id=request.id,
                                    detail="unsubscribed" if gone else "not subscribed"))

    def peer_gone(self, peer: Peer) -> None:
        """A client disconnected: cancel its work and drop its subscriptions."""
        self._events.drop_peer(peer)
        for live in list(self._live.values()):
            live.followers = [f for f in live.followers if f.peer is not peer]
            if live.peer is peer:
                log.info("cancelling %s: client gone", live.key)
                self.scheduler.cancel(live.key)
        self._step()

    # ------------------------------------------------------------------ documents
    def _on_open(self, peer: Peer, req: p.OpenRequest) -> None:
        path = normalise_path(req.path, root=req.root)
        root = normalise_path(req.root) if req.root else find_root(path)
        old = self._docs.open(Document(path, req.text, req.language, req.version, root))
        self._projects.ensure(root, self.config)
        edited = old is not None and old.text != req.text
        self._projects.note_buffer(path, None if self._too_large(req.text) else req.text,
                                   edited=edited)
        if self._too_large(req.text):  # kept for its changes; no completions there
            peer.send(p.OkReply(id=req.id, detail=self._too_large_note(req.text)))
            return
        if edited:  # other documents' prompts took its definitions and edits
            self._cache.invalidate_others(path)
        if old is not None:
            self._record_edit(path, root, old.text, req.text)
        self._precount(req.text)
        peer.send(p.OkReply(id=req.id))
        if old is None and self.supervisor.state not in ("failed", "stopped"):
            # a newly opened file: warm its prompt prefix (the file block) in the background
            last = req.text.count("\n")
            language = editor_language(path, req.language)
            self._warm_document(path, req.text, last, 0, language, root, time.monotonic(),
                                multiline=False)
            self._step()

    def _document_at(self, raw_path: str, raw_root: str | None, text: str | None
                     ) -> tuple[str, str, str, str]:
        """(path, project root, text, language) of a request's document: its own text, else
        the open buffer, else the file on disk (InputError when unreadable)."""
        path = normalise_path(raw_path, root=raw_root)
        doc = self._docs.get(path)
        root = normalise_path(raw_root) if raw_root else (doc.root if doc else find_root(path))
        if text is None:
            text = doc.text if doc is not None else read_disk_text(
                path, max_bytes=self.config.context.max_file_bytes)
        if self._too_large(text):
            raise InputError(self._too_large_note(text))
        language = editor_language(path, doc.language if doc else None)
        return path, root, text, language

    def _too_large(self, text: str) -> bool:
        """A buffer over ``context.max_file_bytes`` (in characters; disk files are refused at
        that many bytes): no completions, warm-ups or edit history there (assembling 5 MB
        took tens of seconds and held the event loop)."""
        return len(text) > self.config.context.max_file_bytes

    def _too_large_note(self, text: str) -> str:
        return (f"the document is too large for completions ({len(text):,} characters > "
                f"context.max_file_bytes {self.config.context.max_file_bytes:,})")

    def _on_warm(self, peer: Peer, req: p.WarmRequest) -> None:
        """The cursor arrived somewhere (an editor's cursor move, insert mode): prefill the
        prompt there in the background, so the first keystroke's completion finds it cached."""
        path, root, text, language = self._document_at(req.path, req.root, req.text)
        offset_of(text, req.line, req.col)  # a clear error for a cursor outside the text
        if self.config.completion.paused:
            peer.send(p.OkReply(id=req.id, detail="completions are paused"))
            return
        self._projects.ensure(root, self.config)
        queued = self._warm_document(path, text, req.line, req.col, language, root,
                                     time.monotonic(), multiline=False, replace=True)
        peer.send(p.OkReply(id=req.id, detail="warming" if queued else "warm"))
        self._step()

    def _precount(self, text: str) -> None:
        """Count a newly opened document's lines in the background, so that its first
        completion assembles from cached counts (cold counting costs tens of ms)."""
        engine = self.supervisor.engine if self.supervisor.state == "ready" else None
        counter = self._counter_for(engine) if engine is not None else None
        if counter is not None and self._loop is not None:
            self._spawn(asyncio.to_thread(counter.count, text))

    def _on_change(self, peer: Peer, req: p.ChangeRequest) -> None:
        path = normalise_path(req.path)
        edits = None
        if req.edits is not None:
            edits = [Edit(e.range.start.line, e.range.start.col, e.range.end.line,
                          e.range.end.col, e.text) for e in req.edits]
        old, new = self._docs.change(path, text=req.text, edits=edits, version=req.version)
        edited = new.text != old.text
        self._projects.note_buffer(path, None if self._too_large(new.text) else new.text,
                                   edited=edited)
        if edited:  # other documents' prompts took its definitions and edits
            self._cache.invalidate_others(path)
        if not self._too_large(old.text) and not self._too_large(new.text):
            self._record_edit(path, new.root, old.text, new.text)
        peer.send(p.OkReply(id=req.id))

    def _record_edit(self, path: str, root: str, old: str, new: str) -> None:
        if old != new and self._loop is not None:
            self._in_history_order(self._projects.record_edit, root, path, old, new)

    # ------------------------------------------------------------------ complete
    def _on_complete(self, peer: Peer, req: p.CompleteRequest) -> None:
        now = time.monotonic()
        key = f"{peer.key}/{req.id}"
        if key in self._live:
            raise InputError(f"request id {req.id!r} is already in flight")
        path, root, text, language = self._document_at(req.path, req.root, req.text)
        offset = offset_of(text, req.line, req.col)
        if self.config.completion.paused:
            peer.send(done(req.id, "", "paused", 0, "completions are paused", "miss", now))
            return
        self._projects.ensure(root, self.config)
        prefix, suffix = text[:offset], text[offset:]
        opts = req.options
        max_tokens = opts.max_tokens or self.config.completion.max_tokens
        # what else shapes the answer: the line mode (auto decided as it will be, from the
        # cursor's line and the one above) and the token cap
        multiline = (decide_multiline(prefix, suffix, language) if opts.multiline == "auto"
                     else bool(opts.multiline))
        ask = f"{multiline}/{max_tokens}"
        hit = self._cache.lookup(path, prefix, suffix, ask)
        if hit is not None and self._answer_from_cache(peer, req.id, path, hit, now):
            return
        live = Live(
            key=key, peer=peer, request_id=req.id, kind="complete", path=path, arrival=now,
            text=text, line=req.line, col=req.col, language=language, root=root,
            multiline=multiline,  # decided once, above: the cache key and the request
            max_tokens=max_tokens,
            deadline_ms=opts.deadline_ms, cache_key=(path, prefix, suffix, ask), last_sent=now,
        )
        cursor = Cursor(path, text, req.line, req.col, language, offset)
        request, live.warm_suffix = self._hints.completion(
            key, cursor, self._budgets(), self.config.context, max_new_tokens=live.max_tokens,
            deadline_ms=_scheduling_deadline(opts.deadline_ms))
        self.scheduler.add_request(request, now)
        self._live[key] = live
        self._step()

    def _budgets(self) -> tuple[int, int]:
        """The context budgets of the normal tier and (fitted to the engine) the fast tier."""
        return self._budget(1.0), self._budget(self.scheduler.fast_budget_factor)

    def _budget(self, factor: float) -> int:
        """The context budget of a tier whose budget factor is ``factor``."""
        return tier_budget(self.config.context.budget_tokens, factor)

    def _answer_from_cache(self, peer: Peer, request_id: str, path: str, hit: Any,
                           now: float) -> bool:
        """Answer a type-through hit at once (or when its streaming source ends)."""
        if hit.status is EntryStatus.STREAMING:
            source = next((lv for lv in self._live.values()
                           if lv.key == hit.source_request_id), None)
            if source is None or source.replied_early:
                # answered at its deadline: it ends when the engine stops it, with a cut text;
                # this request is scheduled on its own instead (and gets its own deadline)
                return False
            source.followers.append(Follower(peer, request_id, now, hit.offset - len(hit.text)))
            return True
        kind = "type_through" if hit.num_typed else "hit"
        self._answer_cached(peer, request_id, path, hit.text, kind, now)
        return True

    def _answer_cached(self, peer: Peer, request_id: str, path: str, text: str, kind: str,
                       arrival: float) -> None:
        """Send a completion answered from the completion cache and record it."""
        reply = done(request_id, text, "stop", 0, "cache", kind, arrival)
        peer.send(reply)
        self._recorder.record(cache_record(request_id, path, reply.timings.total_ms))

    # ------------------------------------------------------------------ generate
    def _on_generate(self, peer: Peer, req: p.GenerateRequest) -> None:
        now = time.monotonic()
        key = f"{peer.key}/{req.id}"
        if key in self._live:
            raise InputError(f"request id {req.id!r} is already in flight")
        code = req.code
        language = "text"
        if code is None and req.path:
            path = normalise_path(req.path)
            doc = self._docs.get(path)
            code = doc.text if doc else read_disk_text(
                path, max_bytes=self.config.context.max_file_bytes)
            language = detect_language(path)
        if code is not None and self._too_large(code):
            raise InputError(self._too_large_note(code))
        parts = self._sessions.prompt(req.session, req.instruction, code or "", time.time())
        prompt = parts.render(language if language != "text" else "")
        live = Live(
            key=key, peer=peer, request_id=req.id, kind="generate", path=f"session:{req.session}",
            arrival=now, text=prompt, language=language, multiline=True,
            max_tokens=req.options.max_tokens, deadline_ms=req.options.deadline_ms,
            instruction=req.instruction, last_sent=now,
        )
        self.scheduler.add_request(NewRequest(
            request_id=key, document=live.path, priority=Priority.INTERACTIVE,
            num_prompt_tokens=max(1, len(prompt) // 3), max_new_tokens=live.max_tokens,
            deadline_ms=_scheduling_deadline(req.options.deadline_ms)), now)
        self._live[key] = live
        self._step()

    def _on_cancel(self, peer: Peer, req: p.CancelRequest) -> None:
        key = f"{peer.key}/{req.target}"
        live = self._live.get(key)
        if live is None or live.replied_early:
            peer.send(p.OkReply(id=req.id, detail="not running"))
            return
        self.scheduler.cancel(key)
        self._step()
        peer.send(p.OkReply(id=req.id, detail="cancelled"))

    # ------------------------------------------------------------------ scheduling
    def _step(self) -> None:
        """Apply one scheduler step: start, cancel, end."""
        out = self.scheduler.schedule(time.monotonic())
        # cancels first: a request cancelled while running also ends in this step, and its
        # final reply drops it from _live (the engine must still hear of the cancel, else it
        # runs the request to its end and keeps the slot the scheduler gave it)
        for c in out.cancel:
            live = self._live.get(c.request_id)
            if live is None:
                continue
            if live.submitted_to is not None:
                live.submitted_to.cancel(c.request_id)
            else:
                live.cancel_requested = True
        for ended in out.ended:
            self._ended(ended, None)
        for s in out.start:
            live = self._live.get(s.request_id)
            if live is None:  # ended meanwhile: give the slot back
                self.scheduler.update_from_result(s.request_id, GenerationStats(),
                                                  time.monotonic(), reason=FinishReason.CANCELLED)
                continue
            live.start = s
            live.started_at = time.monotonic()
            live.state = "running"
            self._spawn(self._run(live, s))

    async def _run(self, live: Live, s: StartInstruction) -> None:
        """Assemble the context (off the loop) and submit to the engine."""
        try:
            engine = live.given = await self._engine_for(live)
            if live.kind in ("complete", "warmup"):
                budget = self._budget(s.budget_factor)
                t0 = time.monotonic()
                live.context = await asyncio.to_thread(
                    self._projects.assemble_for, assemble, ContextRequest(
                        path=self._projects.rel_path(live.root, live.path), text=live.text,
                        line=live.line, column=live.col, language=live.language,
                        budget_tokens=budget),
                    live.root, self.config.context, self._counter_for(engine))
                live.context_ms = (time.monotonic() - t0) * 1000
                parts = live.context.to_prompt_parts()
                live.prompt_prefix, live.prompt_suffix = parts.prefix, parts.suffix
                if live.multiline is None:
                    live.multiline = decide_multiline(parts.prefix, parts.suffix, live.language)
                gen = GenerationRequest(
                    request_id=live.key, prompt=parts, max_new_tokens=max(1, s.max_new_tokens),
                    single_line=not live.multiline, deadline=s.deadline,
                    # mid-line, a line break ends it (postprocess shows nothing after one)
                    stop=("\n",) if not live.multiline and mid_line(parts.suffix) else (),
                    priority=Priority.BACKGROUND if live.kind == "warmup"
                    else Priority.INTERACTIVE,
                    speculation=s.speculation and self.config.engine.speculation,
                    prefill_only=live.kind == "warmup", cache_key=live.path,
                    avoid_starts=placeholder_starts(parts.prefix, live.language)
                    if live.multiline else ())
            else:
                # tiers cap completions; a conversation round gets its tokens until its deadline
                gen = GenerationRequest(
                    request_id=live.key, prompt_text=live.text, max_new_tokens=live.max_tokens,
                    stop=("```",), deadline=s.deadline, speculation=s.speculation)
        except NospinError as exc:
            live.error = exc
            self._engine_result(live.key, Finished(live.key, FinishReason.ERROR, "",
                                                   GenerationStats(), str(exc), exc.code))
            return
        if live.cancel_requested or live.state == "done":
            self._engine_result(live.key, Finished(live.key, FinishReason.CANCELLED, "",
                                                   GenerationStats()))
            return
        if live.cache_key is not None:
            self._cache.start(live.key, *live.cache_key)
        loop = asyncio.get_running_loop()

        def sink(event: EngineEvent) -> None:  # on the engine thread
            loop.call_soon_threadsafe(self._engine_event, live.key, event)

        live.submitted_to = engine
        live.submitted_at = time.monotonic()
        try:
            engine.submit(gen, sink)
        except Exception as exc:
            err = exc if isinstance(exc, NospinError) else EngineDied(f"submit failed: {exc!r}")
            live.error = err
            live.submitted_to = None
            self._engine_result(live.key, Finished(live.key, FinishReason.ERROR, "",
                                                   GenerationStats(), str(err), err.code))

    def _counter_for(self, engine: Engine) -> TokenCounter | None:
        """The engine's exact tokenizer behind a per-line count cache (None: estimate)."""
        try:
            exact = engine.capabilities.exact_tokenizer
        except Exception:  # capabilities not known yet: count by estimate this time
            return None
        if not exact:
            return None
        cached = self._token_counter
        if cached is None or cached[0] is not engine:
            cached = (engine, LineCachedCounter(EngineTokenCounter(engine)))
            self._token_counter = cached
        return cached[1]

    async def _engine_for(self, live: Live) -> Engine:
        remaining = live.deadline_ms / 1000 - (time.monotonic() - live.arrival)
        state = self.supervisor.state
        if state == "failed" and self.supervisor.last_error is not None:
            raise self.supervisor.last_error
        engine = await self.supervisor.wait_ready(max(0.0, remaining))
        if engine is None:
            last = self.supervisor.last_error
            if last is not None and self.supervisor.state == "failed":
                raise last
            raise EngineDied(f"the engine is {self.supervisor.state}; try again shortly")
        return engine

    def _engine_event(self, key: str, event: EngineEvent) -> None:
        """An engine event, back on the loop."""
        if isinstance(event, TextChunk):
            live = self._live.get(key)
            if live is None or not event.text:
                return
            now = time.monotonic()
            self.scheduler.record_progress(key, now)
            self._cache.append(key, event.text)
            live.streamed.append(event.text)
            if live.replied_early:
                return
            if live.first_chunk_at is None:
                live.first_chunk_at = now
            live.last_sent = now
            if live.peer is None or not live.peer.send(p.ChunkReply(
                    id=live.request_id, index=live.num_chunks,
                                               text=event.text)):
                return  # peer_gone already cancelled it
            live.num_chunks += 1
        else:
            self._engine_result(key, event)

    def _engine_result(self, key: str, fin: Finished) -> None:
        if fin.reason is FinishReason.ERROR and fin.error_code == "engine_died":
            self.supervisor.report_died()
        self._recorder.engine_finished(key, fin.stats)  # a record waiting for the figures
        live = self._live.get(key)
        if live is not None and live.kind == "complete" and fin.stats.num_prompt_tokens \
                and live.context is not None:
            self._hints.learn(live.path, live.context.budget_tokens, live.warm_suffix,
                              fin.stats.num_prompt_tokens, fin.stats.num_cached_tokens)
        fast_before = self.scheduler.fast_budget.tokens
        ended = self.scheduler.update_from_result(
            key, fin.stats, time.monotonic(), reason=fin.reason,
            extra_ms=live.context_ms if live is not None else 0.0)
        if self.scheduler.fast_budget.tokens != fast_before:
            log.info("fast tier budget %d -> %s", fast_before, self.scheduler.fast_budget.note)
        for e in ended:
            self._ended(e, fin)
        if self.scheduler.model.num_samples - self._speed_saved_at >= SAVE_EVERY:
            self._save_speed(in_background=True)
        self._step()

    def _on_engine_died(self, exc: NospinError) -> None:
        """The supervisor saw the engine die: fail every request it was running."""
        self._recorder.flush(math.inf)  # no Finished will come for them
        for live in list(self._live.values()):
            if live.submitted_to is not None:
                live.error = exc
                self._engine_result(live.key, Finished(live.key, FinishReason.ERROR, "",
                                                       GenerationStats(), str(exc), exc.code))

    def _projects_changed(self) -> None:
        """A state event when indexing starts or ends, or a root's watch problem changes (the
        tray showed "indexing" until the engine's next state change)."""
        if not self._events:
            return
        seen = (self._projects.busy(), self._projects.problems())
        if seen != self._projects_seen:
            self._projects_seen = seen
            self._events.publish("state", self._state_data())

    def _update_scan_gate(self) -> None:
        quiet = self.supervisor.state == "ready" and all(
            live.kind == "warmup" for live in self._live.values())
        if quiet != self._scan_gate.is_set():
            (self._scan_gate.set if quiet else self._scan_gate.clear)()

    def _on_engine_state(self, state: str) -> None:
        engine = self.supervisor.engine if state == "ready" else None
        if engine is not None:  # what the loaded engine declares, not what its kind suggests
            caps = engine.capabilities
            self.scheduler.warmup_takeover = caps.resumable_prefill
            # a newly loaded engine (the first, a restart after a crash, a reload) holds no
            # document's prompt: the hints must not count on the previous one's KV states
            self._hints.warm.forget_held()
            # requests it runs at once: a batching engine (exllamav2 paged, a remote server)
            # gets up to max_batch, others one at a time
            self.scheduler.set_capacity(max(1, caps.max_batch) if caps.batching else 1)
        self._tick_wake.set()  # the scan gate follows the engine's state
        self._events.publish("state", self._state_data())

    # ------------------------------------------------------------------ final replies
    def _ended(self, ended: RequestEnded, fin: Finished | None) -> None:
        live = self._live.get(ended.request_id)
        if live is None:
            return
        now = time.monotonic()
        stats = fin.stats if fin is not None else GenerationStats()
        text = ""
        if fin is not None and fin.reason is not FinishReason.ERROR:
            text = fin.text
            if live.kind == "complete":
                text = postprocess(text, live.prompt_prefix, live.prompt_suffix, live.language,
                                   bool(live.multiline),
                                   cut_short=finish_reason(ended, fin) in _CUT_SHORT)
            elif live.kind == "generate":
                text = clean_generated(text)
        if live.kind == "warmup":
            self._live.pop(live.key, None)
            if self._warming.get(live.path) == live.key:  # not a newer warm-up that replaced it
                del self._warming[live.path]
            if fin is not None and fin.reason is FinishReason.PREFILLED \
                    and live.context is not None:
                self._hints.warm.mark(live.path, live.context.budget_tokens,
                                      fin.stats.num_prompt_tokens)
            self._recorder.record_when_stopped(
                live, fin, warmup_record(live, ended, fin, stats, now))
            return
        if live.replied_early:  # the client has its answer; the engine is done only now
            self._live.pop(live.key, None)
            if live.cache_key is not None:
                self._cache.discard(live.key)
            return
        if live.cache_key is not None and live.submitted_to is not None:
            if fin is not None and fin.reason is not FinishReason.ERROR and text:
                self._cache.finish(live.key, complete=fin.reason in _COMPLETED, text=text)
            else:
                self._cache.discard(live.key)
        reply: p.DoneReply | p.ErrorReply
        error_code = ended.error_code
        if live.error is not None and ended.reason in (EndReason.ERROR, EndReason.CANCELLED):
            error_code = live.error.code
        if error_code:
            if live.error is not None and error_code == live.error.code:
                reply = p.error_reply(live.request_id, live.error)
            else:
                message = ended.detail or (fin.error if fin is not None else "") or error_code
                retry = 500 if error_code in ("overloaded", "engine_died") else None
                reply = p.ErrorReply(id=live.request_id, code=error_code, message=message,
                                     retry_after_ms=retry)
        else:
            reply = done_reply(live, ended.tier, finish_reason(ended, fin), stats, text, now,
                               self.config.tiers)
            if live.kind == "generate":
                self._sessions.record(live.path[len("session:"):], live.instruction, text,
                                      time.time())
        self._send_final(live, reply)
        self._answer_followers(live, "" if error_code else None)
        if ended.reason in (EndReason.SHED, EndReason.EXPIRED) and live.kind == "complete":
            self._warm_up(live, now)
        self._recorder.record_when_stopped(
            live, fin, final_record(live, ended, fin, stats, now, error_code))

    def _warm_up(self, shed: Live, now: float) -> None:
        """A completion for a cold document was shed: prefill its prompt in the background
        (design.md §7), so the next keystrokes there find the KV cache warm and get served."""
        self._warm_document(shed.path, shed.text, shed.line, shed.col, shed.language, shed.root,
                            now, multiline=shed.multiline)

    def _warm_document(self, path: str, text: str, line: int, col: int, language: str,
                       root: str, now: float, *, multiline: bool | None = None,
                       replace: bool = False) -> bool:
        """Prefill the prompt at (line, col) of a document in the background (prefill only,
        cache key = the path), unless the engine holds the document or a warm-up is pending;
        ``replace`` (an editor's ``warm``: the cursor moved) warms anyway and cancels a pending
        warm-up of the document. With the stable layout the prompt starts with the file block,
        the same for every cursor position in the file: a later completion there reuses it.
        Returns whether a warm-up was queued."""
        pending = self._warming.get(path)
        if not replace and (path in self._hints.warm or pending is not None):
            return False
        if pending is not None:
            self.scheduler.cancel(pending)
        key = f"warmup/{next(self._warm_ids)}"
        warm = Live(key=key, peer=None, request_id=key, kind="warmup", path=path,
                     arrival=now, text=text, line=line, col=col, language=language, root=root,
                     multiline=multiline, max_tokens=1, deadline_ms=WARMUP_DEADLINE_MS,
                     last_sent=now)
        self.scheduler.add_request(self._hints.warmup(
            key, Cursor(path, text, line, col, language), self._budgets(), self.config.context,
            followup_new_tokens=self.config.completion.max_tokens), now)
        self._live[key] = warm
        self._warming[path] = key
        return True

    def _answer_followers(self, live: Live, text: str | None) -> None:
        """Answer type-through followers of ``live`` (``text`` None: read from the cache)."""
        for f in live.followers:
            rest = self._cache.read(live.key, f.offset) if text is None else text
            self._answer_cached(f.peer, f.request_id, live.path, rest,
                                "type_through" if f.offset else "hit", f.arrival)
        live.followers = []

    def _backstop(self, now: float) -> None:
        """Answer running requests BACKSTOP_S before their deadline with what they have.

        The engine stops at the deadline between tokens and prefill steps, but a step under load
        can take longer than the time left; the client must not wait past its deadline. The
        scheduler keeps the request running until the engine's Finished arrives (its slot is busy
        until then)."""
        for live in list(self._live.values()):
            if live.replied_early or live.submitted_to is None or live.start is None \
                    or live.peer is None:
                continue
            if now - live.arrival < live.deadline_ms / 1000 - BACKSTOP_S:
                continue
            text = "".join(live.streamed)
            if live.kind == "complete":
                text = postprocess(text, live.prompt_prefix, live.prompt_suffix, live.language,
                                   bool(live.multiline), cut_short=True)
            reply = done_reply(live, live.start.tier, FinishReason.DEADLINE.value,
                               GenerationStats(num_generated_tokens=len(live.streamed)),
                               text, now, self.config.tiers)
            live.replied_early = True
            live.peer.send(reply)  # (warm-ups were skipped above)
            self._answer_followers(live, None)
            # recorded when the engine stops it, with what it prefilled and decoded
            self._recorder.hold(live.key, deadline_record(live, now), now)

    def _send_final(self, live: Live, reply: p.DoneReply | p.ErrorReply) -> None:
        live.state = "done"
        self._live.pop(live.key, None)
        if live.peer is not None:
            live.peer.send(reply)

    def _heartbeat(self, now: float) -> None:
        for live in list(self._live.values()):
            if live.peer is not None and not live.replied_early \
                    and now - live.last_sent >= HEARTBEAT_S:
                live.last_sent = now
                state = "loading" if self.supervisor.state != "ready" else live.state
                live.peer.send(p.HeartbeatReply(id=live.request_id, state=state))
        for request_id, peer in list(self._config_waiting.items()):
            peer.send(p.HeartbeatReply(id=request_id, state="loading"))

    # ------------------------------------------------------------------ events, status, config
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
            engine={"kind": self.config.engine.kind, **self.supervisor.info()},
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


