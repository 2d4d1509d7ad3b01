"""Protocol v1 codecs: every message round-trips, bad input is a ProtocolError with the id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from app import errors
from app.errors import ProtocolError
from daemon import protocol as p
from tests.daemon import protocol_doc

MAX = 1_000_000
REQUESTS: list[Any] = [
    p.HelloRequest(id="1", client="t"),
    p.OpenRequest(id="2", path="/a.py", text="x = 1\n", language="python"),
    p.ChangeRequest(id="3", path="/a.py", edits=[p.TextEdit(
        p.Range(p.Position(0, 0), p.Position(0, 1)), "y")]),
    p.ChangeRequest(id="3b", path="/a.py", text="full\n"),
    p.CloseRequest(id="4", path="/a.py"),
    p.CompleteRequest(id="5", path="/a.py", line=0, col=1, options=p.CompleteOptions(
        max_tokens=16, multiline=False, deadline_ms=900)),
    p.CancelRequest(id="6", target="5"),
    p.WarmRequest(id="6b", path="/a.py", line=0, col=1),
    p.GenerateRequest(id="7", session="s", instruction="write a csv reader"),
    p.StatusRequest(id="8"),
    p.ConfigGetRequest(id="9", key="tiers"),
    p.ConfigSetRequest(id="10", changes={"tiers.force_fast": True}),
    p.FastModeRequest(id="11", on=True),
    p.SubscribeRequest(id="12", topics=["metrics"]),
    p.UnsubscribeRequest(id="13", target="12"),
]


@pytest.mark.parametrize("message", REQUESTS, ids=lambda m: type(m).__name__)
def test_requests_round_trip(message: Any) -> None:
    data = p.encode(message)
    assert json.loads(data)["type"]
    assert p.decode_request(data, max_bytes=MAX) == message


def test_request_types_are_the_documented_ones() -> None:
    tags = {json.loads(p.encode(m))["type"] for m in REQUESTS}
    assert tags == {"hello", "open", "change", "close", "complete", "warm", "cancel", "generate",
                    "status", "config.get", "config.set", "fast_mode", "subscribe",
                    "unsubscribe"}


def test_defaults_of_complete() -> None:
    req = p.decode_request(b'{"type":"complete","id":"a","path":"/x","line":0,"col":0}',
                           max_bytes=MAX)
    assert isinstance(req, p.CompleteRequest)
    assert req.options == p.CompleteOptions(max_tokens=None, multiline="auto",
                                            deadline_ms=p.DEFAULT_DEADLINE_MS)
    assert req.text is None and req.root is None


DEEP = b'{"type":"config.set","id":"d","changes":{"a":' + b"[" * 10**5 + b"]" * 10**5 + b"}}"


@pytest.mark.parametrize(("data", "needle"), [
    (b"{not json", "malformed JSON"),
    (b"", "malformed JSON"),
    (b"[]", "invalid message"),
    (b'{"id":"a"}', "invalid message"),
    (b'{"type":"nope","id":"a"}', "invalid message"),
    (b'{"type":"complete","id":"a","path":"/x","line":"1","col":0}', "invalid message"),
    (b'{"type":"complete","id":"a","path":"/x","line":-1,"col":0}', "invalid message"),
    (b'{"type":"complete","id":"a","path":"/x","line":0,"col":0,"extra":1}', "invalid message"),
    (b'{"type":"complete","id":"a","path":"/x","line":0,"col":0,'
     b'"options":{"multiline":"maybe"}}', "invalid message"),
    (b'{"type":"status","id":""}', "invalid message"),
    (b'{"type":"status","id":7}', "invalid message"),
    (b'{"type":"status","id":"' + b"x" * 200 + b'"}', "invalid message"),
    (DEEP, "nested too deeply"),  # a 200 KB message; msgspec raised RecursionError
])
def test_bad_messages_raise_protocol_error(data: bytes, needle: str) -> None:
    with pytest.raises(ProtocolError, match=needle) as info:
        p.decode_request(data, max_bytes=MAX)
    assert info.value.code == "bad_message"


def test_oversized_message_is_refused_before_parsing() -> None:
    data = p.encode(p.OpenRequest(id="big", path="/a", text="x" * 2000))
    with pytest.raises(ProtocolError, match="over the limit"):
        p.decode_request(data, max_bytes=1000)
    assert p.recover_id(data) == "big"


@pytest.mark.parametrize(("data", "expected"), [
    (b'{"type":"nope","id":"a"}', "a"),
    (b'{"id":"a","line":"x"}', "a"),
    (b'{"id":5}', None),
    (b"garbage", None),
    (b'{"id":""}', None),
    (DEEP, "d"),  # nested too deeply: the id is still read
])
def test_recover_id(data: bytes, expected: str | None) -> None:
    assert p.recover_id(data) == expected


def test_replies_round_trip_and_finality() -> None:
    timings = p.Timings(queue_ms=1, context_ms=2, first_token_ms=3, prefill_ms=4, decode_ms=5,
                        total_ms=6)
    replies: list[Any] = [
        p.HelloReply(id="a", protocol=1, version="0", pid=1, engine="x", engine_state="ready"),
        p.OkReply(id="a"),
        p.ChunkReply(id="a", index=0, text="x"),
        p.HeartbeatReply(id="a", state="queued"),
        p.DoneReply(id="a", text="x", finish_reason="stop", tier=1, tier_reason="", cache="miss",
                    num_tokens=1, timings=timings, context=p.NO_CONTEXT,
                    speculation=p.NO_SPECULATION),
        p.ErrorReply(id=None, code="bad_message", message="m"),
        p.ConfigReply(id="a", values={}),
        p.EventReply(id="a", topic="metrics", seq=0, data={}),
    ]
    for reply in replies:
        back = p.decode_reply(p.encode(reply))
        assert back == reply
        assert p.is_final(back) == (json.loads(p.encode(reply))["type"] in p.FINAL_REPLY_TYPES)


def test_error_reply_always_has_all_fields() -> None:
    data = json.loads(p.encode(p.error_reply(None, ProtocolError("bad"))))
    assert data == {"type": "error", "id": None, "code": "bad_message", "message": "bad",
                    "detail": None, "retry_after_ms": None}


def test_protocol_doc_covers_every_message_and_error_code() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    for message in REQUESTS:
        assert f"`{json.loads(p.encode(message))['type']}`" in doc
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert f"`{cls.code}`" in doc, f"error code {cls.code} missing from docs/protocol.md"
    for field in msgspec.structs.fields(p.DoneReply):
        assert f"`{field.name}`" in doc


def _struct_fields(cls: Any, prefix: str = "") -> dict[str, Any]:
    """name -> msgspec field of a message struct, a nested struct's fields dotted
    (``options.max_tokens``, ``timings.queue_ms``)."""
    out: dict[str, Any] = {}
    for field in msgspec.structs.fields(cls):
        out[prefix + field.name] = field
        inner = field.type
        if isinstance(inner, type) and issubclass(inner, msgspec.Struct) \
                and inner not in (p.TextEdit, p.Range, p.Position):
            if prefix + field.name != "options":
                out.update(_struct_fields(inner, f"{prefix}{field.name}."))
            else:  # a request's options are documented by their fields only
                del out[prefix + field.name]
                out.update(_struct_fields(inner, "options."))
    return out


def _message_classes(union: Any) -> dict[str, Any]:
    return {cls.__struct_config__.tag: cls for cls in union.__args__}


@pytest.mark.parametrize("kind", sorted(_message_classes(p.Request)))
def test_request_tables_of_the_doc_match_the_structs(kind: str) -> None:
    """Every request type has a table naming its fields; "required" is yes exactly for the
    fields without a default, and a default written as a JSON value is the struct's."""
    cls = _message_classes(p.Request)[kind]
    documented = {f.name: f for f in protocol_doc.tables()[("request", kind)]}
    fields = _struct_fields(cls)
    assert set(documented) == set(fields), kind
    for name, doc_field in documented.items():
        field = fields[name]
        has_default = field.default is not msgspec.NODEFAULT \
            or field.default_factory is not msgspec.NODEFAULT
        assert (doc_field.required == "yes") == (not has_default), (kind, name)
        parsed, value = protocol_doc.documented_default(doc_field)
        if has_default and parsed:
            assert value == field.default, (kind, name, value, field.default)


