"""Token healing: a prompt that ends inside a word is backed off to where the word starts, and
the first generated tokens are constrained to spell the characters that were cut (pure).

A byte-level BPE model reads a prompt ending in ``exc`` as the complete token ``exc``, not as
the start of ``except``, and continues after it (``exc|`` gave `` finally:``, ``resu|`` gave
`` = sum(i)``: docs/quality.md). With healing the prompt ends before ``exc`` and the model
chooses the token that covers it (``except``), so the word is completed as the model would
have written it. The same holds for blanks: a prompt ending in spaces is cut before them (the
model folds a space into the next word's token). While the user types inside a word the
prompt stays the same, so the KV cache keeps it too.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import numpy as np

HEAL_MAX_WORD_CHARS = 24  # a longer run of word characters is left alone (a hash, a literal)


def split_heal(prefix: str) -> tuple[str, str]:
    """Split the end of ``prefix`` that generation re-spells: the partial word at its end (if
    any), then the blanks before it. Returns (prefix without them, the text cut)."""
    end = len(prefix)
    i = end
    while i > 0 and _is_word(prefix[i - 1]) and end - i < HEAL_MAX_WORD_CHARS:
        i -= 1
    if i > 0 and _is_word(prefix[i - 1]):  # too long a word: heal the blanks only
        i = end
    cut = prefix[:i].rstrip(" \t")
    return cut, prefix[len(cut) :]


def _is_word(ch: str) -> bool:
    return ch == "_" or ch.isalnum()


class PieceTable:
    """The vocabulary's token texts, sorted, for "which tokens fit this text" queries.

    ``pieces[i]`` is the text of token id ``i`` (special tokens as ""). Built once per model.
    """

    def __init__(self, pieces: Sequence[str]) -> None:
        # sorted by text, ties by id (a stable sort of the ids): 0.11 s for Qwen's 151,665
        # tokens where sorting (text, id) tuples and a dict of exact texts took 0.56 s
        order = sorted((i for i, p in enumerate(pieces) if p), key=pieces.__getitem__)
        self._texts = [pieces[i] for i in order]
        self._ids = np.asarray(order, dtype=np.int64)
        self._after_blanks: dict[str, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self._texts)

    def consistent(self, required: str) -> np.ndarray:
        """Ids of tokens that may come next when ``required`` must be spelled first: the token's
        text starts with all of it, or is a non-empty prefix of it."""
        if not required:
            return self._ids
        found = [self.starting_with(required)]
        for k in range(1, len(required)):
            ids = self.exactly(required[:k])
            if len(ids):
                found.append(ids)
        return np.unique(np.concatenate(found)) if len(found) > 1 else found[0]

    def starting_with(self, text: str) -> np.ndarray:
        """Ids of the tokens whose text starts with ``text``."""
        lo = bisect.bisect_left(self._texts, text)
        hi = bisect.bisect_left(self._texts, text + "\U0010ffff")
        return self._ids[lo:hi]

    def exactly(self, text: str) -> np.ndarray:
        """Ids of the tokens whose text is ``text``."""
        lo = bisect.bisect_left(self._texts, text)
        hi = bisect.bisect_right(self._texts, text, lo)
        return self._ids[lo:hi]

    def after_blanks(self, text: str) -> np.ndarray:
        """Ids of the tokens whose text, blanks (spaces, tabs, newlines) at its start left out,
        starts with ``text``. One scan of the vocabulary per ``text``, then cached."""
        found = self._after_blanks.get(text)
        if found is None:
            ids = [
                int(self._ids[k]) for k, p in enumerate(self._texts) if p.lstrip().startswith(text)
            ]
            found = np.asarray(ids, dtype=np.int64)
            self._after_blanks[text] = found
        return found


def constrained_argmax(logits: np.ndarray, allowed: np.ndarray) -> int:
    """The allowed token with the highest logit."""
    return int(allowed[int(np.argmax(logits[allowed]))])


# --- blanks at the prompt's end -------------------------------------------------------------


def split_trailing_blanks(prefix: str) -> tuple[str, str]:
    """Split spaces/tabs off the end of the prefix: (prefix without them, the blanks).

    Called by backends before rendering: BPE vocabularies fold a space into the next word's
    token, so a prompt ending in a lone space token leads models astray (Qwen2.5-Coder wrote a
    wrong line after ``return ``, the right one after ``return``). The model writes the blanks
    itself; ``heal_start`` removes them from its output.
    """
    cut = prefix.rstrip(" \t")
    return cut, prefix[len(cut) :]


def heal_start(text: str, heal: str) -> tuple[str, str]:
    """Drop from the start of ``text`` the blanks still expected in ``heal``.

    Returns (text to keep, blanks still expected); stops expecting at the first character that
    is not the expected blank. Called per streamed piece until it returns an empty ``heal``.
    """
    i = 0
    while i < len(text) and i < len(heal) and text[i] == heal[i]:
        i += 1
    if i == len(text):
        return "", heal[i:]
    return text[i:], ""
