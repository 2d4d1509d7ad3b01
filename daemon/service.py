"""The daemon's glue: requests in, the pipeline, replies out (on the event loop).

A ``complete`` is served by one coroutine, ``Service._complete``, that reads top-down through
the stages of ``daemon.stages`` (docs/daemon.md, "The complete path"): prefilter, plan, wait for
the scheduler's start, assemble the context, submit the engine request, stream its chunks, wait
for the scheduler's end, post-process, reply. ``dispatch`` starts it eagerly (``daemon.eager``):
what comes before its first wait runs inside ``dispatch``. The scheduler and the engine move it
on through its ``Live`` record: ``_step`` starts it (``Live.begin``); the engine's events hop
back from the engine's thread with ``call_soon_threadsafe`` to ``_engine_event`` (chunks into
``Live.chunks``, a ``Finished`` to the scheduler); ``_ended`` ends it (``Live.end``). A
``generate`` round (``_generate``) and a warm-up (``_prefill``) go the same way with their own
stages. The final replies, answers from the type-through cache, the backstop and heartbeats
are in ``daemon.service_replies``; documents and warm-ups in ``daemon.service_documents``;
settings, reports and tasks in ``daemon.service_settings``.

Invariants:
- Every request gets exactly one final reply. Completions and generations are in ``self._live``
  from arrival until the scheduler ends them (exactly one ``RequestEnded`` each: ``_ended``);
  their coroutine then sends the final reply (``_reply``), the only place that does. One
  watchdog stays a callback of the ticker: ``_backstop`` answers a running request just before
  its deadline with what it has (the engine may be in a step it cannot leave); the coroutine
  then sends nothing. ``close`` answers what the scheduler does not end.
- A request the scheduler started gets exactly one engine result (``_engine_result``), which
  frees its engine slot: the engine's ``Finished``, an error, or a cancel when it ended before
  it reached the engine (``_until_end``, ``_submit``).
- A cancel (a ``cancel``, a vanished client, a closed document, a newer request superseding it)
  ends the request at the next scheduler step; one the engine runs is cancelled there too
  (``_step``), and keeps its slot until the engine lets it go.
- Type-through followers of a streaming completion are answered with its final reply.
- Warm-ups (``_prefill``) never reply; their end notes the document warm.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import math
import os
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import app
from app import config as cfg
from app.errors import DaemonError, EngineDied, InputError, NospinError
from daemon import protocol as p
from daemon.completion_cache import CompletionCache
from daemon.documents import DocumentStore, normalise_path, read_disk_text
from daemon.eager import start_eagerly
from daemon.events import EventHub
from daemon.hints import Cursor, PromptHints
from daemon.languages import detect_language
from daemon.live import Chunk, Live
from daemon.metrics import Metrics
from daemon.projects import Projects
from daemon.records import Recorder
from daemon.replies import done, finish_reason
from daemon.scheduler import NewRequest, RequestEnded, Scheduler, StartInstruction
from daemon.server import Peer
from daemon.service_replies import HEARTBEAT_S, ServiceReplies
from daemon.session import SessionStore
from daemon.snapshots import SnapshotStore
from daemon.speed_store import SAVE_EVERY, SpeedStore, speed_key
from daemon.stages.assemble import AssembledPrompt, AssembleInput, assemble_prompt
from daemon.stages.generate import GenerateInput, conversation_request, generation_request
from daemon.stages.plan import (
    TICK_S,
    PlanInput,
    plan_completion,
    plan_conversation,
)
from daemon.stages.postprocess import PostprocessInput, postprocess_text
from daemon.stages.prefilter import PrefilterInput, prefilter
from daemon.stages.stream import StreamInput, stream_chunk
from daemon.supervisor import EngineFactory, EngineSupervisor
from daemon.tokens import LineCachedCounter
from engine.base import (
    Engine,
    EngineEvent,
    Finished,
    FinishReason,
    GenerationRequest,
    GenerationStats,
    TextChunk,
)
from engine.factory import engine_kind
from engine.postprocess import CUT_SHORT

log = logging.getLogger(__name__)
T = TypeVar("T")

# the ticker's period while nothing is live (a request or an engine state change wakes it):
# 20 wake-ups a second cost an idle daemon 0.5% of a core
IDLE_TICK_S = 1.0
METRICS_EVENT_S = 5.0  # metrics event at least this often to subscribers (and a liveness probe)
# the engine stopped the completion before it ended: shown up to its last whole line
_CUT_SHORT = frozenset(reason.value for reason in CUT_SHORT)


class Service(ServiceReplies):
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
        # requests the scheduler ended whose coroutine has not taken the end yet (close waits)
        self._ending: set[str] = set()
        self._ends_taken = asyncio.Event()
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
        await self._ends_replied()  # the requests it ended reply from their coroutines
        for live in list(self._live.values()):  # anything the scheduler did not end
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
                self.drop_documents(self._docs.idle(now, self.config.daemon.document_idle_s))
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
                self._start_now(self._complete(peer, request))
            case p.GenerateRequest():
                self._start_now(self._generate(peer, request))
            case p.CancelRequest():
                self._on_cancel(peer, request)
            case p.OpenRequest():
                self._on_open(peer, request)
            case p.WarmRequest():
                self._on_warm(peer, request)
            case p.ChangeRequest():
                self._on_change(peer, request)
            case p.CloseRequest():
                self._on_close(peer, request)
            case p.HelloRequest():
                peer.send(p.HelloReply(
                    id=request.id, protocol=p.PROTOCOL_VERSION, version=app.__version__,
                    pid=os.getpid(), engine=engine_kind(self.config.engine),
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
        self.drop_documents(self._docs.owned_by(peer.key))  # abandoned: released
        for live in list(self._live.values()):
            live.followers = [f for f in live.followers if f.peer is not peer]
            if live.peer is peer:
                log.info("cancelling %s: client gone", live.key)
                self.scheduler.cancel(live.key)
        self._step()

    # ------------------------------------------------------------------ complete
    async def _complete(self, peer: Peer, req: p.CompleteRequest) -> None:
        """The complete path, top-down, one call per stage (docs/daemon.md, "The complete
        path"). ``dispatch`` starts it eagerly: up to its first wait it runs inside
        ``dispatch``, so an ``InputError`` before that is the server's to answer."""
        now = time.monotonic()
        key = f"{peer.key}/{req.id}"
        if key in self._live:
            raise InputError(f"request id {req.id!r} is already in flight")
        path, root, text, language = self._document_at(req.path, req.root, req.text)
        # 1. prefilter: what it asks, and the answer when no engine is needed
        pre = prefilter(PrefilterInput(
            path=path, text=text, line=req.line, col=req.col, language=language,
            options=req.options, paused=self.config.completion.paused,
            default_max_tokens=self.config.completion.max_tokens, cache=self._cache))
        if pre.paused:
            peer.send(done(req.id, "", "paused", 0, "completions are paused", "miss", now))
            return
        self._projects.ensure(root, self.config)
        if pre.hit is not None and self._answer_from_cache(peer, req.id, path, pre.hit, now):
            return  # from the type-through cache: now, or with the completion it follows
        live = Live(
            key=key, peer=peer, request_id=req.id, kind="complete", path=path, arrival=now,
            text=text, line=req.line, col=req.col, language=language, root=root,
            multiline=pre.multiline,  # decided once, by the prefilter: the cache key and request
            max_tokens=pre.max_tokens,
            deadline_ms=req.options.deadline_ms, cache_key=pre.cache_key, last_sent=now,
        )
        # 2. plan: the scheduler's view of it (prompt size, cached tokens per tier, deadline)
        planned = plan_completion(PlanInput(
            key=key, cursor=Cursor(path, text, req.line, req.col, language, pre.offset),
            budgets=self._budgets(), context=self.config.context,
            max_new_tokens=live.max_tokens, deadline_ms=req.options.deadline_ms,
            hints=self._hints))
        live.warm_suffix = planned.warm_suffix
        self._admit(live, planned.request, now)
        # 3. schedule: the scheduler starts it at a tier, or ends it first (shed, expired,
        # superseded, cancelled)
        start = await live.wait_start()
        if start is not None:
            # 4. assemble: the engine it is given, then its context at the tier's budget
            prompt = await self._until_end(live, self._assemble(live, start))
            if prompt is not None:
                # 5. generate: the engine request, submitted
                self._submit(live, self._generation(live, start, prompt))
                # 6. stream: each chunk to the client, until the request ends
                while (chunk := await live.next_chunk()) is not None:
                    self._stream(live, chunk)
        # the scheduler ends it: the engine finished it, its deadline cut it, or it ended early
        ended, fin = await self._end_of(live)
        # 7. post-process: the text the client is shown
        shown = self._shown(live, ended, fin)
        # 8. reply: the one final reply, then the cache, followers, records
        self._reply(live, ended, fin, shown)

    # ------------------------------------------------------------------ generate, warm-ups
    async def _generate(self, peer: Peer, req: p.GenerateRequest) -> None:
        """A ``generate`` round, top-down as ``_complete``: its prompt from the conversation,
        the scheduler's start, the engine, the stream, the end, the answer's code, the reply.
        ``dispatch`` starts it eagerly, as ``_complete``."""
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
        self._admit(live, plan_conversation(
            key, live.path, prompt, max_new_tokens=live.max_tokens,
            deadline_ms=req.options.deadline_ms), now)
        start = await live.wait_start()
        if start is not None and await self._until_end(live, self._engine_for(live)) is not None:
            self._submit(live, conversation_request(live.key, live.text, start,
                                                    max_new_tokens=live.max_tokens))
            while (chunk := await live.next_chunk()) is not None:
                self._stream(live, chunk)
        ended, fin = await self._end_of(live)
        self._reply(live, ended, fin, self._shown(live, ended, fin))

    async def _prefill(self, live: Live) -> None:
        """A warm-up (queued by ``_warm_document``): the scheduler's start, its context, a
        prefill-only engine request (no chunks), its end. No reply: nobody asked for it."""
        start = await live.wait_start()
        if start is not None:
            prompt = await self._until_end(live, self._assemble(live, start))
            if prompt is not None:
                self._submit(live, self._generation(live, start, prompt))
        ended, fin = await self._end_of(live)
        self._warmed(live, ended, fin)

    def _on_cancel(self, peer: Peer, req: p.CancelRequest) -> None:
        key = f"{peer.key}/{req.target}"
        live = self._live.get(key)
        if live is None or live.replied_early:
            peer.send(p.OkReply(id=req.id, detail="not running"))
            return
        self.scheduler.cancel(key)
        self._step()
        peer.send(p.OkReply(id=req.id, detail="cancelled"))

    # ------------------------------------------------------------------ the stages' calls
    def _start_now(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a request's coroutine now up to its first wait (``daemon.eager``), the rest in
        a task."""
        rest = start_eagerly(coro)
        if rest is not None:
            self._spawn(rest)

    def _admit(self, live: Live, request: NewRequest, now: float) -> None:
        """Queue ``live`` in the scheduler and run a step (it may start, or end, at once)."""
        self.scheduler.add_request(request, now)
        self._live[live.key] = live
        self._step()

    async def _until_end(self, live: Live, work: Coroutine[Any, Any, T]) -> T | None:
        """``work`` for a started request (waiting for the engine, assembling its context): its
        result. None when it failed (its error is the request's engine result: ``_failed``) or
        the scheduler ended the request first: ``work`` then runs on, and gives the engine slot
        back when it is done (``_given_back``)."""
        if live.ended is not None:  # ended before it got this far: nothing to do
            work.close()
            self._given_back(live, None)
            return None

        async def attempt() -> T | NospinError:
            try:
                return await work
            except NospinError as exc:
                return exc

        # woken by whichever comes first, in one hop of the loop like the other waits: the
        # coroutines of requests that end together reply in the order they ended
        woken = asyncio.get_running_loop().create_future()

        def wake(*_: object) -> None:
            if not woken.done():
                woken.set_result(None)

        task = self._spawn(attempt())
        task.add_done_callback(wake)
        live.at_end.append(wake)
        try:
            await woken
        finally:
            live.at_end.remove(wake)
        if not task.done():
            task.add_done_callback(lambda done: self._given_back(live, done))
            return None
        exc = task.exception()  # a bug (logged by _task_done): the request fails, not hangs
        outcome: T | NospinError = (task.result() if exc is None
                                    else NospinError("internal error", detail=repr(exc)))
        if isinstance(outcome, NospinError):
            self._failed(live, outcome)
            return None
        return outcome

    def _given_back(self, live: Live, work: asyncio.Task[Any] | None) -> None:
        """The work for a request that the scheduler ended before it reached the engine is over:
        its engine slot goes back (with the work's error when it failed)."""
        if work is not None and work.cancelled():
            return  # the daemon is closing
        outcome = None if work is None or work.exception() is not None else work.result()
        if isinstance(outcome, NospinError):
            self._failed(live, outcome)
        else:
            self._engine_result(live.key, Finished(live.key, FinishReason.CANCELLED, "",
                                                   GenerationStats()))

    def _failed(self, live: Live, exc: NospinError) -> None:
        """``live`` failed before or as it reached the engine: the error is its engine result
        (and its reply's error)."""
        live.error = exc
        self._engine_result(live.key, Finished(live.key, FinishReason.ERROR, "",
                                               GenerationStats(), str(exc), exc.code))

    async def _assemble(self, live: Live, start: StartInstruction) -> AssembledPrompt:
        """Stage 4 of a completion or warm-up: wait for the engine (its tokenizer counts the
        context), then ``assemble_prompt`` at the tier's budget (off the loop); noted on
        ``live``."""
        engine = await self._engine_for(live)
        prompt = await assemble_prompt(AssembleInput(
            projects=self._projects, root=live.root, path=live.path, text=live.text,
            line=live.line, col=live.col, language=live.language,
            budget_tokens=self._budget(start.budget_factor), context=self.config.context,
            counter=self._counter_for(engine), multiline=live.multiline))
        live.context, live.context_ms = prompt.context, prompt.context_ms
        live.prompt_prefix, live.prompt_suffix = prompt.parts.prefix, prompt.parts.suffix
        live.multiline = prompt.multiline
        return prompt

    def _generation(self, live: Live, start: StartInstruction, prompt: AssembledPrompt
                    ) -> GenerationRequest:
        """Stage 5 of a completion or warm-up: its engine request (``generation_request``)."""
        return generation_request(GenerateInput(
            key=live.key, parts=prompt.parts, start=start, multiline=prompt.multiline,
            language=live.language, warmup=live.kind == "warmup",
            speculation=self.config.engine.speculation, cache_key=live.path))

    def _submit(self, live: Live, gen: GenerationRequest) -> None:
        """Submit ``gen`` to the engine ``live`` was given; its events come back on the loop
        (``_engine_event``). Cancelled or ended meanwhile: not submitted, the slot given back."""
        engine = live.given
        assert engine is not None  # set by _engine_for
        if live.cancel_requested or live.ended is not None:
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
            live.submitted_to = None
            self._failed(live, exc if isinstance(exc, NospinError)
                         else EngineDied(f"submit failed: {exc!r}"))

    def _stream(self, live: Live, chunk: Chunk) -> None:
        """Stage 6 for one chunk: ``stream_chunk`` records it on ``live``; it goes to the client
        (not once ``_backstop`` answered the request)."""
        text, at = chunk
        reply = stream_chunk(StreamInput(live, text, at))
        if reply is not None and live.peer is not None and live.peer.send(reply):
            live.num_chunks += 1  # (peer_gone cancels a request whose client vanished)

    async def _end_of(self, live: Live) -> tuple[RequestEnded, Finished | None]:
        """Wait for the scheduler's end of ``live`` (``_ended``); what the caller does with it
        runs without another wait (``close`` waits for that: ``_ending``)."""
        end = await live.wait_end()
        self._ending.discard(live.key)
        if not self._ending:
            self._ends_taken.set()
        return end

    def _shown(self, live: Live, ended: RequestEnded, fin: Finished | None) -> str:
        """Stage 7: the text the client is shown (``postprocess_text``); none after an error."""
        if fin is None or fin.reason is FinishReason.ERROR:
            return ""
        return postprocess_text(PostprocessInput(
            live, fin.text, cut_short=finish_reason(ended, fin) in _CUT_SHORT))

    # ------------------------------------------------------------------ scheduling
    def _step(self) -> None:
        """Apply one scheduler step: start, cancel, end."""
        out = self.scheduler.schedule(time.monotonic())
        # cancels first: a request cancelled while running also ends in this step, and
        # ends leave _live (the engine must still hear of the cancel, else it runs the
        # request to its end and keeps the slot the scheduler gave it)
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
            live.begin(s, time.monotonic())  # its coroutine goes on: _until_end, _assemble

    async def _engine_for(self, live: Live) -> Engine:
        """The engine ``live`` is given (``live.given``), once it is ready."""
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
        live.given = engine
        return engine

    def _engine_event(self, key: str, event: EngineEvent) -> None:
        """An engine event, back on the loop. A chunk: the scheduler and the completion cache
        hear of it now, the request's coroutine streams it (``Live.chunks``); a chunk of a
        request that ended is dropped. A ``Finished``: ``_engine_result``."""
        if isinstance(event, TextChunk):
            live = self._live.get(key)
            if live is None or not event.text:
                return
            now = time.monotonic()
            self.scheduler.record_progress(key, now)
            self._cache.append(key, event.text)
            live.chunks.put_nowait((event.text, now))
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

    # ------------------------------------------------------------------ ends
    def _ended(self, ended: RequestEnded, fin: Finished | None) -> None:
        """The scheduler ended a request (its one ``RequestEnded``): it leaves ``_live``, and
        its coroutine takes the end (``Live.end``: post-process and reply)."""
        live = self._live.pop(ended.request_id, None)
        if live is None:
            return
        self._ending.add(live.key)
        live.end(ended, fin)

    async def _ends_replied(self) -> None:
        """Wait (a second at most) until the coroutine of every ended request has taken its
        end (and so replied)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                while self._ending:
                    self._ends_taken.clear()
                    await self._ends_taken.wait()
