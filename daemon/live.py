"""The daemon's record of one request from arrival to its final reply (complete, generate, the
daemon's own warm-ups) and of a type-through follower answered from a completion still running."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.errors import NospinError
from daemon import protocol as p
from daemon.context.types import AssembledContext
from daemon.scheduler import StartInstruction
from daemon.server import Peer
from engine.base import Engine


@dataclass(slots=True)
class Live:
    """A complete/generate request from arrival to its final reply."""

    key: str  # internal id: peer key + "/" + client id (client ids are only unique per client)
    peer: Peer | None  # None for the daemon's own warm-ups
    request_id: str  # the client's id
    kind: str  # "complete" | "generate" | "warmup"
    path: str  # document path ("session:NAME" for generate)
    arrival: float  # monotonic
    text: str = ""  # document text at arrival (complete) / prompt text (generate)
    line: int = 0
    col: int = 0
    language: str = "text"
    root: str = ""
    multiline: bool | None = None  # None: decide from the cursor
    max_tokens: int = 64
    deadline_ms: int = p.DEFAULT_DEADLINE_MS
    instruction: str = ""  # generate
    state: str = "queued"  # queued | running | done
    start: StartInstruction | None = None
    started_at: float | None = None  # monotonic, when the scheduler started it
    context: AssembledContext | None = None
    context_ms: float = 0.0
    prompt_prefix: str = ""
    prompt_suffix: str = ""
    submitted_to: Engine | None = None
    given: Engine | None = None  # the engine it was given, from before its context is assembled
    submitted_at: float | None = None  # monotonic, when it went to the engine
    cancel_requested: bool = False
    num_chunks: int = 0
    streamed: list[str] = field(default_factory=list)  # chunk texts so far
    replied_early: bool = False  # answered at its deadline; the engine has not finished yet
    first_chunk_at: float | None = None
    last_sent: float = 0.0
    error: NospinError | None = None  # overrides the scheduler's error code when set
    # (path, prefix, suffix, ask) for the completion cache (ask: multiline mode / token cap)
    cache_key: tuple[str, str, str, str] | None = None
    followers: list[Follower] = field(default_factory=list)
    # budgets the document was warm at when the completion arrived -> its FIM suffix hint there
    warm_suffix: dict[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class Follower:
    """A request answered by type-through from a completion that is still streaming."""

    peer: Peer
    request_id: str
    arrival: float
    offset: int  # chars of the source completion already typed or answered
