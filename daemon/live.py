"""The daemon's record of one request from arrival to its final reply (complete, generate, the
daemon's own warm-ups), what the request's coroutine waits on (its start, its chunks, its end:
``daemon.service``), and a type-through follower answered from a completion still running."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from app.errors import NospinError
from daemon import protocol as p
from daemon.context.types import AssembledContext
from daemon.scheduler import RequestEnded, StartInstruction
from daemon.server import Peer
from engine.base import Engine, Finished

Chunk = tuple[str, float]  # a streamed chunk's text, and when it reached the event loop


@dataclass(slots=True)
class Live:
    """A complete/generate request (or a warm-up) from arrival to its final reply."""

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
    ended: RequestEnded | None = None  # the scheduler's end of it (``end``)
    finished: Finished | None = None  # the engine's result that ended it (None: the scheduler)
    # what its coroutine waits on (daemon.service); each takes the event loop at its first wait
    moved: asyncio.Event = field(default_factory=asyncio.Event, repr=False)  # started, or ended
    over: asyncio.Event = field(default_factory=asyncio.Event, repr=False)  # ended
    # streamed chunks for the coroutine, then None once it ended
    chunks: asyncio.Queue[Chunk | None] = field(default_factory=asyncio.Queue, repr=False)
    # called by ``end``: wakes a coroutine that waits on other work (Service._until_end)
    at_end: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def begin(self, start: StartInstruction, now: float) -> None:
        """The scheduler started it (``Service._step``): ``wait_start`` returns ``start``."""
        self.start, self.started_at, self.state = start, now, "running"
        self.moved.set()

    def end(self, ended: RequestEnded, fin: Finished | None) -> None:
        """The scheduler ended it (``Service._ended``): the stream closes after the chunks
        queued so far, ``wait_start`` returns (None when it never started), ``wait_end`` too."""
        self.ended, self.finished = ended, fin
        self.chunks.put_nowait(None)
        self.moved.set()
        self.over.set()
        for call in list(self.at_end):
            call()

    async def wait_start(self) -> StartInstruction | None:
        """Its start; None when the scheduler ended it before it started (shed, expired,
        superseded, cancelled while queued)."""
        await self.moved.wait()
        return self.start

    async def next_chunk(self) -> Chunk | None:
        """The next chunk the engine streamed; None once the request ended (the engine
        finished it, or the scheduler ended it first)."""
        return await self.chunks.get()

    async def wait_end(self) -> tuple[RequestEnded, Finished | None]:
        """The scheduler's end of it and the engine's result that caused the end, if one did."""
        await self.over.wait()
        assert self.ended is not None
        return self.ended, self.finished


@dataclass(slots=True)
class Follower:
    """A request answered by type-through from a completion that is still streaming."""

    peer: Peer
    request_id: str
    arrival: float
    offset: int  # chars of the source completion already typed or answered
