"""Which documents the engine holds a prompt for, and how much of a new prompt that saves.

The scheduler predicts a request's time from its uncached prompt tokens; the daemon cannot ask
the engine what its KV cache holds before the context is assembled, so it remembers, per
document, the budget and size of the prompt the engine last prefilled for it (a completion or a
warm-up), for as many documents as the engine keeps KV states. Pure; the service owns one.
"""

from __future__ import annotations

import statistics
from collections import OrderedDict, deque

# prompt tokens a warm document still has to prefill for the edit at the cursor (the FIM suffix
# after it, prefilled again at every keystroke, is counted apart): the prior, until completions
# on warm documents at that budget have shown what it is
EDIT_TOKENS = 64
EDIT_WINDOW = 15  # completions behind the learned edit size (their median)


class WarmDocuments:
    """The documents the engine served lately, oldest first, with the prompt it held for each."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)  # engine.kv_state_slots: documents whose KV state it keeps
        self._held: OrderedDict[str, tuple[int, int]] = OrderedDict()
        self._edits: dict[int, deque[int]] = {}  # budget -> recent edit sizes (tokens)

    def __contains__(self, path: object) -> bool:
        return path in self._held

    def __len__(self) -> int:
        return len(self._held)

    def forget_held(self) -> None:
        """A newly loaded engine holds no document's prompt (the edit sizes learnt stay)."""
        self._held.clear()

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
        held = self.prompt_tokens(path, budget)
        if held is None:
            return 0
        return max(0, min(num_prompt_tokens, held) - self.edit_tokens(budget) - suffix_tokens)

    def prompt_tokens(self, path: str, budget: int) -> int | None:
        """Size of the prompt at ``budget`` the engine last held for ``path`` (None: none held
        at that budget): the best guess of the next one's, which the assembler builds from the
        same file at the same budget (often under the budget: whole lines, a short file)."""
        held = self._held.get(path)
        if held is None or held[0] != budget:
            return None
        return held[1]

    def edit_tokens(self, budget: int) -> int:
        """Tokens a completion on a warm document at ``budget`` prefills besides its FIM suffix:
        the median of the last ``EDIT_WINDOW`` observed, ``EDIT_TOKENS`` before any. Layouts
        differ: where the prompt ends with the cursor line, a keystroke costs a few tokens;
        where the window follows the cursor, much more of the prompt moves."""
        seen = self._edits.get(budget)
        return int(statistics.median(seen)) if seen else EDIT_TOKENS

    def observe(self, budget: int, num_prompt_tokens: int, num_cached_tokens: int,
                suffix_tokens: int) -> None:
        """A completion at ``budget`` on a document that was warm at that budget when it
        arrived prefilled ``num_prompt_tokens - num_cached_tokens`` tokens; ``suffix_tokens``
        of them were its FIM suffix (the hint's estimate)."""
        if num_prompt_tokens <= 0:
            return
        edit = max(0, num_prompt_tokens - max(0, num_cached_tokens) - max(0, suffix_tokens))
        self._edits.setdefault(budget, deque(maxlen=EDIT_WINDOW)).append(edit)
