"""Scheduler tests: hand-built engine results, no model, every time given as `now`."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config import TierConfig
from app.errors import InputError
from daemon.scheduler import (
    END_TABLE,
    CancelInstruction,
    EndReason,
    LatencyModel,
    NewRequest,
    RequestEnded,
    RequestState,
    Scheduler,
    SchedulerOutput,
    StartInstruction,
    Tier,
)
from engine.base import FinishReason, GenerationStats

# A model with round figures: 1 ms per prompt token, 10 ms per new token, no overhead, no reuse.
PREFILL = 1.0
DECODE = 10.0


def make_model() -> LatencyModel:
    return LatencyModel(
        prefill_ms_per_token=PREFILL, decode_ms_per_token=DECODE, overhead_ms=0.0, fill_ratio=1.0
    )


def make(capacity: int = 1, **tiers: object) -> Scheduler:
    """A scheduler whose fast tier halves the budget (the tables below are worked out for it)."""
    tiers.setdefault("fast_budget_factor", 0.5)
    return Scheduler(TierConfig(**tiers), capacity=capacity, model=make_model())  # type: ignore[arg-type]


def completion(
    rid: str, doc: str = "a.py", prompt: int = 100, new: int = 50, **kw: object
) -> NewRequest:
    return NewRequest.completion(rid, doc, num_prompt_tokens=prompt, max_new_tokens=new, **kw)  # type: ignore[arg-type]


def stats_for(prompt: int, generated: int) -> GenerationStats:
    """Figures exactly as the model predicts them, so feeding them back changes nothing."""
    prefill, decode = prompt * PREFILL, generated * DECODE
    return GenerationStats(
        num_prompt_tokens=prompt,
        num_generated_tokens=generated,
        prefill_ms=prefill,
        decode_ms=decode,
        total_ms=prefill + decode,
    )


def started(out: SchedulerOutput) -> list[str]:
    return [s.request_id for s in out.start]


def ended(out: SchedulerOutput | tuple[RequestEnded, ...]) -> dict[str, EndReason]:
    events = out.ended if isinstance(out, SchedulerOutput) else out
    return {e.request_id: e.reason for e in events}


# -- finish-reason table ----------------------------------------------------------------------


def test_end_table_covers_every_reason_with_a_terminal_state() -> None:
    assert set(END_TABLE) == set(EndReason)
    for info in END_TABLE.values():
        assert info.state.is_terminal
    assert END_TABLE[EndReason.SHED].error_code == "overloaded"
    assert END_TABLE[EndReason.COMPLETED].error_code == ""


# -- priority and supersede -------------------------------------------------------------------


def test_interactive_starts_before_background() -> None:
    s = make()
    s.add_request(NewRequest.warmup("w", "b.py", num_prompt_tokens=100), 0.0)
    s.add_request(completion("c"), 0.0)
    out = s.schedule(0.0)
    assert started(out) == ["c"]
    assert s.state_of("w") is RequestState.WAITING
    s.update_from_result("c", stats_for(100, 50), 0.6)
    out = s.schedule(0.6)
    assert started(out) == ["w"]
    assert out.start[0].max_new_tokens == 0


@pytest.mark.parametrize(
    ("prompt", "cached", "uncached", "new", "force", "tier"),
    [
        (2000, None, None, 0, False, Tier.NORMAL),  # nothing known of what follows: normal
        (2000, None, 100, 64, False, Tier.NORMAL),  # 2 s of prefill, then 100 + 640 ms: worth it
        (2000, None, 2000, 64, False, Tier.FAST),  # the suffix alone (2 s) + 640: fast anyway
        (2000, None, 100, 250, False, Tier.FAST),  # decoding alone takes 2,500+ ms
        (2000, None, 100, 64, True, Tier.FAST),  # fast mode forced
        (3000, None, 100, 64, False, Tier.FAST),  # its own prefill (3 s) ends too late
        (3000, 2900, 100, 64, False, Tier.NORMAL),  # ... unless the engine holds most of it
    ],
)
def test_a_warmup_prefills_at_the_budget_its_completions_will_use(
    prompt: int, cached: int | None, uncached: int | None, new: int, force: bool, tier: Tier
) -> None:
    s = make(fast_ms=2500.0)
    s.set_force_fast(force)
    s.add_request(NewRequest.warmup("w", "a.py", num_prompt_tokens=prompt,
                                    num_cached_tokens=cached,
                                    followup_uncached_tokens=uncached,
                                    followup_new_tokens=new), 0.0)
    out = s.schedule(0.0)
    assert started(out) == ["w"]
    start = out.start[0]
    assert start.tier is tier and start.max_new_tokens == 0
    assert start.budget_factor == (0.5 if tier is Tier.FAST else 1.0)
    # its predicted time is the prefill of the prompt it will make
    fast_prompt = prompt // 2
    expected = (fast_prompt - min(cached or 0, fast_prompt)) if tier is Tier.FAST \
        else prompt - (cached or 0)
    assert start.prediction.service_ms == float(expected)


def test_a_fast_warmup_is_predicted_from_the_fast_prompt_the_engine_held() -> None:
    # the daemon knows the fast prompt of the document (300 tokens, 100 of them held): its
    # prefill is 200 ms, not half the normal estimate
    s = make(fast_ms=2500.0)
    s.set_force_fast(True)
    s.add_request(NewRequest.warmup("w", "a.py", num_prompt_tokens=2000, num_cached_tokens=0,
                                    num_prompt_tokens_fast=300, num_cached_tokens_fast=100),
                  0.0)
    start = s.schedule(0.0).start[0]
    assert start.tier is Tier.FAST and start.prediction.service_ms == 200.0


def test_newer_completion_supersedes_a_waiting_one() -> None:
    s = make()
    s.add_request(completion("old"), 0.0)
    s.add_request(completion("new"), 0.01)
    out = s.schedule(0.01)
    assert ended(out) == {"old": EndReason.SUPERSEDED}
    assert out.ended[0].error_code == "cancelled"
    assert started(out) == ["new"]
    assert out.cancel == ()  # it never reached the engine


def test_newer_completion_cancels_running_work_and_waits_for_the_slot() -> None:
    s = make()
    s.add_request(completion("old"), 0.0)
    assert started(s.schedule(0.0)) == ["old"]
    s.add_request(completion("new"), 0.1)
    assert s.state_of("old") is RequestState.RUNNING  # applied between steps, not at once
    out = s.schedule(0.1)
    assert out.cancel == (CancelInstruction("old", EndReason.SUPERSEDED),)
    assert ended(out) == {"old": EndReason.SUPERSEDED}
    assert started(out) == []  # the engine has not confirmed yet: the slot is busy
    assert s.num_running == 1
    assert s.update_from_result("old", stats_for(100, 3), 0.12, reason=FinishReason.CANCELLED) == ()
    assert started(s.schedule(0.12)) == ["new"]


def test_other_documents_are_not_superseded() -> None:
    s = make(capacity=2)
    s.add_request(completion("a", doc="a.py"), 0.0)
    s.add_request(completion("b", doc="b.py"), 0.0)
    out = s.schedule(0.0)
    assert started(out) == ["a", "b"]
    assert out.ended == ()


def test_duplicate_live_id_is_refused() -> None:
    s = make()
    s.add_request(completion("x"), 0.0)
    with pytest.raises(InputError):
        s.add_request(completion("x", doc="b.py"), 0.0)


# -- tiers from predicted latency -------------------------------------------------------------

# prompt, new tokens, waited ms -> tier, watch, max_new_tokens, budget factor, speculation
TIER_CASES = [
    (200, 50, 0, Tier.NORMAL, False, 50, 1.0, True),  # 700 ms
    (400, 50, 0, Tier.NORMAL, True, 50, 1.0, True),  # 900 ms: watch
    (1000, 50, 0, Tier.NORMAL, True, 50, 1.0, True),  # 1500 ms: still normal at the edge
    (1100, 50, 0, Tier.CAP, False, 30, 1.0, True),  # 1600 ms: at most 30 tokens
    (200, 50, 900, Tier.CAP, False, 30, 1.0, True),  # 700 ms of work after waiting 900 ms
    (2100, 50, 0, Tier.FAST, False, 30, 0.5, False),  # 2600 ms: fast mode
    (100, 20, 0, Tier.NORMAL, False, 20, 1.0, True),  # 300 ms
]


@pytest.mark.parametrize(
    ("prompt", "new", "waited", "tier", "watch", "max_new", "budget", "spec"), TIER_CASES
)
def test_tier_from_predicted_latency(
    prompt: int,
    new: int,
    waited: int,
    tier: Tier,
    watch: bool,
    max_new: int,
    budget: float,
    spec: bool,
) -> None:
    s = make()
    s.add_request(completion("r", prompt=prompt, new=new), 0.0)
    out = s.schedule(waited / 1000.0)
    (start,) = out.start
    assert (start.tier, start.watch, start.max_new_tokens) == (tier, watch, max_new)
    assert (start.budget_factor, start.speculation) == (budget, spec)
    assert start.prediction.normal_total_ms == pytest.approx(waited + prompt + new * DECODE)


def test_tiers_degrade_as_the_queue_grows_and_shed_past_the_last() -> None:
    """Seven requests at once, one engine slot, 600 ms each at tier normal.

    Queue prediction at t=0 (wait + own service at the tier chosen):
      r0 600 normal | r1 1200 watch | r2 1800 cap (400) | r3 2200 cap (400) |
      r4 2600 -> fast (350, done at 2350) | r5 fast would end at 2700 > 2500: shed | r6 shed
    """
    s = make()
    for i in range(7):
        s.add_request(completion(f"r{i}", doc=f"f{i}.py"), 0.0)
    out = s.schedule(0.0)
    assert started(out) == ["r0"]
    assert ended(out) == {"r5": EndReason.SHED, "r6": EndReason.SHED}
    shed = {e.request_id: e for e in out.ended}
    assert shed["r5"].detail == "overloaded: predicted 2700 ms > deadline 2500 ms with 5 queued"
    assert shed["r5"].error_code == "overloaded"
    assert shed["r5"].state is RequestState.SHED and shed["r5"].tier is None

    seen: list[tuple[str, Tier, bool]] = [("r0", out.start[0].tier, out.start[0].watch)]
    now, running = 0.0, out.start[0]
    while True:
        now += running.prediction.service_ms / 1000.0
        prompt = 50 if running.tier is Tier.FAST else 100
        done = s.update_from_result(
            running.request_id, stats_for(prompt, running.max_new_tokens), now
        )
        assert ended(done) == {running.request_id: EndReason.COMPLETED}
        assert done[0].tier is running.tier
        out = s.schedule(now)
        if not out.start:
            break
        running = out.start[0]
        seen.append((running.request_id, running.tier, running.watch))
    assert seen == [
        ("r0", Tier.NORMAL, False),
        ("r1", Tier.NORMAL, True),
        ("r2", Tier.CAP, False),
        ("r3", Tier.CAP, False),
        ("r4", Tier.FAST, False),
    ]
    assert now == pytest.approx(2.35)  # the last one ends inside its 2500 ms deadline


@pytest.mark.parametrize(
    ("hint", "shed"),
    [
        # r1 waits behind r0 (600 ms); at tier FAST its prompt is half the 4,000-token estimate,
        # cold: 600 + 2,000 + 300 > 1,500 ms: shed
        ({}, True),
        # the daemon's per-tier hint: the fast prompt held in the engine: 600 + 100 + 300
        ({"num_cached_tokens_fast": 1900}, False),
        # the engine's last fast prompt for the document was 300 tokens: 600 + 300 + 300
        ({"num_prompt_tokens_fast": 300}, False),
    ],
)
def test_the_fast_tier_hints_keep_a_queued_request_from_being_shed(
    hint: dict[str, int], shed: bool
) -> None:
    s = make(fast_ms=1000.0, cap_ms=900.0, normal_ms=800.0)
    s.add_request(completion("r0", doc="a.py"), 0.0)
    s.add_request(completion("r1", doc="b.py", prompt=4000, deadline_ms=1500.0,
                             num_cached_tokens=0, **hint), 0.0)
    out = s.schedule(0.0)
    assert started(out) == ["r0"]
    assert ended(out) == ({"r1": EndReason.SHED} if shed else {})


def test_capacity_runs_a_batch_at_once() -> None:
    s = make(capacity=4)
    for i in range(6):
        s.add_request(completion(f"r{i}", doc=f"f{i}.py"), 0.0)
    out = s.schedule(0.0)
    assert started(out) == ["r0", "r1", "r2", "r3"]
    assert all(x.tier is Tier.NORMAL for x in out.start)
    assert s.num_waiting == 2


def test_set_capacity_applies_from_the_next_step() -> None:
    s = make()
    for i in range(3):
        s.add_request(completion(f"r{i}", doc=f"f{i}.py"), 0.0)
    assert started(s.schedule(0.0)) == ["r0"]
    s.set_capacity(3)
    assert started(s.schedule(0.0)) == ["r1", "r2"]
    with pytest.raises(ValueError):
        s.set_capacity(0)


def test_alone_in_an_idle_engine_is_never_shed() -> None:
    s = make()
    s.add_request(completion("big", prompt=8000, new=64), 0.0)
    out = s.schedule(0.0)
    assert started(out) == ["big"]
    assert out.start[0].tier is Tier.FAST
    assert out.start[0].deadline == pytest.approx(2.5 + 1.0)  # soft deadline + hard grace


@pytest.mark.parametrize("via_config", [False, True])
def test_forced_fast_mode_always_serves_tier_fast(via_config: bool) -> None:
    s = make(force_fast=True) if via_config else make()
    if not via_config:
        s.set_force_fast(True)
    s.add_request(completion("r", prompt=10, new=5), 0.0)
    (start,) = s.schedule(0.0).start
    assert (start.tier, start.budget_factor, start.speculation) == (
        Tier.FAST,
        0.5,
        False,
    )
    assert s.snapshot()["force_fast"] is True
    if not via_config:
        s.set_force_fast(False)
        s.add_request(completion("r2", doc="b.py", prompt=10, new=5), 0.0)
        s.update_from_result("r", stats_for(5, 5), 0.1)
        assert s.schedule(0.1).start[0].tier is Tier.NORMAL


def test_configure_changes_thresholds_from_the_next_step() -> None:
    s = make()
    s.configure(TierConfig(normal_ms=100, cap_ms=200, fast_ms=5000))
    s.add_request(completion("r", prompt=100, new=20), 0.0)  # 300 ms
    assert s.schedule(0.0).start[0].tier is Tier.CAP


def test_queue_full_is_shed_with_a_reason() -> None:
    s = Scheduler(TierConfig(), model=make_model(), max_waiting=2)
    for i in range(3):
        s.add_request(completion(f"r{i}", doc=f"f{i}.py", prompt=1, new=1), 0.0)
    out = s.schedule(0.0)
    assert ended(out) == {"r2": EndReason.SHED}
    assert "queue full" in out.ended[0].detail


# -- deadlines --------------------------------------------------------------------------------


def test_running_past_deadline_with_output_finishes_with_what_it_has() -> None:
    s = make()
    s.add_request(completion("r", prompt=100, new=50, deadline_ms=500), 0.0)
    s.schedule(0.0)
    s.record_progress("r", 0.3)
    assert s.schedule(0.4).is_empty
    out = s.schedule(0.5)
    assert out.cancel == (CancelInstruction("r", EndReason.DEADLINE),)
    assert out.ended == ()  # the reply waits for the text generated so far
    (end,) = s.update_from_result("r", stats_for(100, 20), 0.52, reason=FinishReason.CANCELLED)
    assert (end.reason, end.state, end.engine_reason) == (
        EndReason.DEADLINE,
        RequestState.FINISHED,
        FinishReason.DEADLINE,
    )
    assert end.error_code == "" and end.tier is Tier.NORMAL


def test_running_past_deadline_without_output_gets_a_grace_period() -> None:
    s = Scheduler(TierConfig(), model=make_model(), hard_deadline_grace_ms=400)
    s.add_request(completion("r", deadline_ms=500), 0.0)
    s.schedule(0.0)
    assert s.schedule(0.6).cancel == ()  # nothing produced yet: wait for the first token
    s.record_progress("r", 0.7)
    assert s.schedule(0.7).cancel == (CancelInstruction("r", EndReason.DEADLINE),)

    s.add_request(completion("q", doc="b.py", deadline_ms=500), 1.0)
    s.update_from_result("r", stats_for(100, 7), 1.0, reason=FinishReason.CANCELLED)
    s.schedule(1.0)
    assert s.schedule(1.8).cancel == ()
    assert s.schedule(1.9).cancel == (CancelInstruction("q", EndReason.DEADLINE),)


def test_deadline_passed_in_the_queue_expires_with_a_reason() -> None:
    s = make()
    # predicted 60 ms, but the engine turns out slower than predicted
    s.add_request(completion("slow", doc="a.py", prompt=10, new=5, deadline_ms=60_000), 0.0)
    s.schedule(0.0)
    s.add_request(completion("short", doc="b.py", prompt=1, new=1, deadline_ms=300), 0.0)
    assert ended(s.schedule(0.1)) == {}  # predicted to make it: not shed
    out = s.schedule(0.35)
    assert ended(out) == {"short": EndReason.EXPIRED}
    assert out.ended[0].error_code == "deadline"
    assert "deadline passed while queued" in out.ended[0].detail


def test_engine_deadline_and_error_results_are_mapped() -> None:
    s = make(capacity=2)
    s.add_request(completion("d", doc="a.py"), 0.0)
    s.add_request(completion("e", doc="b.py"), 0.0)
    s.schedule(0.0)
    (d,) = s.update_from_result("d", stats_for(100, 5), 0.2, reason=FinishReason.DEADLINE)
    (e,) = s.update_from_result("e", GenerationStats(), 0.2, reason=FinishReason.ERROR)
    assert (d.reason, e.reason) == (EndReason.DEADLINE, EndReason.ERROR)
    assert e.error_code == "engine"


# -- cancellation between steps ---------------------------------------------------------------


def test_cancel_is_applied_at_the_next_step() -> None:
    s = make()
    s.add_request(completion("w"), 0.0)
    s.cancel("w")
    assert s.state_of("w") is RequestState.WAITING
    out = s.schedule(0.0)
    assert ended(out) == {"w": EndReason.CANCELLED} and out.start == ()
    assert s.state_of("w") is RequestState.CANCELLED


def test_cancel_of_running_request_emits_engine_cancel_and_one_end() -> None:
    s = make()
    s.add_request(completion("r"), 0.0)
    s.schedule(0.0)
    s.cancel("r")
    s.cancel("r")  # twice: still one end
    out = s.schedule(0.1)
    assert out.cancel == (CancelInstruction("r", EndReason.CANCELLED),)
    assert ended(out) == {"r": EndReason.CANCELLED}
    assert s.update_from_result("r", GenerationStats(), 0.11, reason=FinishReason.CANCELLED) == ()
    assert s.num_running == 0
    s.cancel("r")  # ended: no-op
    s.cancel("unknown")
    assert s.schedule(0.2).is_empty


def test_result_arriving_before_the_cancel_is_applied_wins() -> None:
    s = make()
    s.add_request(completion("r"), 0.0)
    s.schedule(0.0)
    s.cancel("r")
    assert ended(s.update_from_result("r", stats_for(100, 50), 0.6)) == {"r": EndReason.COMPLETED}
    assert s.schedule(0.6).is_empty


def test_cancel_document_cancels_all_its_requests() -> None:
    s = make(capacity=2)
    s.add_request(completion("c", doc="a.py"), 0.0)
    s.add_request(NewRequest.warmup("w", "a.py", num_prompt_tokens=10), 0.0)
    s.add_request(completion("o", doc="b.py"), 0.0)
    s.cancel_document("a.py")
    out = s.schedule(0.0)
    assert ended(out) == {"c": EndReason.CANCELLED, "w": EndReason.CANCELLED}
    assert started(out) == ["o"]


def test_background_is_preempted_for_interactive_work_except_a_warmup_doing_its_prefill() -> None:
    s = make()
    s.add_request(NewRequest.warmup("w1", "a.py", num_prompt_tokens=1000), 0.0)
    assert started(s.schedule(0.0)) == ["w1"]
    s.add_request(completion("c1", doc="a.py"), 0.1)  # same document: the warm-up is its prefill
    out = s.schedule(0.1)
    assert out.cancel == () and out.start == ()
    s.update_from_result("w1", stats_for(1000, 0), 1.0, reason=FinishReason.PREFILLED)
    assert started(s.schedule(1.0)) == ["c1"]
    s.update_from_result("c1", stats_for(100, 50), 1.6)

    s.add_request(NewRequest.warmup("w2", "a.py", num_prompt_tokens=1000), 2.0)
    s.schedule(2.0)
    s.add_request(completion("c2", doc="b.py"), 2.1)
    out = s.schedule(2.1)
    assert out.cancel == (CancelInstruction("w2", EndReason.PREEMPTED),)
    assert ended(out) == {"w2": EndReason.PREEMPTED}
    s.update_from_result("w2", stats_for(300, 0), 2.4, reason=FinishReason.CANCELLED)
    assert started(s.schedule(2.4)) == ["c2"]
    s.update_from_result("c2", stats_for(100, 50), 3.0)

    # a warm-up of the same document that cannot end in time for the request is pre-empted
    # too (10 s of prefill left, deadline 2.5 s): the engine keeps what it prefilled
    s.add_request(NewRequest.warmup("w3", "a.py", num_prompt_tokens=10_000), 4.0)
    assert started(s.schedule(4.0)) == ["w3"]
    s.add_request(completion("c3", doc="a.py", deadline_ms=2500.0), 4.1)
    out = s.schedule(4.1)
    assert ended(out) == {"w3": EndReason.PREEMPTED}


def test_a_completion_takes_over_the_running_warm_up_of_its_document() -> None:
    """With ``warmup_takeover`` (llamacpp) a completion starts at once: the warm-up stops at
    its next prefill step and the completion goes on from the prefix it evaluated. Held until
    the warm-up ended, the completion also waited for the warm-up's own cursor line and
    suffix."""
    s = Scheduler(TierConfig(fast_budget_factor=0.5), model=make_model(), warmup_takeover=True)
    s.add_request(NewRequest.warmup("w1", "a.py", num_prompt_tokens=6000,
                                    followup_uncached_tokens=20), 0.0)
    out = s.schedule(0.0)
    assert started(out) == ["w1"] and out.start[0].tier is Tier.FAST  # a cold document
    s.add_request(completion("c1", doc="a.py"), 0.1)
    out = s.schedule(0.1)
    assert started(out) == ["c1"] and ended(out) == {"w1": EndReason.PREEMPTED}
    assert out.cancel == (CancelInstruction("w1", EndReason.PREEMPTED),)
    assert s.schedule(0.15) == SchedulerOutput()  # nothing more to stop meanwhile
    s.add_request(completion("o", doc="b.py"), 0.2)  # another document waits for the slot
    assert started(s.schedule(0.2)) == []
    s.update_from_result("w1", stats_for(300, 0), 0.3, reason=FinishReason.CANCELLED)
    assert started(s.schedule(0.3)) == []  # c1 has the slot
    s.update_from_result("c1", stats_for(100, 50), 0.9)
    assert started(s.schedule(0.9)) == ["o"]

    # a warm-up of another document is not taken over: pre-empted as background work
    s.update_from_result("o", stats_for(100, 50), 1.5)
    s.add_request(NewRequest.warmup("w2", "b.py", num_prompt_tokens=1000), 2.0)
    assert started(s.schedule(2.0)) == ["w2"]
    s.add_request(completion("c2", doc="a.py"), 2.1)
    out = s.schedule(2.1)
    assert ended(out) == {"w2": EndReason.PREEMPTED} and started(out) == []

    # without the takeover the same-document warm-up in time is kept and the completion waits
    held = make()
    held.add_request(NewRequest.warmup("w", "a.py", num_prompt_tokens=1000), 0.0)
    held.schedule(0.0)
    held.add_request(completion("c", doc="a.py"), 0.1)
    assert held.schedule(0.1) == SchedulerOutput()
    # as beside a warm-up at the normal tier: the completion, which does not count a stopped
    # warm-up as warm, would go to the fast tier's smaller prompt and share nothing with it
    normal = Scheduler(TierConfig(fast_budget_factor=0.5), model=make_model(),
                       warmup_takeover=True)
    normal.add_request(NewRequest.warmup("w", "a.py", num_prompt_tokens=1000), 0.0)
    assert normal.schedule(0.0).start[0].tier is Tier.NORMAL
    normal.add_request(completion("c", doc="a.py"), 0.1)
    assert normal.schedule(0.1) == SchedulerOutput()


# -- the latency model ------------------------------------------------------------------------


def test_a_slow_engine_shrinks_the_fast_budget_and_a_fast_one_restores_it() -> None:
    """Fast mode's smaller context is fitted to the measured speed (daemon.fast_budget): a
    cold prompt at the configured 256 tokens no longer fits the deadline at 16 ms per prompt
    token, one of 128 does; the next fast request is assembled at 128, and the engine's old
    speed brings 256 back."""
    s = Scheduler(TierConfig(), budget_tokens=2048)  # fast tier: 1/8 of 2,048 tokens
    assert s.fast_budget_factor == 0.125 and s.snapshot()["fast_budget"] == ""

    def serve(rid: str, t: float, prefill_ms: float, decode_ms: float) -> StartInstruction:
        s.add_request(completion(rid, prompt=2048, new=16, num_prompt_tokens_fast=185), t)
        start = s.schedule(t).start[0]
        assert start.tier is Tier.FAST  # 2,048 cold tokens: past fast_ms at any speed here
        s.update_from_result(rid, GenerationStats(
            num_prompt_tokens=185, num_cached_tokens=60, num_generated_tokens=8,
            prefill_ms=125 * prefill_ms, decode_ms=8 * decode_ms,
            total_ms=125 * prefill_ms + 8 * decode_ms), t + 1.0, reason=FinishReason.NEWLINE)
        return start

    judged = s.fast_budget.min_samples  # prefill samples before the first verdict
    starts = [serve(f"slow{i}", 10.0 * i, 16.0, 40.0) for i in range(judged + 1)]
    assert [st.budget_factor for st in starts] == [0.125] * judged + [0.0625]
    snap = s.snapshot()
    assert snap["fast_budget_tokens"] == 128 and snap["fast_budget"].startswith("128 tokens")
    assert snap["fast_budget_changes"] == 1
    window = LatencyModel.RATE_WINDOW  # the rates are medians: a lasting change is followed
    starts = [serve(f"quick{i}", 100.0 + 10.0 * i, 7.0, 25.0) for i in range(window)]
    assert starts[-1].budget_factor == 0.125 and s.snapshot()["fast_budget_tokens"] == 256


def test_latency_model_learns_from_results() -> None:
    m = LatencyModel()
    m.observe(
        GenerationStats(
            num_prompt_tokens=1000,
            num_cached_tokens=800,
            num_generated_tokens=20,
            prefill_ms=40.0,
            decode_ms=100.0,
            total_ms=150.0,
        ),
        max_new_tokens=40,
    )
    # the first sample replaces the prior
    assert m.prefill_ms_per_token == pytest.approx(0.2)
    assert m.decode_ms_per_token == pytest.approx(5.0)
    assert m.overhead_ms == pytest.approx(10.0)
    assert m.cached_share == pytest.approx(0.8)
    assert m.fill_ratio == pytest.approx(0.5)
    m.observe(GenerationStats(num_prompt_tokens=100, prefill_ms=100.0, total_ms=100.0))
    assert m.prefill_ms_per_token == pytest.approx((0.2 + 1.0) / 2)  # median of the two
    # 1000 prompt tokens, share cached learned; 40 asked, half expected
    service = m.service_ms(num_prompt_tokens=1000, max_new_tokens=40, num_cached_tokens=None)
    expected = m.overhead_ms + 1000 * (1 - m.cached_share) * m.prefill_ms_per_token + 20 * 5.0
    assert service == pytest.approx(expected)


def test_requests_beside_others_teach_the_batched_speed_not_the_rates_alone() -> None:
    m = make_model()
    m.observe(stats_for(100, 50))  # alone: 100 + 500 ms
    slow = stats_for(100, 50)  # beside one other request all along: 1.6x the time
    slow.prefill_ms, slow.decode_ms = 160.0, 800.0
    slow.total_ms = 960.0
    for _ in range(3):
        m.observe(slow, shared=1.0)
    assert m.batch_slowdown == pytest.approx(0.6)
    # the per-token rates stay those of a request alone
    assert m.prefill_ms_per_token == pytest.approx(PREFILL)
    assert m.decode_ms_per_token == pytest.approx(DECODE)
    alone = m.service_ms(num_prompt_tokens=100, max_new_tokens=50, num_cached_tokens=0)
    beside = m.service_ms(num_prompt_tokens=100, max_new_tokens=50, num_cached_tokens=0,
                          beside=1)
    assert (alone, beside) == (pytest.approx(600.0), pytest.approx(960.0))
    # a short request says nothing about it (its time is mostly per-request overhead)
    m.overhead_ms = 50.0
    tiny = GenerationStats(num_prompt_tokens=4, num_generated_tokens=1, prefill_ms=40.0,
                           decode_ms=40.0, total_ms=80.0)
    m.observe(tiny, shared=1.0)
    assert m.batch_slowdown == pytest.approx(0.6)


def test_the_scheduler_learns_the_company_a_request_had_and_predicts_with_it() -> None:
    s = make(capacity=2)
    s.add_request(completion("a", doc="a.py"), 0.0)
    s.add_request(completion("b", doc="b.py"), 0.0)
    assert started(s.schedule(0.0)) == ["a", "b"]
    both = stats_for(100, 50)  # 600 ms alone; took 900 beside the other
    both.prefill_ms, both.decode_ms, both.total_ms = 150.0, 750.0, 900.0
    s.update_from_result("a", both, 0.9)
    s.update_from_result("b", both, 0.9)
    assert s.model.batch_slowdown == pytest.approx(0.5)
    assert s.model.decode_ms_per_token == pytest.approx(DECODE)
    # c runs alone, then d starts beside it: d's prediction counts c
    s.add_request(completion("c", doc="c.py"), 1.0)
    (c,) = s.schedule(1.0).start
    assert c.prediction.service_ms == pytest.approx(600.0)
    s.add_request(completion("d", doc="d.py"), 1.1)
    (d,) = s.schedule(1.1).start
    assert d.prediction.service_ms == pytest.approx(900.0)


def test_company_is_averaged_over_a_requests_time_in_the_engine() -> None:
    s = make(capacity=2)
    s.add_request(completion("a", doc="a.py"), 0.0)
    s.schedule(0.0)
    s.add_request(completion("b", doc="b.py"), 0.5)
    s.schedule(0.5)
    took = stats_for(100, 50)  # 600 ms alone; 1.4x with half a request beside it on average
    took.prefill_ms, took.decode_ms, took.total_ms = 140.0, 700.0, 840.0
    s.update_from_result("a", took, 1.0)
    assert s.model.batch_slowdown == pytest.approx(0.8)  # 0.4 per half a request


def test_one_slow_first_prefill_leaves_the_rates_after_two_normal_samples() -> None:
    """The first prefill after a model load runs several times slower than the rest; the
    per-token rates are medians, so the predictions follow the usual speed at once."""
    m = LatencyModel()
    m.observe(GenerationStats(num_prompt_tokens=84, prefill_ms=84 * 45.0, total_ms=84 * 45.0))
    assert m.prefill_ms_per_token == pytest.approx(45.0)  # the first sample replaces the prior
    for ms in (7.0, 8.0):
        m.observe(GenerationStats(num_prompt_tokens=60, prefill_ms=60 * ms, total_ms=60 * ms))
    assert m.prefill_ms_per_token == pytest.approx(8.0)
    for _ in range(LatencyModel.RATE_WINDOW):  # the window rolls: a lasting change is followed
        m.observe(GenerationStats(num_prompt_tokens=60, prefill_ms=60 * 20.0, total_ms=1200.0))
    assert m.prefill_ms_per_token == pytest.approx(20.0)


def test_results_teach_the_model_except_errors_and_early_cancels() -> None:
    s = Scheduler(TierConfig(), capacity=3)
    for rid in ("ok", "err", "cut"):
        s.add_request(completion(rid, doc=f"{rid}.py", prompt=200, new=10), 0.0)
    s.schedule(0.0)
    slow = GenerationStats(num_prompt_tokens=200, prefill_ms=20_000.0, total_ms=20_000.0)
    s.update_from_result("err", slow, 0.1, reason=FinishReason.ERROR)
    s.update_from_result("cut", slow, 0.1, reason=FinishReason.CANCELLED)
    assert s.model.prefill_ms_per_token == 6.0  # the prior: nothing learnt
    s.update_from_result("ok", stats_for(200, 10), 0.5, extra_ms=40.0)
    assert s.model.prefill_ms_per_token == pytest.approx(PREFILL)
    assert s.model.overhead_ms == pytest.approx(40.0)  # context assembly counts as overhead
    snap = s.snapshot()
    assert (snap["waiting"], snap["running"], snap["capacity"]) == (0, 0, 3)
    assert snap["model"]["num_samples"] == 1.0


def test_a_prefill_stopped_early_teaches_the_rate_of_what_it_evaluated() -> None:
    """A warm-up a completion took over stopped mid-prefill: with the engine's count of the
    tokens it evaluated it is a long prefill sample (completions' own are short and slower per
    token); without that count, nothing is learnt (its prompt count is the whole prompt's)."""
    s = Scheduler(TierConfig(), warmup_takeover=True)
    s.add_request(NewRequest.warmup("w", "a.py", num_prompt_tokens=200), 0.0)
    s.schedule(0.0)
    s.add_request(completion("c", doc="a.py", prompt=200, new=10), 0.5)
    s.schedule(0.5)  # the engine then stops the warm-up (taken over or pre-empted)
    cut = GenerationStats(num_prompt_tokens=200, num_prefilled_tokens=128, prefill_ms=960.0)
    s.update_from_result("w", cut, 0.6, reason=FinishReason.CANCELLED)
    assert s.model.prefill_ms_per_token == pytest.approx(7.5)  # 960 ms / 128, not / 200
    assert s.model.num_samples == 0  # nothing else learnt from it
    s.add_request(NewRequest.warmup("w2", "b.py", num_prompt_tokens=200), 1.0)
    s.update_from_result("c", stats_for(200, 10), 1.0)
    s.schedule(1.0)
    before = s.model.prefill_ms_per_token
    unknown = GenerationStats(num_prompt_tokens=200, prefill_ms=20_000.0)  # no count given
    s.add_request(completion("c2", doc="b.py", prompt=200, new=10), 1.1)
    s.schedule(1.1)
    s.update_from_result("w2", unknown, 1.2, reason=FinishReason.CANCELLED)
    assert s.model.prefill_ms_per_token == before


def test_predict_counts_the_work_ahead() -> None:
    s = make()
    s.add_request(completion("a", doc="a.py"), 0.0)
    s.schedule(0.0)
    s.add_request(completion("b", doc="b.py"), 0.0)
    p = s.predict(completion("c", doc="c.py"), 0.1)
    assert p.wait_ms == pytest.approx(500 + 600)
    assert p.num_ahead == 2


def test_start_instruction_is_frozen() -> None:
    s = make()
    s.add_request(completion("r"), 0.0)
    start = s.schedule(0.0).start[0]
    assert isinstance(start, StartInstruction)
    with pytest.raises(AttributeError):
        start.tier = Tier.FAST  # type: ignore[misc]


# -- properties -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Add:
    doc: int
    interactive: bool
    prompt: int
    new: int
    deadline_ms: float | None


@dataclass(frozen=True)
class Cancel:
    pick: int


@dataclass(frozen=True)
class Step:
    dt_ms: float


@dataclass(frozen=True)
class Progress:
    pick: int


@dataclass(frozen=True)
class Finish:
    pick: int
    reason: FinishReason


ops = st.one_of(
    st.builds(
        Add,
        doc=st.integers(0, 3),
        interactive=st.booleans(),
        prompt=st.integers(0, 2500),
        new=st.integers(0, 128),
        deadline_ms=st.one_of(st.none(), st.floats(50, 5000)),
    ),
    st.builds(Cancel, pick=st.integers(0, 50)),
    st.builds(Step, dt_ms=st.floats(0, 2000)),
    st.builds(Progress, pick=st.integers(0, 50)),
    st.builds(Finish, pick=st.integers(0, 50), reason=st.sampled_from(list(FinishReason))),
)


@settings(max_examples=200, deadline=None)
@given(
    script=st.lists(ops, max_size=60),
    capacity=st.integers(1, 3),
    force_fast=st.booleans(),
    quick_engine=st.booleans(),
)
def test_every_request_ends_exactly_once_and_states_only_move_forward(
    script: list[object], capacity: int, force_fast: bool, quick_engine: bool
) -> None:
    model = make_model() if quick_engine else LatencyModel()  # round figures, or CPU priors
    s = Scheduler(TierConfig(force_fast=force_fast), capacity=capacity, model=model)
    now = 0.0
    added: list[str] = []
    ends: dict[str, list[EndReason]] = {}
    last_state: dict[str, RequestState] = {}
    started_ids: set[str] = set()
    shed_ids: set[str] = set()
    in_engine: list[str] = []  # what a fake engine is running (until it reports Finished)

    def take(out: SchedulerOutput) -> None:
        for start in out.start:
            assert start.request_id not in started_ids
            started_ids.add(start.request_id)
            in_engine.append(start.request_id)
        for c in out.cancel:
            assert c.request_id in in_engine
        take_ended(out.ended)

    def take_ended(events: tuple[RequestEnded, ...]) -> None:
        for e in events:
            ends.setdefault(e.request_id, []).append(e.reason)
            assert e.state is END_TABLE[e.reason].state
            if e.state is RequestState.SHED:
                shed_ids.add(e.request_id)

    def check_states() -> None:
        for rid in added:
            state = s.state_of(rid)
            assert state is not None
            assert state >= last_state.get(rid, RequestState.WAITING)
            last_state[rid] = state

    for op in script:
        if isinstance(op, Add):
            rid = f"r{len(added)}"
            spec = (
                NewRequest.completion(
                    rid,
                    f"d{op.doc}",
                    num_prompt_tokens=op.prompt,
                    max_new_tokens=op.new,
                    deadline_ms=op.deadline_ms,
                )
                if op.interactive
                else NewRequest.warmup(rid, f"d{op.doc}", num_prompt_tokens=op.prompt)
            )
            s.add_request(spec, now)
            added.append(rid)
        elif isinstance(op, Cancel) and added:
            s.cancel(added[op.pick % len(added)])
        elif isinstance(op, Step):
            now += op.dt_ms / 1000.0
            take(s.schedule(now))
        elif isinstance(op, Progress) and in_engine:
            s.record_progress(in_engine[op.pick % len(in_engine)], now)
        elif isinstance(op, Finish) and in_engine:
            rid = in_engine.pop(op.pick % len(in_engine))
            take_ended(s.update_from_result(rid, GenerationStats(), now, reason=op.reason))
        check_states()

    # drain: the fake engine finishes everything, time moves on
    for _ in range(500):
        now += 0.5
        take(s.schedule(now))
        while in_engine:
            rid = in_engine.pop(0)
            take_ended(s.update_from_result(rid, GenerationStats(), now))
        check_states()
        if not list(s.live_ids()):
            break
    assert not list(s.live_ids())
    for rid in added:
        assert len(ends.get(rid, [])) == 1, (rid, ends.get(rid))
        assert s.state_of(rid) is not None and s.state_of(rid).is_terminal  # type: ignore[union-attr]
    assert not (started_ids & shed_ids)
    assert s.num_running == 0 and s.num_waiting == 0


@settings(max_examples=100, deadline=None)
@given(
    sizes=st.lists(st.tuples(st.integers(0, 3000), st.integers(1, 128)), min_size=1, max_size=30)
)
def test_no_request_is_silently_dropped_under_load(sizes: list[tuple[int, int]]) -> None:
    """A burst: every request either starts or is shed with an explicit reason."""
    s = Scheduler(TierConfig(), capacity=1, model=make_model())
    for i, (prompt, new) in enumerate(sizes):
        s.add_request(completion(f"r{i}", doc=f"f{i}.py", prompt=prompt, new=new), 0.0)
    out = s.schedule(0.0)
    assert len(out.start) == 1
    for e in out.ended:
        assert e.reason is EndReason.SHED
        assert e.detail.startswith("overloaded: predicted ")
    # the ones still waiting are predicted to make their deadline, at some tier
    for i in range(len(sizes)):
        state = s.state_of(f"r{i}")
        assert state in (RequestState.RUNNING, RequestState.WAITING, RequestState.SHED)
