"""``StartSteer``: the constraint on a completion's first tokens that both GPU and CPU engines
apply (a healed word re-spelled first, no placeholder at a block's start)."""

from __future__ import annotations

from engine.healing import PieceTable
from engine.steering import StartSteer, needs_table

PIECES = ["", " result", " res", " re", " ", "ult", "x", ".", "...", "  ...", "lt"]
PIECES += ["#", " …", "# …"]


def ids_of(*texts: str) -> set[int]:
    return {PIECES.index(t) for t in texts}


def table() -> PieceTable:
    return PieceTable(PIECES)


def test_a_healed_word_is_spelled_first_then_nothing_is_constrained() -> None:
    steer = StartSteer(table, heal=" resu")
    assert steer.active
    mask = steer.mask()
    assert mask is not None and mask.allow
    assert set(mask.ids.tolist()) == ids_of(" result", " res", " re", " ")
    steer.feed(" res")  # a token that spells part of it: the rest must follow
    mask = steer.mask()
    assert mask is not None and mask.allow
    assert set(mask.ids.tolist()) == ids_of("ult")  # "u" + anything: only "ult" here
    steer.feed("ult")  # runs past the cut text: free from here
    assert not steer.active and steer.mask() is None
    assert steer.written == " result"


def test_blanks_alone_are_not_constrained_and_need_no_table() -> None:
    asked: list[int] = []

    def counting_table() -> PieceTable:
        asked.append(1)
        return table()

    steer = StartSteer(counting_table, heal="    ")
    assert not steer.active and steer.mask() is None and not asked
    assert not needs_table("    ", ()) and needs_table(" x", ()) and needs_table("", ("...",))


def test_placeholder_starts_are_banned_until_real_code_starts() -> None:
    steer = StartSteer(table, avoid=(".",))
    mask = steer.mask()
    assert mask is not None and not mask.allow
    assert set(mask.ids.tolist()) == ids_of(".", "...", "  ...")
    steer.feed("x")
    assert not steer.active and steer.mask() is None


def test_a_comment_may_start_but_not_become_the_elision_marker() -> None:
    steer = StartSteer(table, avoid=("# …",))
    mask = steer.mask()
    assert mask is not None and not mask.allow and set(mask.ids.tolist()) == ids_of("# …")
    steer.feed("#")
    mask = steer.mask()
    assert mask is not None and not mask.allow and set(mask.ids.tolist()) == ids_of(" …")
    assert steer.active


def test_a_healed_word_is_the_start_of_real_code_so_nothing_is_avoided_after_it() -> None:
    """The engines constrain healing first; a word is never a placeholder's start, so the
    two rules never constrain the same completion one after the other."""
    steer = StartSteer(table, heal=" re", avoid=(".",))
    mask = steer.mask()
    assert mask is not None and mask.allow and ids_of(".").isdisjoint(mask.ids.tolist())
    steer.feed(" re")
    assert not steer.active and steer.mask() is None
