"""The ``llamacpp`` engine: a GGUF model on the CPU through llama-cpp-python, one engine thread.

Per request: render the prompt with the model profile, tokenize piece by piece, prefill with
prefix reuse (and the KV state of the document when switching back to it), then decode greedily,
one token at a time or by verifying draft tokens, streaming text through a ``StreamFilter``.
Between prefill chunks and between tokens it checks cancellation, the deadline and (for
background work) whether an editor is waiting; a background warm-up that yields keeps what it
prefilled and is resumed later.

Created by ``engine.factory.create_engine``; see ``engine.base`` for the threading contract.
"""

from __future__ import annotations

import codecs
import itertools
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from app.config import PROMPT_LOOKUP, EngineConfig, draft_tokens_for
from app.errors import EngineDied, EngineError, InputError, NospinError
from engine import cpu_load
from engine.avoid import masked_argmax
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
from engine.cpu_build import extra_buffers_safe
from engine.healing import constrained_argmax, heal_start
from engine.job_queue import Job, JobQueues
from engine.llamacpp_session import KVSession, PrefillResult, ShouldStop, load_llama
from engine.llamacpp_spec import (
    Drafter,
    DraftModelDrafter,
    PromptLookupDrafter,
    verify_greedy,
)
from engine.models import models_dir
from engine.profiles import ModelProfile
from engine.prompt_tokens import prompt_tokens
from engine.speculation import SpeculationGovernor
from engine.steering import StartSteer
from engine.stream_filter import StreamFilter
from engine.threads import ThreadGovernor, thread_choices
from engine.tokenizer import LlamaVocab, Tokenizer

log = logging.getLogger(__name__)

# Prefill step in tokens: cancel, deadline and (for warm-ups) a waiting editor are checked
# between steps, so one step bounds how late they take effect. Measured on the 2-core machine
# (docs/latency.md): 64-token steps keep prefill within ~4% of 512-token ones; 32 loses
# 10-20%. One step is 0.3-0.5 s on a quiet machine, about 1 s under load 4-5.
PREFILL_CHUNK = 64
# prompt tokens a prefill must evaluate to count for the prefill thread governor
MIN_MEASURED_PREFILL = 32
# one-token decode steps a decode probe of the other thread count runs (then the verdict's)
PROBE_DECODE_STEPS = 6
# the shortest sample of the other work's CPU use at start (it spans the model load)
START_SAMPLE_S = 0.2
# how often (at most, between requests) the other work's CPU use is sampled again, to notice
# that a build has ended and the larger thread count is worth measuring again
BUSY_CHECK_S = 5.0
# token texts per idle step of building the healing table (40-75 ms: how late a request that
# arrives meanwhile starts), each after this long with nothing queued: a step at once after a
# request ran beside the first scan and the next keystroke's request (0.1-0.9 s per step)
IDLE_PIECES_STEP = 16_384
IDLE_BEFORE_STEP_S = 0.5


@dataclass(slots=True)
class _Job(Job):
    heal: str = ""  # text cut from the prefix (blanks, a partial word); cut again from the output
    draft_prefill_ms: float = 0.0  # the draft model's prefill of this prompt (in prefill_ms)


