"""The request scheduler: a pure core in the vLLM style (no clocks, no threads, no sockets).

The daemon's loop drives it::

    scheduler.add_request(NewRequest.completion(...), now)   # a "complete" message arrived
    scheduler.cancel(request_id)                             # "cancel", or the client vanished
    out = scheduler.schedule(now)                            # between engine steps
        for s in out.start:  assemble the context with s.budget_factor, engine.submit(...)
        for c in out.cancel: engine.cancel(c.request_id)
        for e in out.ended:  send the final reply (cancelled / superseded / shed / expired)
    scheduler.record_progress(request_id, now)               # a TextChunk arrived
    ended = scheduler.update_from_result(request_id, stats, now, reason=...)   # Finished arrived
        for e in ended:      send the final reply (tier, finish reason)

Every time is ``now`` in seconds on one monotonic clock (``time.monotonic()``); durations are
``*_ms``. Cancellations (``cancel``, supersede) are recorded at once and applied together by the
next ``schedule`` call, between steps. Every added request ends exactly once, with one
:class:`RequestEnded` event, in ``SchedulerOutput.ended`` or in ``update_from_result``'s answer.

Tiers (design.md §4) are decided from the *predicted* latency of a request when it starts: the
time it has already waited + the work ahead of it in the engine (running and queued requests,
divided by the engine's capacity) + its own service time from the :class:`LatencyModel` (per
request overhead + uncached prompt tokens x prefill ms/token + max tokens x decode ms/token).
Past the last tier's reach (predicted beyond the deadline even in fast mode) a request is shed
with an explicit reason, never silently dropped.
"""

from __future__ import annotations

import enum
import statistics
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.config import TierConfig
from app.errors import InputError
from engine.base import FinishReason, GenerationStats, Priority

__all__ = [
    "END_TABLE",
    "CancelInstruction",
    "EndInfo",
    "EndReason",
    "LatencyModel",
    "NewRequest",
    "Prediction",
    "RequestEnded",
    "RequestState",
    "Scheduler",
    "SchedulerOutput",
    "StartInstruction",
    "Tier",
]


class RequestState(enum.IntEnum):
    """Lifecycle of a scheduled request; it only moves forward (to a larger value or stays).

    WAITING -> RUNNING -> FINISHED | CANCELLED, or WAITING -> CANCELLED | SHED.
    The three terminal states never change again.
    """

    WAITING = 0  # queued, not yet handed to the engine
    RUNNING = 1  # handed to the engine (start instruction emitted)
    FINISHED = 2  # the engine finished it (stop, length, deadline, error): terminal
    CANCELLED = 3  # cancelled by the client or superseded by a newer request: terminal
    SHED = 4  # refused under load or expired in the queue, with a reason: terminal

    @property
    def is_terminal(self) -> bool:
        return self >= RequestState.FINISHED


class Tier(enum.IntEnum):
    """Degradation tier a request is served at (design.md §4); every reply names it."""

    NORMAL = 1  # predicted under cap_ms: full context, requested tokens, speculation allowed
    CAP = 2  # predicted past cap_ms: at most cap_tokens new tokens
    FAST = 3  # predicted past fast_ms, or forced: capped tokens, smaller context, no speculation

    @property
    def label(self) -> str:
        """Name used in replies, logs and metrics: "normal", "cap" or "fast"."""
        return self.name.lower()


class EndReason(enum.Enum):
    """Why a scheduled request ended; see END_TABLE for its terminal state and error code."""

    COMPLETED = "completed"  # the engine finished it normally (stop, length, newline, ...)
    DEADLINE = "deadline"  # stopped at its deadline; the reply carries what was generated
    ERROR = "error"  # the engine reported an error
    CANCELLED = "cancelled"  # cancel() by the client, or the client vanished
    SUPERSEDED = "superseded"  # a newer completion for the same document replaced it
    PREEMPTED = "preempted"  # background work stopped to make room for interactive work
    SHED = "shed"  # refused: predicted past its deadline even in fast mode, or queue full
    EXPIRED = "expired"  # its deadline passed while it was still queued


@dataclass(frozen=True, slots=True)
class EndInfo:
    """One row of the finish-reason table."""

    state: RequestState  # terminal state the request ends in
    error_code: str  # app.errors code sent to the client; "" when the reply is a completion
    engine_reason: FinishReason | None  # engine finish reason implied; None: the engine's own


