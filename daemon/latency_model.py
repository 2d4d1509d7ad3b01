"""The scheduler's model of the engine's speed, learned from finished requests (pure)."""

from __future__ import annotations

import math
import statistics
from collections import deque
from collections.abc import Mapping

from engine.base import GenerationStats

#: The figures a model learns, with the range a saved one must be in to be taken back
#: (:meth:`LatencyModel.restored`): ms per token, ms per request, shares.
LEARNT: dict[str, tuple[float, float]] = {
    "prefill_ms_per_token": (0.01, 10_000.0),
    "decode_ms_per_token": (0.01, 10_000.0),
    "overhead_ms": (0.0, 60_000.0),
    "cached_share": (0.0, 1.0),
    "fill_ratio": (0.05, 1.0),
    "batch_slowdown": (0.0, 10.0),
}


class LatencyModel:
    """Rolling figures of the engine's speed (medians, EWMAs), fed from finished requests.

    Priors are the CPU figures of design.md §7 (prefill ~150 tokens/s, decode ~35 tokens/s); the
    first real sample of each figure replaces its prior. The per-token rates are then the median
    of the last ``RATE_WINDOW`` samples: the first prefill after the model loads runs 5-7x slower
    than the rest (45 vs 6-10 ms/token on 2 cores), and an EWMA kept that outlier in the
    predictions for tens of requests. The other figures are blended with ``alpha``.
    ``fill_ratio`` is the share of ``max_new_tokens`` requests really generate (they stop at a
    newline or a stop string), so predictions are not always the worst case.

    An engine that runs several requests at once (parallel slots) shares its cores among them:
    each request's engine time grows by ``batch_slowdown`` for every other request beside it
    (learnt: the median of ``RATE_WINDOW`` samples of requests that ran beside others, their
    time against the one predicted alone). The per-token rates are learnt as if alone (each
    sample divided by its share of that slowdown), and :meth:`service_ms` predicts for the
    number of requests the new one will run beside.
    """

    MIN_PREFILL_SAMPLE = 16  # uncached prompt tokens below this say more about overhead than rate
    MIN_DECODE_SAMPLE = 2  # generated tokens below this: first-token time dominates
    RATE_WINDOW = 9  # samples behind each per-token rate (their median)
    MIN_SHARED = 0.25  # mean other requests beside one for its sample to teach batch_slowdown

    def __init__(
        self,
        *,
        alpha: float = 0.2,
        prefill_ms_per_token: float = 6.0,
        decode_ms_per_token: float = 28.0,
        overhead_ms: float = 30.0,
        cached_share: float = 0.0,
        fill_ratio: float = 1.0,
        batch_slowdown: float = 0.5,
    ) -> None:
        if not 0.0 < alpha <= 1.0:
            raise ValueError("alpha must be in (0, 1]")
        self.alpha = alpha  # weight of a new sample in every EWMA
        self.prefill_ms_per_token = prefill_ms_per_token  # per uncached prompt token
        self.decode_ms_per_token = decode_ms_per_token  # per generated token (speculation incl.)
        self.overhead_ms = overhead_ms  # per request: total - queue - prefill - decode
        self.cached_share = cached_share  # share of prompt tokens reused from the KV cache
        self.fill_ratio = fill_ratio  # generated / max_new_tokens of requests that ran to the end
        # engine time per other request running beside one, as a share of its time alone
        self.batch_slowdown = batch_slowdown
        self.num_samples = 0  # results observed
        self.num_restored = 0  # figures taken from an earlier daemon (restored)
        self._seen: set[str] = set()  # figures that have had their first real sample
        self._rates: dict[str, deque[float]] = {
            name: deque(maxlen=self.RATE_WINDOW)
            for name in ("prefill_ms_per_token", "decode_ms_per_token", "batch_slowdown")
        }

    @classmethod
    def restored(cls, figures: Mapping[str, object]) -> LatencyModel:
        """A model that starts from the figures an earlier daemon learnt with the same engine
        settings (:meth:`figures`, saved by ``daemon.speed_store``) instead of the priors. Each
        counts as one sample: a per-token rate is the first value of its window, the others
        are blended with the next samples, not replaced by the first. A figure that is missing,
        not a number or out of its range (:data:`LEARNT`) keeps its prior."""
        model = cls()
        for name, (low, high) in LEARNT.items():
            value = figures.get(name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if not (math.isfinite(value) and low <= value <= high):
                continue
            setattr(model, name, float(value))
            model._seen.add(name)
            window = model._rates.get(name)
            if window is not None:
                window.append(float(value))
            model.num_restored += 1
        return model

    def figures(self) -> dict[str, float]:
        """The learnt figures (:data:`LEARNT`), unrounded: what :meth:`restored` takes."""
        return {name: float(getattr(self, name)) for name in LEARNT}

    def _blend(self, name: str, value: float) -> None:
        window = self._rates.get(name)
        if window is not None:
            window.append(value)
            setattr(self, name, statistics.median(window))
            return
        if name not in self._seen:
            self._seen.add(name)
            setattr(self, name, value)
            return
        old: float = getattr(self, name)
        setattr(self, name, old + self.alpha * (value - old))

    def observe(
        self,
        stats: GenerationStats,
        *,
        max_new_tokens: int | None = None,
        extra_ms: float = 0.0,
        shared: float = 0.0,
    ) -> None:
        """Fold one finished request's figures in (called by Scheduler.update_from_result).

        ``max_new_tokens``: what the request asked for, when it ran to its natural end; it
        teaches ``fill_ratio``. ``extra_ms``: time spent outside the engine (context assembly,
        post-processing), counted as per-request overhead. ``shared``: how many other requests
        ran beside it in the engine, on average over its time there. Figures a request did not
        exercise (no decode for a warm-up) are left alone.
        """
        self.num_samples += 1
        if stats.num_prompt_tokens > 0:
            self._blend("cached_share", max(0.0, stats.num_cached_tokens) / stats.num_prompt_tokens)
        shared = max(0.0, shared)
        if shared >= self.MIN_SHARED:
            self._learn_slowdown(stats, shared)
        factor = 1.0 + self.batch_slowdown * shared
        self.observe_prefill(stats, factor=factor)
        if stats.num_generated_tokens >= self.MIN_DECODE_SAMPLE and stats.decode_ms > 0:
            rate = stats.decode_ms / stats.num_generated_tokens / factor
            self._blend("decode_ms_per_token", rate)
        if stats.total_ms > 0:
            rest = stats.total_ms - stats.queue_ms - stats.prefill_ms - stats.decode_ms
            self._blend("overhead_ms", max(0.0, rest) + max(0.0, extra_ms))
        if max_new_tokens:
            ratio = min(1.0, stats.num_generated_tokens / max_new_tokens)
            self._blend("fill_ratio", max(0.05, ratio))

    def _learn_slowdown(self, stats: GenerationStats, shared: float) -> None:
        """One sample of ``batch_slowdown``: the request's engine time against the time the
        rates predict for it alone, per other request beside it."""
        new = stats.num_prefilled_tokens or stats.num_prompt_tokens - stats.num_cached_tokens
        alone = max(0, new) * self.prefill_ms_per_token
        alone += max(0, stats.num_generated_tokens) * self.decode_ms_per_token
        took = stats.prefill_ms + stats.decode_ms
        if alone < self.overhead_ms or took <= 0:  # too short to say anything
            return
        self._blend("batch_slowdown", max(0.0, took / alone - 1.0) / shared)

    def observe_prefill(self, stats: GenerationStats, *, factor: float = 1.0) -> None:
        """Fold in the prefill rate only: a request's, or one stopped mid-prefill (a warm-up a
        completion took over) when the engine said how many tokens it evaluated. Taken-over
        warm-ups were most of the long prefills: without them the rate came from completions'
        short ones (32-83 tokens at 9.4-11.8 ms per token against 7.3 for whole warm-ups) and
        the model predicted cold prompts ~25% slow."""
        new = stats.num_prefilled_tokens or stats.num_prompt_tokens - stats.num_cached_tokens
        if new >= self.MIN_PREFILL_SAMPLE and stats.prefill_ms > 0:
            self._blend("prefill_ms_per_token", stats.prefill_ms / new / max(1.0, factor))

    def service_ms(
        self, *, num_prompt_tokens: int, max_new_tokens: int, num_cached_tokens: int | None,
        beside: int = 0,
    ) -> float:
        """Predicted time in the engine for one request with ``beside`` others running.

        overhead + (uncached prompt tokens x prefill ms/token + expected new tokens x decode
        ms/token) x (1 + batch_slowdown x beside), where expected new tokens = max_new_tokens x
        fill_ratio.
        """
        prompt = max(0, num_prompt_tokens)
        if num_cached_tokens is None:
            cached = prompt * self.cached_share
        else:
            cached = float(min(prompt, max(0, num_cached_tokens)))
        expected_new = max(0, max_new_tokens) * self.fill_ratio
        work = (prompt - cached) * self.prefill_ms_per_token
        work += expected_new * self.decode_ms_per_token
        return self.overhead_ms + work * (1.0 + self.batch_slowdown * max(0, beside))

    def rate_samples(self, name: str) -> int:
        """Samples behind a per-token rate (``prefill_ms_per_token``, ``decode_ms_per_token``)
        in its window: 0 while it is still the prior."""
        return len(self._rates[name])

    def snapshot(self) -> dict[str, float]:
        """Current figures, for status: prefill/decode ms per token, overhead, shares."""
        return {
            "prefill_ms_per_token": round(self.prefill_ms_per_token, 3),
            "decode_ms_per_token": round(self.decode_ms_per_token, 3),
            "overhead_ms": round(self.overhead_ms, 3),
            "cached_share": round(self.cached_share, 3),
            "fill_ratio": round(self.fill_ratio, 3),
            "batch_slowdown": round(self.batch_slowdown, 3),
            "num_samples": float(self.num_samples),
            "num_restored": float(self.num_restored),
        }
