"""The daemon on its real ipc socket with a scripted in-test engine (tests/daemon/fakes.py)."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config, TierConfig, with_changes
from app.paths import state_dir
from daemon import lifecycle
from engine.base import GenerationRequest
from tests.daemon.fakes import FakeEngine
from tests.daemon.harness import DaemonHandle, RawClient, running_daemon, short_home, write_project


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path


@pytest.fixture
def daemon(home: Path) -> Iterator[DaemonHandle]:
    with running_daemon() as handle:
        yield handle


@pytest.fixture
def raw(daemon: DaemonHandle) -> Iterator[RawClient]:
    client = RawClient(daemon.endpoint)
    yield client
    client.close()


def complete_msg(rid: str, path: Path, line: int = 1, col: int = 4, **extra: object
                 ) -> dict[str, object]:
    return {"type": "complete", "id": rid, "path": str(path), "line": line, "col": col, **extra}


def first_warmup(engine: FakeEngine, what: str, key: str | None = None) -> GenerationRequest:
    """The first prefill-only request the engine received, for cache key ``key`` if given
    (waits up to 5 s for it)."""

    def found() -> list[GenerationRequest]:
        return [r for r in engine.submitted
                if r.prefill_only and (key is None or r.cache_key == key)]

    deadline = time.monotonic() + 5
    while not found():
        assert time.monotonic() < deadline, f"no warm-up {what}"
        time.sleep(0.05)
    return found()[0]


def logged(request_id: str, timeout_s: float = 5.0) -> list[dict[str, Any]]:
    """The request-log lines of ``request_id``, once there is one (or none after the wait)."""
    log = state_dir() / "requests.jsonl"
    deadline = time.monotonic() + timeout_s
    while True:
        lines = log.read_text().splitlines() if log.exists() else []
        found = [r for r in map(json.loads, lines) if r["request_id"] == request_id]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def wait_until_idle(d: DaemonHandle, what: str = "requests still live") -> None:
    """Wait until the daemon has no request in flight (warm-ups included), nor one answered
    whose engine run is still stopping (its record waits for the engine's figures)."""
    deadline = time.monotonic() + 5
    while d.call(lambda: len(d.service._live) + len(d.service._recorder)):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_hello_and_status(raw: RawClient) -> None:
    raw.send({"type": "hello", "id": "h1", "client": "test"})
    reply = raw.recv()
    assert reply["type"] == "hello" and reply["id"] == "h1" and reply["protocol"] == 1
    assert reply["pid"] == os.getpid()
    raw.send({"type": "status", "id": "s1"})
    status = raw.recv()
    assert status["type"] == "status" and status["id"] == "s1"
    assert status["engine"]["state"] in ("loading", "ready")
    # engine.kind "auto" (the default) is named as the engine it runs here
    from app.config import EngineConfig
    from engine.factory import engine_kind

    assert reply["engine"] == status["engine"]["kind"] == engine_kind(EngineConfig())
    assert reply["engine"] in ("llamacpp", "xllamacpp")


def test_socket_and_runtime_dir_are_private(daemon: DaemonHandle, home: Path) -> None:
    sock = lifecycle.socket_path()
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600
    assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
    assert daemon.endpoint == f"ipc://{sock}"


def test_complete_streams_chunks_then_one_done(raw: RawClient, home: Path) -> None:
    src = write_project(home / "proj")
    raw.send(complete_msg("c1", src, options={"multiline": True, "deadline_ms": 5000}))
    replies = raw.until_final("c1")
    kinds = [r["type"] for r in replies if r["type"] != "heartbeat"]
    assert kinds[-1] == "done" and kinds.count("done") == 1
    assert set(kinds[:-1]) <= {"chunk"} and kinds[:-1]
    done = replies[-1]
    assert done["tier"] in (1, 2, 3) and done["tier_reason"]
    assert done["text"].startswith("return a + b")
    assert done["timings"]["total_ms"] >= done["timings"]["first_token_ms"] > 0
    assert done["context"]["num_tokens"] <= done["context"]["budget_tokens"]
    assert done["cache"] == "miss"
    chunks = [r for r in replies if r["type"] == "chunk"]
    assert [c["index"] for c in chunks] == list(range(len(chunks)))


def test_single_line_completion_is_postprocessed(raw: RawClient, home: Path) -> None:
    src = write_project(home / "proj")
    raw.send(complete_msg("c1", src, options={"multiline": False}))
    done = raw.until_final("c1")[-1]
    assert done["type"] == "done" and done["text"] == "return a + b"


def test_an_import_list_stops_before_a_name_the_project_module_lacks(home: Path) -> None:
    """``from tenacity imp``: the model went on listing names tenacity does not define; the
    reply keeps the one the indexed ``tenacity/__init__.py`` has (daemon.import_names)."""
    root = home / "proj"
    (root / "tenacity").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'tenacity'\n")
    (root / "tenacity" / "__init__.py").write_text(
        "class BaseRetrying:\n    pass\n\n\nclass Retrying(BaseRetrying):\n    pass\n")
    src = root / "tenacity" / "aio.py"
    src.write_text("import asyncio\n\nfrom tenacity imp\n")
    pieces = ("ort BaseRetrying, Retry, StopAfterDelay",)
    with running_daemon(engine_factory=lambda: FakeEngine(pieces=pieces),
                        index_projects=True) as daemon:
        raw = RawClient(daemon.endpoint)
        try:
            raw.send({"type": "open", "id": "o1", "path": str(src), "text": src.read_text()})
            assert raw.recv()["type"] == "ok"
            wait_until_indexed(daemon, root)
            raw.send(complete_msg("c1", src, line=2, col=len("from tenacity imp"),
                                  options={"multiline": False}))
            done = raw.until_final("c1")[-1]
            assert done["type"] == "done" and done["text"] == "ort BaseRetrying"
            # another module's list is the model's as it wrote it
            src.write_text("import asyncio\n\nfrom elsewhere imp\n")
            raw.send(complete_msg("c2", src, line=2, col=len("from elsewhere imp"),
                                  text=src.read_text(), options={"multiline": False}))
            done = raw.until_final("c2")[-1]
            assert done["type"] == "done" and done["text"] == pieces[0]
        finally:
            raw.close()


def test_a_completion_mid_line_ends_at_a_line_break(home: Path) -> None:
    """Code after the cursor on its line: a line break ends the completion in the engine (a
    model that thinks the line is done wrote the next line; shown, it went before the code
    after the cursor). At the end of a line, a completion may start with one."""
    src = home / "proj" / "calc.py"
    src.parent.mkdir(parents=True)
    src.write_text("def add(a, b):\n    return compute(a, b)\n")
    pieces = ("\n", "    total = 0", "\n")
    with running_daemon(engine_factory=lambda: FakeEngine(pieces=pieces)) as daemon:
        raw = RawClient(daemon.endpoint)
        try:
            raw.send(complete_msg("c1", src, line=1, col=19, options={"multiline": False}))
            done = raw.until_final("c1")[-1]
            assert done["type"] == "done" and done["text"] == ""
            engine = daemon.engines[0]
            assert isinstance(engine, FakeEngine)
            mid = engine.submitted[-1]
            assert mid.stop == ("\n",) and mid.single_line
            raw.send(complete_msg("c2", src, line=1, col=24, options={"multiline": False}))
            done = raw.until_final("c2")[-1]
            assert done["type"] == "done" and done["text"] == "\n    total = 0"
            assert engine.submitted[-1].stop == ()
        finally:
            raw.close()


def test_unsaved_buffer_overrides_disk(raw: RawClient, daemon: DaemonHandle, home: Path) -> None:
    src = write_project(home / "proj")
    buffer = "def mul(a, b):\n    \n"
    raw.send({"type": "open", "id": "o1", "path": str(src), "text": buffer})
    assert raw.recv()["type"] == "ok"
    raw.send(complete_msg("c1", src, line=1, col=4))
    assert raw.until_final("c1")[-1]["type"] == "done"
    engine = daemon.engines[0]
    assert isinstance(engine, FakeEngine)
    prompt = engine.submitted[-1].prompt
    assert prompt is not None and "def mul" in prompt.prefix and "def add" not in prompt.prefix
    # incremental edit: insert on line 0
    raw.send({"type": "change", "id": "e1", "path": str(src), "edits": [
        {"range": {"start": {"line": 0, "col": 4}, "end": {"line": 0, "col": 7}},
         "text": "times"}]})
    assert raw.recv()["type"] == "ok"
    raw.send(complete_msg("c2", src, line=1, col=4))
    assert raw.until_final("c2")[-1]["type"] == "done"
    prompt = engine.submitted[-1].prompt
    assert prompt is not None and "def times(a, b)" in prompt.prefix
    raw.send({"type": "close", "id": "x1", "path": str(src)})
    assert raw.recv()["type"] == "ok"
    raw.send(complete_msg("c3", src, line=1, col=4))
    assert raw.until_final("c3")[-1]["type"] == "done"
    prompt = engine.submitted[-1].prompt
    assert prompt is not None and "def add" in prompt.prefix


def test_editor_changes_feed_the_edit_history(raw: RawClient, daemon: DaemonHandle,
                                               home: Path) -> None:
    src = write_project(home / "proj")
    raw.send({"type": "open", "id": "o1", "path": str(src), "text": src.read_text()})
    assert raw.recv()["type"] == "ok"
    raw.send({"type": "change", "id": "e1", "path": str(src), "edits": [
        {"range": {"start": {"line": 1, "col": 4}, "end": {"line": 1, "col": 4}},
         "text": "return a + b"}]})
    assert raw.recv()["type"] == "ok"
    root = str(home / "proj")
    projects = daemon.service._projects

    def history_len() -> int:
        project = projects._projects.get(root)
        return len(project.history) if project is not None else 0

    deadline = time.monotonic() + 5
    while history_len() == 0:  # recorded in a worker thread
        assert time.monotonic() < deadline, "edit not recorded"
        time.sleep(0.05)
    project = projects._projects[root]
    assert any("calc.py" in line for line in project.history.summary_lines(limit=5))


def test_bad_edit_range_is_an_error(raw: RawClient, home: Path) -> None:
    src = write_project(home / "proj")
    raw.send({"type": "open", "id": "o1", "path": str(src), "text": "x\n"})
    raw.recv()
    raw.send({"type": "change", "id": "e1", "path": str(src), "edits": [
        {"range": {"start": {"line": 9, "col": 0}, "end": {"line": 9, "col": 0}}, "text": "y"}]})
    reply = raw.recv()
    assert reply == {**reply, "type": "error", "id": "e1", "code": "bad_cursor"}


def test_cursor_outside_document(raw: RawClient, home: Path) -> None:
    src = write_project(home / "proj")
    raw.send(complete_msg("c1", src, line=99, col=0))
    reply = raw.recv()
    assert reply["type"] == "error" and reply["id"] == "c1" and reply["code"] == "bad_cursor"


def test_missing_file_is_bad_input(raw: RawClient, home: Path) -> None:
    raw.send(complete_msg("c1", home / "nope.py", line=0, col=0))
    reply = raw.recv()
    assert reply["code"] == "bad_input" and reply["id"] == "c1"
    assert reply["message"] == f"cannot read {home / 'nope.py'}: no such file"


def test_what_is_not_a_source_file_is_bad_input_and_the_daemon_keeps_serving(
    raw: RawClient, home: Path
) -> None:
    """A FIFO, a device and a path with a NUL: each a bad_input at once (a blocking open of a
    FIFO stalled the daemon, /dev/zero was read until memory ran out, a NUL was "internal")."""
    fifo = home / "proj" / "pipe.py"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    bad = {"f": str(fifo), "z": "/dev/zero", "n": str(home / "a\0b.py")}
    for rid, path in bad.items():
        for kind in ("complete", "warm"):
            raw.send({"type": kind, "id": f"{kind}-{rid}", "path": path, "line": 0, "col": 0})
            reply = raw.recv(timeout_s=5)
            assert reply["id"] == f"{kind}-{rid}" and reply["code"] == "bad_input", reply
    assert "not a regular file" in reply["message"] or "NUL" in reply["message"]
    raw.send({"type": "generate", "id": "g", "session": "s", "instruction": "x",
              "path": "/dev/zero"})
    assert raw.recv(timeout_s=5)["code"] == "bad_input"
    deep = b'{"type":"config.set","id":"d","changes":{"a":' + b"[" * 10**5 + b"]" * 10**5 + b"}}"
    raw.send(deep)
    reply = raw.recv(timeout_s=5)  # no reply at all before (RecursionError in the decoder)
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    raw.send({"type": "status", "id": "s"})
    assert raw.recv()["type"] == "status"


def test_a_buffer_over_the_file_size_limit_gets_no_completion_but_keeps_its_edits(
    home: Path,
) -> None:
    """A 5 MB buffer took tens of seconds to assemble, past every deadline, and held the
    event loop; it is refused as a disk file that size is."""
    src = write_project(home / "proj")
    config = with_changes(Config(), {"context.max_file_bytes": 4000})
    with running_daemon(config) as d:
        raw = RawClient(d.endpoint)
        try:
            big = "x = 1\n" * 1000
            raw.send({"type": "open", "id": "o", "path": str(src), "text": big})
            reply = raw.recv()
            assert reply["type"] == "ok" and "too large" in reply["detail"]
            for kind in ("complete", "warm"):
                raw.send({"type": kind, "id": kind, "path": str(src), "line": 0, "col": 0})
                reply = raw.recv()
                assert reply["code"] == "bad_input" and "too large" in reply["message"]
            raw.send(complete_msg("t", src, line=0, col=0, text=big))  # the request's own text
            assert raw.recv()["code"] == "bad_input"
            # the buffer is kept and edited: cut to a small file, it completes again
            raw.send({"type": "change", "id": "e", "path": str(src), "text": "def f(x):\n    \n"})
            assert raw.recv()["type"] == "ok"
            raw.send(complete_msg("c", src))
            assert raw.until_final("c")[-1]["type"] == "done"
        finally:
            raw.close()


def test_cancel_gets_exactly_one_final_reply(home: Path) -> None:
    slow = lambda: FakeEngine(token_delay_s=0.2)  # noqa: E731
    with running_daemon(engine_factory=slow) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        raw.send(complete_msg("c1", src, options={"multiline": True, "deadline_ms": 20000}))
        time.sleep(0.3)
        raw.send({"type": "cancel", "id": "k1", "target": "c1"})
        finals = []
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                r = raw.recv(0.5)
            except TimeoutError:
                continue
            if r["type"] not in ("chunk", "heartbeat"):
                finals.append((r["id"], r["type"], r.get("code")))
            if len(finals) == 2:
                break
        assert ("k1", "ok", None) in finals
        assert ("c1", "error", "cancelled") in finals
        with pytest.raises(TimeoutError):  # nothing more for c1
            while True:
                r = raw.recv(0.6)
                assert r["type"] == "heartbeat" or r["id"] != "c1"
        raw.close()


STREAMING = {"multiline": True, "deadline_ms": 20000}


@contextlib.contextmanager
def c1_streaming(home: Path, token_delay_s: float
                 ) -> Iterator[tuple[RawClient, Path, FakeEngine]]:
    """A daemon whose scripted engine is streaming completion c1 (client, source, engine)."""
    slow = lambda: FakeEngine(token_delay_s=token_delay_s)  # noqa: E731
    with running_daemon(engine_factory=slow) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        raw.send(complete_msg("c1", src, options=STREAMING))
        assert raw.recv()["type"] == "chunk"  # c1 runs in the engine
        engine = d.engines[0]
        assert isinstance(engine, FakeEngine)
        try:
            yield raw, src, engine
        finally:
            raw.close()


def test_newer_request_supersedes_older_for_same_document(home: Path) -> None:
    with c1_streaming(home, token_delay_s=0.1) as (raw, src, engine):
        typed = src.read_text().replace("b):\n    ", "b):\n    x", 1)  # not the completion
        raw.send(complete_msg("c2", src, col=5, text=typed, options=STREAMING))
        finals: dict[str, dict[str, Any]] = {}
        while len(finals) < 2:
            r = raw.recv(10)
            if r["type"] not in ("chunk", "heartbeat"):
                assert r["id"] not in finals, "two final replies"
                finals[r["id"]] = r
        assert finals["c1"]["type"] == "error" and finals["c1"]["code"] == "cancelled"
        assert finals["c2"]["type"] == "done"
        # and the engine stopped c1 (else it runs to its end holding the only slot)
        c1 = next(r for r in engine.submitted if not r.prefill_only)
        assert c1.request_id in engine.cancel_calls
        # its request-log line carries what the engine did before it stopped (written when
        # the engine's Finished came, after the reply)
        [record] = logged("c1")
        assert record["finish_reason"] == "superseded", record
        assert record["num_prompt_tokens"] == 100 and record["decode_ms"] > 0, record


@pytest.mark.parametrize("how", ["cancel", "close"])
def test_running_work_ended_early_is_stopped_in_the_engine(home: Path, how: str) -> None:
    # a cancelled completion, or one of a closed document, must be cancelled in the engine too
    # (as a superseded one: above): else it runs to its end there and holds the engine's only
    # slot while the next request waits (found with `bench latency --pipelines daemon`)
    with c1_streaming(home, token_delay_s=0.3) as (raw, src, engine):
        first = next(r for r in engine.submitted if not r.prefill_only)
        if how == "cancel":
            raw.send({"type": "cancel", "id": "k1", "target": "c1"})
        else:
            raw.send({"type": "close", "id": "x1", "path": str(src)})
        deadline = time.monotonic() + 2
        while first.request_id not in engine.cancel_calls:
            assert time.monotonic() < deadline, f"the engine never heard of the {how}"
            time.sleep(0.02)


def test_overload_sheds_with_reason_and_nothing_lost(home: Path) -> None:
    slow = lambda: FakeEngine(token_delay_s=0.05)  # noqa: E731
    with running_daemon(engine_factory=slow) as d:
        clients = [RawClient(d.endpoint) for _ in range(6)]
        root = home / "proj"
        root.mkdir()
        files = []
        for i in range(6):
            f = root / f"m{i}.py"
            f.write_text("def add(a, b):\n    \n")
            files.append(f)
        for i, c in enumerate(clients):
            for j in range(5):
                c.send(complete_msg(f"r{j}", files[i], options={"multiline": True,
                                                                "deadline_ms": 600}))
                time.sleep(0.01)
        counts: dict[str, int] = {}
        for c in clients:
            seen: dict[str, str] = {}
            while len(seen) < 5:
                r = c.recv(10)
                if r["type"] in ("chunk", "heartbeat"):
                    continue
                assert r["id"] not in seen
                seen[r["id"]] = r["type"]
                key = r["type"] if r["type"] == "done" else r["code"]
                counts[key] = counts.get(key, 0) + 1
                if r["type"] == "error":
                    assert r["message"]
            c.close()
        assert sum(counts.values()) == 30
        assert counts.get("done", 0) >= 1


def test_deadline_answered_even_when_the_engine_cannot_stop(home: Path) -> None:
    stuck = lambda: FakeEngine(prefill_s=2.0)  # noqa: E731
    with running_daemon(engine_factory=stuck) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        start = time.monotonic()
        raw.send(complete_msg("c1", src, options={"deadline_ms": 500}))
        done = raw.until_final("c1", timeout_s=5)[-1]
        elapsed = time.monotonic() - start
        assert done["type"] == "done" and done["finish_reason"] == "deadline"
        assert elapsed < 1.2, f"answered after {elapsed:.2f} s"
        time.sleep(2.2)  # the engine's Finished arrives now: no second reply
        raw.send({"type": "status", "id": "s"})
        r = raw.recv()
        assert r["id"] == "s" and r["type"] == "status"
        assert d.call(lambda: len(d.service._live)) == 0
        # one log line, written when the engine stopped, with what it did (the fake: 100
        # prompt tokens); before, the backstop wrote it at the reply with no engine figures
        [record] = logged("c1")
        assert record["finish_reason"] == "deadline" and record["num_prompt_tokens"] == 100
        raw.close()


def test_typing_through_a_completion_answered_at_its_deadline_gets_its_own_reply(
        home: Path) -> None:
    # c1 streams "return", is answered at its deadline while the engine still runs it; c2
    # types "ret" into that streaming completion: it must not wait on c1 as a type-through
    # follower (c1's late end answered nobody: the reply was lost, found by `bench load`)
    slow = lambda: FakeEngine(token_delay_s=0.5)  # noqa: E731
    with running_daemon(engine_factory=slow) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        raw.send(complete_msg("c1", src, options={"deadline_ms": 800, "multiline": False}))
        first = raw.until_final("c1", timeout_s=5)[-1]
        assert first["finish_reason"] == "deadline" and first["text"] == "return", first
        assert d.call(lambda: any(lv.replied_early for lv in d.service._live.values()))
        text = src.read_text().replace("def add(a, b):\n    ", "def add(a, b):\n    ret", 1)
        raw.send(complete_msg("c2", src, col=7, text=text,
                              options={"deadline_ms": 5000, "multiline": False}))
        second = raw.until_final("c2", timeout_s=8)[-1]
        assert second["type"] == "done" and second["cache"] == "miss", second
        wait_until_idle(d)
        raw.close()


def test_a_completion_on_a_warm_document_teaches_the_edit_size(home: Path) -> None:
    # the scripted engine reports 100 prompt tokens, none cached: after c1 the document is warm
    # at c1's budget, so c2's result is a sample of what a keystroke there prefills
    with running_daemon() as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        raw.send(complete_msg("c1", src, options={"multiline": False}))
        assert raw.until_final("c1", timeout_s=5)[-1]["type"] == "done"
        # a keystroke that does not follow c1's text (no type-through answer from the cache)
        text = src.read_text().replace("def add(a, b):\n    ", "def add(a, b):\n    x", 1)
        raw.send(complete_msg("c2", src, col=5, text=text, options={"multiline": False}))
        assert raw.until_final("c2", timeout_s=5)[-1]["cache"] == "miss"
        wait_until_idle(d)
        learned = d.call(lambda: {b: list(v) for b, v in d.service._hints.warm._edits.items()})
        assert len(learned) == 1 and len(next(iter(learned.values()))) == 1, learned
        (budget, (edit,)), = learned.items()
        # 100 uncached tokens less the FIM suffix the hint expected: the rest of the small file
        assert 0 < edit <= 100
        assert d.call(lambda: d.service._hints.warm.edit_tokens(budget)) == edit
        raw.close()


@pytest.mark.parametrize("resumable", [False, True])
def test_warm_up_takeover_follows_what_the_engine_declares(home: Path, resumable: bool) -> None:
    # the scheduler's takeover needs an engine that resumes a stopped prefill (llamacpp); a
    # batching or remote engine would lose the warm-up's work, whatever the configured kind
    with running_daemon(engine_factory=lambda: FakeEngine(resumable_prefill=resumable)) as d:
        deadline = time.monotonic() + 10
        while d.call(lambda: d.service.supervisor.state) != "ready":
            assert time.monotonic() < deadline, "the engine did not load"
            time.sleep(0.02)
        assert d.call(lambda: d.service.scheduler.warmup_takeover) is resumable


def test_shed_cold_document_is_warmed_in_the_background(home: Path) -> None:
    slow = lambda: FakeEngine(token_delay_s=0.15)  # noqa: E731
    with running_daemon(engine_factory=slow) as d:
        raw = RawClient(d.endpoint)
        root = home / "proj"
        src = write_project(root)
        other = root / "other.py"
        other.write_text("def sub(a, b):\n    \n")
        raw.send(complete_msg("c1", src, options={"multiline": True, "deadline_ms": 20000}))
        time.sleep(0.2)
        raw.send(complete_msg("c2", other, options={"deadline_ms": 50}))
        finals: dict[str, dict[str, Any]] = {}
        while len(finals) < 2:
            r = raw.recv(10)
            if r["type"] not in ("chunk", "heartbeat"):
                finals[r["id"]] = r
        assert finals["c2"]["type"] == "error"
        assert finals["c2"]["code"] in ("overloaded", "deadline") and finals["c2"]["message"]
        engine = d.engines[0]
        assert isinstance(engine, FakeEngine)
        warm = first_warmup(engine, "submitted")
        assert warm.cache_key == str(other)
        wait_until_idle(d)
        assert d.call(lambda: str(other) in d.service._hints.warm)
        raw.close()


@pytest.mark.parametrize("budget", [384, 2048])
def test_opened_document_is_warmed_with_the_prefix_later_completions_share(
    home: Path, budget: int
) -> None:
    config = with_changes(Config(), {"context.budget_tokens": budget})
    with running_daemon(config) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        text = "import os\n\n" + "".join(
            f"def f{i}(a, b):\n    return a * {i} + b\n\n\n" for i in range(12)
        )
        src.write_text(text)
        raw.send({"type": "open", "id": "o1", "path": str(src), "text": text})
        assert raw.recv()["type"] == "ok"
        engine = d.engines[0]
        assert isinstance(engine, FakeEngine)
        warm = first_warmup(engine, "after open")
        assert warm.cache_key == str(src) and warm.prompt is not None
        raw.send(complete_msg("c1", src, line=23, col=4))  # inside f5's body
        final = raw.until_final("c1")[-1]
        assert final["type"] == "done", final
        done = engine.submitted[-1].prompt
        assert done is not None and not engine.submitted[-1].prefill_only
        if budget <= Config().context.stable_max_budget:  # "auto": the stable layout
            # a small file: the window shows it from its first line (no file block to repeat
            # it), so the completion's prompt starts with what the warm-up prefilled
            assert "# …\n" not in warm.prompt.prefix
            above = done.prefix[: done.prefix.rfind("\n") + 1]
            assert above.startswith("import os") and warm.prompt.prefix.startswith(above)
            # a long file: the prompt starts with the file block, the same at any cursor line
            long_src = src.with_name("long.py")
            long_text = "import os\n\n" + "".join(
                f"def g{i}(a, b):\n    return a * {i} + b\n\n\n" for i in range(80)
            )
            long_src.write_text(long_text)
            raw.send({"type": "open", "id": "o3", "path": str(long_src), "text": long_text})
            assert raw.recv()["type"] == "ok"
            long_warm = first_warmup(engine, "after open", key=str(long_src))
            assert long_warm.prompt is not None
            raw.send(complete_msg("c3", long_src, line=203, col=4))  # inside g50's body
            assert raw.until_final("c3")[-1]["type"] == "done"
            long_done = engine.submitted[-1].prompt
            assert long_done is not None
            block_end = long_warm.prompt.prefix.index("# …\n") + len("# …\n")
            assert "import os" in long_warm.prompt.prefix[:block_end]
            assert long_done.prefix[:block_end] == long_warm.prompt.prefix[:block_end]
        # opening it again (an editor reload) does not warm twice while it is warm
        raw.send({"type": "open", "id": "o2", "path": str(src), "text": text})
        assert raw.recv()["type"] == "ok"
        time.sleep(0.3)
        assert sum(1 for r in engine.submitted if r.prefill_only and r.cache_key == str(src)) == 1
        raw.close()


def test_warm_on_cursor_move_prefills_the_prompt_a_completion_there_starts_with(
    home: Path,
) -> None:
    slow = lambda: FakeEngine(token_delay_s=0.05)  # noqa: E731
    config = with_changes(Config(), {"context.budget_tokens": 384})
    with running_daemon(config, engine_factory=slow) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        text = "".join(f"def f{i}(a, b):\n    return a * {i} + b\n\n\n" for i in range(12))
        src.write_text(text)
        raw.send({"type": "warm", "id": "w1", "path": str(src), "line": 5, "col": 4})
        assert raw.recv()["type"] == "ok"
        raw.send({"type": "warm", "id": "w2", "path": str(src), "line": 41, "col": 4})
        assert raw.recv() == {"type": "ok", "id": "w2", "detail": "warming"}
        raw.send({"type": "warm", "id": "w3", "path": str(src), "line": 99, "col": 0})
        bad = raw.recv()
        assert bad["type"] == "error" and bad["id"] == "w3" and "line" in bad["message"]
        engine = d.engines[0]
        assert isinstance(engine, FakeEngine)
        wait_until_idle(d, "warm-ups still live")
        warms = [r for r in engine.submitted if r.prefill_only]
        assert warms and warms[-1].prompt is not None
        assert warms[-1].prompt.prefix.endswith("def f10(a, b):\n    ")  # at line 41
        raw.send(complete_msg("c1", src, line=41, col=4))
        assert raw.until_final("c1")[-1]["type"] == "done"
        done = engine.submitted[-1].prompt
        assert done is not None and done.prefix == warms[-1].prompt.prefix
        raw.close()


def test_engine_death_answers_pending_and_restarts(home: Path) -> None:
    slow = lambda: FakeEngine(token_delay_s=0.2)  # noqa: E731
    with running_daemon(engine_factory=slow) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        raw.send(complete_msg("c1", src, options={"multiline": True, "deadline_ms": 20000}))
        time.sleep(0.3)
        engine = d.engines[0]
        assert isinstance(engine, FakeEngine)
        engine.crash()
        final = raw.until_final("c1", timeout_s=5)[-1]
        assert final["type"] == "error" and final["code"] == "engine_died"
        deadline = time.monotonic() + 10
        while len(d.engines) < 2 or d.service.supervisor.state != "ready":
            assert time.monotonic() < deadline, "engine not restarted"
            time.sleep(0.05)
        raw.send(complete_msg("c2", src, options={"multiline": False, "deadline_ms": 20000}))
        assert raw.until_final("c2")[-1]["type"] == "done"
        raw.send({"type": "status", "id": "s"})
        assert raw.until_final("s")[-1]["engine"]["restarts"] == 1
        raw.close()


def test_engine_that_cannot_load_answers_with_its_error(home: Path) -> None:
    broken = lambda: FakeEngine(fail_start=True)  # noqa: E731
    with running_daemon(engine_factory=broken) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        time.sleep(0.2)
        raw.send(complete_msg("c1", src))
        final = raw.until_final("c1", timeout_s=5)[-1]
        assert final["type"] == "error" and final["code"] == "model_missing"
        raw.close()


def test_client_vanishing_mid_stream_cancels_its_work(home: Path) -> None:
    slow = lambda: FakeEngine(token_delay_s=0.1)  # noqa: E731
    with running_daemon(engine_factory=slow) as d:
        raw = RawClient(d.endpoint)
        src = write_project(home / "proj")
        raw.send(complete_msg("c1", src, options={"multiline": True, "deadline_ms": 20000}))
        raw.recv()  # first chunk: it is running
        raw.close()
        wait_until_idle(d, "work of a vanished client still live")
        metrics = d.call(lambda: d.service.metrics.snapshot(time.time()))
        assert metrics["num_cancelled"] >= 1


def test_config_set_get_fast_mode_and_snapshot(raw: RawClient, home: Path) -> None:
    raw.send({"type": "config.set", "id": "s1", "changes": {"tiers.cap_tokens": 20}})
    reply = raw.recv()
    assert reply["type"] == "config" and reply["values"]["tiers"]["cap_tokens"] == 20
    assert reply["snapshot"]
    raw.send({"type": "config.get", "id": "g1", "key": "tiers.cap_tokens"})
    assert raw.recv()["values"] == {"tiers.cap_tokens": 20}
    raw.send({"type": "config.set", "id": "s2", "changes": {"tiers.cap_tokens": 0}})
    bad = raw.recv()
    assert bad["type"] == "error" and bad["code"] == "config"
    raw.send({"type": "config.set", "id": "s3", "changes": {"no.such": 1}})
    assert raw.recv()["code"] == "config"
    raw.send({"type": "fast_mode", "id": "f1", "on": True})
    assert raw.recv()["type"] == "ok"
    src = write_project(home / "proj")
    raw.send(complete_msg("c1", src))
    assert raw.until_final("c1")[-1]["tier"] == 3
    saved = (home / "config" / "config.toml").read_text()
    assert "force_fast = true" in saved and "cap_tokens = 20" in saved
    assert stat.S_IMODE((home / "config" / "config.toml").stat().st_mode) == 0o600
    assert len(list((home / "config" / "snapshots").glob("*.json"))) == 2


def test_config_that_cannot_be_saved_changes_nothing_and_a_lost_snapshot_only_logs(
    raw: RawClient, home: Path
) -> None:
    config_dir = home / "config"
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "snapshots").write_text("a file where the snapshot folder goes\n")
    raw.send({"type": "fast_mode", "id": "f1", "on": True})  # saved; its snapshot is not
    assert raw.recv()["type"] == "ok"
    assert "force_fast = true" in (config_dir / "config.toml").read_text()
    (config_dir / "config.toml").unlink()
    (config_dir / "config.toml").mkdir()  # the config file cannot be replaced now
    raw.send({"type": "config.set", "id": "s1", "changes": {"tiers.cap_tokens": 20}})
    err = raw.recv()
    assert err["type"] == "error" and err["code"] == "config"
    assert "could not be saved" in err["message"] and "nothing was changed" in err["message"]
    raw.send({"type": "config.get", "id": "g1", "key": "tiers"})
    tiers = raw.recv()["values"]["tiers"]
    assert tiers["cap_tokens"] != 20 and tiers["force_fast"] is True
    src = write_project(home / "proj")
    raw.send(complete_msg("c1", src))  # and it keeps serving
    assert raw.until_final("c1")[-1]["tier"] == 3


