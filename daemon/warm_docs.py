"""Which documents the engine holds a prompt for, and how much of a new prompt that saves.

The scheduler predicts a request's time from its uncached prompt tokens; the daemon cannot ask
the engine what its KV cache holds before the context is assembled, so it remembers, per
document, the budget and size of the prompt the engine last prefilled for it (a completion or a
warm-up), for as many documents as the engine keeps KV states. Pure; the service owns one.
"""

from __future__ import annotations

from collections import OrderedDict

# prompt tokens a warm document still has to prefill for the edit at the cursor; the FIM suffix
# after it (prefilled again at every keystroke) is counted apart
EDIT_TOKENS = 64


class WarmDocuments:
    """The documents the engine served lately, oldest first, with the prompt it held for each."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)  # engine.kv_state_slots: documents whose KV state it keeps
        self._held: OrderedDict[str, tuple[int, int]] = OrderedDict()

    def __contains__(self, path: object) -> bool:
        return path in self._held

    def __len__(self) -> int:
        return len(self._held)

    def mark(self, path: str, budget: int, num_prompt_tokens: int) -> None:
        """The engine prefilled a prompt of ``num_prompt_tokens`` at ``budget`` for ``path``."""
        self._held.pop(path, None)
        self._held[path] = (budget, num_prompt_tokens)
        while len(self._held) > self.slots:
            self._held.popitem(last=False)

    def cached_tokens(self, path: str, budget: int, num_prompt_tokens: int,
                      suffix_tokens: int = 0) -> int:
        """Prompt tokens of a ``num_prompt_tokens`` prompt at ``budget`` the engine likely still
        holds: when it last prefilled one of that budget for ``path`` (another tier's prompt is
        another text), that prompt at most, but the edit and the FIM suffix after it (the rest
        of a small file shown whole); 0 otherwise."""
        held = self._held.get(path)
        if held is None or held[0] != budget:
            return 0
        return max(0, min(num_prompt_tokens, held[1]) - EDIT_TOKENS - suffix_tokens)
