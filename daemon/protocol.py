"""Protocol v1 between the daemon and its clients: every message as a msgspec struct.

One message is one ZeroMQ frame holding one JSON object whose ``type`` field says what it is
(a tagged union). Clients send requests; the daemon answers each with zero or more non-final
messages (``chunk``, ``heartbeat``, ``event``) and exactly one final message (a type-specific
reply or ``error``), all carrying the request's ``id``. ``docs/protocol.md`` is the reference.

Pure data and codecs only; the socket lives in ``daemon/server.py``.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

import msgspec

from app.errors import NospinError, ProtocolError

PROTOCOL_VERSION = 1
DEFAULT_DEADLINE_MS = 2500  # complete: users always get an answer by then (design.md §4)
MAX_ID_CHARS = 128

RequestId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID_CHARS)]
NonNegative = Annotated[int, msgspec.Meta(ge=0)]
MaxTokens = Annotated[int, msgspec.Meta(ge=1, le=2048)]
DeadlineMs = Annotated[int, msgspec.Meta(ge=1, le=600_000)]
Topic = Literal["metrics", "requests", "state"]
ALL_TOPICS: tuple[Topic, ...] = ("metrics", "requests", "state")


class _Message(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True):
    """Base of every message: ``type`` is the tag, ``id`` the client's request id. Requests
    leave their defaults out; replies send every field (``omit_defaults=False``), as
    docs/protocol.md documents them."""


# --------------------------------------------------------------------------- requests
class Position(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    line: NonNegative  # 0-based line
    col: NonNegative  # 0-based column in Unicode code points of that line


class Range(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    start: Position  # first replaced character
    end: Position  # one past the last replaced character (start == end: insertion)


class TextEdit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    range: Range  # span of the document before this edit
    text: str  # replacement text ("" deletes)


class HelloRequest(_Message, frozen=True, tag="hello", forbid_unknown_fields=True):
    id: RequestId  # echoed in the reply
    protocol: int = PROTOCOL_VERSION  # protocol version the client speaks
    client: str = ""  # free-form client name, for logs ("nvim 0.12", "nospin-cli")
    token: str = ""  # required on tcp:// only: the content of the token file


class OpenRequest(_Message, frozen=True, tag="open", forbid_unknown_fields=True):
    id: RequestId
    path: str  # absolute path (or file:// URI) of the document
    text: str  # full buffer text; overrides the file on disk while open
    language: str | None = None  # language id; None: guess from the path
    version: int = 0  # editor's document version, echoed in status
    root: str | None = None  # project root; None: found from the path (.git, pyproject.toml)


class ChangeRequest(_Message, frozen=True, tag="change", forbid_unknown_fields=True):
    id: RequestId
    path: str  # an open document
    text: str | None = None  # new full text (exclusive with edits)
    edits: list[TextEdit] | None = None  # incremental edits, applied in order
    version: int = 0  # editor's document version after the change


class CloseRequest(_Message, frozen=True, tag="close", forbid_unknown_fields=True):
    id: RequestId
    path: str  # an open document; its buffer is dropped, the disk file counts again


class CompleteOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    max_tokens: MaxTokens | None = None  # None: config completion.max_tokens
    multiline: bool | Literal["auto"] = "auto"  # auto: decided from the cursor (postprocess)
    deadline_ms: DeadlineMs = DEFAULT_DEADLINE_MS  # answer (possibly partial) by then


class CompleteRequest(_Message, frozen=True, tag="complete", forbid_unknown_fields=True):
    id: RequestId
    path: str  # document (open buffer, else the file on disk)
    line: NonNegative  # cursor line, 0-based
    col: NonNegative  # cursor column, 0-based, in code points
    text: str | None = None  # buffer for this request only (overrides open buffer and disk)
    root: str | None = None  # project root; None: found from the path
    options: CompleteOptions = msgspec.field(default_factory=CompleteOptions)


class WarmRequest(_Message, frozen=True, tag="warm", forbid_unknown_fields=True):
    """The cursor arrived at (line, col): prefill the prompt there in the background (no reply
    text; "ok" at once). Send on cursor moves and entering insert mode, not per keystroke."""

    id: RequestId
    path: str
    line: NonNegative
    col: NonNegative
    text: str | None = None  # buffer for this request only (overrides open buffer and disk)
    root: str | None = None


class CancelRequest(_Message, frozen=True, tag="cancel", forbid_unknown_fields=True):
    id: RequestId
    target: RequestId  # id of the complete/generate request to cancel


class GenerateOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    max_tokens: MaxTokens = 512  # upper bound of generated tokens
    deadline_ms: DeadlineMs = 60_000  # answer (possibly partial) by then


class GenerateRequest(_Message, frozen=True, tag="generate", forbid_unknown_fields=True):
    id: RequestId
    session: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]  # conversation key
    instruction: str  # what the user asks for this round
    path: str | None = None  # current file (its buffer or disk text is the current code)
    code: str | None = None  # current code, overrides path
    options: GenerateOptions = msgspec.field(default_factory=GenerateOptions)


class StatusRequest(_Message, frozen=True, tag="status", forbid_unknown_fields=True):
    id: RequestId


class ConfigGetRequest(_Message, frozen=True, tag="config.get", forbid_unknown_fields=True):
    id: RequestId
    key: str | None = None  # dotted key ("tiers.fast_ms") or a section; None: everything


class ConfigSetRequest(_Message, frozen=True, tag="config.set", forbid_unknown_fields=True):
    id: RequestId
    changes: dict[str, Any]  # dotted key -> new value; all applied or none
    note: str = ""  # stored with the snapshot ("raised budget to 3000")


class FastModeRequest(_Message, frozen=True, tag="fast_mode", forbid_unknown_fields=True):
    id: RequestId
    on: bool  # force fast mode (tier 3) for every completion; stored as tiers.force_fast


class SubscribeRequest(_Message, frozen=True, tag="subscribe", forbid_unknown_fields=True):
    id: RequestId  # events of this subscription carry this id
    topics: list[Topic] = msgspec.field(default_factory=lambda: list(ALL_TOPICS))


class UnsubscribeRequest(_Message, frozen=True, tag="unsubscribe", forbid_unknown_fields=True):
    id: RequestId
    target: RequestId  # id of the subscribe request


Request = (
    HelloRequest
    | OpenRequest
    | ChangeRequest
    | CloseRequest
    | CompleteRequest
    | WarmRequest
    | CancelRequest
    | GenerateRequest
    | StatusRequest
    | ConfigGetRequest
    | ConfigSetRequest
    | FastModeRequest
    | SubscribeRequest
    | UnsubscribeRequest
)


# --------------------------------------------------------------------------- replies
class HelloReply(_Message, frozen=True, tag="hello"):
    id: str
    protocol: int  # protocol version the daemon speaks
    version: str  # nospin version
    pid: int  # daemon process id
    engine: str  # the engine kind that runs ("llamacpp", "xllamacpp", ...: "auto" resolved)
    engine_state: str  # "loading" | "ready" | "restarting" | "failed"


class OkReply(_Message, frozen=True, tag="ok", omit_defaults=False):
    id: str
    detail: str = ""  # what happened, for logs ("cancelled", "not running")


class ChunkReply(_Message, frozen=True, tag="chunk"):
    id: str
    index: int  # 0, 1, 2 ... per request
    text: str  # raw model text since the previous chunk; the final done.text is authoritative


class HeartbeatReply(_Message, frozen=True, tag="heartbeat"):
    id: str  # a request still queued or running; sent about once a second while it is
    state: str  # "queued" | "running" | "loading"


class Timings(msgspec.Struct, frozen=True, kw_only=True):
    queue_ms: float  # from receipt until the engine took the request
    context_ms: float  # context assembly
    first_token_ms: float  # from receipt to the first chunk (0 when none)
    prefill_ms: float  # engine prompt processing
    decode_ms: float  # engine token generation
    total_ms: float  # from receipt to this reply


class ContextStats(msgspec.Struct, frozen=True, kw_only=True):
    budget_tokens: int  # budget used for this request (tier-dependent)
    num_tokens: int  # tokens kept in the prompt
    num_tokens_before_trim: int  # all candidate segments before trimming
    num_tokens_saved: int  # before - kept
    dropped: list[str]  # "kind source: reason" per dropped segment, the first 32, "... N more"
    num_prompt_tokens: int  # engine's prompt tokens (exact)
    num_cached_tokens: int  # prompt tokens reused from the KV cache
    num_dropped: int = 0  # every dropped segment


class SpeculationStats(msgspec.Struct, frozen=True, kw_only=True):
    used: bool  # speculative decoding ran for this request
    num_draft_tokens: int  # proposed
    num_accepted: int  # accepted by the main model
    acceptance: float  # accepted / proposed (0 when none proposed)
    note: str  # why it was off, when it was


NO_CONTEXT = ContextStats(budget_tokens=0, num_tokens=0, num_tokens_before_trim=0,
                          num_tokens_saved=0, dropped=[], num_prompt_tokens=0,
                          num_cached_tokens=0)
NO_SPECULATION = SpeculationStats(used=False, num_draft_tokens=0, num_accepted=0,
                                  acceptance=0.0, note="")


class DoneReply(_Message, frozen=True, tag="done", omit_defaults=False):
    id: str
    text: str  # the completion to insert at the cursor (post-processed)
    finish_reason: str  # stop | length | newline | repetition | deadline | cancelled
    tier: int  # 1 normal, 2 capped tokens, 3 fast mode; 0 when none applied (cache, paused)
    tier_reason: str  # why this tier ("predicted 1800 ms > 1500 ms")
    cache: str  # "miss" | "hit" | "type_through"
    num_tokens: int  # generated tokens
    timings: Timings
    context: ContextStats  # zeros where no context was assembled (cache, paused, generate)
    speculation: SpeculationStats  # used false where the engine did not run


class ErrorReply(_Message, frozen=True, tag="error", omit_defaults=False):
    id: str | None  # the request's id; None when it could not be read
    code: str  # stable error code from app.errors (see the table in docs/protocol.md)
    message: str  # human-readable
    detail: str | None = None  # more detail, when any
    retry_after_ms: int | None = None  # overloaded / engine restarting: try again after


class StatusReply(_Message, frozen=True, tag="status", omit_defaults=False):
    id: str
    version: str  # nospin version
    pid: int
    uptime_s: float
    endpoints: list[str]  # where the daemon listens
    log_path: str  # daemon log file ("" when logging to the terminal)
    engine: dict[str, Any]  # kind, model, state, restarts, capabilities, speculation
    metrics: dict[str, Any]  # rolling p50/p95, tier counts, cache hits (daemon.metrics)
    fast_mode: bool  # tiers.force_fast
    paused: bool  # completion.paused
    num_documents: int  # open buffers
    num_clients: int  # clients seen in the last minute
    num_queued: int  # requests waiting for the engine
    roots: list[str]  # indexed project roots
    indexing: bool = False  # a root's first index build is still running
    # root -> why changes on disk there are not (all) followed: an inotify limit
    root_problems: dict[str, str] = msgspec.field(default_factory=dict)
    # how the previous daemon died, when it crashed (when, error, where, path:
    # daemon/crashlog.py); {} when it exited cleanly
    last_crash: dict[str, Any] = msgspec.field(default_factory=dict)


class ConfigReply(_Message, frozen=True, tag="config", omit_defaults=False):
    id: str
    values: dict[str, Any]  # the whole config, or the section/value asked for under its key
    snapshot: str | None = None  # config.set: id of the snapshot taken


class EventReply(_Message, frozen=True, tag="event"):
    id: str  # the subscribe request's id
    topic: str  # "metrics" | "requests" | "state"
    seq: int  # per subscription, from 0; a gap means events were dropped
    data: dict[str, Any]  # topic-specific payload (docs/protocol.md)


Reply = (
    HelloReply
    | OkReply
    | ChunkReply
    | HeartbeatReply
    | DoneReply
    | ErrorReply
    | StatusReply
    | ConfigReply
    | EventReply
)
FINAL_REPLY_TYPES = frozenset({"hello", "ok", "done", "error", "status", "config"})


# --------------------------------------------------------------------------- codecs
class _IdOnly(msgspec.Struct):
    id: Any = None


_request_decoder = msgspec.json.Decoder(Request)
_reply_decoder = msgspec.json.Decoder(Reply)
_id_decoder = msgspec.json.Decoder(_IdOnly)
_encoder = msgspec.json.Encoder()


def encode(message: msgspec.Struct) -> bytes:
    """Serialize a request or reply to one JSON frame."""
    return _encoder.encode(message)


def decode_request(data: bytes, *, max_bytes: int) -> Request:
    """Parse one frame into a request; raise ProtocolError saying what is wrong."""
    if len(data) > max_bytes:
        raise ProtocolError(f"message of {len(data)} bytes is over the limit of {max_bytes}")
    try:
        return _request_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError("invalid message", detail=str(exc)) from exc
    except msgspec.DecodeError as exc:
        raise ProtocolError("malformed JSON", detail=str(exc)) from exc
    except RecursionError as exc:  # msgspec: "maximum recursion depth exceeded ..."
        raise ProtocolError("JSON nested too deeply", detail=str(exc)) from exc


def decode_reply(data: bytes) -> Reply:
    """Parse one frame from the daemon (client side); raise ProtocolError when malformed."""
    try:
        return _reply_decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
        raise ProtocolError("malformed reply from the daemon", detail=str(exc)) from exc


_ID_FIELD = re.compile(rb'"id"\s*:\s*("(?:[^"\\]|\\.){1,%d}")' % (MAX_ID_CHARS * 6))


def recover_id(data: bytes) -> str | None:
    """Best-effort id of a message that failed to decode, so its error reply can carry it:
    the top-level ``id`` of a JSON object, else (the object itself does not decode: an
    escaped lone surrogate, truncated JSON) the first ``"id": "..."`` string in the bytes."""
    try:
        value = _id_decoder.decode(data).id
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        match = _ID_FIELD.search(data)
        if match is None:
            return None
        try:
            value = json.loads(match.group(1))
        except ValueError:
            return None
    if isinstance(value, str) and 0 < len(value) <= MAX_ID_CHARS:
        return value
    return None


def error_reply(request_id: str | None, exc: NospinError, **extra: Any) -> ErrorReply:
    """The error reply for an exception of the one hierarchy (code from its class)."""
    return ErrorReply(
        id=request_id, code=exc.code, message=exc.message, detail=exc.detail, **extra
    )


def is_final(reply: Reply) -> bool:
    """True for the one reply that ends a request (everything but chunk/heartbeat/event)."""
    return not isinstance(reply, ChunkReply | HeartbeatReply | EventReply)


__all__ = [
    "ALL_TOPICS",
    "DEFAULT_DEADLINE_MS",
    "FINAL_REPLY_TYPES",
    "NO_CONTEXT",
    "NO_SPECULATION",
    "PROTOCOL_VERSION",
    "CancelRequest",
    "ChangeRequest",
    "ChunkReply",
    "CloseRequest",
    "CompleteOptions",
    "CompleteRequest",
    "ConfigGetRequest",
    "ConfigReply",
    "ConfigSetRequest",
    "ContextStats",
    "DoneReply",
    "ErrorReply",
    "EventReply",
    "FastModeRequest",
    "GenerateOptions",
    "GenerateRequest",
    "HeartbeatReply",
    "HelloReply",
    "HelloRequest",
    "OkReply",
    "OpenRequest",
    "Position",
    "Range",
    "Reply",
    "Request",
    "SpeculationStats",
    "StatusReply",
    "StatusRequest",
    "SubscribeRequest",
    "TextEdit",
    "Timings",
    "UnsubscribeRequest",
    "decode_reply",
    "decode_request",
    "encode",
    "error_reply",
    "is_final",
    "recover_id",
]
