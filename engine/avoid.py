"""Placeholder avoidance: at the start of a block the completion's first non-blank text must not
begin with a placeholder the model copies from the prompt (pure).

The stable layout shows the file's outline with elided bodies (``...``) and elision markers
(``# …``); the 0.5B model imitates them: 9 of 80 block completions in the stdlib eval were
``...`` or ``# …`` (docs/quality.md), a completion worth nothing to the user. When
``GenerationRequest.avoid_starts`` is set, the engine masks the tokens that would spell one of
those starts while the output is still blank or a prefix of one, so the model's next choice -
usually real code - comes instead. Greedy decoding stays deterministic.
"""

from __future__ import annotations

import numpy as np

from engine.healing import PieceTable
from engine.profiles import ELISION, line_comment

# notes daemon/skeleton.py writes into skeletons as comments (tests/engine/test_avoid.py ties
# the two): the model copied "# attributes: a, b" into a class body, and once its own variant
# "# attribute: a, b" (eval, test_codecencodings_cn.py:37), so the ban covers the singular
NOTES = ("attribute", "fields:", "same as ")


def placeholder_starts(prefix: str, language: str) -> tuple[str, ...]:
    """The starts to avoid for a completion at the end of ``prefix``: none unless the cursor
    line is blank so far. Then the assembler's elision marker (``{comment} …``) and skeleton
    notes (``{comment} attributes: …``), and in Python right below a line that opens a block
    also ``.`` (``...`` or any line starting with a dot, never a statement there)."""
    before, _, line = prefix.rpartition("\n")
    if line.strip():
        return ()
    comment = line_comment(language)
    starts = [f"{comment} {ELISION}", f"{comment}{ELISION}"]
    starts += [f"{comment} {note}" for note in NOTES]
    above = before.rstrip().rsplit("\n", 1)[-1].split("#", 1)[0].rstrip()
    if language == "python" and above.endswith(":"):
        starts.insert(0, ".")
    return tuple(starts)


def banned_tokens(table: PieceTable, emitted: str, avoid: tuple[str, ...]) -> np.ndarray | None:
    """Ids of the tokens that would make the output spell one of ``avoid`` at its first non-blank
    character, given the text ``emitted`` so far; None when no choice can do that any more
    (the constraint is over for this completion)."""
    if not avoid:
        return None
    seen = emitted.lstrip()
    found: list[np.ndarray] = []
    live = False
    for start in avoid:
        if not seen:
            live = True
            found.append(table.after_blanks(start))
        elif start.startswith(seen) and len(seen) < len(start):
            live = True
            found.append(table.starting_with(start[len(seen) :]))
    if not live:
        return None
    if not found:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.concatenate(found))


def masked_argmax(logits: np.ndarray, banned: np.ndarray) -> int:
    """The highest-logit token that is not banned."""
    if not len(banned):
        return int(np.argmax(logits))
    masked = np.array(logits, dtype=np.float32, copy=True)
    masked[banned] = -np.inf
    return int(np.argmax(masked))
