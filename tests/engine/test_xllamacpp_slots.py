"""Slot per document for the xllamacpp engine (pure bookkeeping)."""

from __future__ import annotations

import pytest

from engine.xllamacpp_slots import SlotMap


def test_a_document_keeps_its_slot_while_others_come_and_go() -> None:
    slots = SlotMap(2)
    a = slots.acquire("a.py")
    slots.release(a)
    b = slots.acquire("b.py")
    slots.release(b)
    assert a != b
    assert slots.acquire("a.py") == a  # back where its KV cache is


def test_a_busy_documents_next_request_waits_on_the_same_slot() -> None:
    slots = SlotMap(4)
    first = slots.acquire("a.py")  # still running (its cancel has not landed)
    assert slots.acquire("a.py") == first


def test_a_new_document_takes_an_idle_slot_least_recently_used_first() -> None:
    slots = SlotMap(3)
    got = [slots.acquire(k) for k in ("a", "b", "c")]
    assert sorted(got) == [0, 1, 2]
    for i in got:
        slots.release(i)
    busy = slots.acquire("b")  # b runs now
    d = slots.acquire("d")  # idle a (the least recently used) is taken, not busy b
    assert d == got[0] and slots.owner(d) == "d"
    assert slots.acquire("a") not in (busy, d)  # a lost its slot: it takes c's
    assert slots.acquire("b") == busy


def test_with_every_slot_busy_the_least_recently_used_is_shared() -> None:
    slots = SlotMap(2)
    a, b = slots.acquire("a"), slots.acquire("b")
    assert slots.acquire("c") == a and slots.owner(a) == "c"
    assert slots.owner(b) == "b"


def test_keyless_requests_are_left_to_the_server() -> None:
    slots = SlotMap(2)
    assert slots.acquire("") == -1
    slots.release(-1)  # nothing to release
    assert slots.acquire("a") in (0, 1)


def test_a_server_has_a_slot() -> None:
    with pytest.raises(ValueError):
        SlotMap(0)