class LlamaCppEngine(JobQueues[_Job], Engine):
    """CPU engine over llama-cpp-python; see the module docstring."""

    name = "llamacpp"

    def __init__(
        self,
        *,
        model_path: Path,
        profile: ModelProfile,
        config: EngineConfig,
        draft_model_path: Path | None = None,
        prefill_chunk: int | None = None,
        governor: SpeculationGovernor | None = None,
    ) -> None:
        """``prefill_chunk``: tokens per prefill step (None: ``config.prefill_chunk`` when the
        config has that field, else ``PREFILL_CHUNK``). ``governor``: the speculation switch-off
        rule (None: one with ``config.speculation_min_acceptance``; benchmarks pass one that
        only observes)."""
        self._model_path = model_path
        self._extra_buffers = True  # start() decides (engine/cpu_build.extra_buffers_safe)
        chunk = prefill_chunk or int(getattr(config, "prefill_chunk", 0) or PREFILL_CHUNK)
        self._prefill_chunk = max(1, chunk)
        self._profile = profile
        self._config = config
        self._draft_model_path = draft_model_path
        self._cond = threading.Condition()
        self._interactive: deque[_Job] = deque()
        self._background: deque[_Job] = deque()
        self._cancelled: set[str] = set()
        self._active: set[str] = set()  # ids submitted and not finished yet
        self._closing = False
        self._dead = False
        self._death = ""
        self._thread: threading.Thread | None = None
        self._seq = itertools.count()
        self._tokenizer: Tokenizer | None = None
        self._session: KVSession | None = None
        self._drafter: Drafter | None = None
        self._governor = governor or SpeculationGovernor(
            min_acceptance=config.speculation_min_acceptance
        )
        self._stats = EngineStats(model=model_path.name)
        self._busy_cores: float | None = None  # other work's cores at start (cpu_load)
        self._cpu_mark: cpu_load.CpuSample | None = None  # the last sample of the CPU use
        self._was_busy = False  # other work kept BUSY_CORES busy at the last sample
        # engine.n_threads 0: thread counts measured per phase (engine/threads.py); N: N for both
        choices = thread_choices(os.cpu_count() or 1)
        self._threads = ThreadGovernor(choices) if config.n_threads == 0 else None
        self._prefill_threads = (
            ThreadGovernor(choices, phase="prefilling", min_tokens=MIN_MEASURED_PREFILL)
            if config.n_threads == 0
            else None
        )
        self._caps: Capabilities | None = None
        self._llms: list[Any] = []

    # --- Engine interface --------------------------------------------------------------------

    @property
    def capabilities(self) -> Capabilities:
        if self._caps is None:
            raise EngineError("engine not started")
        return self._caps

    def start(self) -> None:
        """Load the model (and draft model) on the caller's thread, then start the engine thread."""
        n_threads = self._config.n_threads
        before = cpu_load.sample()
        # a llama.cpp built with AMX whose kernels crash here loads without them (cpu_build)
        extra = extra_buffers_safe(self._model_path, models_dir())
        self._extra_buffers = extra
        llm = load_llama(self._model_path, n_ctx=self._config.n_ctx, n_threads=n_threads,
                         extra_buffers=extra)
        self._llms.append(llm)
        self._tokenizer = Tokenizer(LlamaVocab(llm), self._profile)
        self._session = KVSession(llm, state_slots=self._config.kv_state_slots)
        if self._config.speculation and self._draft_model_path is not None:
            if str(self._draft_model_path) == PROMPT_LOOKUP:
                self._drafter = PromptLookupDrafter()
            else:
                draft = load_llama(
                    self._draft_model_path, n_ctx=self._config.n_ctx, n_threads=n_threads,
                    extra_buffers=extra,
                )
                self._llms.append(draft)
                session = KVSession(draft, state_slots=self._config.kv_state_slots)
                self._drafter = DraftModelDrafter(session, chunk=self._prefill_chunk)
        self._caps = Capabilities(
            fim=self._profile.fim,
            speculation=self._drafter is not None,
            batching=False,
            max_batch=1,
            exact_tokenizer=True,
            kv_state_cache=self._config.kv_state_slots > 0,
            n_ctx=self._session.n_ctx,
            resumable_prefill=True,
        )
        self._stats.speculation_enabled = self._drafter is not None
        self._start_threads(before)
        self._idle_since = time.monotonic()  # nothing queued since (the healing table's steps)
        self._thread = threading.Thread(target=self._loop, name="nospin-llamacpp", daemon=True)
        self._thread.start()

    def _start_threads(self, before: cpu_load.CpuSample | None) -> None:
        """The thread governors start on the smaller count when other work kept at least
        ``cpu_load.BUSY_CORES`` cores busy during the model load (``before``: the sample taken
        before it; at least ``START_SAMPLE_S`` of it), else on all cores; either way they
        measure as they serve. No llama.cpp call here: every compute call stays on the engine
        thread (a decode from the starting thread left later decoding ~30% slower)."""
        govs = [g for g in (self._prefill_threads, self._threads) if g is not None]
        if before is None or not govs or len(govs[0].choices) < 2:
            return
        left = START_SAMPLE_S - (time.monotonic() - before.at)
        if left > 0:
            time.sleep(left)
        after = cpu_load.sample()
        if after is None:
            return
        self._cpu_mark = after
        self._busy_cores = cpu_load.others_busy_cores(before, after)
        self._was_busy = self._busy_cores >= cpu_load.BUSY_CORES
        if self._was_busy:
            for gov in govs:
                gov.start = gov.choices[0]
            log.info("llamacpp: other work keeps %.1f cores busy: starting on %d thread(s)",
                     self._busy_cores, govs[0].choices[0])

    def _check_busy(self) -> None:
        """Before a background request, at most every ``BUSY_CHECK_S``: sample the other
        work's CPU use again; when it drops under ``cpu_load.BUSY_CORES`` after a busy sample,
        the governors re-measure their other count at the next chance (``ThreadGovernor.
        expedite``: background work takes it, so an editor's request never samples). A count
        that became slower needs no sample: its own requests show it."""
        mark = self._cpu_mark
        if mark is None or time.monotonic() - mark.at < BUSY_CHECK_S:
            return
        now = cpu_load.sample()
        if now is None:
            return
        self._cpu_mark = now
        busy = cpu_load.others_busy_cores(mark, now) >= cpu_load.BUSY_CORES
        if self._was_busy and not busy:
            for gov in (self._prefill_threads, self._threads):
                if gov is not None and gov.current != gov.choices[-1]:
                    gov.expedite()
                    log.info("llamacpp: other work stopped: %s thread counts measured again",
                             gov.phase)
        self._was_busy = busy

    def count_tokens(self, text: str) -> int:
        if self._tokenizer is None:
            raise EngineError("engine not started")
        return self._tokenizer.count(text)

    def submit(self, request: GenerationRequest, sink: EventSink) -> None:
        job = _Job(request, sink, time.monotonic(), next(self._seq))
        self._enqueue(job, self._thread is not None, self.name)

    def stats(self) -> EngineStats:
        s = self._stats
        g = self._governor
        s.draft_accepted, s.draft_proposed = g.accepted, g.proposed
        s.speculation_enabled = self._drafter is not None and g.enabled
        s.speculation_note = g.note
        if self._session is not None:
            s.extra = {
                # 0: loaded without llama.cpp's extra buffer types (its AMX kernels crash here)
                "llama_extra_buffers": 1.0 if self._extra_buffers else 0.0,
                "kv_tokens": float(len(self._session.tokens)),
                "kv_states": float(len(self._session.states)),
                "kv_states_bytes": float(self._session.states_bytes()),
                "kv_state_save_ms": self._session.last_save_ms,
                "kv_state_restore_ms": self._session.last_restore_ms,
                "decode_threads": float(self._session.decode_threads),
                "prefill_threads": float(self._session.batch_threads),
            }
            for phase, gov in (("decode", self._threads), ("prefill", self._prefill_threads)):
                if gov is not None:  # measured: the running time per token of each count
                    s.extra.update(
                        (f"{phase}_ms_per_token_{n}", ms) for n, ms in gov.ms_per_token.items()
                    )
                    s.extra[f"{phase}_probes"] = float(gov.num_probes)
                    s.extra[f"{phase}_probes_interactive"] = float(gov.num_interactive_probes)
            if self._busy_cores is not None:
                s.extra["busy_cores_at_start"] = self._busy_cores
        return s

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=30)
        for llm in self._llms:
            llm.close()
        self._llms.clear()

    def is_alive(self) -> bool:
        return not self._dead and self._thread is not None and self._thread.is_alive()

    # --- engine thread -----------------------------------------------------------------------

    def _loop(self) -> None:
        job: _Job | None = None
        try:
            while True:
                job = self._next_job()
                if job is None:
                    break
                self._run_guarded(job)
                job = None
                self._idle_since = time.monotonic()
        except BaseException as exc:  # the thread dies: every request still gets its Finished
            log.exception("llamacpp engine thread died")
            self._die(job, f"the llamacpp engine thread died: {type(exc).__name__}: {exc}")
            return
        self._drain(FinishReason.CANCELLED)

    def _next_job(self) -> _Job | None:
        while True:
            with self._cond:
                self._reap_cancelled_locked()
                if self._closing:
                    return None
                if self._interactive:
                    return self._interactive.popleft()
                if self._background:
                    return self._background.popleft()
                if self._tokenizer is None or self._tokenizer.has_piece_table:
                    self._cond.wait()
                    continue
                idle = time.monotonic() - self._idle_since
                if idle < IDLE_BEFORE_STEP_S:
                    self._cond.wait(IDLE_BEFORE_STEP_S - idle)
                    continue
            # idle a while: one step of building the healing table, which the first completion
            # inside a word otherwise built on its way (0.9-1.2 s in a daemon replay)
            self._tokenizer.build_piece_table(IDLE_PIECES_STEP)

    def _run_guarded(self, job: _Job) -> None:
        try:
            self._run(job)
        except NospinError as exc:
            self._fail(job, exc)

    def _run(self, job: _Job) -> None:
        """Serve one request; emits its chunks and exactly one Finished (or requeues it)."""
        assert self._session is not None and self._tokenizer is not None
        req, stats, session = job.request, job.stats, self._session
        now = time.monotonic()
        if not job.started:
            job.started = now
            stats.queue_ms = (now - job.submitted) * 1000
        if self._stopped(job) is not None:
            self._finish(job, self._stopped(job) or FinishReason.CANCELLED, "")
            return
        prompt, job.heal = self._prompt_tokens(req)
        if not req.prefill_only and len(prompt) + req.max_new_tokens > session.n_ctx:
            raise InputError(
                f"prompt of {len(prompt)} tokens + {req.max_new_tokens} new tokens exceeds "
                f"the context of {session.n_ctx}"
            )
        background = req.priority == Priority.BACKGROUND
        if background:  # off the editor's path: only background work takes the probes it enables
            self._check_busy()
        t0 = time.monotonic()
        yielded = False

        def should_stop() -> bool:
            nonlocal yielded
            if self._stopped(job) is not None:
                return True
            if background and self._interactive:
                yielded = True
                return True
            return False

        chunk = min(self._prefill_chunk, session.n_batch)
        gov = self._prefill_threads
        pf_threads = 0
        if gov is not None:
            pf_threads = gov.pick(
                session.to_evaluate(prompt, key=req.cache_key), interactive=not background
            )
        session.set_threads(batch=pf_threads)
        self._draft_threads(pf_threads)
        measured = gov if pf_threads else None  # the governor to record this prefill to
        if gov is not None and gov.probing:
            pf = self._probe_prefill(gov, prompt, req.cache_key, chunk, should_stop)
            measured = None  # the probe recorded its own figures
        else:
            pf = session.prefill(prompt, key=req.cache_key, chunk=chunk, should_stop=should_stop)
        # a prefill cut short counts what it ran: for the governor (which judges few tokens
        # only when they were far slower than the count in use) and the scheduler's rate
        ran = (pf.num_prompt_tokens if pf.complete else len(session.tokens)) - pf.num_cached_tokens
        pf_ms = (time.monotonic() - t0) * 1000
        if measured is not None:
            self._record_threads(measured, pf_threads, ran, pf_ms)
        stats.prefill_ms += pf_ms
        stats.num_prefilled_tokens += max(0, ran)
        stats.num_prompt_tokens = pf.num_prompt_tokens
        if not stats.num_cached_tokens:
            stats.num_cached_tokens = pf.num_cached_tokens
        stats.restored_state = stats.restored_state or pf.restored_state
        if not pf.complete:
            reason = self._stopped(job)
            if reason is None and yielded:
                with self._cond:  # resume after the editor's request; keeps its queue place
                    self._background.appendleft(job)
                return
            self._finish(job, reason or FinishReason.CANCELLED, "")
            return
        if self._drafter is not None and self._wants_speculation(req):
            # the draft model's prefill belongs to the prefill phase (and to warm-ups); when it
            # stops early, propose() evaluates the rest before its first draft
            t1 = time.monotonic()
            self._drafter.prepare(prompt, req.cache_key, should_stop)
            ms = (time.monotonic() - t1) * 1000
            job.draft_prefill_ms += ms
            stats.prefill_ms += ms
        if req.prefill_only:
            if background:
                self._background_decode_probe(should_stop)
            self._finish(job, FinishReason.PREFILLED, "")
            return
        self._decode(job)
        if req.cache_key:
            self._drop_superseded_warmups(job)

    def _probe_prefill(
        self,
        gov: ThreadGovernor,
        prompt: Sequence[int],
        key: str,
        chunk: int,
        should_stop: ShouldStop,
    ) -> PrefillResult:
        """Prefill with ``gov`` measuring its other count on the first chunk only, then the
        rest on the verdict's count: the probe costs one chunk's difference, not the whole
        prompt's (a 178-token warm-up on the slower count of two idle cores took 2.3 s instead
        of 1.2, and the completion waiting for it 1.6 s)."""
        session = self._session
        assert session is not None
        probe = gov.probing
        t0 = time.monotonic()
        first = session.prefill(prompt, key=key, chunk=chunk, should_stop=lambda: True)
        evaluated = len(session.tokens) - first.num_cached_tokens
        self._record_threads(gov, probe, evaluated, (time.monotonic() - t0) * 1000)
        session.set_threads(batch=gov.current)
        self._draft_threads(gov.current)
        if first.complete:
            return first
        rest = session.prefill(prompt, key=key, chunk=chunk, should_stop=should_stop)
        return PrefillResult(
            rest.num_prompt_tokens,
            first.num_cached_tokens,
            first.restored_state or rest.restored_state,
            rest.complete,
        )

    def _draft_threads(self, prefill_threads: int) -> None:
        """The draft model runs on the same cores: its prefill takes this request's prefill
        count, its one-token draft steps the decode governor's verdict (measured on the main
        model, which the draft's own steps cannot tell apart from verification)."""
        if not isinstance(self._drafter, DraftModelDrafter):
            return
        decode = self._threads.current if self._threads is not None else 0
        self._drafter.session.set_threads(decode=decode, batch=prefill_threads)

    def _drop_superseded_warmups(self, job: _Job) -> None:
        """Finish (PREFILLED) the warm-ups of ``job``'s document that were queued before it.

        Called after an interactive request that prefilled its whole prompt: that request is a
        newer view of the same document, so an older warm-up (typically one it pre-empted) has
        nothing left to warm; resuming it would only re-prefill its stale cursor line and suffix,
        which the next keystroke's request would then have to replace again.
        """
        key = job.request.cache_key
        with self._cond:
            stale = [
                j
                for j in self._background
                if j.request.prefill_only and j.request.cache_key == key and j.seq < job.seq
            ]
            for j in stale:
                self._background.remove(j)
        for j in stale:
            self._finish(j, FinishReason.PREFILLED, "")

    def _decode(self, job: _Job) -> None:
        assert self._session is not None and self._tokenizer is not None
        req, stats, session, tok = job.request, job.stats, self._session, self._tokenizer
        stop = tuple(dict.fromkeys(req.stop + self._profile.stop_strings))
        filt = StreamFilter(stop=stop, single_line=req.single_line, block=request_block(req))
        utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        sampling = req.temperature > 0  # eval top-k alternatives; greedy otherwise
        speculate = self._wants_speculation(req)
        rng = np.random.default_rng(req.seed) if sampling else None
        threads = (
            self._threads.pick(interactive=req.priority != Priority.BACKGROUND)
            if self._threads is not None and not speculate
            else 0
        )
        session.set_threads(decode=threads)
        # a probe of the other count runs PROBE_DECODE_STEPS steps, then the verdict's count
        probing = self._threads.probing if threads and self._threads is not None else 0
        steps = 0  # one-token decode steps run (the per-token figure the governor gets)

        heal = job.heal  # what healing cut, still to be removed from the output's start
        # a healed word re-spelled first, no placeholder at a block's start (engine.steering)
        steer = StartSteer(tok.piece_table, heal, req.avoid_starts)

        def pick() -> int:
            mask = steer.mask()
            if mask is not None and mask.allow:  # healing: only tokens that spell what was cut
                if rng is None:
                    return constrained_argmax(session.logits(), mask.ids)
                return int(mask.ids[_sample(session.logits()[mask.ids], req.temperature, rng)])
            if mask is not None:  # placeholder starts banned
                logits = session.logits()
                if rng is None:
                    return masked_argmax(logits, mask.ids)
                masked = np.array(logits, dtype=np.float64, copy=True)
                masked[mask.ids] = -np.inf
                return _sample(masked, req.temperature, rng)
            if rng is None:
                return session.argmax()
            return _sample(session.logits(), req.temperature, rng)

        k = draft_tokens_for(self._config, "llamacpp")
        proposed = accepted = 0
        t0 = time.monotonic()
        # Tokens to emit, in order; only the last one is not yet in the KV cache.
        queue: deque[int] = deque([pick()])
        reason: FinishReason | None = None
        while reason is None:
            token = queue.popleft()
            if tok.is_eog(token):
                reason = FinishReason.STOP
                break
            stats.num_generated_tokens += 1
            text = utf8.decode(tok.piece(token))
            steer.feed(text)
            if heal and text:
                text, heal = heal_start(text, heal)
            out, reason = filt.push(text)
            self._emit(job, out)
            if reason is not None:
                break
            if stats.num_generated_tokens >= req.max_new_tokens:
                reason = FinishReason.LENGTH
                break
            reason = self._stopped(job)
            if reason is not None or queue:
                continue
            left = req.max_new_tokens - stats.num_generated_tokens
            draft: list[int] = []
            free = not heal and not steer.active  # constrained steps run one at a time
            if speculate and self._drafter is not None and left > 1 and free:
                draft = self._drafter.propose([*session.tokens, token], min(k, left - 1))
            if draft:
                new, n_ok = verify_greedy(session, token, draft)
                proposed += len(draft)
                accepted += n_ok
                queue.extend(new)
            else:
                session.decode([token])
                steps += 1
                if probing and self._decode_probe_over(probing, steps, t0):
                    probing = threads = 0  # the rest is not measured
                queue.append(pick())
        self._emit(job, filt.flush() if reason != FinishReason.STOP else "")
        decode_ms = (time.monotonic() - t0) * 1000
        stats.decode_ms = decode_ms
        stats.num_draft_tokens = proposed
        stats.num_draft_accepted = accepted
        stats.num_draft_rejected = proposed - accepted
        stats.speculation_used = speculate
        if self._drafter is not None:  # the draft model's prefill is part of speculation's cost
            self._governor.record_request(
                stats.num_generated_tokens,
                decode_ms + (job.draft_prefill_ms if speculate else 0.0),
                speculative=speculate,
                proposed=proposed,
                accepted=accepted,
            )
        if threads and self._threads is not None:
            self._record_threads(self._threads, threads, steps, decode_ms)
        stats.speculation_note = self._governor.note
        self._finish(job, reason, filt.text)

    def _background_decode_probe(self, should_stop: ShouldStop) -> None:
        """A warm-up that prefilled its prompt runs a due decode probe: ``PROBE_DECODE_STEPS``
        greedy steps on the other thread count, so that editors' completions are not the ones
        measured on the slower count (they leave a due probe to background work, as prefill
        probes do). The steps continue the prompt (the start of a completion at the warm-up's
        cursor); the next prompt reuses the cache up to where it differs, so they cost nothing
        later. A waiting editor's request stops it, unrecorded."""
        gov, session = self._threads, self._session
        if gov is None or session is None:
            return
        if self._drafter is not None and self._governor.want():
            return  # completions speculate: their decode count is not the governor's
        if len(session.tokens) + PROBE_DECODE_STEPS > session.n_ctx:
            return
        gov.pick(PROBE_DECODE_STEPS)
        probe = gov.probing
        if not probe:
            return
        session.set_threads(decode=probe)
        t0 = time.monotonic()
        try:
            for step in range(1, PROBE_DECODE_STEPS + 1):
                if should_stop():
                    return
                session.decode([session.argmax()])
                if self._decode_probe_over(probe, step, t0):
                    return
        finally:
            session.set_threads(decode=gov.current)

    def _decode_probe_over(self, probe: int, steps: int, t0: float) -> bool:
        """After ``steps`` decode steps of a probe on ``probe`` threads begun at ``t0``: True
        when the probe is over, recorded, and decoding is back on the verdict's count (an
        editor waits on every decode: on two busy cores the slower count took 74 against 43 ms
        per token, 0.5 s over a 16-token completion). Over after ``PROBE_DECODE_STEPS`` steps,
        or sooner when far slower, judged on what it ran."""
        gov, session = self._threads, self._session
        assert gov is not None and session is not None
        ms = (time.monotonic() - t0) * 1000
        if steps < PROBE_DECODE_STEPS and not gov.far_slower(steps, ms):
            return False
        self._record_threads(gov, probe, steps, ms)
        session.set_threads(decode=gov.current)
        return True

    @staticmethod
    def _record_threads(gov: ThreadGovernor, threads: int, num_tokens: int, ms: float) -> None:
        before = gov.current
        gov.record(threads, num_tokens, ms)
        if gov.current != before:
            log.info("llamacpp: %s", gov.note)

    def _wants_speculation(self, req: GenerationRequest) -> bool:
        """Greedy, speculation allowed by the request, a drafter, and the governor agrees."""
        return (
            req.temperature <= 0
            and req.speculation
            and self._drafter is not None
            and self._governor.want()
        )

    def _prompt_tokens(self, req: GenerationRequest) -> tuple[list[int], str]:
        """Token ids of the request's prompt, and the text cut from the prefix's end
        (:func:`engine.prompt_tokens.prompt_tokens`)."""
        assert self._tokenizer is not None
        return prompt_tokens(self._tokenizer, self._profile, self._config.token_healing, req)

    # --- events ------------------------------------------------------------------------------

    def _die(self, current: _Job | None, message: str) -> None:
        with self._cond:
            self._dead = True
            self._death = message
        error = EngineDied(message)
        if current is not None:
            self._fail(current, error)
        self._drain(FinishReason.ERROR, error)


def _sample(logits: Any, temperature: float, rng: np.random.Generator) -> int:
    """One token drawn from softmax(logits / temperature) with ``rng`` (seeded per request)."""
    scaled = np.asarray(logits, dtype=np.float64) / temperature
    scaled -= scaled.max()
    probs = np.exp(scaled)
    probs /= probs.sum()
    return int(rng.choice(len(probs), p=probs))
