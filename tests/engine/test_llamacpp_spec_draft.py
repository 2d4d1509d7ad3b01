"""Draft-model drafter and the observing governor, without a model (fake KV session)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from app.config import EngineConfig
from engine.llamacpp_spec import DraftModelDrafter, PromptLookupDrafter
from engine.speculation import SpeculationGovernor

# the llamacpp engine's own tests: they run where llama-cpp-python is installed
native = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                            reason="llama-cpp-python is not installed: the llamacpp engine's "
                            "tests run where it is (installers/install.sh --native)")


class FakeSession:
    """Stands in for KVSession: the "model" predicts last token + 1; counts evaluated tokens."""

    def __init__(self, n_ctx: int = 1000, n_batch: int = 512) -> None:
        self.n_ctx = n_ctx
        self.n_batch = n_batch
        self.tokens: list[int] = []
        self.evaluated = 0
        self.prefills: list[tuple[int, str, int]] = []  # (length, key, chunk)

    def prefill(
        self, prompt: Sequence[int], *, key: str, chunk: int, should_stop: Callable[[], bool]
    ) -> Any:
        common = 0
        for a, b in zip(self.tokens, prompt, strict=False):
            if a != b:
                break
            common += 1
        keep = min(common, len(prompt) - 1)
        self.evaluated += len(prompt) - keep
        self.tokens = list(prompt)
        self.prefills.append((len(prompt), key, chunk))

    def decode(self, tokens: Sequence[int], *, all_logits: bool = False) -> None:
        self.evaluated += len(tokens)
        self.tokens.extend(tokens)

    def argmax(self, i: int = -1) -> int:
        return self.tokens[-1] + 1


def test_draft_model_proposes_greedily_without_evaluating_the_last_draft() -> None:
    s = FakeSession()
    d = DraftModelDrafter(s, chunk=64)  # type: ignore[arg-type]
    d.prepare([1, 2, 3], "doc", lambda: False)
    assert s.prefills == [(3, "doc", 64)]
    assert s.evaluated == 3
    assert d.propose([1, 2, 3, 4], 3) == [5, 6, 7]
    # the new token 4 and drafts 5, 6 are evaluated; 7 (the last draft) is not
    assert s.evaluated == 3 + 1 + 2
    assert s.prefills[-1][1] == "doc"  # propose keeps the document key of prepare
    # all drafts accepted, then a bonus token: only 7 and the bonus need evaluating
    assert d.propose([1, 2, 3, 4, 5, 6, 7, 8], 2) == [9, 10]
    assert s.evaluated == 6 + 2 + 1


def test_draft_model_gives_up_near_the_context_end() -> None:
    s = FakeSession(n_ctx=10)
    d = DraftModelDrafter(s)  # type: ignore[arg-type]
    assert d.chunk == s.n_batch
    assert d.propose(list(range(7)), 3) == []
    d.prepare(list(range(12)), "", lambda: False)  # too long for the draft context: skipped
    assert s.prefills == []


def test_prompt_lookup_prepare_is_a_no_op() -> None:
    d = PromptLookupDrafter()
    d.prepare([1, 2, 3], "doc", lambda: True)
    assert d.propose([1, 2, 3, 1, 2], 2) == [3, 1]


@pytest.mark.slow
@native
def test_draft_model_gives_the_plain_greedy_text(embedded_model: Path) -> None:
    """The embedded model drafting for itself: every draft is accepted, the text is the same."""
    import llama_cpp

    from engine.base import GenerationRequest, PromptParts, generate_sync
    from engine.llamacpp import LlamaCppEngine
    from engine.profiles import QWEN25_CODER

    engine = LlamaCppEngine(
        model_path=embedded_model,
        profile=QWEN25_CODER,
        config=EngineConfig(n_ctx=1024, speculation=True, kv_state_slots=2, num_draft_tokens=4),
        draft_model_path=embedded_model,
        governor=SpeculationGovernor(min_acceptance=0.4, baseline_tokens=0),  # exactness only
    )
    engine.start()
    try:
        prefix = "def fib(n: int) -> int:\n    if n < 2:\n        return n\n"
        parts = PromptParts("f.py", "python", (), prefix, "\n\nprint(fib(10))\n")

        def run(rid: str, spec: bool) -> Any:
            req = GenerationRequest(
                rid, prompt=parts, max_new_tokens=20, speculation=spec, cache_key="f"
            )
            return generate_sync(engine, req, timeout_s=120)[0]

        plain = run("plain", False)
        spec = run("spec", True)
        assert spec.stats.speculation_used
        assert spec.text == plain.text
        assert spec.stats.num_draft_tokens > 0
        assert spec.stats.num_draft_accepted == spec.stats.num_draft_tokens
        # the draft model runs on the thread counts measured for the main model (it kept
        # llama-cpp-python's defaults before: one decode thread of two cores)
        draft, main = engine._drafter.session, engine._session  # type: ignore[union-attr]
        assert draft.decode_threads == engine._threads.current  # type: ignore[union-attr]
        assert main is not None and draft.batch_threads == main.batch_threads
        assert llama_cpp.llama_n_threads(draft.ctx.ctx) == draft.decode_threads
        assert llama_cpp.llama_n_threads_batch(draft.ctx.ctx) == draft.batch_threads
    finally:
        engine.close()
