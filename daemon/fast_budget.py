"""The fast tier's context budget, fitted to the engine's measured speed (pure).

Past ``tiers.fast_ms`` a completion goes to fast mode, "a smaller context" (design.md §4):
``tiers.fast_budget_factor`` of ``context.budget_tokens``, 256 of 2,048 tokens, what an idle
2-core CPU prefills in time. With a build on one of the two cores prefill runs about 2x slower
(16 against 8 ms per token), and a new cursor position, whose prompt is mostly new tokens, was
no longer answered in time at 256 tokens: every completion there ran into the 2.5 s deadline
and a fifth of them showed nothing (docs/latency.md, "Under load").

So the fast budget is fitted: the largest of the configured fast budget, its half, its quarter,
... (not below ``min_tokens``) whose cold prompt, none of it cached as at a new cursor position,
is predicted within the deadline by the scheduler's latency model; the budget in use shrinks
only when its cold prompt is predicted more than ``shrink_margin`` (10%) past the deadline. The
prompt size at each budget is learnt (the assembler keeps whole lines and segments: prompts at
256 held about 185 tokens, at 128 about 72); a budget not seen yet is judged by the nearest one
seen (a larger budget fills more of itself: an over-estimate for a smaller one). The floor is
128 tokens: at 64 the prompts held 34 tokens and the replay's completions fell apart (exact
lines 0.27 -> 0.03). Budgets are halvings and grow back only with a margin, so one budget holds
across keystrokes: another budget is another prompt text, which the KV cache does not hold.

Growing back has two ways. The larger budget fits 70% of the deadline; or the engine got at least
a quarter faster than when the budget last shrank and the larger budget fits 80% of it. With the
first alone a machine whose idle speed lies between the two points kept the smaller budget for
the rest of the session after any build: this host at 8.2-9.8 ms per prompt token (256 shrinks
past ~10.7, grew back below ~6.8), where 3 of 11 daemon replays shrank once, early, and stayed
at 128, the budget the quality harness scores a third lower (exact 13 against 18%). Under a
steady load the median rate moves 10-15% (12.4 and 14.2 ms a few seconds apart), which flapped
the budget at an 85% margin; a quarter is twice that.

The shrink margin: on this shared host an idle replay's median prefill rate still wobbles
between 9 and 15 ms per token (nine samples, some of them short keystroke prefills that ran
beside the daemon's own work). Five of 21 idle replays in one session shrank 256 -> 128,
four of them with the cold prompt predicted 0.5-4% past the deadline (2,413-2,496 against
2,400 ms; the fifth 17%, a slow stretch), and one of those stayed at 128 for the rest of its
run (shrunk at 11.3 ms per token, grown back only at 8.5). A cold prompt is the rare case (the
document's warm-up runs first), and one a few percent past the deadline is answered at it.
"""

from __future__ import annotations

import math
import statistics
from collections import deque
from dataclasses import dataclass, field

from daemon.latency_model import LatencyModel

__all__ = ["MIN_TOKENS", "FastBudget", "tier_budget"]

MIN_TOKENS = 64  # the smallest context budget the assembler is given
MIN_FAST_TOKENS = 128  # the smallest the fast tier shrinks to (the module docstring says why)


def tier_budget(budget_tokens: int, factor: float) -> int:
    """The context budget of a tier whose budget factor is ``factor`` (``context.
    budget_tokens`` x factor, not below what the assembler is given)."""
    return max(MIN_TOKENS, round(budget_tokens * factor))


