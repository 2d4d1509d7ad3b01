"""What a final reply says about its context (pure)."""

from __future__ import annotations

from daemon.context import DroppedSegment
from daemon.context.types import Kind, Tier
from daemon.replies import MAX_DROPPED_SHOWN, dropped_lines


def test_dropped_segments_are_listed_up_to_a_bound_then_counted() -> None:
    """A buffer of 800,000 assignments dropped as many candidates: a 42 MB reply."""
    one = DroppedSegment(Kind.RETRIEVED, Tier.P2, "util.py:10-40", 30, "over budget")
    assert dropped_lines([one]) == ["retrieved util.py:10-40: over budget"]
    many = dropped_lines([one] * 100_000)
    assert len(many) == MAX_DROPPED_SHOWN + 1
    assert many[-1] == f"... {100_000 - MAX_DROPPED_SHOWN} more"
