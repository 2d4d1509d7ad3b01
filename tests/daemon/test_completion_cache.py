"""Completion cache: type-through on cached and streaming entries, misses, the LRU bound."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from daemon.completion_cache import CacheHit, CompletionCache, EntryStatus

PREFIX = "def add(a, b):\n    return "
SUFFIX = "\n\nprint(add(1, 2))\n"


def cached(text: str = "a + b", *, complete: bool = True) -> CompletionCache:
    cache = CompletionCache()
    cache.start("r1", "m.py", PREFIX, SUFFIX)
    cache.append("r1", text)
    cache.finish("r1", complete=complete)
    return cache


# typed after the cached prefix -> rest answered (None: miss)
TYPE_THROUGH = [
    ("", "a + b"),
    ("a", " + b"),
    ("a +", " b"),
    ("a + ", "b"),
    ("a + b", None),  # typed all of it: nothing left to offer
    ("b", None),  # typed something else
    ("a - ", None),
]


@pytest.mark.parametrize(("typed", "rest"), TYPE_THROUGH)
def test_type_through_on_a_cached_completion(typed: str, rest: str | None) -> None:
    cache = cached()
    hit = cache.lookup("m.py", PREFIX + typed, SUFFIX)
    if rest is None:
        assert hit is None
    else:
        assert hit is not None
        assert (hit.text, hit.num_typed, hit.status) == (rest, len(typed), EntryStatus.COMPLETE)
        assert hit.source_request_id == "r1" and hit.offset == len("a + b")


def test_type_through_on_a_streaming_completion() -> None:
    cache = CompletionCache()
    cache.start("r1", "m.py", PREFIX, SUFFIX)
    cache.append("r1", "a ")
    hit = cache.lookup("m.py", PREFIX + "a", SUFFIX)
    assert hit is not None
    assert (hit.text, hit.status, hit.offset) == (" ", EntryStatus.STREAMING, 2)
    hit = cache.lookup("m.py", PREFIX + "a ", SUFFIX)  # typed all that came so far
    assert hit is not None and hit.text == "" and hit.status is EntryStatus.STREAMING
    cache.append("r1", "+ b")
    assert cache.read("r1", hit.offset) == "+ b"  # follow the stream from where the hit left
    cache.finish("r1")
    hit = cache.lookup("m.py", PREFIX + "a +", SUFFIX)
    assert hit is not None and (hit.text, hit.status) == (" b", EntryStatus.COMPLETE)


def test_suffix_changed_is_a_miss() -> None:
    cache = cached()
    assert cache.lookup("m.py", PREFIX + "a", SUFFIX + "x") is None
    assert cache.lookup("other.py", PREFIX + "a", SUFFIX) is None


def test_an_answer_to_another_ask_is_a_miss() -> None:
    """A multi-line answer was returned to a later single-line request at the same place
    (and with another token cap): what else was asked is part of the entry's context."""
    cache = CompletionCache()
    cache.start("r1", "m.py", PREFIX, SUFFIX, "True/64")
    cache.append("r1", "a + b\n\nprint(a)")
    cache.finish("r1")
    assert cache.lookup("m.py", PREFIX, SUFFIX, "False/64") is None
    assert cache.lookup("m.py", PREFIX, SUFFIX, "True/2") is None
    hit = cache.lookup("m.py", PREFIX + "a", SUFFIX, "True/64")
    assert hit is not None and hit.text.startswith(" + b")
    cache.invalidate("m.py")
    assert len(cache) == 0


def test_prefix_changed_before_the_cursor_is_a_miss() -> None:
    cache = cached()
    changed = PREFIX.replace("add", "sum")
    assert cache.lookup("m.py", changed + "a", SUFFIX) is None
    assert cache.lookup("m.py", PREFIX[:-1], SUFFIX) is None  # deleted a character


def test_partial_entries_answer_what_they_have_and_empty_ones_are_dropped() -> None:
    cache = cached("a +", complete=False)
    hit = cache.lookup("m.py", PREFIX + "a", SUFFIX)
    assert hit is not None and (hit.text, hit.status) == (" +", EntryStatus.PARTIAL)
    cache.start("r2", "m.py", "x = ", SUFFIX)
    cache.finish("r2", complete=False)
    assert cache.status_of("r2") is None and len(cache) == 1