def test_subscribe_pushes_request_and_metrics_events(raw: RawClient, home: Path) -> None:
    raw.send({"type": "subscribe", "id": "sub", "topics": ["requests", "metrics", "state"]})
    assert raw.recv()["type"] == "ok"
    state = raw.recv()
    assert state["type"] == "event" and state["topic"] == "state" and state["seq"] == 0
    src = write_project(home / "proj")
    raw.send(complete_msg("c1", src))
    topics: set[str] = set()
    deadline = time.monotonic() + 5
    while not {"requests", "metrics"} <= topics:
        assert time.monotonic() < deadline
        r = raw.recv()
        if r["type"] == "event":
            topics.add(r["topic"])
            if r["topic"] == "requests":
                assert r["data"]["request_id"] == "c1" and r["data"]["tier"] in ("normal", "cap")
            if r["topic"] == "metrics":
                assert r["data"]["num_requests"] >= 1
    raw.send({"type": "fast_mode", "id": "f1", "on": True})
    while True:
        r = raw.recv()
        if r["type"] == "event" and r["topic"] == "state":
            assert r["data"]["fast_mode"] is True
            break


def test_each_subscription_has_its_own_sequence_and_unsubscribe_stops_it(
    raw: RawClient, daemon: DaemonHandle
) -> None:
    deadline = time.monotonic() + 10
    while daemon.service.supervisor.state != "ready":  # its state event would come any time
        assert time.monotonic() < deadline
        time.sleep(0.01)

    def until_ok(request_id: str) -> list[dict[str, Any]]:
        """Events received before the ok reply to ``request_id`` (state events come first)."""
        events = []
        while (r := raw.recv())["type"] != "ok" or r["id"] != request_id:
            assert r["type"] == "event", r
            events.append(r)
        return events

    raw.send({"type": "subscribe", "id": "a", "topics": ["state"]})
    until_ok("a")
    assert (raw.recv()["id"], 0) == ("a", 0)
    raw.send({"type": "subscribe", "id": "b", "topics": ["state"]})
    until_ok("b")
    first_b = raw.recv()  # the state at subscribing goes to the new subscription only
    assert (first_b["id"], first_b["seq"]) == ("b", 0)
    raw.send({"type": "fast_mode", "id": "f1", "on": True})
    assert sorted((e["id"], e["seq"]) for e in until_ok("f1")) == [("a", 1), ("b", 1)]
    raw.send({"type": "unsubscribe", "id": "u", "target": "a"})
    assert raw.recv()["detail"] == "unsubscribed"
    raw.send({"type": "unsubscribe", "id": "u2", "target": "a"})
    assert raw.recv()["detail"] == "not subscribed"
    raw.send({"type": "fast_mode", "id": "f2", "on": False})
    assert [(e["id"], e["seq"]) for e in until_ok("f2")] == [("b", 2)]