# The one finish-reason table of the scheduler.
END_TABLE: dict[EndReason, EndInfo] = {
    EndReason.COMPLETED: EndInfo(RequestState.FINISHED, "", None),
    EndReason.DEADLINE: EndInfo(RequestState.FINISHED, "", FinishReason.DEADLINE),
    EndReason.ERROR: EndInfo(RequestState.FINISHED, "engine", FinishReason.ERROR),
    EndReason.CANCELLED: EndInfo(RequestState.CANCELLED, "cancelled", FinishReason.CANCELLED),
    EndReason.SUPERSEDED: EndInfo(RequestState.CANCELLED, "cancelled", FinishReason.CANCELLED),
    EndReason.PREEMPTED: EndInfo(RequestState.CANCELLED, "cancelled", FinishReason.CANCELLED),
    EndReason.SHED: EndInfo(RequestState.SHED, "overloaded", None),
    EndReason.EXPIRED: EndInfo(RequestState.SHED, "deadline", None),
}


@dataclass(frozen=True, slots=True)
class NewRequest:
    """What the server tells the scheduler about a new request (no source text)."""

    request_id: str  # unique among live requests; cancel() and results use it
    document: str  # document identity (path); a newer INTERACTIVE request for it supersedes
    priority: Priority  # INTERACTIVE (an editor waits) or BACKGROUND (warm-up, indexing)
    num_prompt_tokens: int  # estimated prompt tokens at the normal budget (e.g. budget_tokens)
    max_new_tokens: int  # tokens asked for; tier CAP/FAST lower it to cap_tokens
    deadline_ms: float | None = None  # from arrival; None: the scheduler's default deadline
    num_cached_tokens: int | None = None  # prompt tokens expected from the KV cache; None: learn
    # the same for the fast tier's smaller prompt (None: num_cached_tokens, capped at that prompt)
    num_cached_tokens_fast: int | None = None
    # estimated prompt tokens at the fast budget (None: num_prompt_tokens x fast_budget_factor)
    num_prompt_tokens_fast: int | None = None
    prefill_only: bool = False  # warm-up: no new tokens (max_new_tokens is ignored)
    # warm-up: what a completion at the document would still prefill once the warm-up is done
    # (the edit, the FIM suffix) and the tokens it would ask for; they choose the warm-up's
    # tier, so that it prefills the prompt the completions will use (None: tier NORMAL)
    followup_uncached_tokens: int | None = None
    followup_new_tokens: int = 0

    @classmethod
    def completion(
        cls,
        request_id: str,
        document: str,
        *,
        num_prompt_tokens: int,
        max_new_tokens: int,
        deadline_ms: float | None = None,
        num_cached_tokens: int | None = None,
        num_cached_tokens_fast: int | None = None,
        num_prompt_tokens_fast: int | None = None,
    ) -> NewRequest:
        """An interactive completion (an editor is waiting)."""
        return cls(
            request_id=request_id,
            document=document,
            priority=Priority.INTERACTIVE,
            num_prompt_tokens=num_prompt_tokens,
            max_new_tokens=max_new_tokens,
            deadline_ms=deadline_ms,
            num_cached_tokens=num_cached_tokens,
            num_cached_tokens_fast=num_cached_tokens_fast,
            num_prompt_tokens_fast=num_prompt_tokens_fast,
        )

    @classmethod
    def warmup(
        cls,
        request_id: str,
        document: str,
        *,
        num_prompt_tokens: int,
        num_cached_tokens: int | None = None,
        followup_uncached_tokens: int | None = None,
        followup_new_tokens: int = 0,
    ) -> NewRequest:
        """Background prefill of a document's prompt (cursor moved; fill the KV cache)."""
        return cls(
            request_id=request_id,
            document=document,
            priority=Priority.BACKGROUND,
            num_prompt_tokens=num_prompt_tokens,
            max_new_tokens=0,
            num_cached_tokens=num_cached_tokens,
            prefill_only=True,
            followup_uncached_tokens=followup_uncached_tokens,
            followup_new_tokens=followup_new_tokens,
        )

    @classmethod
    def background(
        cls, request_id: str, document: str, *, num_prompt_tokens: int, max_new_tokens: int
    ) -> NewRequest:
        """Other background generation (prefetch, indexing summaries); yields to interactive."""
        return cls(
            request_id=request_id,
            document=document,
            priority=Priority.BACKGROUND,
            num_prompt_tokens=num_prompt_tokens,
            max_new_tokens=max_new_tokens,
        )


@dataclass(frozen=True, slots=True)
class Prediction:
    """A latency prediction for one request, in ms from its arrival."""

    elapsed_ms: float  # already waited since arrival
    wait_ms: float  # work ahead of it in the engine, divided by capacity
    service_ms: float  # its own time at the tier chosen
    total_ms: float  # elapsed + wait + service: what the tier decision and shedding use
    normal_total_ms: float  # the same at tier NORMAL (what chose the tier)
    num_ahead: int  # requests running or queued ahead of it


@dataclass(frozen=True, slots=True)
class StartInstruction:
    """Start this request in the engine now, with these settings."""

    request_id: str
    tier: Tier  # tier it is served at; the reply names it
    watch: bool  # tier NORMAL but predicted past normal_ms (800-1500 ms): flagged in metrics
    max_new_tokens: int  # tokens to ask the engine for (capped at tiers CAP and FAST)
    budget_factor: float  # multiply the context budget by this (1.0, or fast_budget_factor)
    speculation: bool  # allow speculative decoding (False at tier FAST)
    deadline: float | None  # engine backstop: soft deadline + hard grace, on the `now` clock
    prediction: Prediction  # the figures behind the decision (for logs and the reply)


