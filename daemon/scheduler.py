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

The messages (NewRequest, the instructions, states, tiers) live in ``daemon.schedule_types``,
the latency model in ``daemon.latency_model``; both are re-exported here.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.config import TierConfig
from app.errors import InputError
from daemon.fast_budget import FastBudget, tier_budget
from daemon.latency_model import LatencyModel
from daemon.schedule_types import (
    END_TABLE,
    CancelInstruction,
    EndInfo,
    EndReason,
    NewRequest,
    Prediction,
    RequestEnded,
    RequestState,
    SchedulerOutput,
    StartInstruction,
    Tier,
)
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
    fast_budget_tokens: int = 0  # the fast tier's budget when it started (tier FAST)
    num_produced: int = 0  # tokens reported by record_progress
    pending: EndReason | None = None  # cancellation recorded, applied at the next schedule()
    pending_detail: str = ""  # reason text for the pending end
    stopping: EndReason | None = None  # cancel sent to the engine; the end comes with Finished
    in_engine: bool = False  # occupies an engine slot until the engine's Finished arrives
    occupancy_at_start: float = 0.0  # the scheduler's engine occupancy integral when it started

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
        budget_tokens: int = 2048,
        warmup_takeover: bool = False,
    ) -> None:
        """``capacity``: requests the engine runs at once (1, or max_batch when it batches).
        ``default_deadline_ms``: for requests without one; None means ``tiers.fast_ms``.
        ``hard_deadline_grace_ms``: a running request that produced nothing by its deadline is
        stopped this much later. ``preempt_background``: cancel running background work when
        interactive work waits and the engine is full (a warm-up of the same document is kept
        when it ends in time for it: it is doing the waiting request's prefill).
        ``max_waiting``: past this, new requests are shed at once ("queue full").
        ``budget_tokens``: the normal context budget (``context.budget_tokens``); the fast
        tier's is fitted below ``tiers.fast_budget_factor`` of it (daemon.fast_budget).
        ``warmup_takeover``: an interactive request takes over a running warm-up of its
        document (:meth:`_taken_over`); for an engine that declares
        ``Capabilities.resumable_prefill`` (the service sets it once the engine is loaded).
        """
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._tiers = tiers
        self._capacity = capacity
        self._model = model or LatencyModel()
        self._default_deadline_ms = default_deadline_ms
        self._grace_ms = hard_deadline_grace_ms
        self._preempt_background = preempt_background
        self.warmup_takeover = warmup_takeover
        self._max_waiting = max_waiting
        self._force_fast = False
        self._budget_tokens = budget_tokens
        self._fast = FastBudget(self._fast_base(tiers, budget_tokens))
        self._fast_request = (tiers.cap_tokens, self._default_deadline_ms or tiers.fast_ms)
        self._live: dict[str, _Entry] = {}
        self._done: OrderedDict[str, RequestState] = OrderedDict()
        self._seq = 0
        # integral over time of the requests in the engine (request-seconds), and its time:
        # a request's mean company there is what the latency model learns batched speed from
        self._occupancy = 0.0
        self._occupancy_at = 0.0

    # -- configuration ---------------------------------------------------------------------------

    @property
    def model(self) -> LatencyModel:
        return self._model

    @property
    def force_fast(self) -> bool:
        """True when fast mode is forced by the tray toggle or by ``tiers.force_fast``."""
        return self._force_fast or self._tiers.force_fast

    @staticmethod
    def _fast_base(tiers: TierConfig, budget_tokens: int) -> int:
        return tier_budget(budget_tokens, tiers.fast_budget_factor)

    @property
    def fast_budget_factor(self) -> float:
        """The fast tier's budget as a share of the normal one: ``tiers.fast_budget_factor``,
        or a half, a quarter ... of it while the engine is too slow for that (FastBudget)."""
        return self._fast.tokens / self._budget_tokens

    @property
    def fast_budget(self) -> FastBudget:
        return self._fast

    def configure(self, tiers: TierConfig, *, budget_tokens: int | None = None) -> None:
        """Apply a configuration change (tiers, forced fast mode, the normal context budget)
        from the next step."""
        self._tiers = tiers
        if budget_tokens is not None:
            self._budget_tokens = budget_tokens
        base = self._fast_base(tiers, self._budget_tokens)
        if base != self._fast.base_tokens:
            self._fast = FastBudget(base)

    def set_capacity(self, capacity: int) -> None:
        """How many requests the engine runs at once (its batch), from the next step."""
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._capacity = capacity

    def engine_changed(self, model: LatencyModel | None = None) -> None:
        """A new engine (other settings or model): its speed is learnt afresh, from ``model``
        (what an earlier daemon learnt with these settings: ``daemon.speed_store``) or the
        priors, and the fast tier's budget starts again from its configured share."""
        self._model = model or LatencyModel()
        self._fast = FastBudget(self._fast_base(self._tiers, self._budget_tokens))

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
                    # the newer request's key names another client's connection: not shown
                    other.pending_detail = "superseded by a newer request for this document"
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
        interactive = [e for e in waiting if e.spec.priority is Priority.INTERACTIVE]
        taken = self._taken_over(in_engine, interactive)
        for entry in taken:
            cancels.append(CancelInstruction(entry.spec.request_id, EndReason.PREEMPTED))
            ended.append(self._end(entry, EndReason.PREEMPTED,
                                   detail="taken over by a completion of its document"))
        # a stopped request keeps its slot until the engine lets it go; taken-over warm-ups
        # let go at their next prefill step, before the request that took them over starts
        free = self._capacity - len(in_engine) + len(taken)
        if self._preempt_background and interactive and len(interactive) > free:
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
            # the requests it will run beside: those running now, or a full engine when it waits
            beside = num_running if free > 0 else self._capacity - 1
            tier, watch, pred, fast_total = self._decide(entry, now, wait, num_ahead, beside)
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

    def _taken_over(self, in_engine: list[_Entry], interactive: list[_Entry]) -> list[_Entry]:
        """Running warm-ups that waiting interactive requests of their document take over
        (``warmup_takeover``, set from the engine's ``Capabilities.resumable_prefill``): the
        warm-up stops at its next prefill step and the request goes on from the prefix it
        evaluated (the same text up to the cursor's line). Held until the warm-up ended, the
        request also waited for the warm-up's own cursor line and suffix, then prefilled its
        own (150-200 ms each on two cores).

        Only warm-ups at the fast tier, where the document's completions go while it is cold:
        a completion does not count a stopped warm-up as warm, so beside a warm-up at the
        normal tier it went to the fast tier, a smaller prompt that shares nothing with it."""
        if not self.warmup_takeover or not interactive:
            return []
        docs = {e.spec.document for e in interactive if e.spec.document}
        return [
            e for e in in_engine
            if e.state is RequestState.RUNNING and e.stopping is None and e.spec.prefill_only
            and e.spec.priority is Priority.BACKGROUND and e.spec.document in docs
            and e.tier is Tier.FAST
        ]

    def _advance_occupancy(self, now: float) -> None:
        """Bring the engine occupancy integral up to ``now`` (before the requests in the
        engine change)."""
        if now > self._occupancy_at:
            in_engine = sum(1 for e in self._live.values() if e.in_engine)
            self._occupancy += in_engine * (now - self._occupancy_at)
        self._occupancy_at = max(self._occupancy_at, now)

    def _company(self, entry: _Entry, now: float) -> float:
        """How many other requests were in the engine beside ``entry``, on average over its
        time there (it counts itself in the integral: minus one)."""
        if entry.started_at is None or now <= entry.started_at:
            return 0.0
        mean = (self._occupancy - entry.occupancy_at_start) / (now - entry.started_at)
        return max(0.0, mean - 1.0)

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

    def _tier_service(self, spec: NewRequest, tier: Tier, beside: int = 0) -> float:
        """Predicted engine time of ``spec`` at ``tier`` with ``beside`` other requests in the
        engine with it."""
        tokens = 0 if spec.prefill_only else spec.max_new_tokens
        prompt = spec.num_prompt_tokens
        cached = spec.num_cached_tokens
        if tier >= Tier.CAP:
            tokens = min(tokens, self._tiers.cap_tokens)
        if tier is Tier.FAST:
            if spec.num_prompt_tokens_fast is not None:
                prompt = spec.num_prompt_tokens_fast
            else:
                prompt = int(prompt * self.fast_budget_factor)
            if spec.num_cached_tokens_fast is not None:
                cached = spec.num_cached_tokens_fast
            cached = None if cached is None else min(cached, prompt)
        return self._model.service_ms(
            num_prompt_tokens=prompt, max_new_tokens=tokens, num_cached_tokens=cached,
            beside=beside,
        )

    def _decide(
        self, entry: _Entry, now: float, wait_ms: float, num_ahead: int, beside: int = 0
    ) -> tuple[Tier, bool, Prediction, float]:
        """Tier, watch flag, prediction at that tier, and the total predicted at tier FAST,
        for a request that will run beside ``beside`` others in the engine."""
        elapsed = (now - entry.arrival) * 1000.0
        normal_total = elapsed + wait_ms + self._tier_service(entry.spec, Tier.NORMAL, beside)
        t = self._tiers
        if self.force_fast or normal_total > t.fast_ms:
            tier = Tier.FAST
        elif normal_total > t.cap_ms:
            tier = Tier.CAP
        else:
            tier = Tier.NORMAL
        watch = tier is Tier.NORMAL and normal_total > t.normal_ms
        service = self._tier_service(entry.spec, tier, beside)
        fast_total = elapsed + wait_ms + self._tier_service(entry.spec, Tier.FAST, beside)
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
        self._advance_occupancy(now)
        entry.occupancy_at_start = self._occupancy
        entry.tier = tier
        entry.started_at = now
        entry.service_ms = service
        entry.max_new_tokens = max_new
        entry.in_engine = True
        if tier is Tier.FAST:
            entry.fast_budget_tokens = self._fast.tokens
            if spec.priority is Priority.INTERACTIVE and entry.deadline_ms is not None:
                self._fast_request = (max_new, entry.deadline_ms)
        hard = None
        if entry.deadline is not None:
            hard = entry.deadline + self._grace_ms / 1000.0
        return StartInstruction(
            request_id=spec.request_id,
            tier=tier,
            watch=watch,
            max_new_tokens=max_new,
            budget_factor=self.fast_budget_factor if tier is Tier.FAST else 1.0,
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
        self._advance_occupancy(now)
        if reason is not FinishReason.ERROR and not cut_early and entry.started_at is not None:
            fill = entry.max_new_tokens if natural and not entry.spec.prefill_only else None
            self._model.observe(stats, max_new_tokens=fill or None, extra_ms=extra_ms,
                                shared=self._company(entry, now))
            if entry.tier is Tier.FAST:
                self._fast.observe_prompt(entry.fast_budget_tokens, stats.num_prompt_tokens)
            max_new, limit_ms = self._fast_request
            self._fast.update(self._model, limit_ms, max_new)
        elif cut_early and stats.num_prefilled_tokens and entry.started_at is not None:
            self._model.observe_prefill(stats)  # what it evaluated says how fast prefill runs
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
            "fast_budget_tokens": self._fast.tokens,
            "fast_budget": self._fast.note,
            "fast_budget_changes": self._fast.num_changes,
            "model": self._model.snapshot(),
        }
