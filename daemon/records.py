"""Each request's record: built from its :class:`~daemon.live.Live` (pure functions), then
written to the metrics and published to subscribers, now or once the engine has stopped it.

A request answered while the engine still runs it (superseded, cancelled, preempted, answered
at its deadline by the backstop) would be logged without what the engine did for it: a
superseded warm-up showed prompt 0 after prefilling 64 tokens. :class:`Recorder` holds such
records until the engine's Finished brings the figures (:meth:`Recorder.engine_finished`),
and writes them as they are after ``UNRECORDED_MAX_S`` (:meth:`Recorder.flush`), when the
engine dies or at shutdown.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from daemon.events import EventHub
from daemon.live import Live
from daemon.metrics import Metrics, RequestRecord, engine_figures, hash_path
from daemon.replies import finish_reason
from daemon.scheduler import RequestEnded
from engine.base import Finished, GenerationStats

UNRECORDED_MAX_S = 30.0  # a record waiting for the engine's figures is written without them
METRICS_EVENT_DELAY_S = 0.25  # a metrics event this long after a record (once per burst)


def _first_token_ms(live: Live) -> float | None:
    return (live.first_chunk_at - live.arrival) * 1000 if live.first_chunk_at else None


def _since_arrival_ms(live: Live, at: float | None) -> float | None:
    return (at - live.arrival) * 1000 if at is not None else None


def _daemon_figures(live: Live) -> dict[str, Any]:
    """The RequestRecord fields of the daemon's own time: context assembly, held by the
    scheduler (arrival to its start), to the engine's submit."""
    return {
        "context_ms": live.context_ms,
        "held_ms": _since_arrival_ms(live, live.started_at),
        "submit_ms": _since_arrival_ms(live, live.submitted_at),
    }


def cache_record(request_id: str, path: str, total_ms: float) -> RequestRecord:
    """The record of a completion answered from the completion cache (no engine work)."""
    return RequestRecord(
        time=time.time(), request_id=request_id, path_hash=hash_path(path), kind="complete",
        tier="", watch=False, finish_reason="stop", first_token_ms=total_ms,
        total_ms=total_ms, cache_hit=True)


def warmup_record(live: Live, ended: RequestEnded, fin: Finished | None,
                  stats: GenerationStats, now: float) -> RequestRecord:
    """The record of a background warm-up that ended."""
    return RequestRecord(
        time=time.time(), request_id=live.key, path_hash=hash_path(live.path),
        kind="warmup", tier=ended.tier.label if ended.tier is not None else "",
        watch=False, finish_reason=finish_reason(ended, fin), first_token_ms=None,
        total_ms=(now - live.arrival) * 1000, error_code=ended.error_code,
        **engine_figures(stats), **_daemon_figures(live))


def final_record(live: Live, ended: RequestEnded, fin: Finished | None,
                 stats: GenerationStats, now: float, error_code: str) -> RequestRecord:
    """The record of a completion or generation at its final reply."""
    s = live.start
    return RequestRecord(
        time=time.time(), request_id=live.request_id, path_hash=hash_path(live.path),
        kind=live.kind, tier=ended.tier.label if ended.tier is not None else "",
        watch=bool(s and s.watch),
        finish_reason=finish_reason(ended, fin) if not error_code else ended.reason.value,
        first_token_ms=_first_token_ms(live),
        total_ms=(now - live.arrival) * 1000,
        predicted_ms=s.prediction.total_ms if s else None,
        num_tokens_saved=live.context.num_tokens_saved if live.context else 0,
        error_code=error_code, detail=ended.detail if error_code else "",
        **engine_figures(stats), **_daemon_figures(live),
    )


def deadline_record(live: Live, now: float) -> RequestRecord:
    """The record of a request the backstop answered at its deadline (the engine's figures
    come later, :meth:`Recorder.engine_finished`). ``live.start`` must be set."""
    s = live.start
    assert s is not None
    return RequestRecord(
        time=time.time(), request_id=live.request_id, path_hash=hash_path(live.path),
        kind=live.kind, tier=s.tier.label, watch=s.watch, finish_reason="deadline",
        first_token_ms=_first_token_ms(live),
        total_ms=(now - live.arrival) * 1000, predicted_ms=s.prediction.total_ms,
        num_generated_tokens=len(live.streamed),
        num_tokens_saved=live.context.num_tokens_saved if live.context else 0,
        **_daemon_figures(live),
        detail="answered at the deadline; the engine was still busy")


class Recorder:
    """Where records go: ``metrics`` (the request log file, p50/p95), a ``requests`` event, and
    a ``metrics`` event (``metrics_data()``) soon after; event-loop thread only."""

    def __init__(self, metrics: Metrics, events: EventHub,
                 metrics_data: Callable[[], dict[str, Any]]) -> None:
        self.metrics = metrics
        self._events = events
        self._metrics_data = metrics_data
        self._waiting: dict[str, tuple[RequestRecord, float]] = {}  # key -> (record, since)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._metrics_event_pending = False

    def __len__(self) -> int:
        """Records waiting for the engine's figures."""
        return len(self._waiting)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The loop that sends the metrics event after a record."""
        self._loop = loop

    def record(self, record: RequestRecord) -> None:
        self.metrics.record(record)
        self._events.publish("requests", {
            "request_id": record.request_id, "kind": record.kind, "tier": record.tier,
            "watch": record.watch, "finish_reason": record.finish_reason,
            "first_token_ms": record.first_token_ms, "total_ms": round(record.total_ms, 1),
            "cache_hit": record.cache_hit, "error_code": record.error_code,
        })
        if not self._metrics_event_pending and self._loop is not None and self._events:
            self._metrics_event_pending = True
            self._loop.call_later(METRICS_EVENT_DELAY_S, self._metrics_event)

    def _metrics_event(self) -> None:
        self._metrics_event_pending = False
        self._events.publish("metrics", self._metrics_data())

    def hold(self, key: str, record: RequestRecord, now: float) -> None:
        """Keep ``record`` until the engine's Finished for ``key`` brings its figures."""
        self._waiting[key] = (record, now)

    def record_when_stopped(self, live: Live, fin: Finished | None,
                            record: RequestRecord) -> None:
        """Record a request that ended: now, or, when the engine is still running it (ended
        by the scheduler before its Finished came), once that Finished comes."""
        if fin is None and live.submitted_to is not None:
            self.hold(live.key, record, time.monotonic())
        else:
            self.record(record)

    def engine_finished(self, key: str, stats: GenerationStats) -> None:
        """The engine stopped ``key``: a record waiting for it is written with its figures."""
        waiting = self._waiting.pop(key, None)
        if waiting is not None:
            self.record(waiting[0].with_engine_figures(stats))

    def flush_stale(self, now: float) -> None:
        """Write the records held for ``UNRECORDED_MAX_S`` or longer as they are."""
        self.flush(now - UNRECORDED_MAX_S)

    def flush(self, before: float) -> None:
        """Write the waiting records held since before ``before`` (monotonic) as they are."""
        for key, (record, since) in list(self._waiting.items()):
            if since < before:
                del self._waiting[key]
                self.record(record)


__all__ = ["UNRECORDED_MAX_S", "Recorder", "cache_record", "deadline_record", "final_record",
           "warmup_record"]
