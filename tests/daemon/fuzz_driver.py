"""Driving a protocol fuzz through the daemon's real socket, and checking what came back.

``drive`` sends the messages of several clients (DEALER sockets, a window of requests in flight
each), a huge message now and then from a client of its own and, right after each, a status
from another; it records every reply as it arrives. ``check`` holds the replies to what
docs/protocol.md promises: each reply as its table says (``protocol_doc.reply_problems``), one
final reply per request with the request's id, of the type its request gets (or an error with
a documented code, ``bad_message`` for a malformed message, null only where the id cannot be
read), chunks and heartbeats only before a streaming request's final, chunk indexes and event
sequence numbers without gaps, the invariants of a ``done``."""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import zmq

from app import errors
from daemon import protocol as p
from tests.daemon import protocol_doc as doc
from tests.daemon.harness import RawClient

# request type -> its final reply type, and what may come before it (docs/protocol.md's table)
FINALS = {kind: final for kind, (final, _) in doc.final_replies().items()}
BEFORE = {kind: before for kind, (_, before) in doc.final_replies().items()}
ERROR_CODES = {getattr(errors, name).code for name in errors.__all__}  # app/errors.py's


@dataclass
class Sent:
    """One message sent: what its final reply must be."""

    client: str
    frames: list[bytes]
    rid: str | None  # the id its final reply carries (None: null)
    kind: str | None  # the request type it may be (None: not a request at all)
    bad: bool = False  # malformed for sure: the reply is error bad_message
    topics: frozenset[str] | None = None  # a valid subscribe's topics
    target: str | None = None  # a valid unsubscribe's subscription


@dataclass
class Run:
    """Every reply, in arrival order, with what was sent."""

    sent: dict[str, Sent] = field(default_factory=dict)  # by id
    sent_null: Counter[str] = field(default_factory=Counter)  # per client: errors with null id
    replies: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (client, reply)
    live_s: list[float] = field(default_factory=list)  # live client's status round trips
    envelope_problems: list[str] = field(default_factory=list)  # REQ delimiter not echoed


