"""What the scheduler is told about a completion or a warm-up before its context exists (pure).

The scheduler decides a request's tier from its predicted time, and that needs the prompt's
size and how much of it the engine's KV cache still holds, at the normal budget and at the fast
tier's. The context is assembled only once the request starts (at the budget of its tier), so
the daemon estimates both from the prompt the engine last held for the document at that budget
(``WarmDocuments``) and from the suffix the assembler will take at the cursor; a completion on a
document that was warm teaches the typical edit size once its engine result is in.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.config import ContextConfig
from daemon.context import expected_suffix_tokens
from daemon.context.types import ContextRequest
from daemon.schedule_types import NewRequest
from daemon.warm_docs import WarmDocuments

__all__ = ["Cursor", "PromptHints"]


@dataclass(frozen=True, slots=True)
class Cursor:
    """A cursor in a document's text, as the hints need it."""

    path: str
    text: str
    line: int
    col: int
    language: str
    offset: int | None = None  # of (line, col) in text, when the caller computed it


class PromptHints:
    """Estimates for the scheduler, per document and budget; owns the WarmDocuments record."""

    def __init__(self, slots: int) -> None:
        self.warm = WarmDocuments(slots)

    def completion(
        self, request_id: str, cursor: Cursor, budgets: tuple[int, int], context: ContextConfig,
        *, max_new_tokens: int, deadline_ms: float,
    ) -> tuple[NewRequest, dict[int, int]]:
        """The completion's NewRequest at ``budgets`` (normal, fast), and the suffix estimate
        per budget at which the document is warm (what ``learn`` needs once it finished)."""
        (budget, est), (fast, fast_est) = self._estimates(cursor, budgets)
        after = self._suffix(cursor, budget, context)
        after_fast = self._suffix(cursor, fast, context)
        warm_suffix = {b: hint for b, hint in ((budget, after), (fast, after_fast))
                       if self.warm.prompt_tokens(cursor.path, b) is not None}
        request = NewRequest.completion(
            request_id, cursor.path, num_prompt_tokens=est, max_new_tokens=max_new_tokens,
            deadline_ms=deadline_ms,
            num_cached_tokens=self.warm.cached_tokens(cursor.path, budget, est, after),
            num_cached_tokens_fast=self.warm.cached_tokens(cursor.path, fast, fast_est,
                                                           after_fast),
            num_prompt_tokens_fast=fast_est)
        return request, warm_suffix

    def warmup(
        self, key: str, cursor: Cursor, budgets: tuple[int, int], context: ContextConfig,
        *, followup_new_tokens: int,
    ) -> NewRequest:
        """A warm-up's NewRequest: its own prefill, and what a completion there would still
        prefill after it (the edit and the suffix), which chooses its tier."""
        (budget, est), (fast, fast_est) = self._estimates(cursor, budgets)
        suffix = self._suffix(cursor, budget, context)
        return NewRequest.warmup(
            key, cursor.path, num_prompt_tokens=est,
            num_cached_tokens=self.warm.cached_tokens(cursor.path, budget, est),
            followup_uncached_tokens=min(est, self.warm.edit_tokens(budget) + suffix),
            followup_new_tokens=followup_new_tokens,
            num_cached_tokens_fast=self.warm.cached_tokens(cursor.path, fast, fast_est),
            num_prompt_tokens_fast=fast_est)

    def learn(self, path: str, budget: int, warm_suffix: dict[int, int],
              num_prompt_tokens: int, num_cached_tokens: int) -> None:
        """A completion at ``budget`` finished with these prompt figures: the engine now holds
        its prompt, and where the document was warm at that budget, the edit size is learnt."""
        suffix = warm_suffix.get(budget)
        if suffix is not None:
            self.warm.observe(budget, num_prompt_tokens, num_cached_tokens, suffix)
        self.warm.mark(path, budget, num_prompt_tokens)

    def _estimates(self, cursor: Cursor, budgets: tuple[int, int]
                   ) -> tuple[tuple[int, int], tuple[int, int]]:
        """(budget, estimated prompt tokens) for each budget: the prompt the engine last held
        for the document at that budget says the next one's size; else a third of the text's
        characters, at most the budget."""
        out = []
        for budget in budgets:
            guess = min(budget, max(1, len(cursor.text) // 3))
            out.append((budget, self.warm.prompt_tokens(cursor.path, budget) or guess))
        return out[0], out[1]

    @staticmethod
    def _suffix(cursor: Cursor, budget: int, context: ContextConfig) -> int:
        """Tokens after the cursor the prompt at ``budget`` will likely hold."""
        request = ContextRequest(cursor.path, cursor.text, cursor.line, cursor.col,
                                 cursor.language, budget)
        return expected_suffix_tokens(request, context, offset=cursor.offset)
