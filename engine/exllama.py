"""The ``exllamav2`` engine: GPU generation with ExLlamaV2's dynamic generator.

Loads an EXL2 or HF safetensors folder (and optionally a draft model of the same vocabulary) with
an 8-bit quantized KV cache (``ExLlamaV2Cache_Q8``) for both, and runs
``ExLlamaV2DynamicGenerator`` on ONE engine thread: between two ``iterate()`` calls the thread
takes new submissions and cancellations from its inbox, checks deadlines, hands jobs to the
generator and maps its results to ``TextChunk``/``Finished`` events.

- Paged continuous batching (up to ``engine.max_batch`` jobs at once) when flash-attn >= 2.5.7 is
  installed; otherwise ``paged=False`` and one job at a time. ``capabilities`` says which.
- Draft-model speculation (``engine.num_draft_tokens``) under the switch-off rule every engine
  shares (``engine.speculation.SpeculationGovernor``): plain decoding first for a baseline, then
  the draft; off when the rolling acceptance falls below ``engine.speculation_min_acceptance`` or
  a token costs more than plainly, on again for a probe after a number of plain requests that
  doubles while the verdict holds. The dynamic generator drafts for every job or none, so each
  switch waits for running jobs to end and rebuilds the generator with or without the draft (the
  models and caches stay loaded). A request's ``speculation=False`` cannot turn the draft off
  for that job alone; its stats say so.
- Prompts: the model profile (engine/profiles.py) renders pieces; special markers become their
  token ids, source text is encoded as plain text (marker strings in a user's file stay text).
- Steering: a job with a partial word cut from the prompt (token healing) or starts to avoid
  gets a generator filter around ``engine.steering.StartSteer`` (exllama_backend.steer_filter).
- exllamav2 and torch are imported lazily in ``start()``: importing this module needs neither.
  The first import of exllamav2 compiles its CUDA extension (minutes; cached afterwards).

Decisions and lifecycle logic live in ``engine/exllama_logic.py`` (pure, tested on the CPU);
this module is the thin shell around the library (exllamav2 0.3.2).
"""

from __future__ import annotations

import functools
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import EngineConfig, draft_for, draft_tokens_for
from app.errors import (
    EngineDied,
    EngineError,
    ModelError,
    NospinError,
)
from engine.base import (
    Capabilities,
    Engine,
    EngineEvent,
    EngineStats,
    EventSink,
    FinishReason,
    GenerationRequest,
)
from engine.exllama_backend import Vocabulary, check_model_dir, import_backend, steer_filter
from engine.exllama_logic import (
    GeneratorPlan,
    RequestState,
    check_prompt_fits,
    error_for,
    finish_events,
    handle_result,
    job_max_new_tokens,
    plan_generator,
    prompt_pieces,
    render_token_ids,
    stop_token_ids,
)
from engine.profiles import ModelProfile, select_profile
from engine.speculation import SpeculationGovernor
from engine.steering import StartSteer, needs_table

log = logging.getLogger(__name__)

_IDLE_WAIT_S = 0.5  # inbox wait when nothing runs (wakes at once on a message)
# speculation verdicts: draft tokens in a probe before judging its acceptance (a GPU drafts
# many per request)
_MIN_PROPOSED = 200


@dataclass(slots=True)
class _Runtime:
    """Everything loaded on the engine thread."""

    torch: Any
    exl: Any  # the exllamav2 module
    gen_module: Any  # exllamav2.generator
    filter_base: type  # exllamav2.generator.filters.ExLlamaV2Filter
    model: Any
    cache: Any
    draft_model: Any | None
    draft_cache: Any | None
    vocab: Vocabulary
    plan: GeneratorPlan
    generator: Any
    stop_ids: list[int]
    with_draft: bool
    steering: bool = False  # the vocabulary's texts are known: jobs get the steering filter


@dataclass(slots=True)
class _Submit:
    state: RequestState


@dataclass(slots=True)
class _Cancel:
    request_id: str


class _Stop:
    pass


_Command = _Submit | _Cancel | _Stop


