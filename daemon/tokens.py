"""Token counting without a model: a character-based estimator calibrated per language.

The context assembler uses the engine's exact tokenizer when it has one; otherwise this estimator.
Ratios were measured with the Qwen2.5-Coder tokenizer on real code (see docs/context.md) and
taken at a conservative quantile, so estimates run slightly high rather than low.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict

from engine.base import TokenCounter

# characters per token, conservative (measured: see docs/context.md, `bench/calibrate.py`)
CHARS_PER_TOKEN: dict[str, float] = {
    "python": 3.0,
    "javascript": 3.0,
    "typescript": 3.0,
    "tsx": 3.0,
    "go": 2.8,
    "rust": 2.8,
    "text": 3.2,
}
_DEFAULT = 2.8


class CharEstimator:
    """TokenCounter estimating tokens from characters (never from lines)."""

    def __init__(self, language: str = "text", *, chars_per_token: float | None = None) -> None:
        self.language = language
        self.chars_per_token = chars_per_token or CHARS_PER_TOKEN.get(language, _DEFAULT)

    def count(self, text: str) -> int:
        if not text:
            return 0
        # non-ASCII characters cost about a token each in byte-level BPE vocabularies
        extra = sum(1 for ch in text if ord(ch) > 127) if not text.isascii() else 0
        return math.ceil(len(text) / self.chars_per_token) + extra


class LineCachedCounter:
    """Counts a text as the sum of its lines' counts, each line counted once and cached.

    With byte-level BPE tokenizers that split pre-tokens at newlines (Qwen2, Llama 3, GPT-style)
    the sum over lines is never below the count of the joined text, so budgets stay safe, and
    the lines of a file being edited are counted once instead of on every request.
    """

    def __init__(self, inner: TokenCounter, *, max_lines: int = 65_536) -> None:
        self.inner = inner
        self._cache: OrderedDict[str, int] = OrderedDict()
        self._max = max_lines
        self._lock = threading.Lock()  # assembly and pre-counting run in worker threads

    def count(self, text: str) -> int:
        if not text:
            return 0
        total = 0
        cache = self._cache
        for line in text.splitlines(keepends=True):
            n = cache.get(line)
            if n is None:
                n = self.inner.count(line)
                with self._lock:
                    cache[line] = n
                    if len(cache) > self._max:
                        cache.popitem(last=False)
            total += n
        return total

    def stats(self) -> dict[str, int]:
        """Lines cached and the cap (the status metrics' ``token_line_cache``)."""
        return {"lines": len(self._cache), "max": self._max}
