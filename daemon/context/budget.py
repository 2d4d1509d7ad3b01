"""Fit candidate segments into the token budget (design.md §2), pure and deterministic.

Admission order: FIXED and P0 first (never dropped while they fit), then each share group takes
its P1/P2 candidates up to its own allowance, then whatever budget is left goes to the remaining
candidates by tier. A candidate is admitted only if it fits: rather one segment less than one
token over the budget.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from daemon.context.types import DroppedSegment, Segment, Tier
from engine.base import TokenCounter

GROUP_ORDER: tuple[str, ...] = (
    "instructions",
    "cursor",
    "enclosing",
    "related",
    "retrieval",
    "history",
)


UNCOUNTED = -1  # Segment.num_tokens of a candidate counted only if admission needs it


@dataclass(frozen=True, slots=True)
class Candidate:
    segment: Segment  # num_tokens may be UNCOUNTED: then counted (text + overhead) on demand
    group: str  # one of GROUP_ORDER: whose share it is charged to
    rank: float  # admission order within its tier and group (lower first)
    order: tuple[float, ...]  # position in the final prompt (sorted ascending)
    upgrade: Segment | None = None  # a fuller form (e.g. whole text for a skeleton), if room
    overhead: int = 0  # tokens added to an UNCOUNTED segment's text count
    upgrade_overhead: int = 0
    # a shorter form (e.g. a long class with only the members in use), tried with the budget
    # left at the end when the segment itself found no room
    fallback: Segment | None = None
    fallback_overhead: int = 0
    # what this candidate is (``path:qualname`` of a related definition) and which such
    # candidates its text shows whole (a class skeleton: the members it lists), itself and as
    # its fallback: one that another kept candidate shows is not kept twice
    key: str = ""
    covers: frozenset[str] = frozenset()
    fallback_covers: frozenset[str] = frozenset()


def allowances(budget: int, shares: Mapping[str, float]) -> dict[str, int]:
    return {group: int(budget * shares.get(group, 0.0)) for group in GROUP_ORDER}


# A token covers at most this many characters in practice; a text longer than this many times
# the room left cannot fit, so it is skipped without running the tokenizer.
MAX_CHARS_PER_TOKEN = 12  # no tokenizer packs more characters into a token (bounds a count)


def count_within(counter: TokenCounter, text: str, limit: int) -> int:
    """``counter.count(text)`` for a text that may fit ``limit`` tokens; for a longer one (over
    ``limit * MAX_CHARS_PER_TOKEN`` characters: a minified line, a data blob) a lower bound,
    still over ``limit``, without running the tokenizer over it. Whatever compares the result
    with ``limit`` or less decides as with the exact count."""
    if len(text) > limit * MAX_CHARS_PER_TOKEN:
        return -(-len(text) // MAX_CHARS_PER_TOKEN)
    return counter.count(text)


def fit_budget(
    candidates: Sequence[Candidate],
    budget: int,
    allowance: Mapping[str, int],
    counter: TokenCounter,
) -> tuple[list[Candidate], list[DroppedSegment]]:
    """Choose which candidates to keep; returns (kept in prompt order, dropped).

    Kept candidates come back with exact counts; dropped ones never counted carry an estimate.
    """
    kept: list[Candidate] = []
    kept_ids: set[int] = set()
    used: dict[str, int] = dict.fromkeys(GROUP_ORDER, 0)
    counts: dict[int, int] = {}
    total = 0

    def measure(seg: Segment, overhead: int) -> int:
        if seg.num_tokens != UNCOUNTED:
            return seg.num_tokens
        n = counts.get(id(seg))
        if n is None:
            n = counter.count(seg.text) + overhead
            counts[id(seg)] = n
        return n

    def fits(seg: Segment, overhead: int, room: int) -> int | None:
        """Tokens of seg if it fits in room, else None (cheap rejection for long texts)."""
        uncounted = seg.num_tokens == UNCOUNTED and id(seg) not in counts
        if uncounted and len(seg.text) > room * MAX_CHARS_PER_TOKEN:
            return None
        n = measure(seg, overhead)
        return n if n <= room else None

    covered: set[str] = set()  # keys shown by kept candidates
    shown_twice: list[Candidate] = []

    def admit(c: Candidate, n: int) -> None:
        nonlocal total
        if c.key and c.key in covered:
            shown_twice.append(c)  # a kept class skeleton shows it already
            kept_ids.add(id(c))
            return
        kept.append(c)
        kept_ids.add(id(c))
        used[c.group] = used.get(c.group, 0) + n
        total += n
        if c.covers:  # members kept before their class: shown twice now, taken out
            covered.update(c.covers)
            for other in [k for k in kept if k.key in c.covers and k is not c]:
                kept.remove(other)
                shown_twice.append(other)
                m = measure(other.segment, other.overhead)
                used[other.group] -= m
                total -= m

    def by_priority(c: Candidate) -> tuple[int, int, float]:
        return (int(c.segment.tier), GROUP_ORDER.index(c.group), c.rank)

    must = sorted((c for c in candidates if c.segment.tier <= Tier.P0), key=by_priority)
    for c in must:
        n = fits(c.segment, c.overhead, budget - total)
        if n is not None:
            admit(c, n)
    for group in GROUP_ORDER:
        pool = sorted(
            (
                c
                for c in candidates
                if c.group == group and id(c) not in kept_ids and c.segment.tier > Tier.P0
            ),
            key=by_priority,
        )
        for c in pool:
            room = min(allowance.get(group, 0) - used[group], budget - total)
            n = fits(c.segment, c.overhead, room) if room > 0 else None
            if n is not None:
                admit(c, n)
    for c in sorted((c for c in candidates if id(c) not in kept_ids), key=by_priority):
        n = fits(c.segment, c.overhead, budget - total) if budget > total else None
        if n is not None:
            admit(c, n)
        elif c.fallback is not None and budget > total:
            n = fits(c.fallback, c.fallback_overhead, budget - total)
            if n is not None:
                admit(Candidate(c.fallback, c.group, c.rank, c.order,
                                overhead=c.fallback_overhead, key=c.key,
                                covers=c.fallback_covers), n)
                kept_ids.add(id(c))
    kept = [_counted(c, measure(c.segment, c.overhead)) for c in kept]
    # budget left: replace kept skeletons by their full text, shortest first (more of them fit)
    upgrades = sorted(
        ((i, c) for i, c in enumerate(kept) if c.upgrade is not None),
        key=lambda ic: (len(ic[1].upgrade.text) if ic[1].upgrade else 0, by_priority(ic[1])),
    )
    for i, c in upgrades:
        up = c.upgrade
        assert up is not None
        room = budget - total + c.segment.num_tokens
        n = fits(up, c.upgrade_overhead, room) if room > 0 else None
        if n is not None:
            kept[i] = Candidate(_with_tokens(up, n), c.group, c.rank, c.order)
            total += n - c.segment.num_tokens

    def dropped_as(c: Candidate, reason: str) -> DroppedSegment:
        return DroppedSegment(kind=c.segment.kind, tier=c.segment.tier, source=c.segment.source,
                              num_tokens=_known_or_estimate(c, counts), reason=reason)

    dropped = [
        dropped_as(c, "over budget")
        for c in sorted(candidates, key=by_priority)
        if id(c) not in kept_ids
    ] + [dropped_as(c, "duplicate") for c in shown_twice]
    kept.sort(key=lambda c: c.order)
    return kept, dropped


def _with_tokens(seg: Segment, n: int) -> Segment:
    if seg.num_tokens == n:
        return seg
    return Segment(seg.kind, seg.tier, seg.role, seg.source, seg.text, n)


def _counted(c: Candidate, n: int) -> Candidate:
    if c.segment.num_tokens == n:
        return c
    return Candidate(
        _with_tokens(c.segment, n),
        c.group,
        c.rank,
        c.order,
        c.upgrade,
        c.overhead,
        c.upgrade_overhead,
    )


def _known_or_estimate(c: Candidate, counts: Mapping[int, int]) -> int:
    if c.segment.num_tokens != UNCOUNTED:
        return c.segment.num_tokens
    known = counts.get(id(c.segment))
    if known is not None:
        return known
    return math.ceil(len(c.segment.text) / 3.5) + c.overhead