@pytest.mark.parametrize("kind", sorted(_message_classes(p.Reply)))
def test_reply_tables_of_the_doc_match_the_structs(kind: str) -> None:
    """Every reply type has a table naming exactly its fields (a done's objects' too)."""
    cls = _message_classes(p.Reply)[kind]
    documented = {f.name for f in protocol_doc.reply_fields(kind)}
    fields = _struct_fields(cls)
    assert set(fields) <= documented, kind
    # beyond the struct's: the keys of its free-form objects (status.engine, status.metrics)
    for name in documented - set(fields):
        assert fields.get(name.split(".")[0]) is not None and "dict" in str(
            fields[name.split(".")[0]].type), (kind, name)


def test_every_field_of_a_reply_is_sent_and_documented() -> None:
    """Replies leave no field out (an empty ``detail``, ``snapshot`` null, ``last_crash`` {})."""
    replies: list[Any] = [
        p.OkReply(id="a"),
        p.ConfigReply(id="a", values={}),
        p.StatusReply(id="a", version="0", pid=1, uptime_s=0.0, endpoints=[], log_path="",
                      engine={}, metrics={}, fast_mode=False, paused=False, num_documents=0,
                      num_clients=0, num_queued=0, roots=[]),
        p.ErrorReply(id=None, code="bad_message", message="m"),
    ]
    for reply in replies:  # (the keys of status.engine and .metrics: the fuzz's statuses)
        problems = protocol_doc.reply_problems(json.loads(p.encode(reply)))
        assert [x for x in problems if not x.startswith("status.")] == [], reply


