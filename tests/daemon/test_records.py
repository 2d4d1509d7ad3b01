"""Recorder: records written now, or held until the engine's figures come."""

from __future__ import annotations

import time

from daemon.events import EventHub
from daemon.live import Live
from daemon.metrics import Metrics, RequestRecord
from daemon.records import UNRECORDED_MAX_S, Recorder, cache_record, final_record, warmup_record
from daemon.schedule_types import EndReason, RequestEnded, RequestState, Tier
from engine.base import FinishReason, GenerationStats


def _record(request_id: str) -> RequestRecord:
    return RequestRecord(time=time.time(), request_id=request_id, path_hash="h",
                         kind="complete", tier="fast", watch=False, finish_reason="cancelled",
                         first_token_ms=None, total_ms=120.0)


def test_held_records_get_the_engines_figures_or_are_flushed_as_they_are() -> None:
    metrics = Metrics()
    recorder = Recorder(metrics, EventHub(), dict)
    recorder.hold("a", _record("a"), now=100.0)
    recorder.hold("b", _record("b"), now=200.0)
    assert len(recorder) == 2 and metrics.snapshot(time.time())["num_requests"] == 0

    recorder.engine_finished("a", GenerationStats(num_prompt_tokens=64, prefill_ms=300.0))
    recorder.engine_finished("zzz", GenerationStats())  # nothing held for it: nothing written
    assert len(recorder) == 1
    (written,) = list(metrics._records)
    assert written.request_id == "a" and written.num_prompt_tokens == 64
    assert written.prefill_ms == 300.0

    recorder.flush(before=150.0)  # "b" was held at 200: not yet
    assert len(recorder) == 1
    recorder.flush_stale(now=200.0 + UNRECORDED_MAX_S - 1)  # held for less than the limit
    assert len(recorder) == 1
    recorder.flush_stale(now=200.0 + UNRECORDED_MAX_S + 1)
    assert len(recorder) == 0
    assert [r.request_id for r in metrics._records] == ["a", "b"]
    assert metrics._records[1].num_prompt_tokens == 0  # flushed without figures


def test_a_cache_answer_is_a_served_completion_with_a_hit() -> None:
    metrics = Metrics()
    Recorder(metrics, EventHub(), dict).record(cache_record("c", "/p/a.py", 3.0))
    snap = metrics.snapshot(time.time())
    assert snap["cache"]["hits"] == 1 and snap["total_ms"]["p50"] == 3.0


def test_a_record_says_how_long_the_daemon_held_the_request_before_the_engine_had_it() -> None:
    """held_ms: arrival to the scheduler's start (waiting for a warm-up or a slot); submit_ms:
    arrival to the engine's submit. The rest of total_ms is the engine's (its figures)."""
    live = Live(key="k/1", peer=None, request_id="1", kind="complete", path="/p/a.py",
                arrival=100.0)
    ended = RequestEnded("k/1", EndReason.COMPLETED, RequestState.FINISHED, Tier.FAST,
                         FinishReason.NEWLINE, "", "")
    stats = GenerationStats(prefill_ms=150.0, decode_ms=100.0, total_ms=250.0)
    never = final_record(live, ended, None, stats, now=100.5, error_code="")
    assert never.held_ms is None and never.submit_ms is None  # not started: nothing to say
    live.started_at, live.submitted_at, live.context_ms = 100.2, 100.21, 8.0
    rec = final_record(live, ended, None, stats, now=100.5, error_code="")
    assert round(rec.held_ms or 0) == 200 and round(rec.submit_ms or 0) == 210
    assert round(rec.total_ms) == 500 and rec.to_log_dict()["held_ms"] == rec.held_ms
    warm = warmup_record(live, ended, None, stats, now=100.5)
    assert round(warm.submit_ms or 0) == 210


def test_a_record_says_how_much_of_its_prompt_a_stopped_prefill_evaluated() -> None:
    # a warm-up taken over after 64 of its new tokens: the log says 64, not the whole prompt
    # (the latency bench's prefill rate counts it as the scheduler's model does)
    live = Live(key="k/2", peer=None, request_id="warmup/2", kind="warmup", path="/p/a.py",
                arrival=100.0)
    ended = RequestEnded("k/2", EndReason.PREEMPTED, RequestState.CANCELLED, Tier.FAST,
                         FinishReason.CANCELLED, "", "")
    stats = GenerationStats(num_prompt_tokens=210, num_cached_tokens=10, prefill_ms=480.0,
                            num_prefilled_tokens=64)
    warm = warmup_record(live, ended, None, stats, now=100.5)
    assert warm.to_log_dict()["num_prefilled_tokens"] == 64
    done = final_record(live, ended, None, stats, now=100.5, error_code="")
    assert done.num_prefilled_tokens == 64
    # the path a taken-over warm-up takes: its record waits for the engine's figures
    early = warmup_record(live, ended, None, GenerationStats(), now=100.5)
    assert early.with_engine_figures(stats).num_prefilled_tokens == 64
