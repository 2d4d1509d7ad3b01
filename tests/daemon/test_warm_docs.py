"""The daemon's memory of which prompts the engine holds (the scheduler's cache hint)."""

from __future__ import annotations

from daemon.warm_docs import EDIT_TOKENS, WarmDocuments


def test_a_cold_document_has_nothing_cached() -> None:
    warm = WarmDocuments(slots=4)
    assert "a.py" not in warm
    assert warm.cached_tokens("a.py", 2048, 1500) == 0


def test_the_held_prompt_less_the_edit_and_the_suffix() -> None:
    warm = WarmDocuments(slots=4)
    warm.mark("a.py", 2048, 1200)
    assert warm.cached_tokens("a.py", 2048, 1500) == 1200 - EDIT_TOKENS  # at most what it held
    assert warm.cached_tokens("a.py", 2048, 900) == 900 - EDIT_TOKENS
    # a small file shown whole: the rest of the file after the cursor is prefilled again
    assert warm.cached_tokens("a.py", 2048, 900, suffix_tokens=700) == 900 - EDIT_TOKENS - 700
    assert warm.cached_tokens("a.py", 2048, 100, suffix_tokens=700) == 0


def test_a_prompt_of_another_budget_is_another_text() -> None:
    warm = WarmDocuments(slots=4)
    warm.mark("a.py", 256, 180)  # served at the fast tier
    assert warm.cached_tokens("a.py", 2048, 1500) == 0
    assert warm.cached_tokens("a.py", 256, 200, suffix_tokens=20) == 180 - EDIT_TOKENS - 20
    warm.mark("a.py", 2048, 1400)  # then at the normal budget: the fast prompt is gone
    assert warm.cached_tokens("a.py", 256, 200) == 0


def test_as_many_documents_as_the_engine_keeps_kv_states() -> None:
    warm = WarmDocuments(slots=2)
    for path in ("a.py", "b.py", "c.py"):
        warm.mark(path, 2048, 500)
    assert "a.py" not in warm and "b.py" in warm and "c.py" in warm
    warm.mark("b.py", 2048, 500)  # used again: now the newest
    warm.mark("d.py", 2048, 500)
    assert "c.py" not in warm and "b.py" in warm and len(warm) == 2


def test_the_prompt_size_held_at_a_budget() -> None:
    warm = WarmDocuments(slots=4)
    assert warm.prompt_tokens("a.py", 256) is None
    warm.mark("a.py", 256, 171)
    assert warm.prompt_tokens("a.py", 256) == 171
    assert warm.prompt_tokens("a.py", 2048) is None


def test_the_edit_size_is_learned_per_budget_from_completions() -> None:
    warm = WarmDocuments(slots=4)
    warm.mark("a.py", 256, 180)
    assert warm.edit_tokens(256) == EDIT_TOKENS  # the prior
    # keystrokes at the fast budget (stable layout: the cursor line ends the prompt) prefilled
    # their ~15-token suffix and a few tokens of edit
    for prompt, cached in ((127, 107), (213, 193), (184, 164), (162, 161)):
        warm.observe(256, prompt, cached, suffix_tokens=15)
    assert warm.edit_tokens(256) == 5  # median of 5, 5, 5, 0
    assert warm.cached_tokens("a.py", 256, 180, suffix_tokens=15) == 180 - 5 - 15
    assert warm.edit_tokens(2048) == EDIT_TOKENS  # another budget, another layout: not learnt
    warm.observe(256, 0, 0, 15)  # never prefilled (cancelled first): no sample
    assert warm.edit_tokens(256) == 5