@dataclass(frozen=True, slots=True)
class CancelInstruction:
    """Cancel this request in the engine (engine.cancel); its Finished still comes back."""

    request_id: str
    reason: EndReason  # CANCELLED, SUPERSEDED, PREEMPTED, or DEADLINE (finish with what it has)


@dataclass(frozen=True, slots=True)
class RequestEnded:
    """A request reached its terminal state; emitted exactly once per added request."""

    request_id: str
    reason: EndReason  # why it ended (END_TABLE row)
    state: RequestState  # its terminal state
    tier: Tier | None  # tier it ran at; None when it never started
    engine_reason: FinishReason | None  # the engine's finish reason, when the engine ended it
    error_code: str  # app.errors code for the reply; "" when the reply is a completion
    detail: str  # human-readable reason, e.g. "overloaded: predicted 4100 ms > deadline ..."


@dataclass(frozen=True, slots=True)
class SchedulerOutput:
    """What one schedule() call decided; apply all of it before the next step."""

    start: tuple[StartInstruction, ...] = ()  # submit these to the engine, in this order
    cancel: tuple[CancelInstruction, ...] = ()  # engine.cancel() these running requests
    ended: tuple[RequestEnded, ...] = ()  # ended without (more) engine work: reply now

    @property
    def is_empty(self) -> bool:
        return not (self.start or self.cancel or self.ended)


class LatencyModel:
    """Rolling figures (EWMA) of the engine's speed, fed from finished requests.

    Priors are the CPU figures of design.md §7 (prefill ~150 tokens/s, decode ~35 tokens/s); the
    first real sample of each figure replaces its prior. The per-token rates are then the median
    of the last ``RATE_WINDOW`` samples: the first prefill after the model loads runs 5-7x slower
    than the rest (45 vs 6-10 ms/token on 2 cores), and an EWMA kept that outlier in the
    predictions for tens of requests. The other figures are blended with ``alpha``.
    ``fill_ratio`` is the share of ``max_new_tokens`` requests really generate (they stop at a
    newline or a stop string), so predictions are not always the worst case.
    """

    MIN_PREFILL_SAMPLE = 16  # uncached prompt tokens below this say more about overhead than rate
    MIN_DECODE_SAMPLE = 2  # generated tokens below this: first-token time dominates
    RATE_WINDOW = 9  # samples behind each per-token rate (their median)

    def __init__(
        self,
        *,
        alpha: float = 0.2,
        prefill_ms_per_token: float = 6.0,
        decode_ms_per_token: float = 28.0,
        overhead_ms: float = 30.0,
        cached_share: float = 0.0,
        fill_ratio: float = 1.0,
    ) -> None:
        if not 0.0 < alpha <= 1.0:
            raise ValueError("alpha must be in (0, 1]")
        self.alpha = alpha  # weight of a new sample in every EWMA
        self.prefill_ms_per_token = prefill_ms_per_token  # per uncached prompt token
        self.decode_ms_per_token = decode_ms_per_token  # per generated token (speculation incl.)
        self.overhead_ms = overhead_ms  # per request: total - queue - prefill - decode
        self.cached_share = cached_share  # share of prompt tokens reused from the KV cache
        self.fill_ratio = fill_ratio  # generated / max_new_tokens of requests that ran to the end
        self.num_samples = 0  # results observed
        self._seen: set[str] = set()  # figures that have had their first real sample
        self._rates: dict[str, deque[float]] = {
            name: deque(maxlen=self.RATE_WINDOW)
            for name in ("prefill_ms_per_token", "decode_ms_per_token")
        }

    def _blend(self, name: str, value: float) -> None:
        window = self._rates.get(name)
        if window is not None:
            window.append(value)
            setattr(self, name, statistics.median(window))
            return
        if name not in self._seen:
            self._seen.add(name)
            setattr(self, name, value)
            return
        old: float = getattr(self, name)
        setattr(self, name, old + self.alpha * (value - old))

    def observe(
        self,
        stats: GenerationStats,
        *,
        max_new_tokens: int | None = None,
        extra_ms: float = 0.0,
    ) -> None:
        """Fold one finished request's figures in (called by Scheduler.update_from_result).

        ``max_new_tokens``: what the request asked for, when it ran to its natural end; it
        teaches ``fill_ratio``. ``extra_ms``: time spent outside the engine (context assembly,
        post-processing), counted as per-request overhead. Figures a request did not exercise
        (no decode for a warm-up) are left alone.
        """
        self.num_samples += 1
        uncached = stats.num_prompt_tokens - stats.num_cached_tokens
        if stats.num_prompt_tokens > 0:
            self._blend("cached_share", max(0.0, stats.num_cached_tokens) / stats.num_prompt_tokens)
        if uncached >= self.MIN_PREFILL_SAMPLE and stats.prefill_ms > 0:
            self._blend("prefill_ms_per_token", stats.prefill_ms / uncached)
        if stats.num_generated_tokens >= self.MIN_DECODE_SAMPLE and stats.decode_ms > 0:
            self._blend("decode_ms_per_token", stats.decode_ms / stats.num_generated_tokens)
        if stats.total_ms > 0:
            rest = stats.total_ms - stats.queue_ms - stats.prefill_ms - stats.decode_ms
            self._blend("overhead_ms", max(0.0, rest) + max(0.0, extra_ms))
        if max_new_tokens:
            ratio = min(1.0, stats.num_generated_tokens / max_new_tokens)
            self._blend("fill_ratio", max(0.05, ratio))

    def service_ms(
        self, *, num_prompt_tokens: int, max_new_tokens: int, num_cached_tokens: int | None
    ) -> float:
        """Predicted time in the engine for one request run alone.

        overhead + uncached prompt tokens x prefill ms/token + expected new tokens x decode
        ms/token, where expected new tokens = max_new_tokens x fill_ratio.
        """
        prompt = max(0, num_prompt_tokens)
        if num_cached_tokens is None:
            cached = prompt * self.cached_share
        else:
            cached = float(min(prompt, max(0, num_cached_tokens)))
        expected_new = max(0, max_new_tokens) * self.fill_ratio
        return (
            self.overhead_ms
            + (prompt - cached) * self.prefill_ms_per_token
            + expected_new * self.decode_ms_per_token
        )

    def snapshot(self) -> dict[str, float]:
        """Current figures, for status: prefill/decode ms per token, overhead, shares."""
        return {
            "prefill_ms_per_token": round(self.prefill_ms_per_token, 3),
            "decode_ms_per_token": round(self.decode_ms_per_token, 3),
            "overhead_ms": round(self.overhead_ms, 3),
            "cached_share": round(self.cached_share, 3),
            "fill_ratio": round(self.fill_ratio, 3),
            "num_samples": float(self.num_samples),
        }


