"""What the scheduler is told before a request's context exists (daemon.hints, pure)."""

from __future__ import annotations

from app.config import ContextConfig
from daemon.hints import Cursor, PromptHints
from daemon.warm_docs import EDIT_TOKENS
from engine.base import Priority

TEXT = "import os\n\n\ndef f(x):\n    return x + 1\n\n\nprint(f(2))\n" * 40  # 1,720 chars
BUDGETS = (2048, 256)


def cursor(line: int = 40) -> Cursor:
    return Cursor("/p/a.py", TEXT, line, 4, "python")


def test_a_cold_document_is_predicted_from_its_size_with_nothing_cached() -> None:
    hints = PromptHints(slots=4)
    request, warm_suffix = hints.completion("r1", cursor(), BUDGETS, ContextConfig(),
                                            max_new_tokens=16, deadline_ms=2400.0)
    assert request.priority is Priority.INTERACTIVE and request.document == "/p/a.py"
    assert request.num_prompt_tokens == len(TEXT) // 3  # a third of the characters
    assert request.num_prompt_tokens_fast == 256  # ... at most the budget
    assert request.num_cached_tokens == request.num_cached_tokens_fast == 0
    assert warm_suffix == {}  # nothing warm: nothing to learn from its result
    assert request.max_new_tokens == 16 and request.deadline_ms == 2400.0


def test_a_warm_document_is_predicted_from_the_prompt_the_engine_held() -> None:
    hints = PromptHints(slots=4)
    hints.learn("/p/a.py", 256, {}, num_prompt_tokens=185, num_cached_tokens=0)
    request, warm_suffix = hints.completion("r2", cursor(), BUDGETS, ContextConfig(),
                                            max_new_tokens=16, deadline_ms=2400.0)
    assert request.num_prompt_tokens_fast == 185
    suffix = warm_suffix[256]  # warm at the fast budget only
    assert set(warm_suffix) == {256}
    assert request.num_cached_tokens_fast == max(0, 185 - EDIT_TOKENS - suffix)
    assert request.num_cached_tokens == 0  # the normal budget's prompt is another text
    # its result teaches the edit size at that budget: 185 - 150 cached - the suffix
    hints.learn("/p/a.py", 256, warm_suffix, num_prompt_tokens=185, num_cached_tokens=150)
    assert hints.warm.edit_tokens(256) == 185 - 150 - suffix


def test_a_warmup_says_what_a_completion_would_still_prefill_after_it() -> None:
    hints = PromptHints(slots=4)
    warm = hints.warmup("warmup/0", cursor(), BUDGETS, ContextConfig(), followup_new_tokens=64)
    assert warm.priority is Priority.BACKGROUND and warm.prefill_only
    assert warm.num_prompt_tokens == len(TEXT) // 3
    assert warm.followup_uncached_tokens is not None
    assert EDIT_TOKENS <= warm.followup_uncached_tokens <= warm.num_prompt_tokens
    assert warm.followup_new_tokens == 64