def drive(endpoint: str, small: dict[str, list[Sent]], huge: list[tuple[Sent, bool]], *,
          window: int, timeout_s: float) -> tuple[Run, list[tuple[int, int, bool]]]:
    """Send every small client's messages (at most ``window`` requests in flight each), one of
    ``huge`` (a message, whether the engine works on it) after each equal share of them, and
    the "live" client's status right after it; collect replies until every final came.
    Returns the run and, per huge message, the positions among the replies of the live
    status's final and of the huge message's, and whether the engine worked on it."""
    ctx = zmq.Context()
    socks: dict[str, zmq.Socket[bytes]] = {}
    for name in [*small, "huge", "live"]:
        s = socks[name] = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.RCVHWM, 0)
        s.setsockopt(zmq.SNDHWM, 0)
        s.connect(endpoint)
    poller = zmq.Poller()
    for s in socks.values():
        poller.register(s, zmq.POLLIN)
    run, pending = Run(), Counter[str]()
    position: dict[str, int] = {}  # id -> position of its final reply
    live_sent: dict[str, float] = {}
    order: list[tuple[str, str, bool]] = []  # (live id, huge id, late)
    queues = {name: iter(msgs) for name, msgs in small.items()}
    num_small = sum(len(msgs) for msgs in small.values())
    every = num_small // len(huge)
    num_sent = num_finals = 0

    def send(sent: Sent) -> None:
        socks[sent.client].send_multipart(sent.frames)
        if sent.rid is None:
            run.sent_null[sent.client] += 1
        else:
            run.sent[sent.rid] = sent
        pending[sent.client] += 1

    start = time.monotonic()
    total = num_small + 2 * len(huge)
    while num_finals < total and time.monotonic() - start < timeout_s:
        for name, it in queues.items():
            while pending[name] < window and (sent := next(it, None)) is not None:
                send(sent)
                num_sent += 1
                if num_sent % every == 0 and num_sent // every <= len(huge):
                    big, late = huge[num_sent // every - 1]
                    send(big)
                    live = Sent("live", [json.dumps({"type": "status", "id": f"live-{big.rid}"
                                                     }).encode()], f"live-{big.rid}", "status")
                    send(live)
                    live_sent[str(live.rid)] = time.monotonic()
                    order.append((str(live.rid), str(big.rid), late))
        for s, _ in poller.poll(20):
            name = next(n for n, x in socks.items() if x is s)
            while True:
                try:
                    frames = s.recv_multipart(zmq.NOBLOCK)
                except zmq.Again:
                    break
                reply = json.loads(frames[-1])
                run.replies.append((name, reply))
                sent = run.sent.get(reply.get("id"))
                delimited = sent is not None and sent.frames[0] == b"" and len(sent.frames) == 2
                if frames[:-1] != ([b""] if delimited else []):  # a REQ client's delimiter
                    run.envelope_problems.append(f"{name}: frames {frames[:-1]} for {reply}")
                if reply.get("type") in p.FINAL_REPLY_TYPES:
                    num_finals += 1
                    pending[name] -= 1
                    position.setdefault(str(reply.get("id")), len(run.replies))
                    if reply.get("id") in live_sent:
                        run.live_s.append(time.monotonic() - live_sent[reply["id"]])
    for s in socks.values():
        s.close(0)
    ctx.term()
    return run, [(position.get(lv, -1), position.get(h, -1), late) for lv, h, late in order]


def check(run: Run) -> list[str]:
    """Everything the document promises about the replies of the run; the problems found."""
    problems = list(run.envelope_problems)
    finals: dict[str, list[dict[str, Any]]] = defaultdict(list)
    chunks: dict[str, list[int]] = defaultdict(list)
    seqs: dict[str, list[int]] = defaultdict(list)
    null_errors: Counter[str] = Counter()
    ended: set[str] = set()  # subscriptions an unsubscribe ended
    codes = doc.error_codes()
    for client, reply in run.replies:
        problems += doc.reply_problems(reply)
        rid, kind = reply.get("id"), reply.get("type")
        sent = run.sent.get(rid) if isinstance(rid, str) else None
        if rid is None:
            null_errors[client] += 1
            if kind != "error" or reply.get("code") != "bad_message":
                problems.append(f"{client}: a null id on {reply}")
            continue
        if sent is None or sent.client != client:
            problems.append(f"{client}: a reply to an id it did not send: {reply}")
            continue
        if finals[rid] and kind != "event":
            problems.append(f"{rid}: {kind} after its final reply")
        if kind == "error":
            if reply["code"] not in codes or reply["code"] not in ERROR_CODES:
                problems.append(f"{rid}: error code {reply['code']} not documented")
            if (reply["code"] in ("overloaded", "engine_died")) != (
                    reply["retry_after_ms"] is not None):
                problems.append(f"{rid}: retry_after_ms {reply['retry_after_ms']} for {reply}")
            if sent.bad and reply["code"] != "bad_message":
                problems.append(f"{rid}: {reply['code']} for a malformed message")
        if kind in p.FINAL_REPLY_TYPES:
            finals[rid].append(reply)
            if kind != "error" and (sent.kind is None or FINALS[sent.kind] != kind):
                problems.append(f"{rid}: {kind} answers a {sent.kind}")
        elif kind in ("chunk", "heartbeat") and kind not in BEFORE.get(str(sent.kind), ()):
            problems.append(f"{rid}: {kind} for a {sent.kind}")
        if kind == "chunk":
            chunks[rid].append(reply["index"])
        if kind == "heartbeat" and reply["state"] not in ("queued", "running", "loading"):
            problems.append(f"{rid}: heartbeat state {reply['state']}")
        if kind == "ok" and sent.target is not None and reply["detail"] == "unsubscribed":
            ended.add(sent.target)
        if kind == "event":
            if rid in ended:
                problems.append(f"{rid}: an event after its unsubscribe's ok")
            if sent.kind != "subscribe" or not finals[rid]:
                problems.append(f"{rid}: an event before its ok, or not subscribed: {reply}")
            if sent.topics is not None and reply["topic"] not in sent.topics:
                problems.append(f"{rid}: event of topic {reply['topic']} not subscribed")
            seqs[rid].append(reply["seq"])
        if kind == "done":
            problems += done_problems(rid, reply)
    missing = [rid for rid in run.sent if len(finals[rid]) != 1]
    problems += [f"{rid}: {len(finals[rid])} final replies" for rid in missing[:10]]
    if null_errors != run.sent_null:
        problems.append(f"null-id errors {dict(null_errors)} != expected {dict(run.sent_null)}")
    problems += [f"{rid}: chunk indexes {i}" for rid, i in chunks.items()
                 if i != list(range(len(i)))]
    problems += [f"{rid}: event seqs {s[:10]}" for rid, s in seqs.items()
                 if s != list(range(len(s)))]
    return problems


DONE_FINISH = {"stop", "length", "newline", "repetition", "deadline", "paused"}


def done_problems(rid: str, reply: dict[str, Any]) -> list[str]:
    """The invariants docs/protocol.md states for a done."""
    c, t = reply["context"], reply["timings"]
    checks = [
        (reply["finish_reason"] in DONE_FINISH, "finish_reason"),
        (reply["cache"] in ("miss", "hit", "type_through"), "cache"),
        (reply["tier"] in (0, 1, 2, 3), "tier"),
        ((reply["tier"] == 0) == (reply["cache"] != "miss" or reply["finish_reason"] == "paused"),
         "tier 0 exactly for cache and paused answers"),
        (c["num_tokens"] <= c["budget_tokens"] or c["budget_tokens"] == 0, "num_tokens"),
        (c["num_tokens_saved"] == c["num_tokens_before_trim"] - c["num_tokens"], "saved"),
        (c["num_cached_tokens"] <= c["num_prompt_tokens"], "cached"),
        (t["first_token_ms"] <= t["total_ms"], "first_token_ms"),
        (c["num_dropped"] >= len([d for d in c["dropped"] if not d.startswith("... ")]),
         "num_dropped"),
    ]
    return [f"{rid}: done {what}: {reply}" for ok, what in checks if not ok]


def wait_ready(endpoint: str) -> None:
    """Until the engine has loaded (the fuzz is of a serving daemon, not of one starting)."""
    raw = RawClient(endpoint)
    for n in range(600):
        raw.send({"type": "hello", "id": f"ready{n}"})
        if raw.until_final(f"ready{n}")[-1]["engine_state"] == "ready":
            break
        time.sleep(0.2)
    raw.close()
