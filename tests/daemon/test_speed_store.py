"""The engine's learnt speed kept across daemon restarts (daemon/speed_store.py): the latency
model's figures, the store's file, and real daemons one after another on one NOSPIN_HOME."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config, EngineConfig, with_changes
from daemon.latency_model import LEARNT, LatencyModel
from daemon.speed_store import MAX_ENTRIES, SpeedStore, speed_key
from engine.base import GenerationStats
from tests.daemon.fakes import FakeEngine
from tests.daemon.harness import RawClient, running_daemon, short_home, write_project


def test_a_restored_model_predicts_as_the_one_it_came_from() -> None:
    learnt = LatencyModel()
    for n in range(12):
        learnt.observe(GenerationStats(num_prompt_tokens=400, num_cached_tokens=300,
                                       num_generated_tokens=10 + n, prefill_ms=500.0 + n,
                                       decode_ms=200.0 + 5 * n, total_ms=760.0 + 6 * n),
                       max_new_tokens=64)
    back = LatencyModel.restored(learnt.figures())
    assert back.num_restored == len(LEARNT) and back.num_samples == 0
    for args in ((400, 64, None), (2000, 64, 1500), (120, 16, 0)):
        kw = dict(zip(("num_prompt_tokens", "max_new_tokens", "num_cached_tokens"), args,
                      strict=True))
        assert math.isclose(back.service_ms(**kw), learnt.service_ms(**kw))  # type: ignore[arg-type]
    fresh = LatencyModel()
    assert back.service_ms(num_prompt_tokens=100, max_new_tokens=64, num_cached_tokens=100) \
        < fresh.service_ms(num_prompt_tokens=100, max_new_tokens=64, num_cached_tokens=100) / 2


def test_a_restored_figure_is_one_sample_not_the_last_word() -> None:
    """The next request's figures blend with a restored one instead of replacing it (as they
    replace a prior): one odd request after a restart does not undo what was learnt."""
    model = LatencyModel.restored({"decode_ms_per_token": 20.0, "fill_ratio": 0.3})
    model.observe(GenerationStats(num_generated_tokens=10, decode_ms=400.0, total_ms=400.0),
                  max_new_tokens=10)
    assert model.decode_ms_per_token == 30.0  # the median of the restored 20 and this 40
    assert model.fill_ratio == pytest.approx(0.3 + 0.2 * (1.0 - 0.3))
    prior = LatencyModel()
    prior.observe(GenerationStats(num_generated_tokens=10, decode_ms=400.0, total_ms=400.0),
                  max_new_tokens=10)
    assert prior.decode_ms_per_token == 40.0 and prior.fill_ratio == 1.0


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0, 0.0, 1e9, "7", True, None])
def test_a_figure_out_of_range_keeps_its_prior(value: Any) -> None:
    model = LatencyModel.restored({"decode_ms_per_token": value, "fill_ratio": 7.0,
                                   "prefill_ms_per_token": 4.0, "unknown": 1.0})
    assert model.decode_ms_per_token == LatencyModel().decode_ms_per_token
    assert model.fill_ratio == 1.0 and model.prefill_ms_per_token == 4.0
    assert model.num_restored == 1


def test_the_store_keeps_the_latest_settings_and_survives_bad_files(tmp_path: Path,
                                                                    caplog: Any) -> None:
    store = SpeedStore(tmp_path / "state" / "speed.json")
    assert store.load("k") is None  # no file yet
    assert store.save("k", {"fill_ratio": 0.3}, samples=5)
    assert store.load("k") == {"fill_ratio": 0.3} and store.load("other") is None
    assert oct(store.path.stat().st_mode & 0o777) == "0o600"
    for n in range(MAX_ENTRIES + 2):
        store.save(f"k{n}", {"fill_ratio": 0.5}, samples=n)
    entries = json.loads(store.path.read_text())["entries"]
    assert len(entries) == MAX_ENTRIES and "k" not in entries and f"k{MAX_ENTRIES + 1}" in entries
    assert set(entries) == {f"k{n}" for n in range(2, MAX_ENTRIES + 2)}  # the latest 8
    # the entry saved is kept even when the others claim to be newer (a clock set back)
    data = json.loads(store.path.read_text())
    for entry in data["entries"].values():
        entry["saved"] = 4e9
    store.path.write_text(json.dumps(data))
    assert store.save("late", {"fill_ratio": 0.5}, samples=1)
    entries = json.loads(store.path.read_text())["entries"]
    assert "late" in entries and len(entries) == MAX_ENTRIES
    for bad in (b"\x00\xff not json", b"[1, 2]", b'{"version": 99, "entries": {}}',
                b'{"version": 1, "entries": {"k": {"saved": "soon", "figures": 3}}}'):
        store.path.write_bytes(bad)
        assert store.load("k") is None  # read as nothing, no exception
        assert store.save("k", {"fill_ratio": 0.4}, samples=1)  # and replaced
        assert store.load("k") == {"fill_ratio": 0.4}
    store.path.unlink()
    store.path.mkdir()  # a file that cannot be replaced: logged, False, nothing raised
    assert store.load("k") is None
    assert not store.save("k", {"fill_ratio": 0.4}, samples=1)
    assert "not saved" in caplog.text and store.path.is_dir()


def test_the_key_follows_engine_settings_and_completion_length() -> None:
    base = Config()
    assert speed_key(base) == speed_key(Config())
    assert speed_key(base) != speed_key(Config(engine=EngineConfig(n_threads=1)))
    assert speed_key(base) != speed_key(with_changes(base, {"completion.max_tokens": 32}))
    assert speed_key(base) == speed_key(with_changes(base, {"context.budget_tokens": 1024}))


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path


def _complete_a_few(endpoint: str, src: Path, count: int) -> None:
    raw = RawClient(endpoint)
    text = src.read_text()
    try:
        for n in range(count):  # each buffer a little different: no answer from the cache
            raw.send({"type": "complete", "id": f"c{n}", "path": str(src), "line": 1, "col": 4,
                      "text": f"{text}\n# {n}\n", "options": {"deadline_ms": 20_000}})
            assert raw.until_final(f"c{n}", timeout_s=20)[-1]["type"] == "done"
    finally:
        raw.close()


def _model(endpoint: str) -> dict[str, float]:
    raw = RawClient(endpoint)
    try:
        raw.send({"type": "status", "id": "s"})
        model: dict[str, float] = raw.until_final("s")[-1]["metrics"]["queue"]["model"]
        return model
    finally:
        raw.close()


def test_a_daemon_starts_from_what_the_one_before_it_learnt(home: Path) -> None:
    src = write_project(home / "proj")
    with running_daemon(engine_factory=lambda: FakeEngine(token_delay_s=0.01)) as d:
        assert _model(d.endpoint)["num_restored"] == 0
        _complete_a_few(d.endpoint, src, 4)
        learnt = _model(d.endpoint)
        assert learnt["num_samples"] >= 4 and learnt["fill_ratio"] < 1.0
    saved = json.loads((home / "state" / "speed.json").read_text())["entries"]
    assert list(saved) == [speed_key(Config())]
    with running_daemon(engine_factory=FakeEngine) as d:
        again = _model(d.endpoint)
        assert again["num_restored"] == len(LEARNT) and again["num_samples"] == 0
        for name in LEARNT:
            assert again[name] == learnt[name], name
    # other engine settings: learnt afresh (the first daemon's entry stays for its settings)
    other = Config(engine=EngineConfig(n_threads=1))
    with running_daemon(other, engine_factory=FakeEngine) as d:
        assert _model(d.endpoint)["num_restored"] == 0
        _complete_a_few(d.endpoint, src, 2)
    saved = json.loads((home / "state" / "speed.json").read_text())["entries"]
    assert set(saved) == {speed_key(Config()), speed_key(other)}


def test_a_damaged_speed_file_is_the_priors_and_is_written_again(home: Path) -> None:
    (home / "state").mkdir(parents=True, exist_ok=True)
    (home / "state" / "speed.json").write_bytes(b"{truncated")
    src = write_project(home / "proj")
    with running_daemon(engine_factory=FakeEngine) as d:
        assert _model(d.endpoint)["num_restored"] == 0
        _complete_a_few(d.endpoint, src, 2)
    entries = json.loads((home / "state" / "speed.json").read_text())["entries"]
    assert entries[speed_key(Config())]["samples"] >= 2


def test_an_engine_reload_keeps_each_settings_speed(home: Path) -> None:
    """config.set of an engine setting: what was learnt is saved under the old settings, the
    new engine starts from what was learnt under its own (here: nothing, then the first's)."""
    src = write_project(home / "proj")
    n_ctx = Config().engine.n_ctx
    with running_daemon(engine_factory=FakeEngine,
                        engine_factory_for=lambda _config: FakeEngine()) as d:
        _complete_a_few(d.endpoint, src, 3)
        first = _model(d.endpoint)
        raw = RawClient(d.endpoint)
        try:
            for rid, value in (("s1", n_ctx * 2), ("s2", n_ctx)):
                raw.send({"type": "config.set", "id": rid, "changes": {"engine.n_ctx": value}})
                assert raw.until_final(rid, timeout_s=20)[-1]["type"] == "config"
                if rid == "s1":
                    assert _model(d.endpoint)["num_restored"] == 0  # never ran with these
                    _complete_a_few(d.endpoint, src, 2)
        finally:
            raw.close()
        back = _model(d.endpoint)
        assert back["num_restored"] == len(LEARNT)
        assert all(back[name] == first[name] for name in LEARNT)
        assert len(d.engines) == 3


def test_a_running_daemon_saves_every_so_many_requests(home: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A daemon that crashes or is killed keeps what it had saved by then (every SAVE_EVERY
    finished requests, on a worker thread)."""
    import time

    import daemon.service

    monkeypatch.setattr(daemon.service, "SAVE_EVERY", 2)
    path = home / "state" / "speed.json"
    src = write_project(home / "proj")
    with running_daemon(engine_factory=FakeEngine) as d:
        _complete_a_few(d.endpoint, src, 1)
        time.sleep(0.3)
        assert not path.exists()  # one request: not yet
        _complete_a_few(d.endpoint, src, 2)
        give_up = time.monotonic() + 10
        while not path.exists() and time.monotonic() < give_up:
            time.sleep(0.05)
        samples = json.loads(path.read_text())["entries"][speed_key(Config())]["samples"]
        assert samples >= 2
