"""What a completion's first tokens may be: the word token healing cut re-spelled first, no
placeholder at the start of a block (pure; one rule for every engine that can mask logits).

``engine/healing.py`` cuts a partial word from the prompt's end and says which tokens re-spell it;
``engine/avoid.py`` says which tokens would start a placeholder (``...``, ``# …``). A
``StartSteer`` follows one generation: ``mask()`` before each token, ``feed()`` with each token's
text after it. The llamacpp engine applies the mask to the logits itself; the exllamav2 engine
through a filter of its generator (``engine/exllama_backend.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.avoid import banned_tokens
from engine.healing import PieceTable


@dataclass(frozen=True, slots=True)
class TokenMask:
    """The tokens the next step may take: only ``ids`` (``allow``) or any but ``ids``."""

    ids: np.ndarray
    allow: bool


def needs_table(heal: str, avoid: tuple[str, ...]) -> bool:
    """Whether a generation with this heal text and these starts to avoid is constrained at all:
    a healed word (blanks alone are not constrained: the model writes them as it likes) or
    placeholders to avoid."""
    return bool(heal.strip()) or bool(avoid)


class StartSteer:
    """The constraint on one generation's first tokens.

    ``heal``: the text cut from the prompt's end (``split_heal``); when it holds a word, the output
    must spell it first (``PieceTable.consistent``). ``avoid``: starts the first non-blank text
    must not have (``banned_tokens``). ``table`` is asked for only when there is something to
    constrain (building one costs ~0.1-0.7 s once per model).
    """

    def __init__(
        self, table: Callable[[], PieceTable], heal: str = "", avoid: tuple[str, ...] = ()
    ) -> None:
        self._heal = heal if heal.strip() else ""
        self._avoid = avoid
        self._table = table() if needs_table(self._heal, avoid) else None
        self.written = ""  # the raw output, while the constraint lasts

    @property
    def active(self) -> bool:
        """Whether a next token may still be constrained."""
        return bool(self._heal) or bool(self._avoid)

    def mask(self) -> TokenMask | None:
        """The constraint on the next token, or None (any token)."""
        table = self._table
        if table is None:
            return None
        if self._heal:
            return TokenMask(table.consistent(self._heal[len(self.written) :]), allow=True)
        if self._avoid:
            banned = banned_tokens(table, self.written, self._avoid)
            if banned is None:
                self._avoid = ()
                return None
            return TokenMask(banned, allow=False) if len(banned) else None
        return None

    def feed(self, text: str) -> None:
        """The text of the token just generated (nothing to follow once the constraint is
        over: the decode loop calls this per token)."""
        if not self.active:
            return
        self.written += text
        if self._heal and len(self.written) >= len(self._heal):
            self._heal = ""  # re-spelled (a token may run past it): free from here
        table = self._table
        if (
            self._avoid
            and not self._heal
            and table is not None
            and banned_tokens(table, self.written, self._avoid) is None
        ):
            self._avoid = ()  # past the first non-blank text: unconstrained from here
