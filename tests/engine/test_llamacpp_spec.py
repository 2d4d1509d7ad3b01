"""Speculative decoding: drafters, the switch-off rule, and greedy equivalence (slow)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from app.config import EngineConfig
from engine.base import GenerationRequest, PromptParts, generate_sync
from engine.llamacpp_spec import PromptLookupDrafter
from engine.speculation import SpeculationGovernor

# the llamacpp engine's own tests: they run where llama-cpp-python is installed
native = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                            reason="llama-cpp-python is not installed: the llamacpp engine's "
                            "tests run where it is (installers/install.sh --native)")


def test_prompt_lookup_proposes_what_followed() -> None:
    d = PromptLookupDrafter(max_ngram=3, min_ngram=2)
    tokens = [1, 2, 3, 4, 5, 9, 9, 2, 3]
    assert d.propose(tokens, 3) == [4, 5, 9]
    assert d.propose([1, 2, 3, 4], 3) == []


@pytest.mark.slow
@native
def test_prompt_lookup_gives_the_plain_greedy_text(embedded_model: Path) -> None:
    from app.config import PROMPT_LOOKUP
    from engine.llamacpp import LlamaCppEngine
    from engine.profiles import QWEN25_CODER

    engine = LlamaCppEngine(
        model_path=embedded_model,
        profile=QWEN25_CODER,
        config=EngineConfig(n_ctx=1024, speculation=True, kv_state_slots=0),
        draft_model_path=Path(PROMPT_LOOKUP),
        governor=SpeculationGovernor(min_acceptance=0.4, baseline_tokens=0),  # exactness only
    )
    engine.start()
    try:
        assert engine.capabilities.speculation
        prefix = (
            "def area(w: float, h: float) -> float:\n    return w * h\n\n\n"
            "def volume(w: float, h: float, d: float) -> float:\n    return w * h * d\n\n\n"
            "def area2(w: float, h: float) -> float:\n"
        )
        parts = PromptParts("a.py", "python", (), prefix, "\n")

        def run(rid: str, spec: bool) -> Any:
            req = GenerationRequest(rid, prompt=parts, max_new_tokens=24, speculation=spec)
            return generate_sync(engine, req, timeout_s=120)[0]

        plain = run("plain", False)
        spec = run("spec", True)
        assert spec.stats.speculation_used
        assert spec.text == plain.text
        assert spec.stats.num_draft_tokens == (
            spec.stats.num_draft_accepted + spec.stats.num_draft_rejected
        )
        stats = engine.stats()
        assert stats.draft_proposed == spec.stats.num_draft_tokens
    finally:
        engine.close()


def _lookup_engine(embedded_model: Path, governor: SpeculationGovernor) -> Any:
    """The embedded model with prompt-lookup drafting under ``governor``, started."""
    from app.config import PROMPT_LOOKUP
    from engine.llamacpp import LlamaCppEngine
    from engine.profiles import QWEN25_CODER

    engine = LlamaCppEngine(
        model_path=embedded_model,
        profile=QWEN25_CODER,
        config=EngineConfig(n_ctx=1024, speculation=True, kv_state_slots=0),
        draft_model_path=Path(PROMPT_LOOKUP),
        governor=governor,
    )
    engine.start()
    return engine


_AREA2 = PromptParts(
    "a.py", "python", (),
    "def area(w: float, h: float) -> float:\n    return w * h\n\n\n"
    "def area2(w: float, h: float) -> float:\n",
    "\n",
)


def _complete(engine: Any, rid: str) -> Any:
    req = GenerationRequest(rid, prompt=_AREA2, max_new_tokens=12, speculation=True)
    return generate_sync(engine, req, timeout_s=120)[0]


@pytest.mark.slow
@native
def test_switched_off_speculation_comes_back_for_a_probe(embedded_model: Path) -> None:
    """On the real engine: a verdict of "off" (a bar no draft can clear), plain requests while
    it waits, then speculation again for a new probe."""
    engine = _lookup_engine(embedded_model, SpeculationGovernor(
        min_acceptance=1.01, min_proposed=1, retry_after=2, baseline_tokens=8
    ))
    try:
        used = []
        for i in range(5):
            used.append(_complete(engine, f"r{i}").stats.speculation_used)
            if i == 1:
                assert "probing again after 2 requests" in engine.stats().speculation_note
        # baseline, speculative (verdict: off), two plain while waiting, speculative again
        assert used == [False, True, False, False, True]
        assert engine.stats().speculation_enabled is False  # the new probe's verdict: off again
        assert engine.stats().speculation_note.endswith("probing again after 4 requests")
    finally:
        engine.close()


@pytest.mark.slow
@native
def test_a_plain_request_now_and_then_refreshes_the_plain_speed(embedded_model: Path) -> None:
    """On the real engine: while speculation stays on, one request decodes plainly after
    ``refresh_every`` speculative ones and feeds the plain figure; speculation goes on after."""
    governor = SpeculationGovernor(min_acceptance=0.0, baseline_tokens=0, refresh_every=2)
    engine = _lookup_engine(embedded_model, governor)
    try:
        used, plain_tokens = [], []
        for i in range(5):
            used.append(_complete(engine, f"r{i}").stats.speculation_used)
            plain_tokens.append(governor.plain_tokens)
        assert used == [True, True, False, True, True]
        assert plain_tokens[2] > plain_tokens[1] == 0  # the plain request measured
        assert engine.stats().speculation_enabled and engine.stats().speculation_note == ""
    finally:
        engine.close()