def test_the_doc_check_finds_what_differs() -> None:
    """The checker the fuzz relies on: a field missing, one not documented, a value of another
    type, a key of status.engine or of an event's data the document does not name."""
    ok = json.loads(p.encode(p.OkReply(id="a")))
    assert protocol_doc.reply_problems({**ok, "extra": 1}) == ["ok: extra not documented"]
    assert protocol_doc.reply_problems({"type": "ok", "id": "a"}) == ["ok: detail missing"]
    assert protocol_doc.reply_problems({**ok, "detail": 3}) == ["ok: detail = 3 is not string"]
    status = json.loads(p.encode(p.StatusReply(
        id="a", version="0", pid=1, uptime_s=0.0, endpoints=[], log_path="",
        engine={"kind": "x", "bogus": 1}, metrics={}, fast_mode=False, paused=False,
        num_documents=0, num_clients=0, num_queued=0, roots=[])))
    assert "status.engine: bogus not documented" in protocol_doc.reply_problems(status)
    assert "status.engine: state missing" in protocol_doc.reply_problems(status)
    assert "status.engine: name missing" not in protocol_doc.reply_problems(status)  # absent
    event = json.loads(p.encode(p.EventReply(id="a", topic="state", seq=0, data={"x": 1})))
    problems = protocol_doc.reply_problems(event)
    assert "event state: x not documented" in problems
    assert "event state: engine_state missing" in problems


def test_the_doc_names_each_requests_final_reply() -> None:
    finals = protocol_doc.final_replies()
    assert set(finals) == set(_message_classes(p.Request))
    assert {final for final, _ in finals.values()} | {"error"} == p.FINAL_REPLY_TYPES
    assert set().union(*(before for _, before in finals.values())) == {"chunk", "heartbeat"}