@dataclass(slots=True)
class _Entry:
    """The scheduler's mutable record of one live request."""

    spec: NewRequest  # what add_request was given
    seq: int  # arrival order
    arrival: float  # `now` at add_request
    deadline: float | None  # absolute soft deadline; None for background work
    deadline_ms: float | None  # the same, relative to arrival
    state: RequestState = RequestState.WAITING
    tier: Tier | None = None  # tier it started at
    started_at: float | None = None  # `now` of the schedule() that started it
    service_ms: float = 0.0  # predicted engine time at its tier
    max_new_tokens: int = 0  # tokens it was started with
    num_produced: int = 0  # tokens reported by record_progress
    pending: EndReason | None = None  # cancellation recorded, applied at the next schedule()
    pending_detail: str = ""  # reason text for the pending end
    stopping: EndReason | None = None  # cancel sent to the engine; the end comes with Finished
    in_engine: bool = False  # occupies an engine slot until the engine's Finished arrives

    def set_state(self, state: RequestState) -> None:
        if state < self.state or self.state.is_terminal:
            raise AssertionError(f"request state may only move forward: {self.state} -> {state}")
        self.state = state


_DONE_MEMORY = 4096  # terminal states remembered for state_of()


class Scheduler:
    """Orders requests, decides tiers from predicted latency, sheds, supersedes, cancels."""

    def __init__(
        self,
        tiers: TierConfig,
        *,
        capacity: int = 1,
        model: LatencyModel | None = None,
        default_deadline_ms: float | None = None,
        hard_deadline_grace_ms: float = 1000.0,
        preempt_background: bool = True,
        max_waiting: int = 256,
    ) -> None:
        """``capacity``: requests the engine runs at once (1, or max_batch when it batches).
        ``default_deadline_ms``: for requests without one; None means ``tiers.fast_ms``.
        ``hard_deadline_grace_ms``: a running request that produced nothing by its deadline is
        stopped this much later. ``preempt_background``: cancel running background work when
        interactive work waits and the engine is full (a warm-up of the same document is kept
        when it ends in time for it: it is doing the waiting request's prefill).
        ``max_waiting``: past this, new requests are shed at once ("queue full").
        """
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._tiers = tiers
        self._capacity = capacity
        self._model = model or LatencyModel()
        self._default_deadline_ms = default_deadline_ms
        self._grace_ms = hard_deadline_grace_ms
        self._preempt_background = preempt_background
        self._max_waiting = max_waiting
        self._force_fast = False
        self._live: dict[str, _Entry] = {}
        self._done: OrderedDict[str, RequestState] = OrderedDict()
        self._seq = 0

    # -- configuration ---------------------------------------------------------------------------

    @property
    def model(self) -> LatencyModel:
        return self._model

    @property
    def force_fast(self) -> bool:
        """True when fast mode is forced by the tray toggle or by ``tiers.force_fast``."""
        return self._force_fast or self._tiers.force_fast

    def configure(self, tiers: TierConfig, *, capacity: int | None = None) -> None:
        """Apply a configuration change (tiers, forced fast mode, capacity) from the next step."""
        self._tiers = tiers
        if capacity is not None:
            if capacity < 1:
                raise ValueError("capacity must be at least 1")
            self._capacity = capacity

    def set_force_fast(self, on: bool) -> None:
        """Tray toggle: every interactive request starts at tier FAST while on (``tiers.
        force_fast`` in the config forces it too)."""
        self._force_fast = on

    # -- requests in -----------------------------------------------------------------------------

    def _deadline_ms(self, spec: NewRequest) -> float | None:
        if spec.priority is not Priority.INTERACTIVE:
            return None
        if spec.deadline_ms is not None:
            return spec.deadline_ms
        if self._default_deadline_ms is not None:
            return self._default_deadline_ms
        return self._tiers.fast_ms

    def add_request(self, request: NewRequest, now: float) -> None:
        """Queue a request. A newer interactive request for the same document supersedes older
        live requests of that document (waiting ones of any priority, running interactive ones);
        a newer background request supersedes waiting background work of its document. Applied
        at the next schedule(). Raises InputError for a live duplicate id."""
        if request.request_id in self._live:
            raise InputError(f"request id {request.request_id!r} is already in use")
        self._done.pop(request.request_id, None)
        if request.document:
            for other in self._live.values():
                if other.spec.document != request.document or other.pending is not None:
                    continue
                if other.state.is_terminal or other.stopping is not None:
                    continue
                waiting = other.state is RequestState.WAITING
                if request.priority is Priority.INTERACTIVE:
                    hit = waiting or other.spec.priority is Priority.INTERACTIVE
                else:
                    hit = waiting and other.spec.priority is Priority.BACKGROUND
                if hit:
                    other.pending = EndReason.SUPERSEDED
                    other.pending_detail = f"superseded by {request.request_id}"
        deadline_ms = self._deadline_ms(request)
        entry = _Entry(
            spec=request,
            seq=self._seq,
            arrival=now,
            deadline=None if deadline_ms is None else now + deadline_ms / 1000.0,
            deadline_ms=deadline_ms,
        )
        self._seq += 1
        if self.num_waiting >= self._max_waiting:
            entry.pending = EndReason.SHED
            entry.pending_detail = f"overloaded: queue full ({self.num_waiting} waiting)"
        self._live[request.request_id] = entry

    def cancel(self, request_id: str) -> None:
        """Mark a request cancelled; applied at the next schedule(). Unknown/ended ids: no-op.
        A request whose result arrives before that schedule() is delivered as finished."""
        entry = self._live.get(request_id)
        if entry is None or entry.state.is_terminal or entry.stopping is not None:
            return
        if entry.pending is None:
            entry.pending = EndReason.CANCELLED
            entry.pending_detail = "cancelled by the client"

    def cancel_document(self, document: str) -> None:
        """Cancel every live request of a document (document closed)."""
        for request_id, entry in list(self._live.items()):
            if entry.spec.document == document:
                self.cancel(request_id)

    # -- one step --------------------------------------------------------------------------------

    def schedule(self, now: float) -> SchedulerOutput:
        """One step: apply cancellations, stop running requests past their deadline, shed or
        expire hopeless waiting requests, preempt background work, and start what fits.

        Waiting requests are taken interactive first, then in arrival order. For each one the
        prediction is: waited so far + work ahead (remaining work of running requests and the
        predicted work of the waiting requests before it, over the capacity; 0 when a slot is
        free) + its own service time. The tier follows from the NORMAL-tier prediction; a
        request predicted past its deadline even at tier FAST is shed when there is work ahead of
        it (alone in an idle engine it starts at FAST and the deadline check cuts it short).
        """
        ended: list[RequestEnded] = []
        cancels: list[CancelInstruction] = []
        starts: list[StartInstruction] = []

        # 1. cancellations recorded since the last step, in arrival order
        for entry in sorted(self._live.values(), key=lambda e: e.seq):
            if entry.pending is None or entry.state.is_terminal:
                continue
            reason, detail = entry.pending, entry.pending_detail
            entry.pending = None
            if entry.state is RequestState.RUNNING:
                cancels.append(CancelInstruction(entry.spec.request_id, reason))
            ended.append(self._end(entry, reason, detail=detail))

        # 2. running requests past their deadline finish with what they have
        for entry in self._live.values():
            if entry.state is not RequestState.RUNNING or entry.stopping is not None:
                continue
            if entry.deadline is None or now < entry.deadline:
                continue
            hard = entry.deadline + self._grace_ms / 1000.0
            if entry.num_produced > 0 or now >= hard:
                entry.stopping = EndReason.DEADLINE
                cancels.append(CancelInstruction(entry.spec.request_id, EndReason.DEADLINE))

        waiting = sorted(
            (e for e in self._live.values() if e.state is RequestState.WAITING),
            key=lambda e: (e.spec.priority, e.seq),
        )

        # 3. expire interactive requests whose deadline passed in the queue
        still: list[_Entry] = []
        for entry in waiting:
            if entry.deadline is not None and now >= entry.deadline:
                waited = (now - entry.arrival) * 1000.0
                detail = (
                    f"deadline passed while queued: waited {waited:.0f} ms > deadline "
                    f"{entry.deadline_ms or 0.0:.0f} ms"
                )
                ended.append(self._end(entry, EndReason.EXPIRED, detail=detail))
            else:
                still.append(entry)
        waiting = still

        # 4. preempt background work when interactive work cannot start
        in_engine = [e for e in self._live.values() if e.in_engine]
        free = self._capacity - len(in_engine)
        interactive = [e for e in waiting if e.spec.priority is Priority.INTERACTIVE]
        if self._preempt_background and len(interactive) > free:
            docs = {e.spec.document for e in interactive if e.spec.document}
            need = len(interactive) - free
            victims = sorted(
                (
                    e
                    for e in in_engine
                    if e.state is RequestState.RUNNING
                    and e.stopping is None
                    and e.spec.priority is Priority.BACKGROUND
                    and not (
                        e.spec.prefill_only
                        and e.spec.document in docs
                        and self._warmup_in_time(e, interactive, now)
                    )
                ),
                key=lambda e: -e.seq,
            )
            for entry in victims[:need]:
                cancels.append(CancelInstruction(entry.spec.request_id, EndReason.PREEMPTED))
                ended.append(
                    self._end(entry, EndReason.PREEMPTED, detail="preempted by interactive work")
                )

        # 5. walk the queue: shed, decide tiers, start what fits
        running_left = sum(self._remaining_ms(e, now) for e in in_engine)
        num_running = len(in_engine)
        queued_ms = 0.0
        num_queued_ahead = 0
        for entry in waiting:
            spec = entry.spec
            if spec.priority is Priority.BACKGROUND:
                if free <= 0 or any(
                    e.spec.priority is Priority.INTERACTIVE
                    for e in waiting
                    if e.state is RequestState.WAITING
                ):
                    continue
                tier = self._warmup_tier(spec) if spec.prefill_only else Tier.NORMAL
                service = self._tier_service(spec, tier)
                elapsed = (now - entry.arrival) * 1000.0
                pred = Prediction(
                    elapsed, 0.0, service, elapsed + service, elapsed + service, num_running
                )
                starts.append(self._start(entry, now, tier, False, pred, service))
                free -= 1
                continue
            wait = 0.0 if free > 0 else (running_left + queued_ms) / self._capacity
            num_ahead = num_running + num_queued_ahead
            tier, watch, pred, fast_total = self._decide(entry, now, wait, num_ahead)
            if entry.deadline_ms is not None and fast_total > entry.deadline_ms and wait > 0:
                detail = (
                    f"overloaded: predicted {fast_total:.0f} ms > deadline "
                    f"{entry.deadline_ms:.0f} ms with {num_ahead} queued"
                )
                ended.append(self._end(entry, EndReason.SHED, detail=detail))
                continue
            if free > 0:
                starts.append(self._start(entry, now, tier, watch, pred, pred.service_ms))
                free -= 1
                running_left += pred.service_ms
                num_running += 1
            else:
                queued_ms += pred.service_ms
                num_queued_ahead += 1
        return SchedulerOutput(start=tuple(starts), cancel=tuple(cancels), ended=tuple(ended))

    def _remaining_ms(self, entry: _Entry, now: float) -> float:
        if entry.state is not RequestState.RUNNING or entry.stopping is not None:
            return 0.0  # cancelled or being stopped: gone within a token
        started = entry.started_at if entry.started_at is not None else now
        return max(0.0, entry.service_ms - (now - started) * 1000.0)

    def _warmup_in_time(self, warm: _Entry, interactive: list[_Entry], now: float) -> bool:
        """Whether a running warm-up ends in time for an interactive request of its document
        (with that request served at the fast tier after it): then it is doing that request's
        prefill and is kept. Otherwise it is pre-empted like other background work; the
        engine keeps what it prefilled, so a request with the same prompt goes on from there."""
        left = self._remaining_ms(warm, now)
        for entry in interactive:
            if entry.spec.document != warm.spec.document:
                continue
            if entry.deadline is None:
                return True
            if left + self._tier_service(entry.spec, Tier.FAST) <= (entry.deadline - now) * 1000:
                return True
        return False

    def _warmup_tier(self, spec: NewRequest) -> Tier:
        """The tier of a warm-up: FAST (its smaller prompt) when the completions at the warmed
        document will be served in fast mode anyway: forced; or its own prefill at the normal
        budget is predicted past ``fast_ms`` (completions arriving meanwhile find the document
        cold and go to the fast tier); or a completion would be predicted past ``fast_ms`` at
        the normal budget even with the warm-up's prefill cached. Else NORMAL. A warm-up at the
        wrong budget fills the KV cache with a prompt no completion reuses."""
        if self.force_fast:
            return Tier.FAST
        if spec.followup_uncached_tokens is None:
            return Tier.NORMAL
        own = self._tier_service(spec, Tier.NORMAL)
        followup = self._model.service_ms(
            num_prompt_tokens=spec.num_prompt_tokens,
            max_new_tokens=spec.followup_new_tokens,
            num_cached_tokens=spec.num_prompt_tokens - spec.followup_uncached_tokens,
        )
        fast = max(own, followup) > self._tiers.fast_ms
        return Tier.FAST if fast else Tier.NORMAL

    def _tier_service(self, spec: NewRequest, tier: Tier) -> float:
        tokens = 0 if spec.prefill_only else spec.max_new_tokens
        prompt = spec.num_prompt_tokens
        cached = spec.num_cached_tokens
        if tier >= Tier.CAP:
            tokens = min(tokens, self._tiers.cap_tokens)
        if tier is Tier.FAST:
            if spec.num_prompt_tokens_fast is not None:
                prompt = spec.num_prompt_tokens_fast
            else:
                prompt = int(prompt * self._tiers.fast_budget_factor)
            if spec.num_cached_tokens_fast is not None:
                cached = spec.num_cached_tokens_fast
            cached = None if cached is None else min(cached, prompt)
        return self._model.service_ms(
            num_prompt_tokens=prompt, max_new_tokens=tokens, num_cached_tokens=cached
        )

    def _decide(
        self, entry: _Entry, now: float, wait_ms: float, num_ahead: int
    ) -> tuple[Tier, bool, Prediction, float]:
        """Tier, watch flag, prediction at that tier, and the total predicted at tier FAST."""
        elapsed = (now - entry.arrival) * 1000.0
        normal_total = elapsed + wait_ms + self._tier_service(entry.spec, Tier.NORMAL)
        t = self._tiers
        if self.force_fast or normal_total > t.fast_ms:
            tier = Tier.FAST
        elif normal_total > t.cap_ms:
            tier = Tier.CAP
        else:
            tier = Tier.NORMAL
        watch = tier is Tier.NORMAL and normal_total > t.normal_ms
        service = self._tier_service(entry.spec, tier)
        fast_total = elapsed + wait_ms + self._tier_service(entry.spec, Tier.FAST)
        pred = Prediction(
            elapsed_ms=elapsed,
            wait_ms=wait_ms,
            service_ms=service,
            total_ms=elapsed + wait_ms + service,
            normal_total_ms=normal_total,
            num_ahead=num_ahead,
        )
        return tier, watch, pred, fast_total

    def _start(
        self, entry: _Entry, now: float, tier: Tier, watch: bool, pred: Prediction, service: float
    ) -> StartInstruction:
        spec = entry.spec
        max_new = 0 if spec.prefill_only else spec.max_new_tokens
        if tier >= Tier.CAP:
            max_new = min(max_new, self._tiers.cap_tokens)
        entry.set_state(RequestState.RUNNING)
        entry.tier = tier
        entry.started_at = now
        entry.service_ms = service
        entry.max_new_tokens = max_new
        entry.in_engine = True
        hard = None
        if entry.deadline is not None:
            hard = entry.deadline + self._grace_ms / 1000.0
        return StartInstruction(
            request_id=spec.request_id,
            tier=tier,
            watch=watch,
            max_new_tokens=max_new,
            budget_factor=self._tiers.fast_budget_factor if tier is Tier.FAST else 1.0,
            speculation=tier is not Tier.FAST,
            deadline=hard,
            prediction=pred,
        )

    def _end(
        self,
        entry: _Entry,
        reason: EndReason,
        *,
        detail: str = "",
        engine_reason: FinishReason | None = None,
    ) -> RequestEnded:
        info = END_TABLE[reason]
        entry.set_state(info.state)
        if not entry.in_engine:
            self._forget(entry)
        return RequestEnded(
            request_id=entry.spec.request_id,
            reason=reason,
            state=info.state,
            tier=entry.tier,
            engine_reason=engine_reason if engine_reason is not None else info.engine_reason,
            error_code=info.error_code,
            detail=detail,
        )

    def _forget(self, entry: _Entry) -> None:
        self._live.pop(entry.spec.request_id, None)
        self._done[entry.spec.request_id] = entry.state
        while len(self._done) > _DONE_MEMORY:
            self._done.popitem(last=False)

    # -- results in ------------------------------------------------------------------------------

    def record_progress(self, request_id: str, now: float, *, num_tokens: int = 1) -> None:
        """A text chunk arrived for a running request (it has produced something): past its
        deadline it is stopped at the next schedule() with what it has."""
        entry = self._live.get(request_id)
        if entry is not None and entry.state is RequestState.RUNNING:
            entry.num_produced += max(1, num_tokens)

    def update_from_result(
        self,
        request_id: str,
        stats: GenerationStats,
        now: float,
        *,
        reason: FinishReason = FinishReason.STOP,
        extra_ms: float = 0.0,
    ) -> tuple[RequestEnded, ...]:
        """The engine's Finished arrived: feed the latency model, free the slot, and return the
        RequestEnded event (empty when it had already ended, e.g. cancelled, or is unknown).

        ``extra_ms``: time the request spent outside the engine before it was submitted
        (context assembly); it is learnt as overhead so predictions cover it. Results with
        reason ERROR teach the model nothing.
        """
        entry = self._live.get(request_id)
        if entry is None:
            return ()
        natural = reason not in (FinishReason.CANCELLED, FinishReason.DEADLINE, FinishReason.ERROR)
        # a request cancelled before its first token may have stopped mid-prefill: no lesson
        cut_early = reason is FinishReason.CANCELLED and entry.num_produced == 0
        if reason is not FinishReason.ERROR and not cut_early and entry.started_at is not None:
            fill = entry.max_new_tokens if natural and not entry.spec.prefill_only else None
            self._model.observe(stats, max_new_tokens=fill or None, extra_ms=extra_ms)
        entry.in_engine = False
        if entry.state.is_terminal:
            self._forget(entry)
            return ()
        if entry.stopping is EndReason.DEADLINE or reason is FinishReason.DEADLINE:
            end = EndReason.DEADLINE
            detail = f"deadline {entry.deadline_ms or 0.0:.0f} ms: finished with what it had"
        elif reason is FinishReason.ERROR:
            end, detail = EndReason.ERROR, "the engine reported an error"
        elif reason is FinishReason.CANCELLED:
            end, detail = EndReason.CANCELLED, "cancelled by the engine"
        else:
            end, detail = EndReason.COMPLETED, ""
        entry.pending = None
        engine_reason = FinishReason.DEADLINE if end is EndReason.DEADLINE else reason
        return (self._end(entry, end, detail=detail, engine_reason=engine_reason),)

    # -- queries ---------------------------------------------------------------------------------

    def predict(self, request: NewRequest, now: float) -> Prediction:
        """Predicted latency at tier NORMAL if this request were queued now behind every live
        interactive request (status, tests). Does not change any state."""
        in_engine = [e for e in self._live.values() if e.in_engine]
        ahead = [
            e
            for e in self._live.values()
            if e.state is RequestState.WAITING
            and e.pending is None
            and e.spec.priority <= request.priority
        ]
        free = self._capacity - len(in_engine) - len(ahead)
        work = sum(self._remaining_ms(e, now) for e in in_engine)
        work += sum(self._tier_service(e.spec, Tier.NORMAL) for e in ahead)
        wait = 0.0 if free > 0 else work / self._capacity
        service = self._tier_service(request, Tier.NORMAL)
        return Prediction(
            0.0, wait, service, wait + service, wait + service, len(in_engine) + len(ahead)
        )

    def state_of(self, request_id: str) -> RequestState | None:
        """Current state; recent terminal states are remembered; None when unknown."""
        entry = self._live.get(request_id)
        if entry is not None:
            return entry.state
        return self._done.get(request_id)

    def tier_of(self, request_id: str) -> Tier | None:
        """Tier a live request started at; None when waiting or unknown."""
        entry = self._live.get(request_id)
        return entry.tier if entry is not None else None

    @property
    def num_waiting(self) -> int:
        return sum(1 for e in self._live.values() if e.state is RequestState.WAITING)

    @property
    def num_running(self) -> int:
        """Requests occupying the engine (including cancelled ones not yet confirmed)."""
        return sum(1 for e in self._live.values() if e.in_engine)

    def live_ids(self) -> Iterable[str]:
        """Ids of requests waiting, running or still draining from the engine."""
        return tuple(self._live)

    def snapshot(self) -> dict[str, Any]:
        """Queue depth, running, forced fast, latency model figures: for status and the tray."""
        return {
            "waiting": self.num_waiting,
            "waiting_interactive": sum(
                1
                for e in self._live.values()
                if e.state is RequestState.WAITING and e.spec.priority is Priority.INTERACTIVE
            ),
            "running": self.num_running,
            "capacity": self._capacity,
            "force_fast": self.force_fast,
            "model": self._model.snapshot(),
        }