def test_generate_session_keeps_rounds(raw: RawClient, daemon: DaemonHandle) -> None:
    raw.send({"type": "generate", "id": "g1", "session": "s", "instruction": "write add",
              "code": "def add(a, b):\n    pass\n"})
    done = raw.until_final("g1")[-1]
    assert done["type"] == "done" and done["text"]
    raw.send({"type": "generate", "id": "g2", "session": "s", "instruction": "now sub"})
    assert raw.until_final("g2")[-1]["type"] == "done"
    engine = daemon.engines[0]
    assert isinstance(engine, FakeEngine)
    prompt = engine.submitted[-1].prompt_text or ""
    assert "Request: write add" in prompt and "Request: now sub" in prompt


def test_type_through_cache_hit(raw: RawClient, home: Path) -> None:
    src = write_project(home / "proj")
    raw.send(complete_msg("c1", src, options={"multiline": False}))
    first = raw.until_final("c1")[-1]
    assert first["text"] == "return a + b"
    text = src.read_text().replace("def add(a, b):\n    ", "def add(a, b):\n    ret", 1)
    raw.send(complete_msg("c2", src, col=7, text=text, options={"multiline": False}))
    second = raw.until_final("c2")[-1]
    assert second["cache"] == "type_through" and second["text"] == "urn a + b"
    # the same place asked for another shape (multi-line, a smaller cap): not from the cache
    for rid, options in (("c3", {"multiline": True}), ("c4", {"multiline": False,
                                                              "max_tokens": 2})):
        raw.send(complete_msg(rid, src, col=7, text=text, options=options))
        assert raw.until_final(rid)[-1]["cache"] == "miss"


