"""The speculation switch-off rule shared by the engines (engine/speculation.py)."""

from __future__ import annotations

import pytest

from engine.speculation import SpeculationGovernor


def test_governor_needs_plain_baseline_then_judges_acceptance() -> None:
    g = SpeculationGovernor(min_acceptance=0.4)
    assert not g.want() and g.baseline_left == 32  # no plain baseline yet
    g.record_plain(16, 16 * 30.0)
    assert not g.want()  # one single-line completion is too thin a baseline
    assert g.baseline_left == 16
    g.record_plain(20, 20 * 30.0)
    assert g.want() and g.baseline_left == 0
    g.record_speculative(20, 20 * 20.0, proposed=50, accepted=10)
    assert not g.enabled
    assert g.note.startswith("off: acceptance 0.20 < 0.40 over the last 50 draft tokens; probing")


@pytest.mark.parametrize(("spec_ms", "accepted", "enabled", "note"), [
    (45.0, 40, False, "off: slower than plain decoding (45.0 ms/token vs 30.0"),
    (20.0, 40, True, ""),  # accepted and faster: stays on, nothing to say
    (31.4, 40, True, ""),  # within 5%: a tie on a noisy machine, no verdict
    (31.6, 40, False, "off: slower than plain decoding (31.6 ms/token vs 30.0"),
])
def test_governor_judges_speed_against_plain(
    spec_ms: float, accepted: int, enabled: bool, note: str
) -> None:
    g = SpeculationGovernor(min_acceptance=0.4)
    g.record_plain(32, 32 * 30.0)
    g.record_speculative(40, 40 * spec_ms, proposed=50, accepted=accepted)
    assert g.enabled is enabled and g.note.startswith(note) and (note or g.note == "")


def test_governor_probes_again_after_a_wait_that_doubles_while_the_verdict_holds() -> None:
    g = SpeculationGovernor(min_acceptance=0.4, retry_after=4, max_retry_after=8)
    g.record_plain(32, 32 * 30.0)
    g.record_speculative(20, 20 * 20.0, proposed=50, accepted=10)
    assert not g.want() and g.note == (
        "off: acceptance 0.20 < 0.40 over the last 50 draft tokens; probing again after 4 requests"
    )
    for _ in range(3):
        g.record_plain(10, 10 * 30.0)
    assert not g.want()
    g.record_plain(10, 10 * 30.0)  # the 4th plain request: a new probe with fresh figures
    assert g.want() and g.acceptance == 0.0 and g.note.startswith("probing again (was off:")
    g.record_speculative(20, 20 * 20.0, proposed=50, accepted=5)  # still bad: wait doubles
    assert not g.want() and g.note.endswith("probing again after 8 requests")
    for _ in range(8):
        g.record_plain(10, 10 * 30.0)
    g.record_speculative(20, 20 * 20.0, proposed=50, accepted=5)
    assert g.note.endswith("after 8 requests")  # capped at max_retry_after
    for _ in range(8):
        g.record_plain(10, 10 * 30.0)
    # the drafts fit what is edited now: speculation stays on, the backoff is forgotten
    g.record_speculative(40, 40 * 20.0, proposed=50, accepted=45)
    assert g.want() and g.note == "" and g.acceptance == 0.9
    assert (g.proposed, g.accepted) == (200, 65)  # totals since start, for the stats
    g.record_speculative(40, 40 * 20.0, proposed=200, accepted=10)
    assert g.note.endswith("after 4 requests")


def test_observing_governor_keeps_speculation_on_and_records_the_verdict() -> None:
    g = SpeculationGovernor(min_acceptance=0.4, enforce=False)
    g.record_plain(32, 32 * 30.0)
    g.record_speculative(20, 20 * 20.0, proposed=50, accepted=10)
    assert g.tripped and g.enabled and g.want()
    assert g.note == "off: acceptance 0.20 < 0.40 over the last 50 draft tokens"
    # the first verdict stays: later, better figures do not rewrite it
    g.record_speculative(20, 20 * 10.0, proposed=50, accepted=50)
    assert g.note == "off: acceptance 0.20 < 0.40 over the last 50 draft tokens"


def test_enforcing_governor_trips_and_turns_off() -> None:
    g = SpeculationGovernor(min_acceptance=0.4)
    g.record_plain(32, 32 * 30.0)
    g.record_speculative(40, 40 * 45.0, proposed=50, accepted=40)
    assert g.tripped and not g.enabled and not g.want()