class ExLlamaV2Engine(Engine):
    """GPU engine on ExLlamaV2's dynamic generator. ``start()`` loads; see the module doc."""

    name = "exllamav2"

    def __init__(self, engine_config: EngineConfig, *, profile: ModelProfile | None = None) -> None:
        self._config = engine_config
        self._profile = profile
        self._inbox: queue.SimpleQueue[_Command] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._start_error: BaseException | None = None
        self._rt: _Runtime | None = None
        self._dead = False
        self._closing = False
        self._lock = threading.Lock()  # guards the figures read by stats()
        self._seq = 0
        self._requests = 0
        self._governor = SpeculationGovernor(
            min_acceptance=engine_config.speculation_min_acceptance,
            enabled=False,
            min_proposed=_MIN_PROPOSED,
            refresh_every=0,  # a plain request would cost two generator rebuilds
        )
        self._rebuild_pending = False
        self._waiting: list[RequestState] = []
        self._active: dict[str, tuple[RequestState, Any]] = {}
        self._capabilities = Capabilities(
            fim=False,
            speculation=False,
            batching=False,
            max_batch=1,
            exact_tokenizer=True,
            kv_state_cache=False,
            n_ctx=engine_config.n_ctx,
        )

    # ------------------------------------------------------------------ public interface

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    @property
    def profile(self) -> ModelProfile:
        """The prompt profile (configured or guessed from the model folder's name)."""
        if self._profile is None:
            self._profile = select_profile(
                self._config.model_profile, Path(self._config.model or "").name
            )
        return self._profile

    def start(self) -> None:
        if self._thread is not None:
            return
        _ = self.profile  # a bad engine.model_profile fails here, before any loading
        self._thread = threading.Thread(target=self._run, name="nospin-exllamav2", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._start_error is not None:
            self._thread.join(timeout=5.0)
            err = self._start_error
            if isinstance(err, NospinError):
                raise err
            raise ModelError(
                f"exllamav2 could not load {self._config.model!r}: {type(err).__name__}",
                detail=str(err)[:500],
            ) from err

    def count_tokens(self, text: str) -> int:
        rt = self._rt
        if rt is None:
            raise EngineError("the exllamav2 engine is not started")
        return len(rt.vocab.encode_text(text))

    def submit(self, request: GenerationRequest, sink: EventSink) -> None:
        now = time.monotonic()
        with self._lock:
            self._seq += 1
            self._requests += 1
            seq = self._seq
        state = RequestState.create(
            request, sink, submitted_at=now, seq=seq, extra_stops=self.profile.stop_strings
        )
        if self._dead or self._closing or self._thread is None:
            reason = FinishReason.CANCELLED if self._closing else FinishReason.ERROR
            error = None if self._closing else EngineDied("the exllamav2 engine is not running")
            self._emit(state, finish_events(state, reason, {}, now, error=error))
            return
        self._inbox.put(_Submit(state))
        if self._dead:  # the thread died while we queued: answer what it can no longer see
            self._finish_everything(FinishReason.ERROR, EngineDied("the exllamav2 engine died"))

    def cancel(self, request_id: str) -> None:
        if self._thread is not None:
            self._inbox.put(_Cancel(request_id))

    def stats(self) -> EngineStats:
        rt = self._rt
        with self._lock:
            gov = self._governor
            extra: dict[str, float] = {
                "window_acceptance": round(gov.acceptance, 4),
                "window_draft_tokens": float(gov.window_proposed),
                "baseline_tokens_left": float(gov.baseline_left),
            }
            if rt is not None:
                extra.update(
                    paged=float(rt.plan.paged),
                    max_batch=float(rt.plan.max_batch_size),
                    cache_tokens=float(rt.plan.cache_tokens),
                    num_draft_tokens=float(rt.plan.num_draft_tokens if rt.with_draft else 0),
                )
            return EngineStats(
                requests=self._requests,
                draft_accepted=gov.accepted,
                draft_proposed=gov.proposed,
                speculation_enabled=rt is not None and rt.draft_model is not None and gov.enabled,
                speculation_note=gov.note,
                model=Path(self._config.model).name if self._config.model else "",
                extra=extra,
            )

    def close(self) -> None:
        thread = self._thread
        if thread is None or self._closing:
            return
        self._closing = True
        self._inbox.put(_Stop())
        thread.join()
        self._finish_everything(FinishReason.CANCELLED, None)  # raced in after the loop ended

    def is_alive(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive() and not self._dead

    # ------------------------------------------------------------------ engine thread

    def _run(self) -> None:
        try:
            self._rt = self._load()
        except BaseException as exc:
            self._start_error = exc
            self._dead = True
            self._ready.set()
            return
        self._ready.set()
        try:
            self._loop(self._rt)
        except BaseException as exc:  # the loop itself broke: every request gets an answer
            log.exception("exllamav2 engine thread died")
            self._dead = True
            self._finish_everything(FinishReason.ERROR, EngineDied(f"engine thread died: {exc}"))
        finally:
            self._unload()

    def _loop(self, rt: _Runtime) -> None:
        while True:
            if self._rebuild_pending and not self._active:
                self._rebuild(rt)
            busy = bool(self._active) or bool(self._waiting)
            if not self._drain_inbox(block=not busy):
                self._finish_everything(FinishReason.CANCELLED, None)
                return
            now = time.monotonic()
            self._expire_deadlines(rt, now)
            self._feed_generator(rt)
            if not self._active:
                continue
            try:
                results = rt.generator.iterate()
            except Exception as exc:
                self._fail_active(rt, exc)
                continue
            now = time.monotonic()
            for result in results:
                self._on_result(rt, result, now)

    def _drain_inbox(self, *, block: bool) -> bool:
        """Apply queued commands; False when asked to stop."""
        try:
            cmd = self._inbox.get(timeout=_IDLE_WAIT_S) if block else self._inbox.get_nowait()
        except queue.Empty:
            return True
        while True:
            if isinstance(cmd, _Stop):
                return False
            if isinstance(cmd, _Submit):
                self._waiting.append(cmd.state)
            else:
                self._cancel_now(cmd.request_id)
            try:
                cmd = self._inbox.get_nowait()
            except queue.Empty:
                return True

    def _cancel_now(self, request_id: str) -> None:
        now = time.monotonic()
        for i, state in enumerate(self._waiting):
            if state.request.request_id == request_id:
                del self._waiting[i]
                self._emit(state, finish_events(state, FinishReason.CANCELLED, {}, now))
                return
        entry = self._active.pop(request_id, None)
        if entry is not None and self._rt is not None:
            state, job = entry
            self._stop_job(self._rt, state, job, FinishReason.CANCELLED, now)

    def _expire_deadlines(self, rt: _Runtime, now: float) -> None:
        for state in [s for s in self._waiting if s.past_deadline(now)]:
            self._waiting.remove(state)
            self._emit(state, finish_events(state, FinishReason.DEADLINE, {}, now))
        for rid, (state, job) in list(self._active.items()):
            if state.past_deadline(now):
                del self._active[rid]
                self._stop_job(rt, state, job, FinishReason.DEADLINE, now)

    def _stop_job(
        self, rt: _Runtime, state: RequestState, job: Any, reason: FinishReason, now: float
    ) -> None:
        """Cancel a running job in the generator (its pages stay reusable) and finish it."""
        try:
            rt.generator.cancel(job)
        except Exception:
            log.exception("exllamav2 cancel failed")
        fields = _job_snapshot(job, rt.generator)
        self._record_speculation(state, fields)
        self._emit(state, finish_events(state, reason, fields, now))

    def _feed_generator(self, rt: _Runtime) -> None:
        """Hand waiting requests to the generator, best first, up to its batch size."""
        if self._rebuild_pending or not self._waiting:
            return
        self._waiting.sort(key=lambda s: s.sort_key)
        while self._waiting and len(self._active) < rt.plan.max_batch_size:
            state = self._waiting.pop(0)
            try:
                job = self._make_job(rt, state)
                rt.generator.enqueue(job)
            except Exception as exc:
                now = time.monotonic()
                err = error_for(exc)
                self._emit(state, finish_events(state, FinishReason.ERROR, {}, now, error=err))
                continue
            # the engine thread took it: queue_ms ends here (the generator's "started" result
            # comes back from the iterate() that also prefills, so it would count the prefill)
            state.started_at = time.monotonic()
            self._active[state.request.request_id] = (state, job)

    def _make_job(self, rt: _Runtime, state: RequestState) -> Any:
        request = state.request
        profile = self.profile
        healing = self._config.token_healing and rt.steering
        pieces, state.heal = prompt_pieces(profile, request, healing=healing)
        ids = render_token_ids(
            pieces,
            encode_text=rt.vocab.encode_text,
            special_id=rt.vocab.special_id,
            bos_id=rt.vocab.bos_id(profile),
        )
        num_draft = rt.plan.num_draft_tokens if rt.with_draft else 0
        new_tokens = job_max_new_tokens(
            1 if request.prefill_only else request.max_new_tokens, num_draft
        )
        check_prompt_fits(len(ids), new_tokens, rt.plan.max_seq_len)
        state.num_prompt_tokens = len(ids)
        state.speculation_used = rt.with_draft
        if rt.with_draft and not request.speculation:
            state.speculation_note = "draft is generator-wide in exllamav2: used anyway"
        elif not rt.with_draft:
            state.speculation_note = self._governor.note
        input_ids = rt.torch.tensor([ids], dtype=rt.torch.long)
        return rt.gen_module.ExLlamaV2DynamicJob(
            input_ids=input_ids,
            max_new_tokens=new_tokens,
            stop_conditions=list(rt.stop_ids),
            gen_settings=rt.gen_module.ExLlamaV2Sampler.Settings.greedy(),
            identifier=request.request_id,
            decode_special_tokens=False,
            filters=self._job_filters(rt, state),
        )

    def _job_filters(self, rt: _Runtime, state: RequestState) -> list[Any]:
        """The filter that steers the first tokens (a healed word re-spelled, no placeholder at
        a block's start: engine.steering), or none when there is nothing to steer."""
        request = state.request
        avoid = request.avoid_starts
        if request.prefill_only or not rt.steering or not needs_table(state.heal, avoid):
            return []
        vocab = rt.vocab
        return [
            steer_filter(
                rt.filter_base,
                rt.model,
                vocab.tokenizer,
                functools.partial(StartSteer, vocab.piece_table, state.heal, avoid),
                vocab.pieces(),
                rt.torch.from_numpy,
            )
        ]

    def _on_result(self, rt: _Runtime, result: dict[str, Any], now: float) -> None:
        rid = result.get("identifier")
        entry = self._active.get(rid) if isinstance(rid, str) else None
        if entry is None:
            return  # finished or cancelled earlier in this step
        state, job = entry
        step = handle_result(state, result, now)
        if step.finished:
            del self._active[state.request.request_id]
            if step.cancel_job:
                try:
                    rt.generator.cancel(job)
                except Exception:
                    log.exception("exllamav2 cancel failed")
            self._record_speculation(
                state, result if result.get("eos") else _job_snapshot(job, rt.generator)
            )
        self._emit(state, step.events)

    def _record_speculation(self, state: RequestState, fields: dict[str, Any]) -> None:
        """Give the governor a finished request's figures; a changed verdict asks for a rebuild."""
        rt = self._rt
        if rt is None or rt.draft_model is None:
            return
        new_tokens = int(fields.get("new_tokens") or 0)
        decode_ms = float(fields.get("time_generate") or 0.0) * 1000.0
        gov = self._governor
        with self._lock:
            was_on = gov.enabled
            accepted = int(fields.get("accepted_draft_tokens") or 0)
            rejected = int(fields.get("rejected_draft_tokens") or 0)
            gov.record_request(
                new_tokens,
                decode_ms,
                speculative=state.speculation_used,
                proposed=accepted + rejected,
                accepted=accepted,
            )
            if gov.want() != rt.with_draft:
                self._rebuild_pending = True
        if gov.enabled != was_on:  # a verdict: say it, and speculation follows it
            log.log(logging.INFO if gov.enabled else logging.WARNING, "speculation %s", gov.note)
            self._update_capabilities(rt)

    def _rebuild(self, rt: _Runtime) -> None:
        """A new generator on the same models and caches, with the draft or without it, as the
        governor wants (called with no job running; the prefix pages of earlier prompts go)."""
        self._rebuild_pending = False
        with_draft = rt.draft_model is not None and self._governor.want()
        if with_draft == rt.with_draft:
            return
        rt.generator = _make_generator(rt, with_draft=with_draft)
        rt.with_draft = with_draft
        self._update_capabilities(rt)
        log.info("exllamav2 generator rebuilt %s the draft", "with" if with_draft else "without")

    def _fail_active(self, rt: _Runtime, exc: BaseException) -> None:
        """iterate() raised: every running request ends with ERROR, the queue is cleared."""
        log.exception("exllamav2 iterate() failed")
        err = error_for(exc)
        now = time.monotonic()
        for state, job in list(self._active.values()):
            self._emit(
                state,
                finish_events(
                    state, FinishReason.ERROR, _job_snapshot(job, rt.generator), now, error=err
                ),
            )
        self._active.clear()
        rt.generator.clear_queue()  # if this raises too, the thread dies and _run answers the rest

    def _finish_everything(self, reason: FinishReason, error: NospinError | None) -> None:
        now = time.monotonic()
        states = [s for s, _ in self._active.values()] + self._waiting
        self._active.clear()
        self._waiting = []
        while True:  # submissions that never reached the loop
            try:
                cmd = self._inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(cmd, _Submit):
                states.append(cmd.state)
        for state in states:
            if not state.finished:
                self._emit(state, finish_events(state, reason, {}, now, error=error))

    def _emit(self, state: RequestState, events: list[EngineEvent]) -> None:
        for event in events:
            try:
                state.sink(event)
            except Exception:
                log.exception("event sink of %s raised", state.request.request_id)

    # ------------------------------------------------------------------ loading

    def _load(self) -> _Runtime:
        torch, exl = import_backend()
        model_dir = check_model_dir(self._config.model)
        cfg = self._config
        draft = draft_for(cfg, "exllamav2")
        want_draft = bool(cfg.speculation and draft)
        draft_dir = check_model_dir(draft, what="engine.draft_model") if want_draft else None
        import exllamav2.attn as attn
        import exllamav2.generator as gen_module
        import exllamav2.generator.filters as filters_module

        try:
            config = exl.ExLlamaV2Config(str(model_dir))
            config.arch_compat_overrides(quiet=True)
            paged = (
                bool(getattr(attn, "has_flash_attn_with_paged", False)) and not config.no_flash_attn
            )
            # Unpaged (no flash-attn), exllamav2 0.3.2 attends through torch SDPA with no mask
            # and is_causal unset (attn.py _attn_torch: the block-diagonal branch is taken for
            # every causal layer and get_block_diag_mask() is None without cu_seqlens), so a
            # prefill chunk or a speculative verify pass sees later tokens; and on torch with
            # CUDA 13 SDPA picks cuDNN, which builds a plan per new key length (~55-75 ms per
            # decode step at a new length on the H200, docs/gpu.md). Its matmul attention
            # builds the causal mask: use it (no_sdpa). Paged mode attends through flash-attn.
            plan = plan_generator(
                n_ctx=cfg.n_ctx,
                model_max_seq_len=int(config.max_seq_len),
                max_batch=cfg.max_batch,
                paged_attention=paged,
                num_draft_tokens=draft_tokens_for(cfg, "exllamav2") if want_draft else 0,
            )
            config.max_seq_len = plan.max_seq_len
            config.no_sdpa = config.no_sdpa or not paged
            draft_model = draft_cache = None
            if draft_dir is not None:
                dconfig = exl.ExLlamaV2Config(str(draft_dir))
                dconfig.arch_compat_overrides(quiet=True)
                dconfig.max_seq_len = plan.max_seq_len
                dconfig.no_sdpa = dconfig.no_sdpa or not paged
                draft_model = exl.ExLlamaV2(dconfig)
                draft_cache = exl.ExLlamaV2Cache_Q8(
                    draft_model, max_seq_len=plan.cache_tokens, lazy=True
                )
                draft_model.load_autosplit(draft_cache, progress=False)
            model = exl.ExLlamaV2(config)
            cache = exl.ExLlamaV2Cache_Q8(model, max_seq_len=plan.cache_tokens, lazy=True)
            model.load_autosplit(cache, progress=False)
            tokenizer = exl.ExLlamaV2Tokenizer(config)
        except NospinError:
            raise
        except Exception as exc:
            raise ModelError(
                f"exllamav2 could not load {str(model_dir)!r}: {type(exc).__name__}",
                detail=str(exc)[:500],
            ) from exc
        vocab = Vocabulary(tokenizer)
        profile = self.profile
        generation_config = getattr(config, "generation_config", None) or {}
        stop_ids = stop_token_ids(
            tokenizer.eos_token_id,
            generation_config.get("eos_token_id"),
            [vocab.special_id(t) for t in profile.stop_tokens],
        )
        rt = _Runtime(
            torch=torch,
            exl=exl,
            gen_module=gen_module,
            filter_base=filters_module.ExLlamaV2Filter,
            model=model,
            cache=cache,
            draft_model=draft_model,
            draft_cache=draft_cache,
            vocab=vocab,
            plan=plan,
            generator=None,
            stop_ids=stop_ids,
            with_draft=draft_model is not None,
        )
        self._start_generator(rt)
        log.info("exllamav2 ready: %s; draft: %s", plan.note, rt.with_draft)
        return rt

    def _start_generator(self, rt: _Runtime) -> None:
        """Warm up the generator(s), then start plain when the governor wants a baseline first;
        learn the vocabulary's texts for the steering filter (engine.steering)."""
        cfg = self._config
        t = time.monotonic()
        try:
            rt.vocab.piece_table()
            rt.steering = True
        except Exception:
            log.warning("exllamav2: no token texts, so no token healing", exc_info=True)
        log.info("exllamav2 token texts: %.2f s", time.monotonic() - t)
        try:
            # kernel autotune before the first real request, for plain and speculative forwards
            rt.generator = _make_generator(rt, with_draft=False)
            rt.generator.warmup()
            if rt.draft_model is not None:
                rt.generator = _make_generator(rt, with_draft=True)
                rt.generator.warmup()
        except Exception as exc:
            raise EngineError(
                f"exllamav2 generator failed to start: {type(exc).__name__}", detail=str(exc)[:500]
            ) from exc
        rt.with_draft = rt.draft_model is not None
        with self._lock:
            if rt.with_draft:
                self._governor.enabled = True
                self._governor.note = ""
                if not self._governor.want():  # plain decoding first: the speed baseline
                    rt.generator = _make_generator(rt, with_draft=False)
                    rt.with_draft = False
            elif cfg.speculation and not draft_for(cfg, "exllamav2"):
                self._governor.note = "off: no engine.draft_model configured"
            else:
                self._governor.note = "off: engine.speculation = false"
        self._update_capabilities(rt)

    def _update_capabilities(self, rt: _Runtime) -> None:
        self._capabilities = Capabilities(
            fim=self.profile.fim,
            # a draft is loaded and the governor has not switched it off (it may still be
            # measuring the plain baseline)
            speculation=rt.draft_model is not None and self._governor.enabled,
            batching=rt.plan.paged and rt.plan.max_batch_size > 1,
            max_batch=rt.plan.max_batch_size,
            exact_tokenizer=True,
            kv_state_cache=rt.plan.paged,  # paged mode keeps hashed prefix pages of recent prompts
            n_ctx=rt.plan.max_seq_len,
        )

    def _unload(self) -> None:
        rt = self._rt
        if rt is None:
            return
        for m in (rt.draft_model, rt.model):
            if m is not None:
                try:
                    m.unload()
                except Exception:
                    log.exception("unloading a model failed")
        rt.generator = rt.cache = rt.draft_cache = None
        try:
            rt.torch.cuda.empty_cache()
        except Exception:
            log.debug("empty_cache failed", exc_info=True)


def _make_generator(rt: _Runtime, *, with_draft: bool) -> Any:
    plan = rt.plan
    kwargs: dict[str, Any] = dict(
        model=rt.model,
        cache=rt.cache,
        tokenizer=rt.vocab.tokenizer,
        max_batch_size=plan.max_batch_size,
        max_seq_len=plan.max_seq_len,
        max_q_size=plan.max_q_size,
        paged=plan.paged,
        # the steering filter (engine.steering) is cheap and runs in the sampler: no thread pool
        filter_background_eval=False,
    )
    if with_draft:
        kwargs.update(
            draft_model=rt.draft_model,
            draft_cache=rt.draft_cache,
            num_draft_tokens=plan.num_draft_tokens,
        )
    return rt.gen_module.ExLlamaV2DynamicGenerator(**kwargs)


def _job_snapshot(job: Any, generator: Any) -> dict[str, Any]:
    """Figures of a job that ends without an eos result (cancel, stop, deadline), shaped like one.

    Reads the measurement attributes that ExLlamaV2DynamicJob keeps (dynamic.py): times are
    time.time() seconds.
    """
    now = time.time()
    get: Callable[[str], Any] = lambda name: getattr(job, name, None)  # noqa: E731
    t_prefill, t_first = get("time_first_prefill"), get("time_first_token")
    if t_prefill and t_first:
        prefill_s = t_first - t_prefill
    else:
        prefill_s = now - t_prefill if t_prefill else 0.0
    page_size = int(getattr(generator, "page_size", 0) or 0)
    cached = int(get("cached_pages") or 0) * page_size + int(get("cached_tokens") or 0)
    return {
        "new_tokens": max(0, int(get("new_tokens") or 0)),
        "cached_tokens": cached,
        "time_prefill": prefill_s,
        "time_generate": (now - t_first) if t_first else 0.0,
        "accepted_draft_tokens": int(get("accepted_draft_tokens") or 0),
        "rejected_draft_tokens": int(get("rejected_draft_tokens") or 0),
    }