def test_second_daemon_says_where_the_first_is(daemon: DaemonHandle) -> None:
    from app.errors import AlreadyRunning

    lock = lifecycle.DaemonLock()
    with pytest.raises(AlreadyRunning, match=r"pid \d+.*ipc://"):
        lock.acquire()


def test_tcp_listener_requires_token(home: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = Config(daemon=Config().daemon.__class__(tcp_port=port), tiers=TierConfig())
    with running_daemon(config):
        token_file = lifecycle.token_path()
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        raw = RawClient(f"tcp://127.0.0.1:{port}")
        raw.send({"type": "status", "id": "s0"})
        assert raw.recv()["code"] == "bad_message"
        raw.send({"type": "hello", "id": "h0", "token": "wrong"})
        assert raw.recv()["code"] == "bad_message"
        raw.send({"type": "hello", "id": "h1", "token": token_file.read_text()})
        assert raw.recv()["type"] == "hello"
        raw.send({"type": "status", "id": "s1"})
        assert raw.recv()["type"] == "status"
        raw.close()


def test_a_tcp_hello_authenticates_its_connection_not_its_routing_id(home: Path) -> None:
    """The token proves a connection, not a routing id: a second connection that takes the id
    of one that said hello (set explicitly, or guessed: ROUTER numbers connections in
    sequence) once that one is gone must say hello itself, whatever file descriptor it gets
    (the closed connection's, reused, included)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = Config(daemon=Config().daemon.__class__(tcp_port=port), tiers=TierConfig())
    endpoint = f"tcp://127.0.0.1:{port}"

    def connect(routing_id: bytes) -> RawClient:
        return RawClient(endpoint, routing_id=routing_id)

    with running_daemon(config):
        token = lifecycle.token_path().read_text()
        for n in range(3):
            editor = connect(b"editor-%d" % n)
            editor.send({"type": "hello", "id": "h", "token": token})
            assert editor.recv()["type"] == "hello"
            editor.send({"type": "status", "id": "s"})
            assert editor.recv()["type"] == "status"
            editor.close()
            time.sleep(0.3)  # the daemon sees the connection close
            other = connect(b"editor-%d" % n)
            other.send({"type": "status", "id": "s2"})
            reply = other.recv()
            assert reply["code"] == "bad_message" and "hello" in reply["message"], reply
            other.send({"type": "hello", "id": "h2", "token": token})
            assert other.recv()["type"] == "hello"
            other.send({"type": "status", "id": "s3"})
            assert other.recv()["type"] == "status"
            other.close()
            time.sleep(0.3)


def test_a_closed_tcp_connections_client_is_gone_at_once(home: Path) -> None:
    """On tcp the daemon learns from its socket monitor that a connection closed: its client
    no longer counts (and its work is cancelled) before anything is sent to it."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = Config(daemon=Config().daemon.__class__(tcp_port=port), tiers=TierConfig())
    endpoint = f"tcp://127.0.0.1:{port}"
    with running_daemon(config):
        token = lifecycle.token_path().read_text()
        clients = [RawClient(endpoint) for _ in range(2)]
        for raw in clients:
            raw.send({"type": "hello", "id": "h", "token": token})
            assert raw.recv()["type"] == "hello"
        clients[1].send({"type": "status", "id": "s"})
        assert clients[1].recv()["num_clients"] == 2
        clients[0].close()
        time.sleep(0.3)
        clients[1].send({"type": "status", "id": "s2"})
        assert clients[1].recv()["num_clients"] == 1
        clients[1].close()


@pytest.mark.slow
def test_real_engine_end_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real socket, the real llama.cpp engine from engine.factory and the embedded model:
    open an unsaved buffer, edit it incrementally, complete, cancel, status."""
    from app.config import EngineConfig
    from engine.factory import create_engine
    from engine.models import embedded_model_path

    try:
        model = embedded_model_path()  # resolved before NOSPIN_HOME moves the cache
    except Exception as exc:
        pytest.skip(f"embedded model not installed: {exc}")
    config = Config(engine=EngineConfig(model=str(model)))
    with short_home(monkeypatch) as home, running_daemon(
        config, engine_factory=lambda: create_engine(config), index_projects=True
    ) as d:
        src = write_project(home / "proj")
        raw = RawClient(d.endpoint)
        raw.send({"type": "open", "id": "o", "path": str(src),
                  "text": "def mul(a, b):\n    \n"})
        assert raw.recv()["type"] == "ok"
        raw.send({"type": "change", "id": "e", "path": str(src), "edits": [
            {"range": {"start": {"line": 1, "col": 4}, "end": {"line": 1, "col": 4}},
             "text": '"""Multiply a and b."""\n    '}]})
        assert raw.recv()["type"] == "ok"
        raw.send(complete_msg("c1", src, line=2, col=4,
                              options={"multiline": False, "deadline_ms": 120_000}))
        replies = raw.until_final("c1", timeout_s=120)
        done = replies[-1]
        assert done["type"] == "done", done
        assert done["text"].strip() and "\n" not in done["text"], (done, replies)
        assert done["context"]["num_prompt_tokens"] > 0
        assert done["timings"]["prefill_ms"] > 0 and done["num_tokens"] >= 1
        assert any(r["type"] == "chunk" for r in replies)
        # cancel a long multi-line one while it runs
        raw.send(complete_msg("c2", src, line=2, col=4,
                              options={"multiline": True, "max_tokens": 200,
                                       "deadline_ms": 120_000}))
        raw.send({"type": "cancel", "id": "k", "target": "c2"})
        finals: dict[str, dict[str, Any]] = {}
        while len(finals) < 2:
            r = raw.recv(120)
            if r["type"] not in ("chunk", "heartbeat"):
                finals[r["id"]] = r
        assert finals["k"]["type"] == "ok"
        assert finals["c2"]["type"] in ("error", "done")  # cancelled, or done before the cancel
        raw.send({"type": "generate", "id": "g", "session": "t", "path": str(src),
                  "instruction": "add a function add(a, b) that returns their sum",
                  "options": {"max_tokens": 60, "deadline_ms": 120_000}})
        gen = raw.until_final("g", timeout_s=120)[-1]
        assert gen["type"] == "done" and "def add" in gen["text"], gen
        raw.send({"type": "status", "id": "s"})
        status = raw.until_final("s")[-1]
        assert status["engine"]["state"] == "ready" and status["engine"]["name"] != "fake"
        assert status["num_documents"] == 1
        lines = status["metrics"]["token_line_cache"]  # the exact tokenizer's per-line counts
        assert 0 < lines["lines"] <= lines["max"], lines
        raw.close()


class SlowStartEngine(FakeEngine):
    """Loads for a second, as a model does (the scan must not start meanwhile)."""

    def start(self) -> None:
        time.sleep(1.0)
        super().start()


def _scan_samples(d: DaemonHandle, raw: RawClient, src: Path,
                  ) -> tuple[list[dict[str, Any]], list[tuple[str, int, bool]]]:
    """Complete in ``src`` and sample (engine state, live requests, whether a scan of its root
    started) every 20 ms until the reply."""
    projects = d.service._projects
    root = str(src.parent)

    def started() -> bool:
        project = projects._projects.get(root)
        return project is not None and project.indexer is not None

    samples: list[tuple[str, int, bool]] = []
    replied = threading.Event()

    def sample() -> None:
        while not replied.is_set():
            samples.append(d.call(lambda: (d.service.supervisor.state,
                                           len(d.service._live), started())))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    raw.send(complete_msg(f"c-{src.parent.name}", src,
                          options={"max_tokens": 6, "deadline_ms": 60_000}))
    sampler.start()
    replies = raw.until_final(f"c-{src.parent.name}", timeout_s=30)
    replied.set()
    sampler.join(10)
    assert replies[-1]["type"] == "done", replies[-1]
    assert not any(on for st, live, on in samples if live or st != "ready"), samples
    deadline = time.monotonic() + 10  # the engine is free now: the scan starts and ends
    while not (started() and projects._projects[root].ready) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert started() and projects._projects[root].ready
    return replies, samples


def test_the_first_scan_waits_for_the_engine_and_the_editors_request(home: Path) -> None:
    with running_daemon(engine_factory=lambda: SlowStartEngine(token_delay_s=0.1),
                        index_projects=True) as d:
        raw = RawClient(d.endpoint)
        replies, samples = _scan_samples(d, raw, write_project(home / "proj"))
        assert replies[-1]["timings"]["queue_ms"] >= 500  # it waited for the load
        # the load (1 s), then 6 tokens at 0.1 s: both seen, neither with the scan started
        assert any(st == "loading" and live for st, live, _ in samples), samples
        assert any(st == "ready" and live for st, live, _ in samples), samples
        # another project while the engine is loaded and idle: its scan waits for this request
        time.sleep(0.2)
        _, samples = _scan_samples(d, raw, write_project(home / "other"))
        assert any(st == "ready" and live for st, live, _ in samples), samples
        raw.close()

def test_state_events_follow_indexing_to_its_end(home: Path) -> None:
    with running_daemon(index_projects=True) as d:
        raw = RawClient(d.endpoint)
        raw.send({"type": "subscribe", "id": "sub", "topics": ["state"]})
        assert raw.recv()["type"] == "ok"
        assert raw.recv()["data"]["indexing"] is False
        src = write_project(home / "proj")
        raw.send({"type": "open", "id": "o", "path": str(src), "text": src.read_text()})
        seen: list[bool] = []
        deadline = time.monotonic() + 30
        while seen[-2:] != [True, False]:  # the tray's "indexing" ends when the scan does
            assert time.monotonic() < deadline, seen
            r = raw.recv(30)
            if r["type"] == "event" and r["topic"] == "state":
                assert r["data"]["root_problems"] == {}
                seen.append(r["data"]["indexing"])
        assert d.call(lambda: d.service._projects.busy()) is False
        raw.close()


def test_fast_mode_keeps_comments_and_edits_made_to_the_file_while_it_ran(home: Path) -> None:
    """A fast-mode toggle rewrote config.toml from the daemon's copy before: the user's
    comments went, and edits made to the file while the daemon ran were silently undone."""
    path = home / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# my settings\n[context]\nbudget_tokens = 1024  # the laptop\n")
    with running_daemon(with_changes(Config(), {"context.budget_tokens": 1024})) as d:
        raw = RawClient(d.endpoint)
        # edited while the daemon runs: it does not pick these up, and must not undo them
        path.write_text("# my settings\n[context]\nbudget_tokens = 512  # the laptop\n\n"
                        "[completion]\nmax_tokens = 32\n")
        raw.send({"type": "fast_mode", "id": "f1", "on": True})
        assert raw.recv()["type"] == "ok"
        assert path.read_text() == (
            "# my settings\n[context]\nbudget_tokens = 512  # the laptop\n\n"
            "[completion]\nmax_tokens = 32\n\n[tiers]\nforce_fast = true\n")
        raw.send({"type": "config.set", "id": "s1", "changes": {"completion.max_tokens": 48}})
        reply = raw.recv()
        assert reply["type"] == "config" and reply["values"]["completion"]["max_tokens"] == 48
        assert reply["values"]["context"]["budget_tokens"] == 1024  # the daemon's, unchanged
        assert "max_tokens = 48\n" in path.read_text() and "# my settings" in path.read_text()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        raw.close()


def test_a_config_file_that_does_not_parse_is_left_alone_and_nothing_changes(
    raw: RawClient, home: Path
) -> None:
    path = home / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[tiers\nhalf = typed\n")
    raw.send({"type": "fast_mode", "id": "f1", "on": True})
    err = raw.recv()
    assert err["type"] == "error" and err["code"] == "config"
    assert "not valid TOML" in err["message"] and "nothing was changed" in err["message"]
    assert path.read_text() == "[tiers\nhalf = typed\n"
    raw.send({"type": "config.get", "id": "g1", "key": "tiers.force_fast"})
    assert raw.recv()["values"] == {"tiers.force_fast": False}


def wait_until_indexed(d: DaemonHandle, root: Path) -> None:
    """The first scan of ``root``'s project done."""
    deadline = time.monotonic() + 30
    projects = d.service._projects
    while not (str(root) in projects._projects and projects._projects[str(root)].ready):
        assert time.monotonic() < deadline, "the project was not indexed"
        time.sleep(0.05)


def prompt_asked(
    d: DaemonHandle, raw: RawClient, rid: str, path: Path, *, line: int, typed: str, text: str
) -> str:
    """The prompt (snippets, then prefix) the engine was asked for by one completion at the
    end of ``typed`` on ``line`` of ``text`` (``typed`` new each time: no cache hit)."""
    raw.send(complete_msg(rid, path, line=line, col=len(typed), text=text,
                          options={"deadline_ms": 20000}))
    assert raw.until_final(rid)[-1]["type"] == "done"
    wait_until_idle(d)
    engine = d.engines[-1]
    assert isinstance(engine, FakeEngine)
    asked = [r.prompt for r in engine.submitted if not r.prefill_only and r.prompt
             and typed in r.prompt.prefix]
    assert len(asked) == 1
    return "".join(s.text for s in asked[0].snippets) + asked[0].prefix


def wait_until_forgotten(d: DaemonHandle, root: Path, path: Path) -> None:
    """A buffer closed unsaved: its edits leave the edit history on the daemon's history
    thread, after the reply (daemon/service.py ``_in_history_order``): waited for here."""
    history = d.service._projects._projects[str(root)].history
    rel = str(path.relative_to(root))
    deadline = time.monotonic() + 30
    while [r for r in history.entries() if r.path == rel and r.source == "editor"]:
        assert time.monotonic() < deadline, "the closed buffer's edits stayed"
        time.sleep(0.05)


def test_a_buffer_closed_right_after_an_edit_leaves_no_edit_in_the_history(home: Path) -> None:
    """An edit and at once a close without saving (``:q!``): the close's forget ran in a
    thread pool beside the edit's recording; had it run first, the edits would have been
    recorded after they were forgotten and stayed in the history for good. History work
    runs on one thread in the editor's order now: the forget comes after the edits it
    forgets, whatever the threads' timing (which makes the old order fail only rarely)."""
    root = home / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    big = root / "big.py"
    saved = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(3000))
    big.write_text(saved)
    with running_daemon(index_projects=True) as d:
        raw = RawClient(d.endpoint)
        raw.send({"type": "open", "id": "o1", "path": str(big), "text": saved})
        assert raw.recv()["type"] == "ok"
        wait_until_indexed(d, root)
        for n in range(3):
            edited = saved.replace("return x + ", f"return x * {n} + ")  # every function
            raw.send({"type": "change", "id": f"e{n}", "path": str(big), "text": edited})
            raw.send({"type": "close", "id": f"x{n}", "path": str(big)})  # at once, unsaved
            raw.send({"type": "open", "id": f"o{n}", "path": str(big), "text": saved})
            assert [raw.recv()["type"] for _ in range(3)] == ["ok", "ok", "ok"]
        raw.send({"type": "close", "id": "x", "path": str(big)})
        assert raw.recv()["type"] == "ok"
        d.service._history_work.submit(lambda: None).result(timeout=30)  # its work done
        history = d.service._projects._projects[str(root)].history
        assert not [r for r in history.entries() if r.path == "big.py" and r.source == "editor"]
        raw.close()


