"""What the daemon and the scheduler tell each other: request states, tiers, end reasons, the
new-request description and the instructions ``Scheduler.schedule`` returns (no logic)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.base import FinishReason, Priority


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
        num_cached_tokens_fast: int | None = None,
        num_prompt_tokens_fast: int | None = None,
    ) -> NewRequest:
        """Background prefill of a document's prompt (cursor moved; fill the KV cache)."""
        return cls(
            request_id=request_id,
            document=document,
            priority=Priority.BACKGROUND,
            num_prompt_tokens=num_prompt_tokens,
            max_new_tokens=0,
            num_cached_tokens=num_cached_tokens,
            num_cached_tokens_fast=num_cached_tokens_fast,
            num_prompt_tokens_fast=num_prompt_tokens_fast,
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