def test_acceptance_is_taken_over_the_most_recent_draft_tokens() -> None:
    """A long good stretch does not hide drafts that stopped fitting what is edited now."""
    g = SpeculationGovernor(min_acceptance=0.4, window=250, baseline_tokens=0)
    assert g.want()  # no baseline asked for: speculation from the start
    for _ in range(10):
        g.record_speculative(40, 40 * 10.0, proposed=50, accepted=45)
    assert g.enabled and g.window_proposed <= 250
    for _ in range(3):
        g.record_speculative(10, 10 * 10.0, proposed=50, accepted=5)
    assert g.enabled  # 0.9, 0.9, 0.1, 0.1, 0.1 over the window: 0.42
    assert g.record_speculative(10, 10 * 10.0, proposed=50, accepted=5)  # 0.26: off
    assert not g.enabled and "over the last 250 draft tokens" in g.note
    assert (g.proposed, g.accepted) == (700, 470)  # totals since start stay
    assert not g.record_speculative(0, 0.0, proposed=0, accepted=0)  # nothing to learn


def test_the_rate_alone_judges_until_plain_figures_exist() -> None:
    g = SpeculationGovernor(min_acceptance=0.4, baseline_tokens=0)
    g.record_speculative(40, 40 * 99.0, proposed=50, accepted=45)
    assert g.enabled  # slow, but nothing plain to compare with
    g.record_plain(32, 32 * 30.0)
    g.record_speculative(40, 40 * 99.0, proposed=50, accepted=45)
    assert not g.enabled and g.note.startswith("off: slower than plain decoding (99.0")


def test_speeds_are_judged_over_the_latest_tokens_of_each_kind() -> None:
    """Plain decoding slowed as the session's contexts grew (20 -> 40 ms/token): speculation at
    38 ms/token is faster than plain now, though slower than the session's plain mean (30)."""
    g = SpeculationGovernor(min_acceptance=0.4, rate_window=256)
    for _ in range(16):
        g.record_plain(16, 16 * 20.0)
    for _ in range(16):
        g.record_plain(16, 16 * 40.0)
    assert g.plain_ms / g.plain_tokens == 30.0  # the totals since start stay (the stats' figures)
    for _ in range(4):
        g.record_speculative(16, 16 * 38.0, proposed=20, accepted=18)
    assert g.enabled and g.note == ""
    for _ in range(16):  # speculation got slower: its own early figures do not hide it
        g.record_speculative(16, 16 * 44.0, proposed=20, accepted=18)
    assert not g.enabled and g.note.startswith("off: slower than plain decoding (42.")
    assert "ms/token vs 40.0)" in g.note  # the window of the latest plain tokens


def test_a_plain_request_every_so_often_keeps_the_plain_figure_current() -> None:
    g = SpeculationGovernor(min_acceptance=0.4, refresh_every=8)
    g.record_plain(32, 32 * 30.0)
    for _ in range(8):
        assert g.want()
        g.record_speculative(16, 16 * 20.0, proposed=20, accepted=18)
    assert not g.want() and g.enabled and g.note == ""  # the refresh: one plain request
    g.record_plain(16, 16 * 50.0)  # plain got slower meanwhile
    assert g.want()
    never = SpeculationGovernor(min_acceptance=0.4, refresh_every=0, baseline_tokens=0)
    observing = SpeculationGovernor(min_acceptance=0.4, baseline_tokens=0, enforce=False)
    for _ in range(100):
        never.record_speculative(16, 16 * 20.0, proposed=20, accepted=18)
        observing.record_speculative(16, 16 * 20.0, proposed=20, accepted=18)
    assert never.want() and observing.want()  # a benchmark's speculation stays on


def test_record_request_routes_an_engines_finished_request() -> None:
    g = SpeculationGovernor(min_acceptance=0.4)
    assert not g.record_request(3, 3 * 30.0, speculative=False)  # too short to time decoding
    assert g.plain_tokens == 0
    g.record_request(32, 32 * 30.0, speculative=False, proposed=9, accepted=9)
    assert g.plain_tokens == 32 and g.proposed == 0  # a plain request proposes nothing
    assert g.record_request(20, 20 * 20.0, speculative=True, proposed=50, accepted=10)
    assert (g.proposed, g.accepted, g.spec_tokens) == (50, 10, 20) and not g.enabled
