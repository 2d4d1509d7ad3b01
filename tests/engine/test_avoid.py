"""Placeholder avoidance's pure parts: when it applies, which tokens it masks, and when it stops."""

from __future__ import annotations

import numpy as np
import pytest

from daemon.skeleton import render_definition
from daemon.symbols import Definition, DefKind
from engine.avoid import NOTES, banned_tokens, masked_argmax, placeholder_starts
from engine.healing import PieceTable

NOTES_PY = tuple(f"# {n}" for n in NOTES)


@pytest.mark.parametrize(
    ("prefix", "language", "starts"),
    [
        ("def f(x):\n    ", "python", (".", "# …", "#…", *NOTES_PY)),
        ("def f(x):  # note\n    ", "python", (".", "# …", "#…", *NOTES_PY)),
        ("def f(x):\n    y = 1\n    ", "python", ("# …", "#…", *NOTES_PY)),  # "." may come
        ("def f(x):\n    y = ", "python", ()),  # typing a statement: nothing to avoid
        ("int f() {\n    ", "c", ("// …", "//…", *(f"// {n}" for n in NOTES))),
    ],
)
def test_placeholder_starts(prefix: str, language: str, starts: tuple[str, ...]) -> None:
    assert placeholder_starts(prefix, language) == starts


PIECES = ["", "...", " ...", "\n", "    ", "return", " return", ".", "#", " #", "# …", " …", "…",
          "pass", "#!"]
IDS = {p: i for i, p in enumerate(PIECES)}


def ids(*texts: str) -> set[int]:
    return {IDS[t] for t in texts}


def test_blank_output_bans_tokens_that_would_spell_a_placeholder() -> None:
    table = PieceTable(PIECES)
    banned = banned_tokens(table, "    ", (".", "# …"))
    assert banned is not None
    assert set(banned.tolist()) == ids("...", " ...", ".", "# …")


def test_a_started_comment_may_not_go_on_into_the_elision_marker() -> None:
    table = PieceTable(PIECES)
    banned = banned_tokens(table, "  #", (".", "# …"))
    assert banned is not None and set(banned.tolist()) == ids(" …")  # "#" then " …"
    assert banned_tokens(table, "#!", (".", "# …")) is None  # another comment: settled


def test_real_code_ends_the_constraint() -> None:
    table = PieceTable(PIECES)
    assert banned_tokens(table, "    return", (".", "# …")) is None
    assert banned_tokens(table, "", ()) is None


def test_masked_argmax_takes_the_best_allowed_token() -> None:
    logits = np.zeros(len(PIECES), dtype=np.float32)
    logits[IDS["..."]] = 9.0
    logits[IDS["return"]] = 5.0
    banned = np.asarray(sorted(ids("...", " ...", ".")), dtype=np.int64)
    assert masked_argmax(logits, banned) == IDS["return"]
    assert masked_argmax(logits, np.zeros(0, dtype=np.int64)) == IDS["..."]


def test_every_note_a_skeleton_writes_is_avoided() -> None:
    """Skeleton notes are comments nospin writes; a block start never begins by copying one."""
    d = Definition(name="Row", kind=DefKind.CLASS, qualname="Row", signature="class Row:",
                   params="", return_type="", doc="", start_line=0, end_line=3,
                   body_start_line=1, attributes=("fields",))
    for language, prefix in (("python", "def f():\n    "), ("go", "func f() {\n    ")):
        starts = placeholder_starts(prefix, language)
        text = render_definition(d, language, duplicate_of="a.py:Row")
        notes = [ln.strip() for ln in text.splitlines() if ln.strip().startswith(("#", "//"))]
        assert len(notes) == 2, text
        assert all(note.startswith(starts) for note in notes), (notes, starts)


def test_the_models_own_variant_of_a_note_is_avoided() -> None:
    """The eval saw the 0.5B write "# attribute: encoding, tstring" (singular) in a class body."""
    starts = placeholder_starts("class C:\n    ", "python")
    assert "# attribute: encoding, tstring".startswith(starts)
    assert not "# attach the handler".startswith(starts)