def test_other_documents_take_definitions_from_an_unsaved_buffer(home: Path) -> None:
    """A function added to ``shapes.py`` and not saved is offered, with its signature as typed,
    to a completion in ``main.py`` that calls it; closed unsaved, it is gone again."""
    root = home / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    shapes, main = root / "shapes.py", root / "main.py"
    shapes.write_text("def area(w: float, h: float) -> float:\n    return w * h\n")
    main.write_text("from shapes import area, perimeter\n\n\ndef report(w, h):\n"
                    "    total = perimeter(w, h)\n    \n")
    edited = (shapes.read_text() + "\n\ndef perimeter(w: float, h: float) -> float:\n"
              '    """Twice the sum of the sides."""\n    return 2 * (w + h)\n')

    def prompt_of(rid: str) -> str:
        """The prompt of a completion in main.py (a new line each time: no cache hit)."""
        typed = f"    {rid} = "
        text = main.read_text()[:-5] + typed + "\n"
        return prompt_asked(d, raw, rid, main, line=5, typed=typed, text=text)

    with running_daemon(index_projects=True) as d:
        raw = RawClient(d.endpoint)
        raw.send({"type": "open", "id": "o1", "path": str(shapes), "text": shapes.read_text()})
        assert raw.recv()["type"] == "ok"
        wait_until_indexed(d, root)
        # related definitions are skeletons (bodies elided); the buffer's text can also come
        # as a retrieved window and an edit hunk, with its body
        related = ('def perimeter(w: float, h: float) -> float:\n'
                   '    """Twice the sum of the sides."""\n    ...\n')
        seen = prompt_of("c1")
        assert "def area(w: float, h: float) -> float:\n    ...\n" in seen
        assert "perimeter(w: float" not in seen
        raw.send({"type": "change", "id": "e1", "path": str(shapes), "text": edited})
        assert raw.recv()["type"] == "ok"
        assert related in prompt_of("c2")
        raw.send({"type": "close", "id": "x1", "path": str(shapes)})  # closed unsaved
        assert raw.recv()["type"] == "ok"
        wait_until_forgotten(d, root, shapes)
        assert "perimeter(w: float" not in prompt_of("c3")
        raw.close()


