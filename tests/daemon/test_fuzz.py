"""Fuzzing the daemon: 10,000+ generated messages on the real socket, no crash, one final reply
each, and the daemon still answers afterwards; plus a Hypothesis property of the decoder."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq
from hypothesis import given, settings
from hypothesis import strategies as st

from app.errors import ProtocolError
from daemon import protocol as p
from tests.daemon.fakes import FakeEngine
from tests.daemon.harness import RawClient, running_daemon, short_home

NUM_MESSAGES = 10_000


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
TYPES = ["hello", "open", "change", "close", "complete", "warm", "cancel", "generate", "status",
         "config.get", "config.set", "fast_mode", "subscribe", "unsubscribe", "nope", ""]


@settings(max_examples=1500, deadline=None)
@given(st.one_of(
    st.binary(max_size=200),
    st.builds(lambda t, rest: json.dumps({"type": t, "id": "x", **rest}).encode(),
              st.sampled_from(TYPES), st.dictionaries(st.text(max_size=8), json_values,
                                                       max_size=5)),
))
def test_decoder_raises_only_protocol_errors(data: bytes) -> None:
    try:
        message = p.decode_request(data, max_bytes=10_000)
    except ProtocolError:
        return
    assert p.decode_request(p.encode(message), max_bytes=10_000) == message


def _valid_messages(src: str) -> list[dict[str, Any]]:
    return [
        {"type": "hello"},
        {"type": "status"},
        {"type": "open", "path": src, "text": "def f(x):\n    \n"},
        {"type": "change", "path": src, "edits": [{"range": {"start": {"line": 0, "col": 0},
                                                             "end": {"line": 0, "col": 3}},
                                                   "text": "def"}]},
        {"type": "close", "path": src},
        {"type": "complete", "path": src, "line": 1, "col": 4,
         "options": {"max_tokens": 4, "deadline_ms": 2000}},
        {"type": "complete", "path": "/nonexistent/x.py", "line": 0, "col": 0},
        {"type": "cancel", "target": "f1"},
        {"type": "config.get", "key": "tiers"},
        {"type": "config.get", "key": "no.such"},
        {"type": "config.set", "changes": {"tiers.cap_tokens": "many"}},
        {"type": "generate", "session": "s", "instruction": "x", "code": "y",
         "options": {"max_tokens": 3}},
    ]


def _mutate(rng: random.Random, base: dict[str, Any]) -> dict[str, Any] | list[Any] | str:
    msg: dict[str, Any] = json.loads(json.dumps(base))
    choice = rng.randrange(9)
    keys = [k for k in msg if k not in ("type", "id")]
    if choice == 0 and keys:
        del msg[rng.choice(keys)]
    elif choice == 1 and keys:
        msg[rng.choice(keys)] = rng.choice([None, 1.5, -3, "s", [], {}, True, "x" * 300])
    elif choice == 2:
        msg["type"] = rng.choice(["nope", "", 3, None, "complete", "COMPLETE"])
    elif choice == 3:
        msg[rng.choice(["extra", "zz", "line"])] = rng.choice([0, "a", [1]])
    elif choice == 4:
        return [msg]
    elif choice == 5:
        return "x"
    return msg


def test_fuzz_ten_thousand_messages_on_the_socket(home: Path) -> None:
    rng = random.Random(20240605)
    src = home / "proj" / "a.py"
    src.parent.mkdir()
    (home / "proj" / "pyproject.toml").write_text("")
    src.write_text("def f(x):\n    \n")
    valid = _valid_messages(str(src))
    with running_daemon(engine_factory=lambda: FakeEngine(token_delay_s=0.0)) as d:
        ctx = zmq.Context()
        sock = ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.SNDHWM, 0)
        sock.setsockopt(zmq.RCVHWM, 0)
        sock.connect(d.endpoint)
        finals: dict[str | None, int] = {}
        expected_none = 0
        payloads: list[bytes] = []
        for i in range(NUM_MESSAGES):
            kind = rng.random()
            if kind < 0.1:  # raw garbage bytes, truncated JSON
                data = rng.randbytes(rng.randrange(0, 60))
                if rng.random() < 0.5:
                    data = json.dumps({"type": "status", "id": f"f{i}"}).encode()[
                        : rng.randrange(1, 20)]
            else:
                msg = _mutate(rng, {**rng.choice(valid), "id": f"f{i}"})
                data = json.dumps(msg).encode()
            if p.recover_id(data) is None:
                expected_none += 1
            payloads.append(data)
        done = threading.Event()

        def reader() -> None:
            while not done.is_set():
                if not sock.poll(100):
                    continue
                reply = json.loads(sock.recv())
                if reply["type"] in ("chunk", "heartbeat", "event"):
                    continue
                finals[reply["id"]] = finals.get(reply["id"], 0) + 1

        # one socket is not thread-safe: send everything first, then read
        for data in payloads:
            sock.send(data)
        thread = threading.Thread(target=reader)
        thread.start()
        deadline = 60.0
        import time
        start = time.monotonic()
        while sum(finals.values()) < NUM_MESSAGES and time.monotonic() - start < deadline:
            time.sleep(0.1)
        done.set()
        thread.join()
        sock.close(0)
        ctx.term()
        assert sum(finals.values()) == NUM_MESSAGES, "every message gets one final reply"
        assert finals.get(None, 0) == expected_none
        assert all(count == 1 for key, count in finals.items() if key is not None)
        # still serving
        raw = RawClient(d.endpoint)
        raw.send({"type": "status", "id": "after"})
        status = raw.until_final("after")[-1]
        assert status["type"] == "status"
        raw.close()


def test_message_over_the_soft_limit_gets_an_error_and_daemon_serves_on(home: Path) -> None:
    from app.config import Config, DaemonConfig

    with running_daemon(Config(daemon=DaemonConfig(max_message_bytes=10_000))) as d:
        raw = RawClient(d.endpoint)
        raw.send({"type": "open", "id": "big", "path": "/x.py", "text": "x" * 20_000})
        reply = raw.recv()
        assert reply["id"] == "big" and reply["code"] == "bad_message"
        assert "over the limit" in reply["message"]
        # beyond the hard cap (ZMQ_MAXMSGSIZE) libzmq drops that connection; others go on
        huge = RawClient(d.endpoint)
        huge.send(b"x" * (10_000 + (1 << 20) + 10))
        with pytest.raises(TimeoutError):
            huge.recv(0.5)
        huge.close()
        raw.send({"type": "status", "id": "s"})
        assert raw.recv()["type"] == "status"
        raw.close()
