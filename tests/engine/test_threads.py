"""The thread governor: measured time per token picks the count of a phase (engine/threads.py)."""

from __future__ import annotations

import itertools

import pytest

from engine.threads import ThreadGovernor, thread_choices


@pytest.mark.parametrize(
    ("cpus", "choices"), [(1, (1,)), (2, (1, 2)), (3, (1, 3)), (16, (8, 16)), (0, (1,))]
)
def test_choices_are_half_and_all_cpus(cpus: int, choices: tuple[int, ...]) -> None:
    assert thread_choices(cpus) == choices


def run(gov: ThreadGovernor, ms_per_token: dict[int, float], requests: int) -> list[int]:
    """``requests`` requests of 10 tokens at the given speed per count; the counts used."""
    used = []
    gov.skip_first = 0  # (tested on its own below)
    for _ in range(requests):
        n = gov.pick()
        used.append(n)
        gov.record(n, 10, 10 * ms_per_token[n])
    return used


def test_each_count_is_measured_once_then_the_faster_is_kept() -> None:
    gov = ThreadGovernor((1, 2), probe_wait=8)
    used = run(gov, {1: 50.0, 2: 33.0}, 9)
    assert used[:2] == [2, 1] and set(used[2:]) == {2} and gov.current == 2
    assert "decoding on 2 thread(s)" in gov.note and "1: 50 ms" in gov.note


def test_a_count_that_slows_down_is_left_at_once() -> None:
    gov = ThreadGovernor((1, 2))
    run(gov, {1: 50.0, 2: 33.0}, 4)
    assert gov.current == 2
    # a build starts: two threads wait for each other at every node
    used = run(gov, {1: 60.0, 2: 150.0}, 3)
    assert used[0] == 2 and gov.current == 1 and set(used[1:]) == {1}


def test_the_other_count_is_measured_again_after_a_doubling_wait() -> None:
    gov = ThreadGovernor((1, 2), probe_wait=4, max_probe_wait=16)
    used = run(gov, {1: 50.0, 2: 100.0}, 2 + 60)  # two is slower throughout
    probes = [i for i, n in enumerate(used) if n == 2 and i >= 2]
    gaps = [b - a for a, b in itertools.pairwise(probes)]
    assert gaps[:3] == [9, 17, 17] and gov.current == 1  # waits 8, 16, then capped at 16


def test_a_machine_idle_again_is_noticed_by_the_next_probe() -> None:
    gov = ThreadGovernor((1, 2), probe_wait=4)
    run(gov, {1: 60.0, 2: 150.0}, 2)
    assert gov.current == 1
    used = run(gov, {1: 50.0, 2: 33.0}, 12)
    # the probe re-measures two threads: the figure moves towards 33 ms until it wins
    assert gov.current == 2 and used[-1] == 2


def test_short_requests_and_unknown_counts_do_not_count() -> None:
    gov = ThreadGovernor((1, 2))
    gov.record(2, 3, 100.0)  # 3 tokens: too few
    gov.record(4, 10, 100.0)  # not a choice
    gov.record(1, 10, 0.0)
    assert gov.ms_per_token == {} and gov.note == ""
    assert gov.pick() == 2


def test_one_choice_never_probes() -> None:
    gov = ThreadGovernor((1,))
    assert set(run(gov, {1: 40.0}, 20)) == {1}
    with pytest.raises(ValueError):
        ThreadGovernor(())


def test_the_prefill_phase_says_so_and_ignores_short_prefills() -> None:
    gov = ThreadGovernor((1, 2), phase="prefilling", min_tokens=32, skip_first=0)
    gov.record(2, 20, 400.0)  # a keystroke's few new tokens: too few to judge
    assert gov.ms_per_token == {}
    gov.record(2, 150, 1500.0)
    assert gov.note == "prefilling on 2 thread(s) (2: 10 ms per token)"


def test_the_first_request_after_a_start_is_not_judged() -> None:
    gov = ThreadGovernor((1, 2))
    gov.record(2, 10, 420.0)  # cold: the model's pages are still being read in
    assert gov.ms_per_token == {} and gov.pick() == 2
    gov.record(2, 10, 110.0)
    assert gov.ms_per_token == {2: 11.0}


