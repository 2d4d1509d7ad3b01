"""Fit candidate segments into the token budget (design.md §2), pure and deterministic.

Admission order: FIXED and P0 first (never dropped while they fit), then each share group takes
its P1/P2 candidates up to its own allowance, then whatever budget is left goes to the remaining
candidates by tier. A candidate is admitted only if it fits: rather one segment less than one
token over the budget.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from daemon.context.types import DroppedSegment, Segment, Tier

GROUP_ORDER: tuple[str, ...] = (
    "instructions",
    "cursor",
    "enclosing",
    "related",
    "retrieval",
    "history",
)


@dataclass(frozen=True, slots=True)
class Candidate:
    segment: Segment
    group: str  # one of GROUP_ORDER: whose share it is charged to
    rank: float  # admission order within its tier and group (lower first)
    order: tuple[float, ...]  # position in the final prompt (sorted ascending)


def allowances(budget: int, shares: Mapping[str, float]) -> dict[str, int]:
    return {group: int(budget * shares.get(group, 0.0)) for group in GROUP_ORDER}


def fit_budget(
    candidates: Sequence[Candidate], budget: int, allowance: Mapping[str, int]
) -> tuple[list[Candidate], list[DroppedSegment]]:
    """Choose which candidates to keep; returns (kept in prompt order, dropped)."""
    kept: list[Candidate] = []
    kept_ids: set[int] = set()
    used: dict[str, int] = dict.fromkeys(GROUP_ORDER, 0)
    total = 0

    def admit(c: Candidate) -> None:
        nonlocal total
        kept.append(c)
        kept_ids.add(id(c))
        used[c.group] = used.get(c.group, 0) + c.segment.num_tokens
        total += c.segment.num_tokens

    def by_priority(c: Candidate) -> tuple[int, int, float]:
        return (int(c.segment.tier), GROUP_ORDER.index(c.group), c.rank)

    must = sorted((c for c in candidates if c.segment.tier <= Tier.P0), key=by_priority)
    for c in must:
        if total + c.segment.num_tokens <= budget:
            admit(c)
    for group in GROUP_ORDER:
        pool = sorted(
            (c for c in candidates if c.group == group and id(c) not in kept_ids
             and c.segment.tier > Tier.P0),
            key=by_priority,
        )
        for c in pool:
            n = c.segment.num_tokens
            if used[group] + n <= allowance.get(group, 0) and total + n <= budget:
                admit(c)
    for c in sorted((c for c in candidates if id(c) not in kept_ids), key=by_priority):
        if total + c.segment.num_tokens <= budget:
            admit(c)
    dropped = [
        DroppedSegment(
            kind=c.segment.kind,
            tier=c.segment.tier,
            source=c.segment.source,
            num_tokens=c.segment.num_tokens,
            reason="over budget",
        )
        for c in sorted(candidates, key=by_priority)
        if id(c) not in kept_ids
    ]
    kept.sort(key=lambda c: c.order)
    return kept, dropped
