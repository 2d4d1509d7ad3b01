"""Engine settings changed with ``config.set`` load a new engine before the reply, without
losing a request: the daemon on its real socket with scripted engines (tests/daemon/fakes.py);
the embedded model's reload is in test_server.py's real-engine tests."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config, EngineConfig, default_config_path
from daemon.engine_settings import needs_new_engine
from engine.base import Engine
from tests.daemon.fakes import FakeEngine
from tests.daemon.harness import (
    DaemonHandle,
    RawClient,
    running_daemon,
    short_home,
    write_project,
)


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path


@pytest.fixture
def recorded(home: Path) -> Iterator[tuple[DaemonHandle, RawClient, Path]]:
    """A daemon whose every engine, the first included, records the settings it was built from;
    a client; a project file to complete in."""
    with running_daemon(engine_factory=lambda: engine_for(Config()),
                        engine_factory_for=engine_for) as d:
        raw = RawClient(d.endpoint)
        yield d, raw, write_project(home / "proj")
        raw.close()


def engine_for(config: Config) -> Engine:
    """A fake per configuration: a model named "missing" does not load, "slow" loads for 1.5 s."""
    e = config.engine
    engine = SlowStart() if e.model == "slow" else FakeEngine(fail_start=e.model == "missing")
    engine.built_from = e  # type: ignore[attr-defined]
    return engine


class SlowStart(FakeEngine):
    def start(self) -> None:
        time.sleep(1.5)
        super().start()


def config_set(raw: RawClient, rid: str, changes: dict[str, Any], timeout_s: float = 20
               ) -> list[dict[str, Any]]:
    raw.send({"type": "config.set", "id": rid, "changes": changes})
    return raw.until_final(rid, timeout_s=timeout_s)


def complete(raw: RawClient, rid: str, src: Path, **options: Any) -> dict[str, Any]:
    raw.send({"type": "complete", "id": rid, "path": str(src), "line": 1, "col": 4,
              "options": {"deadline_ms": 20_000, **options}})
    return raw.until_final(rid, timeout_s=20)[-1]


def test_which_settings_need_a_new_engine() -> None:
    base = EngineConfig()
    assert not needs_new_engine(base, base)
    assert needs_new_engine(base, EngineConfig(model="/m/other.gguf"))
    assert needs_new_engine(base, EngineConfig(n_ctx=2048))
    assert needs_new_engine(base, EngineConfig(kv_state_slots=2))
    # speculation is asked per request ...
    assert not needs_new_engine(base, EngineConfig(speculation=False))
    off = EngineConfig(speculation=False, draft_model="/m/draft.gguf")
    assert not needs_new_engine(EngineConfig(draft_model="/m/draft.gguf"), off)
    # ... but an engine built with it off did not load the draft model
    assert needs_new_engine(off, EngineConfig(draft_model="/m/draft.gguf"))
    # the auto draft: prompt lookup on llamacpp (an engine built without it has no drafter),
    # none on xllamacpp; engine.kind "auto" asks the engine it runs
    for kind, reload in (("llamacpp", True), ("xllamacpp", False)):
        assert needs_new_engine(EngineConfig(kind=kind, speculation=False),
                                EngineConfig(kind=kind)) is reload
    from engine.factory import engine_kind

    assert needs_new_engine(EngineConfig(speculation=False), EngineConfig()) is (
        engine_kind(EngineConfig()) == "llamacpp")


def test_an_engine_setting_loads_a_new_engine_before_the_reply(home: Path) -> None:
    with running_daemon(engine_factory=FakeEngine, engine_factory_for=engine_for) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        assert complete(raw, "c0", src)["type"] == "done"
        final = config_set(raw, "s", {"engine.n_ctx": 2048, "context.budget_tokens": 1024})[-1]
        assert final["type"] == "config", final
        assert final["values"]["engine"]["n_ctx"] == 2048
        assert len(d.engines) == 2 and d.engines[0].closed  # type: ignore[attr-defined]
        assert d.engines[1].built_from.n_ctx == 2048  # type: ignore[attr-defined]
        saved = tomllib.loads(default_config_path().read_text())
        assert saved["engine"]["n_ctx"] == 2048 and saved["context"]["budget_tokens"] == 1024
        assert complete(raw, "c1", src)["type"] == "done"
        assert d.engines[1].num_requests >= 1  # type: ignore[attr-defined]
        # settings the running engine takes as they are: no new engine
        assert config_set(raw, "t", {"context.budget_tokens": 512,
                                     "engine.speculation": False})[-1]["type"] == "config"
        assert len(d.engines) == 2
        raw.close()


def test_a_request_running_when_the_engine_changes_finishes_on_the_old_one(home: Path) -> None:
    with running_daemon(engine_factory=lambda: FakeEngine(token_delay_s=0.1),
                        engine_factory_for=engine_for) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        raw.send({"type": "complete", "id": "c", "path": str(src), "line": 1, "col": 4,
                  "options": {"deadline_ms": 20_000, "multiline": True}})
        deadline = time.monotonic() + 10

        def running() -> bool:  # the completion reached the first engine
            first = d.engines[0] if d.engines else None
            return isinstance(first, FakeEngine) and any(
                not r.prefill_only for r in first.submitted)

        while not running():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        raw.send({"type": "config.set", "id": "s", "changes": {"engine.n_threads": 1}})
        finals: dict[str, dict[str, Any]] = {}
        while len(finals) < 2:
            r = raw.recv(20)
            if r["type"] not in ("chunk", "heartbeat", "event"):
                finals[r["id"]] = r
        assert finals["c"]["type"] == "done" and finals["c"]["text"], finals
        assert finals["s"]["type"] == "config", finals
        assert d.engines[0].closed and len(d.engines) == 2  # type: ignore[attr-defined]
        raw.close()


def test_an_engine_that_does_not_start_changes_nothing(
        recorded: tuple[DaemonHandle, RawClient, Path]) -> None:
    d, raw, src = recorded
    before = default_config_path().read_bytes() if default_config_path().exists() else b""
    final = config_set(raw, "s", {"engine.model": "missing",
                                  "completion.max_tokens": 8})[-1]
    assert final["type"] == "error" and final["code"] == "config", final
    assert "did not start with these settings" in final["message"]
    assert "fake model missing" in final["message"]
    raw.send({"type": "config.get", "id": "g"})
    values = raw.until_final("g")[-1]["values"]
    assert values["engine"]["model"] == "" and values["completion"]["max_tokens"] == 64
    after = default_config_path().read_bytes() if default_config_path().exists() else b""
    assert after == before
    # the previous settings' engine was loaded again and serves
    assert complete(raw, "c", src)["type"] == "done"
    models = [e.built_from.model for e in d.engines]  # type: ignore[attr-defined]
    assert models == ["", "missing", ""] and d.engines[2].num_requests >= 1  # type: ignore[attr-defined]


def test_a_failed_engine_is_mended_by_new_settings(home: Path) -> None:
    with running_daemon(Config(engine=EngineConfig(model="missing")),
                        engine_factory=lambda: FakeEngine(fail_start=True),
                        engine_factory_for=engine_for) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        deadline = time.monotonic() + 10
        while d.service.supervisor.state != "failed":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert complete(raw, "c0", src)["code"] == "model_missing"
        final = config_set(raw, "s", {"engine.model": ""})[-1]
        assert final["type"] == "config", final
        assert d.service.supervisor.state == "ready"
        assert complete(raw, "c1", src)["type"] == "done"
        raw.close()


def test_the_client_hears_heartbeats_while_the_new_engine_loads(home: Path) -> None:
    with running_daemon(engine_factory=FakeEngine, engine_factory_for=engine_for) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        replies = config_set(raw, "s", {"engine.model": "slow"})
        assert replies[-1]["type"] == "config", replies
        assert any(r["type"] == "heartbeat" and r["state"] == "loading" for r in replies[:-1])
        # a second change waits for the first; a completion asked meanwhile waits for the engine
        raw.send({"type": "config.set", "id": "s2", "changes": {"engine.n_ctx": 8192}})
        raw.send({"type": "config.set", "id": "s3", "changes": {"engine.model": ""}})
        raw.send({"type": "complete", "id": "c", "path": str(src), "line": 1, "col": 4,
                  "options": {"deadline_ms": 20_000}})
        finals: dict[str, dict[str, Any]] = {}
        while len(finals) < 3:
            r = raw.recv(20)
            if r["type"] not in ("chunk", "heartbeat", "event"):
                finals[r["id"]] = r
        assert finals["s2"]["type"] == finals["s3"]["type"] == "config", finals
        assert finals["c"]["type"] == "done", finals
        assert finals["s3"]["values"]["engine"] == {**finals["s3"]["values"]["engine"],
                                                    "model": "", "n_ctx": 8192}
        assert d.engines[-1].built_from.n_ctx == 8192  # type: ignore[attr-defined]
        assert d.engines[-1].built_from.model == ""  # type: ignore[attr-defined]
        raw.close()


def test_a_batching_engine_runs_requests_side_by_side(home: Path) -> None:
    with running_daemon(engine_factory=lambda: FakeEngine(max_batch=16)) as d:
        deadline = time.monotonic() + 10
        while d.service.supervisor.state != "ready":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert d.service.scheduler.snapshot()["capacity"] == 16
    with running_daemon() as d:
        deadline = time.monotonic() + 10
        while d.service.supervisor.state != "ready":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert d.service.scheduler.snapshot()["capacity"] == 1


@pytest.mark.slow
def test_the_embedded_model_reloads_with_new_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real llama.cpp engine from engine.factory, the way ``nospin daemon`` builds it: a
    new context size takes effect at once; a model file that does not exist is refused, and the
    running model stays."""
    from engine.factory import create_engine
    from engine.models import embedded_model_path

    try:
        model = str(embedded_model_path())  # resolved before NOSPIN_HOME moves the cache
    except Exception as exc:
        pytest.skip(f"embedded model not installed: {exc}")
    config = Config(engine=EngineConfig(model=model, n_ctx=4096))
    with short_home(monkeypatch) as home, running_daemon(
        config, engine_factory=lambda: create_engine(config), engine_factory_for=create_engine
    ) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")

        def n_ctx() -> int:
            raw.send({"type": "status", "id": "st"})
            status = raw.until_final("st", timeout_s=60)[-1]
            assert status["engine"]["state"] == "ready", status
            return int(status["engine"]["capabilities"]["n_ctx"])

        assert complete(raw, "c0", src, max_tokens=4)["type"] == "done"
        assert n_ctx() == 4096
        final = config_set(raw, "s", {"engine.n_ctx": 3072}, timeout_s=120)[-1]
        assert final["type"] == "config", final
        assert n_ctx() == 3072
        done = complete(raw, "c1", src, max_tokens=4)
        assert done["type"] == "done" and done["num_tokens"] >= 1, done
        missing = str(home / "no-such-model.gguf")
        final = config_set(raw, "s2", {"engine.model": missing}, timeout_s=120)[-1]
        assert final["type"] == "error" and "did not start" in final["message"], final
        assert n_ctx() == 3072
        assert complete(raw, "c2", src, max_tokens=4)["type"] == "done"
        raw.close()


