"""Token counting without and with the model: estimator and the per-line cache."""

from __future__ import annotations

import glob
import random
import sysconfig

import pytest

from daemon.tokens import CharEstimator, LineCachedCounter


class _Calls:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def count(self, text: str) -> int:
        self.calls.append(text)
        return len(text.split()) + 1


def test_estimator_counts_characters_not_lines() -> None:
    est = CharEstimator("python")
    assert est.count("") == 0
    assert est.count("x" * 300) == est.count("x" * 100 + "\n" * 0 + "x" * 200)
    assert est.count("é" * 10) > est.count("e" * 10)  # non-ASCII costs more


def test_line_cache_counts_each_line_once() -> None:
    inner = _Calls()
    counter = LineCachedCounter(inner, max_lines=3)
    text = "a b\nc\nd e f\n"
    first = counter.count(text)
    assert first == 3 + 2 + 4
    assert counter.count(text) == first
    assert inner.calls == ["a b\n", "c\n", "d e f\n"]  # the second count was all cached
    counter.count("new line\n")  # over max_lines: the oldest line is forgotten
    counter.count("a b\n")
    assert inner.calls[-1] == "a b\n"
    assert counter.stats() == {"lines": 3, "max": 3}


@pytest.mark.slow
def test_sum_of_lines_is_never_below_the_joined_count_with_the_real_tokenizer() -> None:
    from app.config import Config
    from engine.factory import load_tokenizer

    tokenizer = load_tokenizer(Config())
    assert tokenizer is not None
    lines_counter = LineCachedCounter(tokenizer)
    stdlib = sysconfig.get_paths()["stdlib"]
    files = sorted(f for f in glob.glob(f"{stdlib}/*.py"))
    for path in random.Random(3).sample(files, 25):
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines(keepends=True)
        for i in range(0, len(lines), 15):
            chunk = "".join(lines[i : i + 15])
            assert lines_counter.count(chunk) >= tokenizer.count(chunk), (path, i)
