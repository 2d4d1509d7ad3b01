"""bench/gpu_daemon.py on the CPU: the GPU check's daemon stage with a scripted engine that runs
requests side by side when it declares batching (tests/daemon/fakes.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.config import Config
from bench.gpu_daemon import batch_through_daemon
from tests.daemon.fakes import FakeEngine
from tests.daemon.harness import short_home

PIECES = tuple(f" x{i}" for i in range(10))  # no line break: every request runs 10 tokens


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path


@pytest.mark.parametrize("max_batch", [8, 1])
def test_the_daemon_runs_as_many_at_once_as_the_engine_batches(home: Path, max_batch: int
                                                               ) -> None:
    info = batch_through_daemon(
        lambda: FakeEngine(pieces=PIECES, token_delay_s=0.05, max_batch=max_batch), Config(),
        n=8, max_tokens=10, timeout_s=30)
    assert info["capacity"] == max_batch
    assert all(r["tokens"] >= 1 for r in [info["alone"], *info["together"]]), info
    assert info["tokens_alone"] == 10 and info["tokens_together"] == 80, info
    if max_batch == 8:  # side by side: about eight times the tokens per second
        assert info["speedup"] > 3, info
    else:  # one after another: about the same
        assert info["speedup"] < 2, info


def test_engine_settings_changed_through_the_daemon_load_a_new_engine(home: Path) -> None:
    made: list[Config] = []

    def engine_for(config: Config) -> FakeEngine:
        made.append(config)
        return FakeEngine(pieces=PIECES, token_delay_s=0.005)

    info = batch_through_daemon(
        lambda: FakeEngine(pieces=PIECES, token_delay_s=0.005), Config(), n=2, max_tokens=10,
        timeout_s=30, engine_for=engine_for, reload={"engine.n_ctx": 8192},
        memory_mb=lambda: 1.0)
    r = info["reload"]
    assert [c.engine.n_ctx for c in made] == [8192] and r["values"] == {"engine.n_ctx": 8192}
    assert r["completion"]["tokens"] == 10 and r["memory_after_mb"] == 1.0