def test_settings_that_cannot_be_saved_leave_the_previous_engine(
        recorded: tuple[DaemonHandle, RawClient, Path]) -> None:
    d, raw, src = recorded
    folder = default_config_path().parent
    folder.mkdir(parents=True, exist_ok=True)
    folder.rmdir()
    folder.write_text("a file where the config folder should be\n")  # no file inside it
    final = config_set(raw, "s", {"engine.n_ctx": 8192})[-1]
    assert final["type"] == "error" and final["code"] == "config", final
    assert "could not be saved" in final["message"] and "nothing was changed" in \
        final["message"]
    # loaded with the new settings, then again with the saved ones
    assert [e.built_from.n_ctx for e in d.engines] == [4096, 8192, 4096]  # type: ignore[attr-defined]
    raw.send({"type": "config.get", "id": "g", "key": "engine.n_ctx"})
    assert raw.until_final("g")[-1]["values"] == {"engine.n_ctx": 4096}
    assert complete(raw, "c", src)["type"] == "done"
    assert d.engines[2].num_requests >= 1  # type: ignore[attr-defined]


def test_a_new_engine_holds_no_documents_prompt(home: Path) -> None:
    """After a restart (the engine died) as after a reload, the scheduler's hints do not count
    on the previous engine's KV states."""
    with running_daemon(engine_factory=lambda: FakeEngine(token_delay_s=0.05)) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        assert complete(raw, "c0", src)["type"] == "done"
        assert len(d.service._hints.warm) == 1  # its prompt is in the engine's KV cache
        first = d.engines[0]
        assert isinstance(first, FakeEngine)
        first.crash()
        raw.send({"type": "complete", "id": "c1", "path": str(src), "line": 5, "col": 4,
                  "options": {"deadline_ms": 20_000, "multiline": True}})  # not cached
        assert raw.until_final("c1", timeout_s=20)[-1]["code"] == "engine_died"
        deadline = time.monotonic() + 20
        while len(d.engines) < 2 or d.service.supervisor.state != "ready":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert len(d.service._hints.warm) == 0
        raw.close()