def test_finish_with_post_processed_text_replaces_the_stream() -> None:
    cache = CompletionCache()
    cache.start("r1", "m.py", PREFIX, SUFFIX)
    cache.append("r1", "a + b\n\nprint(add(5, 3))")
    cache.finish("r1", text="a + b")
    hit = cache.lookup("m.py", PREFIX, SUFFIX)
    assert hit is not None and hit.text == "a + b"
    cache.append("r1", "more")  # closed: ignored
    assert cache.read("r1", 0) == "a + b"


def test_longest_matching_prefix_wins() -> None:
    cache = cached()
    cache.start("r2", "m.py", PREFIX + "a + ", SUFFIX)
    cache.append("r2", "b * 2")
    cache.finish("r2")
    hit = cache.lookup("m.py", PREFIX + "a + b", SUFFIX)
    assert hit is not None and (hit.source_request_id, hit.text) == ("r2", " * 2")


def test_lru_bound_evicts_the_least_recently_used() -> None:
    cache = CompletionCache(max_entries=3)
    for i in range(3):
        cache.start(f"r{i}", f"f{i}.py", "x = ", "")
        cache.append(f"r{i}", str(i))
        cache.finish(f"r{i}")
    assert cache.lookup("f0.py", "x = ", "") is not None  # r0 is now the most recent
    cache.start("r3", "f3.py", "x = ", "")
    assert len(cache) == 3
    assert cache.status_of("r1") is None  # the least recently used went
    assert cache.status_of("r0") is EntryStatus.COMPLETE
    assert cache.stats()["evictions"] == 1


def test_per_context_bound_and_same_position_replacement() -> None:
    cache = CompletionCache(max_per_context=2)
    for i in range(3):
        cache.start(f"r{i}", "m.py", PREFIX + "a" * i, SUFFIX)
    assert [cache.status_of(f"r{i}") for i in range(3)] == [
        None,
        EntryStatus.STREAMING,
        EntryStatus.STREAMING,
    ]
    cache.start("r9", "m.py", PREFIX + "aa", SUFFIX)  # the very same position: replaces r2
    assert cache.status_of("r2") is None and cache.status_of("r9") is EntryStatus.STREAMING


def test_discard_and_invalidate() -> None:
    cache = cached()
    cache.start("r2", "n.py", "y = ", "")
    cache.discard("r2")
    assert cache.status_of("r2") is None
    cache.invalidate("m.py")
    assert len(cache) == 0 and cache.lookup("m.py", PREFIX, SUFFIX) is None


def test_a_change_in_one_document_drops_the_finished_answers_of_the_others() -> None:
    """Another document's prompt took definitions from the one that changed: its cached
    answers may be stale; the changed document's own and a stream still running stay."""
    cache = cached()
    cache.start("r2", "shapes.py", "def area(", "")
    cache.append("r2", "w, h):")
    cache.finish("r2")
    cache.start("r3", "other.py", "x = ", "")  # streaming: a request follows it now
    cache.append("r3", "1")
    cache.invalidate_others("shapes.py")
    assert cache.lookup("m.py", PREFIX, SUFFIX) is None
    assert cache.lookup("shapes.py", "def area(", "") is not None
    assert cache.status_of("r3") is EntryStatus.STREAMING


def test_stats_and_repr_hide_text() -> None:
    cache = cached("secret_token()")
    hit = cache.lookup("m.py", PREFIX + "sec", SUFFIX)
    assert isinstance(hit, CacheHit)
    assert "secret" not in repr(hit)
    assert cache.stats() == {
        "entries": 1,
        "lookups": 1,
        "hits": 1,
        "type_through_hits": 1,
        "evictions": 0,
    }


@settings(max_examples=200, deadline=None)
@given(
    prefix=st.text(max_size=40),
    completion=st.text(min_size=1, max_size=20),
    cut=st.integers(0, 20),
    suffix=st.text(max_size=10),
)
def test_type_through_answers_exactly_the_rest(
    prefix: str, completion: str, cut: int, suffix: str
) -> None:
    cache = CompletionCache()
    cache.start("r", "p.py", prefix, suffix)
    cache.append("r", completion)
    cache.finish("r")
    typed = completion[: min(cut, len(completion))]
    hit = cache.lookup("p.py", prefix + typed, suffix)
    if typed == completion:
        assert hit is None
    else:
        assert hit is not None and typed + hit.text == completion
