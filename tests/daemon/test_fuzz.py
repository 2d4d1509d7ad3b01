"""Fuzzing the daemon on its real socket: 10,000 generated messages from four clients to a
daemon running the real embedded model (the fake engine where the model is not installed),
multi-megabyte messages from a fifth client in between, and a sixth asking for status right
after each of those. Every reply is checked against the table of its type in docs/protocol.md
(tests/daemon/protocol_doc.py), every request gets exactly one final reply with its id (read
back from malformed messages by the document's rule), and the other clients are answered while
a huge message is in the daemon. Plus a Hypothesis property of the decoder."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config import CompletionConfig, Config, ContextConfig, EngineConfig
from app.errors import ProtocolError
from daemon import protocol as p
from engine.base import Engine
from tests.daemon import fuzz_driver as fuzz
from tests.daemon import protocol_doc as doc
from tests.daemon.fakes import FakeEngine
from tests.daemon.fuzz_driver import FINALS, Sent
from tests.daemon.harness import RawClient, running_daemon, short_home

NUM_MESSAGES = 10_000  # from the small clients; the huge and live ones send 2 x NUM_HUGE more
NUM_CLIENTS = 4
NUM_HUGE = 12
WINDOW = 48  # requests a small client has in flight at most


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
TYPES = [*FINALS, "nope", ""]


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


# ------------------------------------------------------------------ what the clients send
def _edit(line: int, col: int, text: str) -> dict[str, Any]:
    pos = {"line": line, "col": col}
    return {"range": {"start": pos, "end": pos}, "text": text}


def _valid(rng: random.Random, srcs: list[str], recent: list[str], subs: list[str]
           ) -> dict[str, Any]:
    """A valid request of a client whose documents are ``srcs`` (the first one it opens and
    edits): mostly cheap ones, a small share of completions with few tokens."""
    src = srcs[0]
    buffer = "def add(a, b):\n    \n\n\ndef sub(a, b):\n    return a - b\n"
    choices: list[tuple[float, Callable[[], dict[str, Any]]]] = [
        (10, lambda: {"type": "status"}),
        (8, lambda: {"type": "hello", "client": "fuzz"}),
        (8, lambda: {"type": "open", "path": src, "text": buffer, "version": 1}),
        (10, lambda: {"type": "change", "path": src, "edits": [_edit(1, 4, rng.choice("ab "))]}),
        (2, lambda: {"type": "change", "path": src, "text": buffer}),
        (4, lambda: {"type": "close", "path": src}),
        (4, lambda: {"type": "config.get", "key": rng.choice(["tiers", "no.such", None])}),
        (6, lambda: {"type": "cancel", "target": rng.choice(recent or ["none"])}),
        (3, lambda: {"type": "complete", "path": rng.choice(srcs), "line": 1, "col": 4,
                     "options": {"max_tokens": rng.randint(1, 4), "multiline": False,
                                 "deadline_ms": 4000}}),
        (1, lambda: {"type": "complete", "path": src, "line": 0, "col": 3, "text": "def f(x)",
                     "options": {"max_tokens": 2, "deadline_ms": 4000}}),
        (1, lambda: {"type": "complete", "path": "/nonexistent/x.py", "line": 0, "col": 0}),
        (1, lambda: {"type": "complete", "path": src, "line": 99, "col": 0}),
        (0.5, lambda: {"type": "warm", "path": src, "line": 1, "col": 4}),
        (0.2, lambda: {"type": "generate", "session": "s", "instruction": "sum", "code": "x",
                       "options": {"max_tokens": 2, "deadline_ms": 4000}}),
        (1, lambda: {"type": "config.set", "changes": {"tiers.cap_tokens": "many"}}),
        (0.2, lambda: {"type": "fast_mode", "on": False}),
        (0.1, lambda: {"type": "subscribe", "topics": rng.sample(p.ALL_TOPICS, 2)}),
        (0.2, lambda: {"type": "unsubscribe", "target": subs[-1] if subs else "none"}),
    ]
    return rng.choices([make for _, make in choices], [w for w, _ in choices])[0]()


def _mutate(rng: random.Random, base: dict[str, Any]) -> Any:
    msg: dict[str, Any] = json.loads(json.dumps(base))
    choice = rng.randrange(9)
    keys = [k for k in msg if k not in ("type", "id")]
    if choice == 0 and keys:
        del msg[rng.choice(keys)]
    elif choice == 1 and keys:
        msg[rng.choice(keys)] = rng.choice([None, 1.5, -3, "s", [], {}, True, "x" * 300, 1e300])
    elif choice == 2:
        msg["type"] = rng.choice(["nope", "", 3, None, "complete", "COMPLETE"])
    elif choice == 3:
        msg[rng.choice(["extra", "zz", "line"])] = rng.choice([0, "a", [1], -1])
    elif choice == 4:
        return [msg]
    elif choice == 5:
        return "x"
    return msg


DEEP = b'{"type":"config.set","id":"%s","changes":{"a":' + b"[" * 10**5 + b"]" * 10**5 + b"}}"
# malformed messages whose id can still be read (or must come back null): frames of one message
RECOVERY: list[Callable[[str], list[bytes]]] = [
    lambda i: [b"junk", b'{"type": "status", "id": "%s"}' % i.encode()],  # multipart
    lambda i: [b'{"type": "hello", "id": "%s"}' % i.encode(), b"tail"],
    lambda i: [b'{"type": "open", "id": "%s", "path": "/x.py", "text": "a\\ud800b"}'
               % i.encode()],  # an escaped lone surrogate
    lambda i: [b'{"type": "status", "id": "%s", "x": [1, 2' % i.encode()],  # truncated
    lambda i: [b'{"id": "%s", "type": 1e400}' % i.encode()],  # a number out of range
    lambda i: [b'{"type": "open", "id": "%s", "path": "/x.py", "text": "\xff\xfe"}'
               % i.encode()],  # invalid UTF-8
    lambda i: [b'[{"type": "status", "id": "%s"}]' % i.encode()],  # not an object
    lambda i: [b'{"type": "complete", "id": "%s", "path": 3, "line": "x", "col": -1}'
               % i.encode()],
    lambda i: [b'{"type": "status", "id": 5}'],  # ids that are not ids: null
    lambda i: [b'{"type": "status", "id": "%s"}' % (b"x" * 129)],
    lambda i: [b'{"type": "status", "id": ""}'],
    lambda i: [DEEP % i.encode()],  # nested too deeply
]


def _small_client(rng: random.Random, name: str, srcs: list[str], count: int) -> list[Sent]:
    """``count`` messages of one client: 8% malformed ones whose id can still be read (or is
    null), 7% random bytes and truncated JSON, 2% with a REQ delimiter frame, 38% valid
    requests, 45% valid ones mutated (a field dropped, of the wrong type, added; the type
    changed; not an object); a fifth of its completions cancelled at once."""
    out: list[Sent] = []
    recent: list[str] = []  # this client's ids but completions, for cancel targets
    subs: list[str] = []  # its subscribe ids, for unsubscribe targets
    n = 0
    while len(out) < count:
        n += 1
        rid = f"{name}-{n}"
        roll = rng.random()
        if roll < 0.08:
            frames = RECOVERY[rng.randrange(len(RECOVERY))](rid)
            ids = [doc.expected_id(f) for f in frames]
            out.append(Sent(name, frames, next((i for i in ids if i), None), None, bad=True))
            continue
        if roll < 0.15:  # random bytes, truncated JSON
            data = rng.randbytes(rng.randrange(0, 60))
            if rng.random() < 0.5:
                data = json.dumps({"type": "status", "id": rid}).encode()[:rng.randrange(1, 28)]
            out.append(Sent(name, [data], doc.expected_id(data), None, bad=True))
            continue
        if roll < 0.17:  # a REQ client's delimiter frame: served, the frame echoed
            msg: Any = {"type": "status", "id": rid}
            out.append(Sent(name, [b"", json.dumps(msg).encode()], rid, "status"))
            continue
        base = {**_valid(rng, srcs, recent[-20:], subs), "id": rid}
        msg = base if roll < 0.55 else _mutate(rng, base)
        kind = msg.get("type") if isinstance(msg, dict) else None
        data = json.dumps(msg).encode()
        topics = frozenset(msg["topics"]) if msg is base and kind == "subscribe" else None
        target = msg["target"] if msg is base and kind == "unsubscribe" else None
        out.append(Sent(name, [data], doc.expected_id(data), kind if kind in FINALS else None,
                        bad=kind not in FINALS, topics=topics, target=target))
        if kind == "subscribe":
            subs.append(rid)
        if kind in ("complete", "generate"):
            if rng.random() < 0.2:  # complete, then cancel it at once
                out.append(Sent(name, [json.dumps({"type": "cancel", "id": f"{rid}-x",
                                                   "target": rid}).encode()], f"{rid}-x", "cancel"))
        else:
            recent.append(rid)
    return out[:count]


def _huge_messages(src: Path) -> list[tuple[Sent, bool]]:
    """Multi-megabyte messages (and whether the engine works on it: its final comes late)."""
    assign = "x = 1\n" * 160_000  # under context.max_file_bytes: cropped and completed
    nul = ("\0" * 39 + "\n") * 21_000  # 5 MB of JSON ("\u0000"): binary
    made: list[tuple[dict[str, Any] | bytes, str | None, bool]] = [
        ({"type": "complete", "path": str(src), "line": 21_000, "col": 0, "text": nul}, None,
         False),
        ({"type": "open", "path": "/h/big.py", "text": "y = 2\n" * 500_000}, None, False),
        ({"type": "complete", "path": "/h/a%d.py", "line": 160_000, "col": 0, "text": assign,
          "options": {"max_tokens": 2, "deadline_ms": 60_000}}, None, True),
        ({"type": "status", "pad": "p" * 5_000_000}, "bad", False),
        (b"%s" + b" " * 8_200_000, "bad", False),  # over daemon.max_message_bytes
        (b"\x80" * 5_000_000, "bad", False),
        ({"type": "change", "path": "/h/big.py", "text": "z = 3\n" * 700_000}, None, False),
        ({"type": "generate", "session": "h", "instruction": "x", "code": "c" * 2_000_000},
         None, False),
    ]
    out: list[tuple[Sent, bool]] = []
    for k in range(NUM_HUGE):
        body, bad, late = made[k % len(made)]
        rid = f"huge-{k}"
        if isinstance(body, bytes):
            data = body.replace(b"%s", b'{"type": "status", "id": "%s"}' % rid.encode(), 1)
            kind = None
        else:
            data = json.dumps({**body, "id": rid}).encode().replace(b"%d", b"%d" % k, 1)
            kind = str(body["type"])
        assert len(data) < 8_000_000 + (1 << 20)  # beyond, libzmq drops the connection
        out.append((Sent("huge", [data], doc.expected_id(data), None if bad else kind,
                         bad=bool(bad)), bool(late)))
    return out


# ------------------------------------------------------------------ the run
def _engine_setup(model: Path | None) -> tuple[Config, Callable[[], Engine]]:
    """The real embedded model with a small prompt budget (prefill is what a CPU pays), else
    the fake engine."""
    context, completion = ContextConfig(budget_tokens=384), CompletionConfig(max_tokens=8)
    if model is None:
        return Config(context=context), lambda: FakeEngine(token_delay_s=0.001)
    from engine.factory import create_engine

    config = Config(context=context, completion=completion,
                    engine=EngineConfig(model=str(model), n_ctx=1024, n_threads=1,
                                        speculation=False))
    return config, lambda: create_engine(config)


def auto_kind() -> str:
    from app.config import EngineConfig
    from engine.factory import engine_kind

    return engine_kind(EngineConfig())


def _model() -> Path | None:
    try:
        from engine.models import embedded_model_path

        return embedded_model_path()
    except Exception:  # not installed: the fake engine still fuzzes the protocol
        return None


@pytest.mark.slow
def test_fuzz_ten_thousand_messages_with_huge_ones_from_another_client(home: Path) -> None:
    model = _model()  # resolved before NOSPIN_HOME moves the cache
    rng = random.Random(20240605)
    root = home / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    srcs = [[root / f"m{c}_{j}.py" for j in range(3)] for c in range(NUM_CLIENTS)]
    for src in itertools.chain(*srcs):
        src.write_text(f"def add(a, b):\n    \n\n\ndef {src.stem}(a, b):\n    return a - b\n")
    small = {f"c{c}": _small_client(rng, f"c{c}", [str(s) for s in srcs[c]],
                                    NUM_MESSAGES // NUM_CLIENTS) for c in range(NUM_CLIENTS)}
    huge = _huge_messages(srcs[0][0])
    config, factory = _engine_setup(model)
    with running_daemon(config, engine_factory=factory) as d:
        fuzz.wait_ready(d.endpoint)
        run, order = fuzz.drive(d.endpoint, small, huge, window=WINDOW, timeout_s=150)
        raw = RawClient(d.endpoint)  # still serving, and still the engine it started with
        raw.send({"type": "status", "id": "after"})
        status = raw.until_final("after", 30)[-1]
        calm = []  # completions with time to finish: the engine's twice, then a cache hit
        for n, src in enumerate([srcs[0][1], srcs[1][1], srcs[1][1]]):
            raw.send({"type": "complete", "id": f"calm{n}", "path": str(src), "line": 1,
                      "col": 4, "options": {"multiline": False, "deadline_ms": 60_000}})
            calm += raw.until_final(f"calm{n}", 60)
        raw.close()
    assert status["type"] == "status" and status["engine"]["state"] == "ready", status
    # the CPU engine engine.kind "auto" picks here (llamacpp where it is built, else xllamacpp)
    assert status["engine"]["name"] == ("fake" if model is None else auto_kind()), status
    problems = fuzz.check(run)
    assert not problems, f"{len(problems)} problems: {sorted(set(problems))[:8]}"
    kinds = Counter(reply["type"] for _, reply in run.replies)
    assert kinds["done"] >= 2 and kinds["error"] >= 1000 and kinds["event"] >= 1, kinds
    assert [problem for reply in calm for problem in doc.reply_problems(reply)] == []
    dones = [reply for reply in calm if reply["type"] == "done"]
    cached = "hit" if len(dones) == 3 and dones[1]["text"] else "miss"  # "" is not cached
    assert [reply["cache"] for reply in dones] == ["miss", "miss", cached], calm
    assert any(reply["type"] == "chunk" for reply in calm) or not dones[0]["text"], calm
    # a huge message the engine works on is answered after the status another client sent
    # after it: the status did not wait behind it
    assert all(0 < live < big for live, big, late in order if late), order
    assert all(live > 0 for live, _, _ in order), order
    assert len(run.live_s) == NUM_HUGE and max(run.live_s) < 5, run.live_s


def test_message_over_the_soft_limit_gets_an_error_and_daemon_serves_on(home: Path) -> None:
    from app.config import DaemonConfig

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
