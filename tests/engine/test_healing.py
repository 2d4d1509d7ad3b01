"""Token healing's pure parts: what is cut from the prompt, which tokens may spell it."""

from __future__ import annotations

import numpy as np
import pytest

from engine.healing import PieceTable, constrained_argmax, split_heal


@pytest.mark.parametrize(
    ("prefix", "kept", "cut"),
    [
        ("    exc", "", "    exc"),  # the indent goes too: the model spells "    except"
        ("x = resu", "x =", " resu"),
        ("return ", "return", " "),
        ("self.hei", "self.", "hei"),
        ("foo(", "foo(", ""),
        ("a\n", "a\n", ""),
        ("", "", ""),
        ("x = " + "a" * 30, "x = " + "a" * 30, ""),  # a long literal is left alone
        ("h = " + "f" * 10 + " ", "h = " + "f" * 10, " "),
    ],
)
def test_split_heal(prefix: str, kept: str, cut: str) -> None:
    assert split_heal(prefix) == (kept, cut)
    assert kept + cut == prefix


def test_consistent_tokens_cover_or_start_the_required_text() -> None:
    pieces = ["", " exc", " except", " ex", " e", "except", " finally", "x", " ", "  ", " exce"]
    table = PieceTable(pieces)
    assert len(table) == len(pieces) - 1  # the special token (empty text) is never allowed
    got = set(table.consistent(" exc").tolist())
    assert got == {1, 2, 3, 4, 8, 10}  # " exc", " except", " exce" cover it; " ex", " e", " "
    assert set(table.consistent("").tolist()) == set(range(1, len(pieces)))
    logits = np.zeros(len(pieces), dtype=np.float32)
    logits[5] = 9.0  # "except" without the space: not allowed after a cut " exc"
    logits[2] = 3.0
    logits[6] = 8.0  # " finally": what an unhealed prompt got
    assert constrained_argmax(logits, table.consistent(" exc")) == 2


def test_tokens_that_share_a_text_are_all_found() -> None:
    pieces = ["ab", "a", "", "a", "abc", "b"]  # two tokens spell "a" (a model's duplicates)
    table = PieceTable(pieces)
    assert table.exactly("a").tolist() == [1, 3]
    assert table.exactly("c").tolist() == []
    assert table.starting_with("ab").tolist() == [0, 4]
    assert set(table.consistent("abc").tolist()) == {0, 1, 3, 4}