def test_a_change_in_another_document_is_a_cache_miss(raw: RawClient, home: Path) -> None:
    """main.py's cached answer took shapes.py's definitions: once shapes.py changes, the same
    request in main.py is asked again, not answered from the cache."""
    src = write_project(home / "proj")
    other = src.parent / "shapes.py"
    raw.send({"type": "open", "id": "o1", "path": str(other), "text": "def area(w, h):\n"})
    assert raw.recv()["type"] == "ok"

    def cache_of(rid: str) -> str:
        raw.send(complete_msg(rid, src, options={"multiline": False}))
        done = raw.until_final(rid)[-1]
        assert done["type"] == "done"
        return str(done["cache"])

    assert cache_of("c1") == "miss"
    assert cache_of("c2") == "hit"
    raw.send({"type": "change", "id": "e1", "path": str(other),
              "text": "def area(w, h, d):\n"})
    assert raw.recv()["type"] == "ok"
    assert cache_of("c3") == "miss"
    assert cache_of("c4") == "hit"


@pytest.mark.parametrize(
    ("files", "edited", "lines", "cursor", "typed_as"),
    [
        (
            {
                "src/acme/Shapes.java": "package acme;\n\npublic class Shapes {\n"
                "    public static double area(double w, double h) {\n"
                "        return w * h;\n    }\n}\n",
                "src/acme/Main.java": "",
            },
            "package acme;\n\npublic class Shapes {\n"
            "    public static double area(double w, double h) {\n        return w * h;\n    }\n\n"
            "    /** Twice the sum of the sides. */\n"
            "    public static double perimeter(double w, double h) {\n"
            "        return 2 * (w + h);\n    }\n}\n",
            ["package acme;", "", "public class Main {",
             "    static void report(double w, double h) {",
             "        double total = Shapes.perimeter(w, h);", "", "    }", "}", ""],
            5,
            ("    // Twice the sum of the sides.\n"
             "    public static double perimeter(double w, double h) { … }\n"),
        ),
        (
            {
                "lib/shapes.h": "#pragma once\n\ndouble area(double w, double h);\n",
                "lib/main.c": "",
            },
            "#pragma once\n\ndouble area(double w, double h);\n"
            "/** Twice the sum of the sides. */\ndouble perimeter(double w, double h);\n",
            ['#include "shapes.h"', "", "void report(double w, double h) {",
             "    double inside = area(w, h);", "    double total = perimeter(w, h);", "", "}",
             ""],
            5,
            "// Twice the sum of the sides.\ndouble perimeter(double w, double h);\n",
        ),
    ],
    ids=["java", "c-header"],
)
def test_java_and_c_documents_take_definitions_from_an_unsaved_buffer(
    home: Path, files: dict[str, str], edited: str, lines: list[str], cursor: int, typed_as: str
) -> None:
    """As for Python (above): a method added to an open ``Shapes.java``, a prototype added to
    an open ``shapes.h``, not saved, reach a completion in the file that calls them through
    the protocol's open and change; closed unsaved, they are gone again."""
    root = home / "proj"
    (root / ".git").mkdir(parents=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    shapes, main = (root / rel for rel in files)
    main.write_text("\n".join(lines))

    def prompt_of(rid: str) -> str:
        typed = f"        {rid} = " if shapes.suffix == ".java" else f"    {rid} = "
        text = "\n".join([*lines[:cursor], typed, *lines[cursor + 1 :]])
        return prompt_asked(d, raw, rid, main, line=cursor, typed=typed, text=text)

    with running_daemon(index_projects=True) as d:
        raw = RawClient(d.endpoint)
        raw.send({"type": "open", "id": "o1", "path": str(shapes), "text": shapes.read_text()})
        assert raw.recv()["type"] == "ok"
        wait_until_indexed(d, root)
        seen = prompt_of("c1")
        assert "area(double w, double h)" in seen
        assert "perimeter(double" not in seen
        raw.send({"type": "change", "id": "e1", "path": str(shapes), "text": edited})
        assert raw.recv()["type"] == "ok"
        assert typed_as in prompt_of("c2")
        raw.send({"type": "close", "id": "x1", "path": str(shapes)})  # closed unsaved
        assert raw.recv()["type"] == "ok"
        wait_until_forgotten(d, root, shapes)
        assert "perimeter(double" not in prompt_of("c3")
        raw.close()
