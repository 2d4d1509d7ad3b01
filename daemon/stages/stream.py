"""Stream: each text chunk the engine streams (after the engine's own ``StreamFilter``: stop
strings, single line, block end, repetition) recorded on the request and turned into the
client's ``chunk`` reply. Called by ``Service._stream`` (stage 6 of ``Service._complete``) on
the event loop, for each chunk the request's coroutine takes from ``Live.chunks``."""

from __future__ import annotations

from dataclasses import dataclass

from daemon import protocol as p
from daemon.live import Live


@dataclass(frozen=True, slots=True)
class StreamInput:
    """One chunk of a running request."""

    live: Live  # the request (its streamed text and timings are updated)
    text: str  # the chunk's text (not empty)
    now: float  # monotonic, when it arrived


def stream_chunk(inp: StreamInput) -> p.ChunkReply | None:
    """Record the chunk; the reply to send the client (None: it was answered already, at its
    deadline). The caller counts the chunk as sent (``live.num_chunks``) once it went out."""
    live = inp.live
    live.streamed.append(inp.text)
    if live.replied_early:
        return None
    if live.first_chunk_at is None:
        live.first_chunk_at = inp.now
    live.last_sent = inp.now
    return p.ChunkReply(id=live.request_id, index=live.num_chunks, text=inp.text)
