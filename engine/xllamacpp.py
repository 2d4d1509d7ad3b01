"""The ``xllamacpp`` engine: a GGUF model on the CPU through llama.cpp's own server, run
in-process by xllamacpp (prebuilt wheels: nothing to compile), with parallel slots.

Per request a worker thread renders the prompt with the model profile, tokenizes it piece by
piece (the same tokens as the llamacpp engine), and streams one completion of those token ids
from the server (engine/xllamacpp_server.py). The server reuses the longest cached prefix of a
slot, or a document's KV state from its prompt cache, prefills in steps of ``n_batch`` tokens and
batches the slots' decode steps together. Each streamed chunk (a prefill step or a token) comes
back to the worker, which checks cancel, the deadline and, for background work, a waiting
editor; returning True from the chunk callback ends the server's task before its next step.

Text goes through the same ``StreamFilter`` (stop strings, single line, the cursor's block,
repetition) as the llamacpp engine. Token healing and ``avoid_starts`` constrain the first
tokens: each constrained token is a one-token request with a logit bias (only the tokens that
re-spell the cut word, or none of the placeholder starts), the rest one free request; the
slot's cached prompt makes each step cost one token's decode.

Created by ``engine.factory.create_engine`` for ``engine.kind = "xllamacpp"``; see
``engine.base`` for the threading contract (events come on the worker threads).
"""

from __future__ import annotations

import codecs
import itertools
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.config import EngineConfig, draft_tokens_for
from app.errors import EngineDied, EngineError, InputError, NospinError
from engine import cpu_load
from engine.base import (
    Capabilities,
    Engine,
    EngineStats,
    EventSink,
    FinishReason,
    GenerationRequest,
    Priority,
)
from engine.blocks import request_block
from engine.cpu_build import built_with_amx
from engine.gguf_vocab import GGUFVocab
from engine.healing import heal_start
from engine.job_queue import Job, JobQueues
from engine.profiles import ModelProfile
from engine.prompt_tokens import prompt_tokens
from engine.steering import StartSteer
from engine.stream_filter import StreamFilter
from engine.threads import thread_choices
from engine.tokenizer import Tokenizer
from engine.xllamacpp_server import (
    Chunk,
    ServerSettings,
    completion_body,
    load_server,
    parse_chunk,
    raise_for,
)
from engine.xllamacpp_slots import SlotMap

log = logging.getLogger(__name__)

# a constrained start (healing, avoid_starts) runs at most this many one-token requests, then
# the rest goes free (a placeholder start is decided within a few tokens)
MAX_STEERED_STEPS = 8
# host-memory prompt cache per document kept (engine.kv_state_slots), in MiB: a 2,048-token
# Q8_0 state of the 0.5B is ~13 MB, of the 1.5B ~30 MB
CACHE_MIB_PER_STATE = 32
# the shortest sample of the other work's CPU use at start (it spans the model load)
START_SAMPLE_S = 0.2
# token texts per step of building the healing table (40-75 ms), and the pause between steps
IDLE_PIECES_STEP = 16_384
TABLE_STEP_PAUSE_S = 0.02




class _Stream:
    """What one streamed server request did, as its chunks arrived."""

    __slots__ = ("error", "final", "last", "progress", "tokens", "waited_ms")

    def __init__(self) -> None:
        self.waited_ms = 0.0  # for the slot, before the server began the prompt
        self.progress: Chunk | None = None  # the last prefill step
        self.final: Chunk | None = None
        self.last: Chunk | None = None  # the last token chunk
        self.tokens = 0  # token chunks seen
        self.error: BaseException | None = None