def test_a_request_too_small_to_judge_never_probes() -> None:
    gov = ThreadGovernor((1, 2), phase="prefilling", min_tokens=32, skip_first=0, probe_wait=1)
    gov.record(2, 100, 1000.0)
    assert gov.pick(12) == 2  # a keystroke's prefill: 1 is not measured on it
    assert gov.pick(100) == 1  # a cold prompt measures it
    gov.record(1, 100, 2000.0)  # 1 is slower: the next probe after a wait of 2
    gov.record(2, 100, 1000.0)
    gov.record(2, 100, 1000.0)
    assert gov.pick(5) == 2 and gov.pick(None) == 1  # probe due: only a judged request takes it


def test_a_due_probe_waits_for_a_background_request() -> None:
    gov = ThreadGovernor((1, 2), phase="prefilling", skip_first=0, probe_wait=2)
    assert gov.pick(100, interactive=True) == 2  # the count in use takes its first figure
    gov.record(2, 100, 700.0)
    # measuring 1 is due, but an editor waits on these: they keep the faster count
    for _ in range(3):
        assert gov.pick(100, interactive=True) == 2
        gov.record(2, 100, 700.0)
    assert gov.pick(100) == 1  # a warm-up measures it
    gov.record(1, 100, 1400.0)
    assert gov.ms_per_token == {1: 14.0, 2: 7.0} and gov.current == 2
    assert (gov.num_probes, gov.num_interactive_probes) == (1, 0)  # the stats say so


def test_without_background_requests_an_interactive_one_probes_after_the_patience() -> None:
    gov = ThreadGovernor((1, 2), skip_first=0, probe_wait=2, interactive_patience=3)
    used = []
    for _ in range(12):
        n = gov.pick(10, interactive=True)
        used.append(n)
        gov.record(n, 10, 10 * {1: 50.0, 2: 33.0}[n])
    # 1 is measured once 2 x 3 requests have run on 2; the next wait is 4 x 3 requests
    assert [i for i, n in enumerate(used) if n == 1] == [6]
    assert gov.current == 2
    assert (gov.num_probes, gov.num_interactive_probes) == (1, 1)


def test_a_start_count_is_used_and_measured_first_then_the_others() -> None:
    """Started beside busy work: the smaller count serves, and is measured, before anything
    measures the larger (which ran at 1-3 s per step there)."""
    gov = ThreadGovernor((1, 2), skip_first=0, probe_wait=2, start=1)
    assert gov.current == 1
    assert gov.pick(100, interactive=True) == 1 and gov.probing == 0
    gov.record(1, 100, 4000.0)
    assert gov.pick(100, interactive=True) == 1  # an editor's request leaves 2 to warm-ups
    assert gov.pick(100) == 2 and gov.probing == 2  # background work measures it
    gov.record(2, 100, 9000.0)
    assert gov.current == 1 and gov.ms_per_token == {1: 40.0, 2: 90.0}
    assert ThreadGovernor((1, 2), start=3).current == 2  # not a choice: all CPUs


def test_a_short_run_is_judged_only_when_far_slower_than_the_count_in_use() -> None:
    gov = ThreadGovernor((1, 2), min_tokens=4, skip_first=0)
    gov.record(2, 1, 2500.0)
    assert gov.ms_per_token == {}  # no figure to compare with: one step says too little
    gov.record(2, 4, 100.0)  # 25 ms per token
    gov.record(2, 1, 30.0)  # a healthy step: still too little to judge
    assert gov.ms_per_token == {2: 25.0}
    assert not gov.far_slower(1, 200.0) and gov.far_slower(1, 201.0)  # 2 x 25 x 4
    gov.record(2, 1, 2500.0)  # a step of a count that became far slower: judged
    assert gov.ms_per_token[2] == 25.0 + 0.3 * (2500.0 - 25.0)
    gov.record(1, 0, 10.0)
    assert 1 not in gov.ms_per_token  # nothing ran: nothing to judge


def test_expedite_makes_the_other_count_due_and_restarts_the_wait() -> None:
    gov = ThreadGovernor((1, 2), skip_first=0, probe_wait=2, max_probe_wait=256)
    gov.ms_per_token.update({1: 10.0, 2: 30.0})  # a verdict kept through a long build ...
    gov._wait = 256
    assert gov.pick(100) == 1  # ... not due for 256 requests
    gov.expedite()  # the build ended
    assert gov.pick(100) == 2 and gov.probing == 2
    gov.record(2, 100, 700.0)
    assert gov.current == 2 and gov._wait == 2  # a changed verdict: measured again soon