@dataclass(slots=True)
class FastBudget:
    """The fast tier's budget in tokens: ``tokens``, one of ``ladder()``."""

    base_tokens: int  # the configured fast budget (budget_tokens x fast_budget_factor)
    min_tokens: int = MIN_FAST_TOKENS  # the smallest budget it shrinks to
    # shrink only when the cold prompt at the budget in use is predicted past this share of
    # the deadline (the module docstring says why)
    shrink_margin: float = 1.1
    # grow only when the larger budget fits this share of the deadline: at 0.85 the busy
    # replay flapped 256 <-> 128 (the prefill rate moves 10-15% under load; docs/latency.md)
    grow_margin: float = 0.7
    # or grow when the prefill rate is this share of the rate at the last shrink (or less), and
    # the larger budget fits ``recover_margin`` of the deadline (the module docstring says why)
    recover_share: float = 0.75
    recover_margin: float = 0.8
    min_samples: int = 5  # prefill samples before judging (the first ones after a load run cold)
    fill_window: int = 9  # prompts behind each budget's learnt fill (their median)
    tokens: int = 0  # the budget in use (0: base_tokens)
    note: str = ""  # why it is what it is, for status and the log (empty: not judged yet)
    num_changes: int = 0  # how often ``update`` changed the budget (flaps show here)
    shrink_rate: float = 0.0  # prefill ms per token when it last shrank (0: at the base)
    _fills: dict[int, deque[float]] = field(default_factory=dict)  # budget -> recent fills

    def __post_init__(self) -> None:
        self.base_tokens = max(MIN_TOKENS, self.base_tokens)
        if self.tokens not in self.ladder():
            self.tokens = self.base_tokens

    def ladder(self) -> tuple[int, ...]:
        """The budgets it may choose, largest first: the base, then halvings down to
        ``min_tokens`` (a base below that is the only choice)."""
        sizes = [self.base_tokens]
        while sizes[-1] // 2 >= self.min_tokens:
            sizes.append(sizes[-1] // 2)
        return tuple(sizes)

    def fill(self, budget_tokens: int) -> float:
        """Prompt tokens per budget token of recent prompts at that budget; a budget not seen
        yet takes the nearest seen one's, a larger one first (smaller budgets fill less: a whole
        line or segment that does not fit is left out); 1.0 before any prompt."""
        if not self._fills:
            return 1.0
        nearest = min(self._fills, key=lambda b: (b < budget_tokens, abs(b - budget_tokens)))
        return statistics.median(self._fills[nearest])

    def observe_prompt(self, budget_tokens: int, num_prompt_tokens: int) -> None:
        """A prompt assembled at ``budget_tokens`` held ``num_prompt_tokens`` tokens."""
        if budget_tokens > 0 and num_prompt_tokens > 0:
            seen = self._fills.setdefault(budget_tokens, deque(maxlen=self.fill_window))
            seen.append(min(1.0, num_prompt_tokens / budget_tokens))

    def cold_ms(self, model: LatencyModel, budget_tokens: int, max_new_tokens: int) -> float:
        """Predicted engine time of a completion whose prompt at ``budget_tokens`` is all new."""
        return model.service_ms(
            num_prompt_tokens=math.ceil(budget_tokens * self.fill(budget_tokens)),
            max_new_tokens=max_new_tokens,
            num_cached_tokens=0,
        )

    def update(self, model: LatencyModel, limit_ms: float, max_new_tokens: int) -> bool:
        """Fit the budget to the model's current figures; True when it changed. ``limit_ms``:
        the deadline fast completions work to; ``max_new_tokens``: what they ask for."""
        if model.rate_samples("prefill_ms_per_token") < self.min_samples:
            return False
        ladder = self.ladder()
        i = start = ladder.index(self.tokens)
        rate = model.prefill_ms_per_token
        over = self.shrink_margin * limit_ms
        while i + 1 < len(ladder) and self.cold_ms(model, ladder[i], max_new_tokens) > over:
            i += 1  # shrink while the budget in use is predicted well past the deadline
        if i > start:
            self.shrink_rate = rate
        recovered = rate <= self.recover_share * self.shrink_rate
        while i > 0:  # grow back while the larger one fits with room to spare
            cold = self.cold_ms(model, ladder[i - 1], max_new_tokens)
            if cold > self.grow_margin * limit_ms and not (
                recovered and cold <= self.recover_margin * limit_ms
            ):
                break
            i -= 1
        if i == 0:
            self.shrink_rate = 0.0
        before, self.tokens = self.tokens, ladder[i]
        cold = self.cold_ms(model, self.tokens, max_new_tokens)
        self.note = (
            f"{self.tokens} tokens: a cold prompt predicted {cold:.0f} ms "
            f"({model.prefill_ms_per_token:.1f} ms per prompt token), deadline {limit_ms:.0f} ms"
        )
        if self.tokens < self.base_tokens:
            base = self.cold_ms(model, self.base_tokens, max_new_tokens)
            self.note += f"; {self.base_tokens} tokens: {base:.0f} ms"
        self.num_changes += self.tokens != before
        return self.tokens != before