class XLlamaCppEngine(JobQueues[Job], Engine):
    """CPU engine over xllamacpp's in-process llama.cpp server; see the module docstring."""

    name = "xllamacpp"

    def __init__(
        self,
        *,
        model_path: Path,
        profile: ModelProfile,
        config: EngineConfig,
        n_parallel: int | None = None,
        n_batch: int | None = None,
        draft: str = "",
    ) -> None:
        """``n_parallel``: server slots (None: ``config.n_parallel``); ``n_batch``: prompt
        tokens per prefill step (None: ``config.prefill_chunk``); ``draft``: speculation,
        ``"prompt-lookup"`` or a draft model's GGUF path ("" none)."""
        self._draft = draft
        self._model_path = model_path
        self._profile = profile
        self._config = config
        self._n_parallel = max(1, n_parallel or config.n_parallel)
        self._n_batch = max(1, n_batch or config.prefill_chunk)
        self._cond = threading.Condition()
        self._interactive: deque[Job] = deque()
        self._background: deque[Job] = deque()
        self._cancelled: set[str] = set()
        self._active: set[str] = set()
        self._running_interactive = 0  # interactive jobs on a worker now
        self._closing = False
        self._dead = False
        self._death = ""
        self._seq = itertools.count()
        self._workers: list[threading.Thread] = []
        self._slots = SlotMap(self._n_parallel)
        self._slot_of = threading.local()  # the slot of the job on this worker thread
        self._server: Any = None
        self._tokenizer: Tokenizer | None = None
        self._caps: Capabilities | None = None
        self._threads = (0, 0)  # decode, prefill
        self._busy_cores: float | None = None
        self._stats = EngineStats(model=model_path.name)

    # --- Engine interface --------------------------------------------------------------------

    @property
    def capabilities(self) -> Capabilities:
        if self._caps is None:
            raise EngineError("engine not started")
        return self._caps

    def start(self) -> None:
        """Load the tokenizer and the server (the model) on the caller's thread, then start
        one worker thread per slot."""
        before = cpu_load.sample()
        self._tokenizer = Tokenizer(GGUFVocab.load(self._model_path), self._profile)
        import xllamacpp as xlc

        decode, prefill = self._pick_threads(before)
        self._threads = (decode, prefill)
        settings = ServerSettings(
            n_ctx=self._config.n_ctx,
            n_parallel=self._n_parallel,
            n_threads=decode,
            n_threads_batch=prefill,
            n_batch=self._n_batch,
            cache_ram_mib=self._config.kv_state_slots * CACHE_MIB_PER_STATE,
            # AMX kernels crashed llama.cpp here (engine/cpu_build.py): keep them out
            extra_buffers=not built_with_amx(str(xlc.get_system_info())),
            draft=self._draft,
            draft_tokens=draft_tokens_for(self._config, "xllamacpp"),
        )
        self._server = load_server(self._model_path, settings)
        self._caps = Capabilities(
            fim=self._profile.fim,
            speculation=bool(self._draft),
            batching=self._n_parallel > 1,
            max_batch=self._n_parallel,
            exact_tokenizer=True,
            kv_state_cache=self._config.kv_state_slots > 0,
            n_ctx=self._config.n_ctx,
            resumable_prefill=True,
        )
        for i in range(self._n_parallel):
            t = threading.Thread(target=self._loop, name=f"nospin-xllamacpp-{i}", daemon=True)
            self._workers.append(t)
            t.start()
        threading.Thread(target=self._build_table, name="nospin-xllamacpp-table",
                         daemon=True).start()

    def _build_table(self) -> None:
        """Build the healing table in small steps from the start, beside the first requests
        (Python between steps; the model's threads run without the GIL): a completion inside a
        word would otherwise build it on its way (0.5-0.7 s idle, seconds on busy cores), and
        the scheduler's latency model took that for the decode speed."""
        tok = self._tokenizer
        assert tok is not None
        while not self._closing:
            if tok.build_piece_table(IDLE_PIECES_STEP) is not None:
                return
            time.sleep(TABLE_STEP_PAUSE_S)

    def _pick_threads(self, before: cpu_load.CpuSample | None) -> tuple[int, int]:
        """Decode and prefill threads, fixed for the server's lifetime: ``engine.n_threads``
        when set, else the llamacpp engine's start rule (engine/threads.py): all cores, or
        the smaller count when other work kept ``cpu_load.BUSY_CORES`` busy during the load."""
        n = self._config.n_threads
        if n > 0:
            return n, n
        choices = thread_choices(os.cpu_count() or 1)
        if before is not None and len(choices) > 1:
            left = START_SAMPLE_S - (time.monotonic() - before.at)
            if left > 0:
                time.sleep(left)
            after = cpu_load.sample()
            if after is not None:
                self._busy_cores = cpu_load.others_busy_cores(before, after)
                if self._busy_cores >= cpu_load.BUSY_CORES:
                    return choices[0], choices[0]
        return choices[-1], choices[-1]

    def count_tokens(self, text: str) -> int:
        if self._tokenizer is None:
            raise EngineError("engine not started")
        return self._tokenizer.count(text)

    def submit(self, request: GenerationRequest, sink: EventSink) -> None:
        job = Job(request, sink, time.monotonic(), next(self._seq))
        self._enqueue(job, bool(self._workers), self.name)

    def stats(self) -> EngineStats:
        s = self._stats
        s.speculation_enabled = bool(self._draft)
        s.extra = {
            "slots": float(self._n_parallel),
            "decode_threads": float(self._threads[0]),
            "prefill_threads": float(self._threads[1]),
        }
        if self._busy_cores is not None:
            s.extra["busy_cores_at_start"] = self._busy_cores
        return s

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        for t in self._workers:
            if t is not threading.current_thread():
                t.join(timeout=30)
        self._drain(FinishReason.CANCELLED)
        self._server = None  # its destructor stops the server's loop and frees the model

    def is_alive(self) -> bool:
        return not self._dead and any(t.is_alive() for t in self._workers)

    # --- worker threads ----------------------------------------------------------------------

    def _loop(self) -> None:
        job: Job | None = None
        try:
            while True:
                job = self._next_job()
                if job is None:
                    return
                interactive = job.request.priority == Priority.INTERACTIVE
                try:
                    self._run(job)
                except NospinError as exc:
                    self._fail(job, exc)
                finally:
                    with self._cond:
                        if interactive:
                            self._running_interactive -= 1
                        self._cond.notify_all()
                job = None
        except BaseException as exc:  # a worker dies: every request still gets its Finished
            log.exception("xllamacpp worker died")
            self._die(job, f"an xllamacpp worker died: {type(exc).__name__}: {exc}")

    def _next_job(self) -> Job | None:
        """The next job: editors' requests first; background work only while no editor's
        request runs or waits (two cores split between them would slow the editor's)."""
        with self._cond:
            while True:
                self._reap_cancelled_locked()
                if self._closing:
                    return None
                if self._interactive:
                    self._running_interactive += 1
                    return self._interactive.popleft()
                if self._background and not self._running_interactive:
                    return self._background.popleft()
                self._cond.wait()

    def _editor_waiting(self) -> bool:
        return bool(self._interactive) or self._running_interactive > 0

    def _run(self, job: Job) -> None:
        """Serve one request: exactly one Finished, or back to the queue when it yielded."""
        assert self._tokenizer is not None
        req, stats = job.request, job.stats
        now = time.monotonic()
        if not job.started:
            job.started = now
            stats.queue_ms = (now - job.submitted) * 1000
        if self._stopped(job) is not None:
            self._finish(job, self._stopped(job) or FinishReason.CANCELLED, "")
            return
        prompt, heal = self._prompt_tokens(req)
        n_ctx = self._config.n_ctx
        if len(prompt) + (1 if req.prefill_only else req.max_new_tokens) > n_ctx:
            raise InputError(
                f"prompt of {len(prompt)} tokens + {req.max_new_tokens} new tokens exceeds "
                f"the context of {n_ctx}"
            )
        stats.num_prompt_tokens = len(prompt)
        self._slot_of.index = self._slots.acquire(req.cache_key)
        try:
            if req.prefill_only:
                self._prefill_only(job, prompt)
            else:
                self._generate(job, prompt, heal)
        finally:
            self._slots.release(self._slot_of.index)

    def _prefill_only(self, job: Job, prompt: list[int]) -> None:
        """A warm-up: the server prefills the prompt (a one-token request, its token dropped);
        it yields to an editor's request between steps and is queued again to go on from what
        it prefilled (the slot keeps it)."""
        background = job.request.priority == Priority.BACKGROUND
        yielded = False

        def on_chunk(chunk: Chunk) -> bool:
            nonlocal yielded
            if chunk.kind == "token":
                return True  # prefilled: the sampled token is not wanted
            if self._stopped(job) is not None:
                return True
            if background and self._editor_waiting():
                yielded = True
                return True
            return False

        s = self._stream(job, completion_body(prompt, max_tokens=1), on_chunk, prefill=True)
        if s.final is None and s.tokens == 0:  # stopped while prefilling
            reason = self._stopped(job)
            if reason is None and yielded:
                with self._cond:  # after the editor's request; keeps its queue place
                    self._background.appendleft(job)
                    self._cond.notify_all()
                return
            self._finish(job, reason or FinishReason.CANCELLED, "")
            return
        self._finish(job, FinishReason.PREFILLED, "")

    def _generate(self, job: Job, prompt: list[int], heal: str) -> None:
        assert self._tokenizer is not None
        req, stats, tok = job.request, job.stats, self._tokenizer
        stop = tuple(dict.fromkeys(req.stop + self._profile.stop_strings))
        filt = StreamFilter(stop=stop, single_line=req.single_line, block=request_block(req))
        steer = StartSteer(tok.piece_table, heal, req.avoid_starts)
        state = {"heal": heal}
        reason: FinishReason | None = None
        t0, prefill_before, queue_before = time.monotonic(), stats.prefill_ms, stats.queue_ms

        def take(text: str) -> FinishReason | None:
            """One generated token's text: healing's cut text removed, the stop rules."""
            stats.num_generated_tokens += 1
            if state["heal"] and text:
                text, state["heal"] = heal_start(text, state["heal"])
            out, why = filt.push(text)
            self._emit(job, out)
            if why is None and stats.num_generated_tokens >= req.max_new_tokens:
                why = FinishReason.LENGTH
            return why

        ids = list(prompt)
        utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        steps = 0
        while steer.active and steps < MAX_STEERED_STEPS and reason is None:
            mask = steer.mask()
            ids_now: list[int] = mask.ids.tolist() if mask is not None else []
            allow = ids_now if mask is not None and mask.allow else []
            ban = ids_now if mask is not None and not mask.allow else []
            body = completion_body(ids, max_tokens=1, temperature=req.temperature,
                                   seed=req.seed + steps, allow=allow, ban=ban, want_ids=True)
            s = self._stream(job, body, lambda c: self._stopped(job) is not None,
                             prefill=steps == 0)
            steps += 1
            got = s.last if s.last is not None and s.last.token >= 0 else None
            if got is None or tok.is_eog(got.token):  # end of text, or stopped
                reason = self._stopped(job) or FinishReason.STOP
                break
            ids.append(got.token)
            text = utf8.decode(tok.piece(got.token))
            steer.feed(text)
            reason = take(text)
        if reason is None:
            reason = self._free_run(job, ids, take, first=steps == 0)
        self._emit(job, filt.flush())
        ms = (time.monotonic() - t0) * 1000 - (stats.prefill_ms - prefill_before)
        stats.decode_ms = max(0.0, ms - (stats.queue_ms - queue_before))
        self._finish(job, reason, filt.text)

    def _free_run(
        self, job: Job, ids: list[int], take: Callable[[str], FinishReason | None], first: bool
    ) -> FinishReason:
        """The unconstrained rest of a generation, streamed; its finish reason."""
        req, stats = job.request, job.stats
        reason: list[FinishReason] = []

        def on_chunk(chunk: Chunk) -> bool:
            if reason:  # ended at max_new_tokens: the server's final chunk (its figures) comes
                return False
            if chunk.kind == "token" or (chunk.kind == "final" and chunk.text):
                why = take(chunk.text)
                if why is not None:
                    reason.append(why)
                    # the server stops there itself (max_tokens) and sends its figures
                    return why is not FinishReason.LENGTH
            stopped = self._stopped(job)
            if stopped is not None:
                reason.append(stopped)
                return True
            return False

        left = req.max_new_tokens - stats.num_generated_tokens
        body = completion_body(ids, max_tokens=left, temperature=req.temperature, seed=req.seed)
        s = self._stream(job, body, on_chunk, prefill=first)
        if reason:
            return reason[0]
        if s.final is not None and s.final.finish_reason == "length":
            return FinishReason.LENGTH
        return self._stopped(job) or FinishReason.STOP

    def _stream(
        self, job: Job, body: dict[str, Any], on_chunk: Callable[[Chunk], bool], *,
        prefill: bool,
    ) -> _Stream:
        """Run one server request on this thread; ``on_chunk`` returning True ends it.
        ``prefill``: this request's prompt figures are the job's prefill figures."""
        s = _Stream()
        stats = job.stats
        body["id_slot"] = self._slot_of.index  # the document's slot (engine/xllamacpp_slots.py)
        t0 = time.monotonic()
        first = [True]  # no chunk yet

        def callback(data: Any) -> bool:
            try:
                chunk = parse_chunk(data)
                if chunk.kind == "error":
                    raise_for(chunk)
                if first and chunk.kind == "progress":
                    # the time before the server began the prompt: the document's slot was
                    # busy (a superseded request stopping); queue time, not prefill or decode
                    s.waited_ms = max(0.0, (time.monotonic() - t0) * 1000 - chunk.prefill_ms)
                    stats.queue_ms += s.waited_ms
                first.clear()
                if chunk.kind == "progress":
                    s.progress = chunk
                    if prefill and not stats.num_cached_tokens:
                        stats.num_cached_tokens = chunk.prompt_cached
                elif chunk.kind == "token":
                    s.tokens += 1
                    s.last = chunk
                else:
                    s.final = chunk
                    s.tokens += 1 if chunk.token >= 0 or chunk.text else 0
                return on_chunk(chunk)
            except BaseException as exc:  # xllamacpp swallows a callback's exception
                s.error = exc
                return True

        try:
            self._server.handle_completions(body, callback)
        except (RuntimeError, ValueError) as exc:
            raise EngineError("llama.cpp's server failed a request", detail=str(exc)) from exc
        if s.error is not None:
            raise s.error
        if s.final is not None and s.final.drafted:
            stats.num_draft_tokens += s.final.drafted
            stats.num_draft_accepted += s.final.accepted
            stats.num_draft_rejected += s.final.drafted - s.final.accepted
            stats.speculation_used = True
        if prefill:
            p = s.progress
            if p is not None:
                stats.num_prefilled_tokens += max(0, p.prompt_processed - p.prompt_cached)
                stats.prefill_ms += p.prefill_ms
            elif s.final is not None:
                stats.prefill_ms += s.final.prefill_ms
            if s.final is None and p is None:
                stats.prefill_ms += (time.monotonic() - t0) * 1000 - s.waited_ms
        return s

    def _prompt_tokens(self, req: GenerationRequest) -> tuple[list[int], str]:
        """Token ids of the prompt and the text cut from the prefix's end, as the llamacpp
        engine makes them (:func:`engine.prompt_tokens.prompt_tokens`)."""
        assert self._tokenizer is not None
        return prompt_tokens(self._tokenizer, self._profile, self._config.token_healing, req)

    # --- events ------------------------------------------------------------------------------

    def _die(self, current: Job | None, message: str) -> None:
        with self._cond:
            self._dead = True
            self._death = message
            self._closing = True
            self._cond.notify_all()
        error = EngineDied(message)
        if current is not None:
            self._fail(current, error)
        self._drain(FinishReason.ERROR, error)
