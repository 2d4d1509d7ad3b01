"""Speculative decoding for the llamacpp engine: drafters and the switch-off rule.

A drafter proposes up to k next tokens given the tokens so far; the engine verifies them in one
batch with the main model (greedy: a draft token is accepted while it equals the main model's
argmax). Two drafters: ``PromptLookupDrafter`` (copies what followed the last n-gram earlier in
the context; free) and ``DraftModelDrafter`` (a small model of the same family with its own
llama.cpp context and prefix reuse). When to speculate is ``engine.speculation``'s
``SpeculationGovernor``. All of it runs on the engine thread.
"""

from __future__ import annotations

from collections.abc import Sequence
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
