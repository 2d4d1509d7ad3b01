"""The daemon's final replies, built from what a request went through (pure): the reply stage of
a ``complete`` (``final_reply``: its ``done`` or ``error``), a completion's reply with its tier
and why, timings, context and speculation figures; a cache answer; the finish reason and the
generate answer's code."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from app import config as cfg
from daemon import protocol as p
from daemon.context import DroppedSegment
from daemon.live import Live
from daemon.scheduler import EndReason, RequestEnded, StartInstruction, Tier
from engine.base import Finished, GenerationStats

# A reply lists this many dropped segments at most, then how many more: a buffer of 800,000
# assignments dropped as many candidates, and its reply was 42 MB.
MAX_DROPPED_SHOWN = 32


def dropped_lines(dropped: Sequence[DroppedSegment]) -> list[str]:
    """``"kind source: reason"`` per dropped segment, the first ``MAX_DROPPED_SHOWN``, then
    ``"... N more"``."""
    lines = [f"{d.kind.value} {d.source}: {d.reason}" for d in dropped[:MAX_DROPPED_SHOWN]]
    if len(dropped) > MAX_DROPPED_SHOWN:
        lines.append(f"... {len(dropped) - MAX_DROPPED_SHOWN} more")
    return lines


def done_reply(
    live: Live,
    tier: Tier | None,
    reason: str,
    stats: GenerationStats,
    text: str,
    now: float,
    tiers: cfg.TierConfig,
) -> p.DoneReply:
    """The final reply of a request the engine ran (or began): text, tier and why, timings,
    context and speculation figures."""
    s = live.start
    ctx = live.context
    if stats.total_ms > 0 or live.started_at is None:
        queue_ms = (now - live.arrival) * 1000 - stats.total_ms - live.context_ms
    else:  # answered before the engine's figures came: the scheduler's wait only
        queue_ms = (live.started_at - live.arrival) * 1000
    context = None
    if ctx is not None:
        context = p.ContextStats(
            budget_tokens=ctx.budget_tokens,
            num_tokens=ctx.num_tokens,
            num_tokens_before_trim=ctx.num_tokens_before_trim,
            num_tokens_saved=ctx.num_tokens_saved,
            dropped=dropped_lines(ctx.dropped),
            num_dropped=len(ctx.dropped),
            num_prompt_tokens=stats.num_prompt_tokens,
            num_cached_tokens=stats.num_cached_tokens,
        )
    proposed = stats.num_draft_tokens
    why = tier_reason(s, tiers) if s is not None else ""
    return p.DoneReply(
        id=live.request_id,
        text=text,
        finish_reason=reason,
        tier=tier.value if tier is not None else 0,
        tier_reason=why,
        cache="miss",
        num_tokens=stats.num_generated_tokens,
        timings=p.Timings(
            queue_ms=round(max(0.0, queue_ms), 1),
            context_ms=round(live.context_ms, 1),
            first_token_ms=round((live.first_chunk_at - live.arrival) * 1000, 1)
            if live.first_chunk_at
            else 0.0,
            prefill_ms=round(stats.prefill_ms, 1),
            decode_ms=round(stats.decode_ms, 1),
            total_ms=round((now - live.arrival) * 1000, 1),
        ),
        context=context,
        speculation=p.SpeculationStats(
            used=stats.speculation_used,
            num_draft_tokens=proposed,
            num_accepted=stats.num_draft_accepted,
            acceptance=round(stats.num_draft_accepted / proposed, 3) if proposed else 0.0,
            note=stats.speculation_note,
        ),
    )


def clean_generated(text: str) -> str:
    """The code of a generate answer: up to its closing fence (or a partial one at the end)."""
    text = text.split("```", 1)[0]
    return text.rstrip("`").strip("\n") + "\n" if text.strip() else ""


def finish_reason(ended: RequestEnded, fin: Finished | None) -> str:
    """The engine's finish reason as the scheduler settled it (a deadline stop is "deadline")."""
    if ended.engine_reason is not None:
        return ended.engine_reason.value
    return fin.reason.value if fin is not None else ended.reason.value


def tier_reason(s: StartInstruction, tiers: cfg.TierConfig) -> str:
    """Why a request was served at its tier, from the scheduler's prediction at start."""
    pred = s.prediction
    base = f"predicted {pred.normal_total_ms:.0f} ms at full settings, {pred.num_ahead} ahead"
    if s.tier is Tier.FAST:
        if tiers.force_fast:
            return f"fast mode forced; {base}"
        return f"{base} > {tiers.fast_ms:.0f} ms: fast mode"
    if s.tier is Tier.CAP:
        return f"{base} > {tiers.cap_ms:.0f} ms: at most {tiers.cap_tokens} tokens"
    if s.watch:
        return f"{base} > {tiers.normal_ms:.0f} ms: normal, watched"
    return f"{base}: normal"


def done(
    request_id: str, text: str, reason: str, tier: int, tier_reason: str, cache: str, arrival: float
) -> p.DoneReply:
    total = round((time.monotonic() - arrival) * 1000, 1)
    return p.DoneReply(
        id=request_id,
        text=text,
        finish_reason=reason,
        tier=tier,
        tier_reason=tier_reason,
        cache=cache,
        num_tokens=0,
        timings=p.Timings(
            queue_ms=0.0,
            context_ms=0.0,
            first_token_ms=total if text else 0.0,
            prefill_ms=0.0,
            decode_ms=0.0,
            total_ms=total,
        ),
    )


@dataclass(frozen=True, slots=True)
class ReplyInput:
    """A request the scheduler ended, with what it produced."""

    live: Live  # the request (its error overrides the scheduler's error code when set)
    ended: RequestEnded  # how the scheduler ended it
    fin: Finished | None  # the engine's result (None: ended without the engine)
    stats: GenerationStats  # the engine's figures (empty without the engine)
    text: str  # the post-processed text
    now: float  # monotonic
    tiers: cfg.TierConfig  # config [tiers], for the tier reason


@dataclass(frozen=True, slots=True)
class FinalReply:
    """A request's one final reply."""

    reply: p.DoneReply | p.ErrorReply  # what the client gets
    error_code: str  # "" for a ``done``: the error code otherwise


def final_reply(inp: ReplyInput) -> FinalReply:
    """The ``done`` of a request that produced an answer, else the ``error`` with its code (the
    request's own error when it caused the end, else the scheduler's or the engine's)."""
    live, ended, fin = inp.live, inp.ended, inp.fin
    error_code = ended.error_code
    if live.error is not None and ended.reason in (EndReason.ERROR, EndReason.CANCELLED):
        error_code = live.error.code
    reply: p.DoneReply | p.ErrorReply
    if error_code:
        if live.error is not None and error_code == live.error.code:
            reply = p.error_reply(live.request_id, live.error)
        else:
            message = ended.detail or (fin.error if fin is not None else "") or error_code
            retry = 500 if error_code in ("overloaded", "engine_died") else None
            reply = p.ErrorReply(id=live.request_id, code=error_code, message=message,
                                 retry_after_ms=retry)
    else:
        reply = done_reply(live, ended.tier, finish_reason(ended, fin), inp.stats, inp.text,
                           inp.now, inp.tiers)
    return FinalReply(reply, error_code)
