"""Speculative decoding for the llamacpp engine: drafters and the switch-off rule.

A drafter proposes up to k next tokens given the tokens so far; the engine verifies them in one
batch with the main model (greedy: a draft token is accepted while it equals the main model's
argmax). Two drafters: ``PromptLookupDrafter`` (copies what followed the last n-gram earlier in
the context; free) and ``DraftModelDrafter`` (a small model of the same family with its own
llama.cpp context and prefix reuse). ``SpeculationGovernor`` tracks acceptance and speed and turns
speculation off below the configured acceptance or when it is slower than plain decoding, with a
note for the stats, and probes again later. All of it runs on the engine thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from engine.llamacpp_session import KVSession, ShouldStop


class Drafter(Protocol):
    """Proposes draft tokens; called on the engine thread before each verification step."""

    name: str

    def prepare(self, prompt: Sequence[int], key: str, should_stop: ShouldStop) -> None:
        """Get ready for a request whose prompt is ``prompt`` (document ``key``), during the
        prefill phase; may stop early when ``should_stop`` says so (``propose`` catches up)."""
        ...

    def propose(self, tokens: Sequence[int], k: int) -> list[int]: ...


class PromptLookupDrafter:
    """Draft by prompt lookup: find the last n-gram earlier in the context, propose what
    followed it."""

    name = "prompt-lookup"

    def __init__(self, max_ngram: int = 3, min_ngram: int = 2) -> None:
        self.max_ngram = max_ngram
        self.min_ngram = min_ngram

    def prepare(self, prompt: Sequence[int], key: str, should_stop: ShouldStop) -> None:
        """Nothing to prepare: the lookup reads the tokens passed to ``propose``."""

    def propose(self, tokens: Sequence[int], k: int) -> list[int]:
        arr = np.asarray(tokens, dtype=np.int64)
        n = arr.shape[0]
        for size in range(min(self.max_ngram, n - 1), self.min_ngram - 1, -1):
            tail = arr[n - size :]
            windows = np.lib.stride_tricks.sliding_window_view(arr[: n - 1], size)
            hits = np.nonzero(np.all(windows == tail, axis=1))[0]
            # the most recent earlier occurrence predicts best
            for start in hits[::-1]:
                follow = int(start) + size
                if follow < n:
                    return [int(t) for t in arr[follow : min(follow + k, n)]]
        return []


class DraftModelDrafter:
    """Draft with a small model (e.g. Qwen2.5-Coder-0.5B for the 1.5B): greedy, own KV cache.

    Its context follows the main one with the same prefix reuse (and KV states per document when
    the session has state slots). The engine calls ``prepare`` right after the main prefill, so
    the draft model's prefill of a new prompt is part of the prefill phase (and of a warm-up),
    not of the first decode step.
    """

    name = "draft-model"

    def __init__(self, session: KVSession, *, chunk: int = 0) -> None:
        self.session = session
        self.chunk = chunk or session.n_batch  # prefill step in prepare
        self.key = ""

    def prepare(self, prompt: Sequence[int], key: str, should_stop: ShouldStop) -> None:
        self.key = key
        if prompt and len(prompt) < self.session.n_ctx:
            self.session.prefill(prompt, key=key, chunk=self.chunk, should_stop=should_stop)

    def propose(self, tokens: Sequence[int], k: int) -> list[int]:
        s = self.session
        if len(tokens) + k + 1 >= s.n_ctx:
            return []
        s.prefill(tokens, key=self.key, chunk=s.n_batch, should_stop=lambda: False)
        out: list[int] = []
        for i in range(k):
            tok = s.argmax()
            out.append(tok)
            if i + 1 < k:  # the last draft token is not evaluated: nothing reads its logits
                s.decode([tok])
        return out


@dataclass(slots=True)
class SpeculationGovernor:
    """Decides whether speculation is used, from measured acceptance and speed.

    Acceptance below ``min_acceptance`` after ``min_proposed`` draft tokens turns it off; so does
    a measured time per generated token above the plain decoding time. Plain decoding time comes
    from requests decoded without speculation (the first one after start is always plain).
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
    retry_after: int = 32  # plain requests before the first probe after a verdict of "off"
    max_retry_after: int = 1024
    proposed: int = 0
    accepted: int = 0
    spec_ms: float = 0.0  # decode time of speculative requests (this probe)
    spec_tokens: int = 0
    plain_ms: float = 0.0  # decode time of plain requests
    plain_tokens: int = 0
    _probe_proposed: int = 0  # draft tokens of this probe (since speculation last came on)
    _probe_accepted: int = 0
    _plain_since_off: int = 0  # plain requests since the last verdict of "off"
    _wait: int = 0  # plain requests to wait before probing again (0: not waiting)

    @property
    def acceptance(self) -> float:
        """Acceptance of the current probe (since speculation last came on)."""
        return self._probe_accepted / self._probe_proposed if self._probe_proposed else 0.0

    def want(self) -> bool:
        """True when the next request should speculate (needs a plain baseline first)."""
        return self.enabled and self.plain_tokens >= 8

    def record_plain(self, num_tokens: int, decode_ms: float) -> None:
        self.plain_tokens += num_tokens
        self.plain_ms += decode_ms
        if self._wait and not self.enabled:
            self._plain_since_off += 1
            if self._plain_since_off >= self._wait:
                self._probe_again()

    def record_speculative(
        self, num_tokens: int, decode_ms: float, proposed: int, accepted: int
    ) -> None:
        self.proposed += proposed
        self.accepted += accepted
        self._probe_proposed += proposed
        self._probe_accepted += accepted
        self.spec_tokens += num_tokens
        self.spec_ms += decode_ms
        self._judge()

    def _judge(self) -> None:
        if self.tripped or self._probe_proposed < self.min_proposed:
            return
        if self.acceptance < self.min_acceptance:
            self._trip(f"off: acceptance {self.acceptance:.2f} < {self.min_acceptance:.2f}")
            return
        if self.spec_tokens >= 32 and self.plain_tokens >= 8:
            spec = self.spec_ms / self.spec_tokens
            plain = self.plain_ms / self.plain_tokens
            if spec > plain:
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
        self._probe_proposed = self._probe_accepted = 0
        self.spec_ms, self.spec_tokens = 0.0, 0
        self._plain_since_off = 0


def verify_greedy(session: KVSession, pending: int, draft: Sequence[int]) -> tuple[list[int], int]:
    """Evaluate ``pending`` + ``draft`` in one batch; return (new tokens, accepted drafts).

    The new tokens are the accepted draft tokens followed by the main model's own next token
    (the correction, or a bonus token when all were accepted). On return the KV cache holds
    ``pending`` and the accepted drafts; the last returned token is not evaluated yet.
    """
    base = len(session.tokens)
    session.decode([pending, *draft], all_logits=True)
    out: list[int] = []
    accepted = 0
    for i, tok in enumerate(draft):
        pred = session.argmax(i)
        if pred != tok:
            out.append(pred)
            break
        out.append(tok)
        accepted += 1
    else:
        out.append(session.argmax(len(draft)))
    session.truncate(base + 1 + accepted)
    return out, accepted


def draft_kind(drafter: Any) -> str:
    return str(getattr(drafter, "name", "draft"))
