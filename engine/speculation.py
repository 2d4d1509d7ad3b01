"""When to speculate: one switch-off rule for every engine (design.md §3).

Speculation pays only while the draft tokens are accepted often enough and verifying them costs
less than decoding plainly. ``SpeculationGovernor`` measures both and turns speculation off below
``min_acceptance`` (0.4 by default: below it speculation only adds latency) or when a token costs
more with speculation than without, says why in ``note`` for the stats, and later probes again.
The llamacpp engine asks it per request; the exllamav2 engine, whose generator drafts for every
job or none, rebuilds its generator when ``want()`` changes. Pure: no clock, no engine; callers
give it per-request figures. Not thread-safe: call it from the engine thread (or under a lock).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field

__all__ = [
    "MIN_PLAIN_REQUEST_TOKENS",
    "MIN_PLAIN_TOKENS",
    "MIN_SPEC_TOKENS",
    "RecentSum",
    "SpeculationGovernor",
]

MIN_SPEC_TOKENS = 32  # speculative tokens of a probe before its speed is judged
MIN_PLAIN_TOKENS = 16  # plain tokens the speed is judged against
MIN_PLAIN_REQUEST_TOKENS = 4  # generated tokens a plain request needs to count for the speed


@dataclass(slots=True)
class RecentSum:
    """Sums of (weight, amount) pairs over the most recent ones holding about ``window`` of
    weight, and their ratio: draft tokens accepted per proposed, milliseconds per generated
    token (what decoding costs now: a session's documents and contexts change as it goes)."""

    window: int
    weight: int = 0
    amount: float = 0.0
    _recent: collections.deque[tuple[int, float]] = field(default_factory=collections.deque)

    def add(self, weight: int, amount: float) -> None:
        self._recent.append((weight, amount))
        self.weight += weight
        self.amount += amount
        while self._recent and self.weight - self._recent[0][0] >= self.window:
            w, a = self._recent.popleft()
            self.weight -= w
            self.amount -= a

    def clear(self) -> None:
        self._recent.clear()
        self.weight, self.amount = 0, 0.0

    @property
    def ratio(self) -> float:
        return self.amount / self.weight if self.weight else 0.0


@dataclass(slots=True)
class SpeculationGovernor:
    """Decides whether speculation is used, from measured acceptance and speed.

    Acceptance is accepted / proposed draft tokens over the current probe's most recent requests
    holding about ``window`` proposed tokens (a probe: since speculation last came on). Once the
    probe has at least ``min_proposed`` draft tokens and acceptance is below ``min_acceptance``,
    speculation turns off; so does a measured time per generated token more than
    ``speed_margin`` above the plain decoding time (a tie is no verdict: the two figures come
    from different requests, and on a noisy machine equal speeds read a few percent apart).
    Plain decoding time comes from requests decoded without speculation: speculation waits for
    ``baseline_tokens`` plain tokens first, a few single-line completions (0: speculate from the
    start, judged on acceptance until ``MIN_PLAIN_TOKENS`` plain tokens exist). A baseline of one
    8-token request was too thin: one slow or fast request decided the verdict. Both speeds are
    taken over the latest ``rate_window`` tokens of their kind (decoding slows as contexts grow
    over a session; a figure from the first minutes would judge the present against them), and
    while speculation stays on, every ``refresh_every``-th request decodes plainly to keep the
    plain figure current (0: never; the exllamav2 engine, whose generator is rebuilt to change
    it, asks for 0; a governor that does not enforce, a benchmark's, never does).

    Off is not for good: what the user edits changes (a file of boilerplate drafts well, a new
    algorithm badly), so after ``retry_after`` plain requests it probes again with fresh
    figures, and each verdict of "off" in a row doubles the wait (up to ``max_retry_after``).
    With ``enforce`` False (benchmarks) it only records its verdict: ``tripped`` and ``note``
    say when and why it would have turned speculation off, and speculation stays on.
    ``accepted``/``proposed`` count every draft token since start (the stats show them).
    """

    min_acceptance: float
    enabled: bool = True
    note: str = ""
    enforce: bool = True
    tripped: bool = False  # the rule fired (speculation is off when enforcing)
    min_proposed: int = 40
    window: int = 1000  # proposed draft tokens the acceptance is taken over
    baseline_tokens: int = 32  # plain tokens measured before the first speculation
    speed_margin: float = 0.05  # slower than plain by more than this share: off
    retry_after: int = 32  # plain requests before the first probe after a verdict of "off"
    max_retry_after: int = 1024
    rate_window: int = 256  # latest tokens each speed (plain, speculative) is taken over
    refresh_every: int = 64  # speculative requests in a row before one plain (0: never)
    proposed: int = 0
    accepted: int = 0
    spec_ms: float = 0.0  # decode time of speculative requests (this probe)
    spec_tokens: int = 0
    plain_ms: float = 0.0  # decode time of plain requests (since start)
    plain_tokens: int = 0
    _plain_rate: RecentSum = field(init=False)  # tokens, ms (the latest rate_window tokens)
    _spec_rate: RecentSum = field(init=False)
    _spec_in_row: int = 0  # speculative requests since the last plain one
    _accept: RecentSum = field(init=False)  # this probe's draft tokens: proposed, accepted
    _probe_proposed: int = 0  # draft tokens of this probe (since speculation last came on)
    _plain_since_off: int = 0  # plain requests since the last verdict of "off"
    _wait: int = 0  # plain requests to wait before probing again (0: not waiting)

    @property
    def acceptance(self) -> float:
        """Acceptance over the window of the current probe (0.0 before any draft token)."""
        return self._accept.ratio

    @property
    def window_proposed(self) -> int:
        """Draft tokens the acceptance is taken over."""
        return self._accept.weight

    @property
    def baseline_left(self) -> int:
        """Plain tokens still to decode before the first speculation (0: the baseline is in)."""
        return max(0, self.baseline_tokens - self.plain_tokens)

    def __post_init__(self) -> None:
        self._plain_rate = RecentSum(self.rate_window)
        self._spec_rate = RecentSum(self.rate_window)
        self._accept = RecentSum(self.window)

    def want(self) -> bool:
        """True when the next request should speculate (after the plain baseline, if any, and
        but for the plain refresh every ``refresh_every`` requests)."""
        return (
            self.enabled
            and self.plain_tokens >= self.baseline_tokens
            and not (
                self.enforce and self.refresh_every and self._spec_in_row >= self.refresh_every
            )
        )

    def record_plain(self, num_tokens: int, decode_ms: float) -> None:
        """A request decoded without speculation (``num_tokens`` generated in ``decode_ms``)."""
        self.plain_tokens += num_tokens
        self.plain_ms += decode_ms
        self._plain_rate.add(num_tokens, decode_ms)
        self._spec_in_row = 0
        if self._wait and not self.enabled:
            self._plain_since_off += 1
            if self._plain_since_off >= self._wait:
                self._probe_again()

    def record_request(
        self,
        num_tokens: int,
        decode_ms: float,
        *,
        speculative: bool,
        proposed: int = 0,
        accepted: int = 0,
    ) -> bool:
        """An engine's finished request (called once per request by every engine that has a
        draft): a speculative one goes to ``record_speculative``, a plain one to
        ``record_plain`` when it generated at least ``MIN_PLAIN_REQUEST_TOKENS`` (a shorter one
        is mostly the first token's overhead, no decoding speed). True when this call turned
        speculation off."""
        if speculative:
            return self.record_speculative(num_tokens, decode_ms, proposed, accepted)
        if num_tokens >= MIN_PLAIN_REQUEST_TOKENS:
            self.record_plain(num_tokens, decode_ms)
        return False

    def record_speculative(
        self, num_tokens: int, decode_ms: float, proposed: int, accepted: int
    ) -> bool:
        """A request decoded with speculation; True when this call turned speculation off."""
        if proposed <= 0 and num_tokens <= 0:
            return False
        self.proposed += proposed
        self.accepted += accepted
        self._probe_proposed += proposed
        if proposed > 0:
            self._accept.add(proposed, accepted)
        self.spec_tokens += num_tokens
        self.spec_ms += decode_ms
        self._spec_rate.add(num_tokens, decode_ms)
        self._spec_in_row += 1
        was_enabled = self.enabled
        self._judge()
        return was_enabled and not self.enabled

    def _judge(self) -> None:
        if self.tripped or self._probe_proposed < self.min_proposed:
            return
        if self.acceptance < self.min_acceptance:
            self._trip(
                f"off: acceptance {self.acceptance:.2f} < {self.min_acceptance:.2f}"
                f" over the last {self._accept.weight} draft tokens"
            )
            return
        spec_rate, plain_rate = self._spec_rate, self._plain_rate
        if spec_rate.weight >= MIN_SPEC_TOKENS and plain_rate.weight >= MIN_PLAIN_TOKENS:
            spec, plain = spec_rate.ratio, plain_rate.ratio
            if spec > plain * (1 + self.speed_margin):
                self._trip(f"off: slower than plain decoding ({spec:.1f} ms/token vs {plain:.1f})")
            elif self._wait:  # a probe that passed: the backoff is forgotten
                self._wait = 0
                self.note = ""

    def _trip(self, note: str) -> None:
        self.tripped = True
        if not self.enforce:
            self.note = note
            return
        self.enabled = False
        self._wait = min(self.max_retry_after, self._wait * 2 if self._wait else self.retry_after)
        self._plain_since_off = 0
        self.note = f"{note}; probing again after {self._wait} requests"

    def _probe_again(self) -> None:
        """Speculation back on with fresh figures; the wait doubles if the verdict is "off"
        again and is forgotten once a probe passes ``min_proposed`` draft tokens above it."""
        self.enabled = True
        self.tripped = False
        self.note = f"probing again (was {self.note.split(';')[0]})"
        self._accept.clear()
        self._probe_proposed = 0
        self.spec_ms, self.spec_tokens = 0.0, 0
        self._spec_rate.clear()
        self._plain_since_off = 0
