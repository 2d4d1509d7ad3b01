"""The fast tier's budget follows the engine's measured speed (daemon.fast_budget)."""

from __future__ import annotations

from daemon.fast_budget import FastBudget
from daemon.latency_model import LatencyModel
from engine.base import GenerationStats

LIMIT = 2400.0  # the deadline fast completions work to (2,500 ms less the reply backstop)
NEW = 16  # tokens they ask for


def measured(prefill_ms: float, decode_ms: float = 35.0, samples: int = 5) -> LatencyModel:
    """A latency model that has seen ``samples`` requests at these speeds (per token)."""
    model = LatencyModel(overhead_ms=0.0)
    for _ in range(samples):
        model.observe(GenerationStats(
            num_prompt_tokens=120, num_cached_tokens=20, num_generated_tokens=8,
            prefill_ms=100 * prefill_ms, decode_ms=8 * decode_ms,
            total_ms=100 * prefill_ms + 8 * decode_ms), max_new_tokens=NEW)
    return model


def test_the_ladder_halves_the_configured_budget_down_to_the_floor() -> None:
    assert FastBudget(256).ladder() == (256, 128)
    assert FastBudget(1024).ladder() == (1024, 512, 256, 128)
    assert FastBudget(256, min_tokens=64).ladder() == (256, 128, 64)
    assert FastBudget(100).ladder() == (100,)  # a configured budget below the floor stays
    assert FastBudget(30).ladder() == (64,)  # never below what the assembler is given


def test_an_idle_two_core_cpu_keeps_the_configured_budget() -> None:
    budget = FastBudget(256)
    for _ in range(9):
        budget.observe_prompt(256, 185)  # what the assembler made of 256 tokens here
    assert not budget.update(measured(8.3, 23.6), LIMIT, NEW)  # the idle figures of this host
    assert budget.tokens == 256
    assert budget.note.startswith("256 tokens: a cold prompt predicted")


def test_a_slow_engine_gets_the_largest_budget_whose_cold_prompt_fits() -> None:
    budget = FastBudget(256)
    for _ in range(9):
        budget.observe_prompt(256, 185)
    model = measured(16.0, 40.0)  # a build on one of the two cores
    assert budget.update(model, LIMIT, NEW)
    assert budget.tokens == 128
    assert budget.cold_ms(model, 128, NEW) <= LIMIT < budget.cold_ms(model, 256, NEW)
    assert "128 tokens" in budget.note and "; 256 tokens:" in budget.note
    assert not budget.update(measured(40.0, 90.0), LIMIT, NEW)  # nothing smaller to offer
    assert budget.tokens == 128  # (64 tokens held prompts of 34: no use)
    small = FastBudget(256, min_tokens=64)
    for _ in range(9):
        small.observe_prompt(256, 185)
    assert small.update(measured(40.0, 90.0), LIMIT, NEW) and small.tokens == 64


def test_it_grows_back_only_with_room_to_spare() -> None:
    budget = FastBudget(256)
    for _ in range(9):
        budget.observe_prompt(256, 185)
    budget.update(measured(13.0, 40.0), LIMIT, NEW)
    assert budget.tokens == 128 and budget.shrink_rate == 13.0
    # 256 would fit the deadline, but not within the margin: the budget holds (no flapping)
    model = measured(9.9, 23.6)  # 24% faster than at the shrink: a wobble under load
    cold = budget.cold_ms(model, 256, NEW)
    assert budget.grow_margin * LIMIT < cold <= LIMIT
    assert model.prefill_ms_per_token > budget.recover_share * budget.shrink_rate
    assert not budget.update(model, LIMIT, NEW) and budget.tokens == 128
    assert budget.update(measured(7.0, 23.6), LIMIT, NEW) and budget.tokens == 256  # idle
    assert budget.num_changes == 2  # 256 -> 128 -> 256, what the status counts
    assert budget.shrink_rate == 0.0


def test_when_the_load_that_shrank_it_ends_it_grows_back_at_idle_speed() -> None:
    """This host idles at 8.2-9.8 ms per prompt token: between where 256 shrinks and where it
    fits 70% of the deadline. A build shrank the budget and it stayed at 128 for the rest of
    the session."""
    budget = FastBudget(256)
    for _ in range(9):
        budget.observe_prompt(256, 185)
    assert budget.update(measured(14.2, 40.0), LIMIT, NEW) and budget.tokens == 128  # a build
    assert not budget.update(measured(12.4, 40.0), LIMIT, NEW)  # the build's rate wobbles
    idle = measured(9.0, 23.6)
    assert budget.cold_ms(idle, 256, NEW) > budget.grow_margin * LIMIT  # 70% alone: stuck
    assert budget.update(idle, LIMIT, NEW) and budget.tokens == 256
    assert "256 tokens: a cold prompt predicted" in budget.note


def test_a_prediction_a_few_percent_past_the_deadline_keeps_the_budget() -> None:
    """Idle replays here shrank 256 -> 128 with the cold prompt predicted 0.5-4% past the
    deadline (the median rate wobbling up to 11-12 ms per token), and one stayed at 128."""
    budget = FastBudget(256)
    for _ in range(9):
        budget.observe_prompt(256, 185)
    wobble = measured(12.0, 28.0)
    assert LIMIT < budget.cold_ms(wobble, 256, NEW) <= budget.shrink_margin * LIMIT
    assert not budget.update(wobble, LIMIT, NEW) and budget.tokens == 256
    slow = measured(13.5, 28.0)  # a slow stretch: well past it
    assert budget.cold_ms(slow, 256, NEW) > budget.shrink_margin * LIMIT
    assert budget.update(slow, LIMIT, NEW) and budget.tokens == 128


def test_nothing_is_judged_before_a_few_prefills_were_measured() -> None:
    budget = FastBudget(256)
    cold_start = measured(42.0, 40.0, samples=4)  # the first prefills after a load run cold
    assert not budget.update(cold_start, LIMIT, NEW)
    assert budget.tokens == 256 and budget.note == ""


def test_the_prompt_fill_is_learnt_per_budget_from_what_the_assembler_made() -> None:
    budget = FastBudget(256)
    assert budget.fill(256) == 1.0  # no prompt seen: assume it fills its budget
    budget.observe_prompt(256, 185)
    budget.observe_prompt(256, 300)  # over the budget cannot be: counted as full
    budget.observe_prompt(256, 170)
    budget.observe_prompt(0, 10)  # no budget: ignored
    assert budget.fill(128) == 185 / 256  # not seen: the nearest larger budget's
    for _ in range(5):
        budget.observe_prompt(128, 72)
    assert budget.fill(256) == 185 / 256 and budget.fill(128) == 72 / 128
    assert budget.fill(64) == 72 / 128 and budget.fill(512) == 185 / 256


def test_small_prompts_at_the_smaller_budget_do_not_make_the_larger_look_cheap() -> None:
    """Prompts at 128 held 56% of it, at 256 72%: judged with one fill for both, 256 looked
    cheap again at the same speed and the budget went back and forth (a daemon replay)."""
    budget = FastBudget(256)
    for _ in range(9):
        budget.observe_prompt(256, 185)
    model = measured(15.3, 37.0)
    budget.update(model, LIMIT, NEW)
    assert budget.tokens == 128
    for _ in range(9):
        budget.observe_prompt(128, 72)
        assert not budget.update(model, LIMIT, NEW)
    assert budget.tokens == 128
