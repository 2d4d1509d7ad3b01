"""Completion cache keyed by context, with type-through.

An entry is (document path, text before the cursor, text after the cursor, what was asked)
-> completion text; "what was asked" (``ask``) is what else shapes the answer (the multiline
mode and the token cap): a single-line request never gets a cached multi-line answer.
Only hashes and lengths of the prefix and suffix are kept, never the source text. When the user
has typed the start of a cached or still-streaming completion, ``lookup`` answers the rest at
once: the new prefix is the old prefix plus the typed characters, the typed characters are a
prefix of the completion, and the suffix is unchanged.

Pass the prefix and suffix in the form the prompt uses (for example the anchored cursor window and
the short suffix of the FIM prompt): two requests with the same prompt text then share an entry.
Pure and deterministic; used from the server's event loop only (not thread-safe).

Lifecycle of a streaming entry::

    cache.start(request_id, path, prefix, suffix, ask)  # request submitted to the engine
    cache.append(request_id, chunk_text)            # each TextChunk
    cache.finish(request_id, complete=True)         # Finished (stop/length/newline)
    cache.finish(request_id, complete=False)        # cancelled/deadline: keep what came, partial
    cache.discard(request_id)                       # error: forget it
"""

from __future__ import annotations

import enum
import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field

__all__ = ["CacheHit", "CompletionCache", "EntryStatus"]


class EntryStatus(enum.IntEnum):
    """State of a cache entry (only moves forward)."""

    STREAMING = 0  # the engine is still generating it; text grows with append()
    COMPLETE = 1  # finished normally: the text is the whole completion
    PARTIAL = 2  # stopped early (cancelled, deadline): the text is a true start, not the whole


@dataclass(frozen=True, slots=True)
class CacheHit:
    """The answer to a lookup that matched an entry."""

    text: str  # the rest of the completion after what the user typed (may be "" if streaming)
    num_typed: int  # characters of the completion the user had already typed
    status: EntryStatus  # STREAMING: more text may follow from source_request_id
    source_request_id: str  # the request that produced (or is producing) the entry
    offset: int  # chars of the source completion covered so far (num_typed + len(text))

    def __repr__(self) -> str:  # never print completion text
        return (
            f"CacheHit(num_chars={len(self.text)}, num_typed={self.num_typed}, "
            f"status={self.status.name}, source={self.source_request_id!r})"
        )


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


@dataclass(slots=True)
class _Entry:
    """One cached completion; only hashes of the context are kept."""

    request_id: str  # the request that produced it
    context: tuple[str, bytes, str]  # (path, suffix digest, ask): entries that can match
    prefix_len: int  # characters of the prefix it was asked at
    prefix_digest: bytes  # digest of that prefix
    parts: list[str] = field(default_factory=list)  # completion text, in streamed chunks
    status: EntryStatus = EntryStatus.STREAMING

    @property
    def text(self) -> str:
        if len(self.parts) > 1:
            self.parts[:] = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""


class CompletionCache:
    """Bounded LRU of completions with type-through lookups."""

    def __init__(self, *, max_entries: int = 256, max_per_context: int = 8) -> None:
        """``max_entries`` bounds the whole cache (least recently used goes first);
        ``max_per_context`` bounds entries sharing one (path, suffix, ask)."""
        if max_entries < 1 or max_per_context < 1:
            raise ValueError("cache bounds must be at least 1")
        self._max_entries = max_entries
        self._max_per_context = max_per_context
        self._entries: OrderedDict[str, _Entry] = OrderedDict()  # LRU order, oldest first
        self._by_context: dict[tuple[str, bytes, str], list[str]] = {}  # context -> ids
        self._num_lookups = 0
        self._num_hits = 0
        self._num_type_through = 0
        self._num_evictions = 0

    def lookup(self, path: str, prefix: str, suffix: str, ask: str = "") -> CacheHit | None:
        """Find a cached or streaming completion the cursor position continues; None: a miss.

        Matches an entry of the same path, suffix and ``ask`` whose prefix is a start of
        ``prefix`` and whose completion starts with the characters typed since
        (``prefix[len(old):]``). The
        longest such prefix wins (the most recent context). A hit refreshes the entry's LRU
        position. A complete or partial entry already fully typed is a miss (nothing to add).
        """
        self._num_lookups += 1
        ids = self._by_context.get((path, _digest(suffix), ask))
        if not ids:
            return None
        best: _Entry | None = None
        for request_id in ids:
            entry = self._entries[request_id]
            if entry.prefix_len > len(prefix):
                continue
            if best is not None and entry.prefix_len <= best.prefix_len:
                continue
            typed = prefix[entry.prefix_len :]
            text = entry.text
            if not text.startswith(typed):
                continue
            if len(typed) == len(text) and entry.status is not EntryStatus.STREAMING:
                continue
            if _digest(prefix[: entry.prefix_len]) != entry.prefix_digest:
                continue
            best = entry
        if best is None:
            return None
        self._entries.move_to_end(best.request_id)
        num_typed = len(prefix) - best.prefix_len
        rest = best.text[num_typed:]
        self._num_hits += 1
        if num_typed:
            self._num_type_through += 1
        return CacheHit(
            text=rest,
            num_typed=num_typed,
            status=best.status,
            source_request_id=best.request_id,
            offset=num_typed + len(rest),
        )

    def start(self, request_id: str, path: str, prefix: str, suffix: str, ask: str = "") -> None:
        """Open a streaming entry for a request just submitted (replaces one with that id)."""
        self._remove(request_id)
        context = (path, _digest(suffix), ask)
        entry = _Entry(
            request_id=request_id,
            context=context,
            prefix_len=len(prefix),
            prefix_digest=_digest(prefix),
        )
        ids = self._by_context.setdefault(context, [])
        # an entry for the very same position is replaced by the newer one
        for other_id in list(ids):
            other = self._entries[other_id]
            if other.prefix_len == entry.prefix_len and other.prefix_digest == entry.prefix_digest:
                self._remove(other_id)
                self._num_evictions += 1
        ids = self._by_context.setdefault(context, [])
        while len(ids) >= self._max_per_context:
            self._remove(ids[0])
            self._num_evictions += 1
            ids = self._by_context.setdefault(context, [])
        ids.append(request_id)
        self._entries[request_id] = entry
        while len(self._entries) > self._max_entries:
            oldest = next(iter(self._entries))
            self._remove(oldest)
            self._num_evictions += 1

    def append(self, request_id: str, text: str) -> None:
        """Add a streamed chunk to a streaming entry; unknown or closed ids: no-op."""
        entry = self._entries.get(request_id)
        if entry is not None and entry.status is EntryStatus.STREAMING and text:
            entry.parts.append(text)

    def read(self, request_id: str, offset: int) -> str:
        """Text of an entry from char ``offset`` on ("" when unknown): for following a stream."""
        entry = self._entries.get(request_id)
        return entry.text[offset:] if entry is not None else ""

    def status_of(self, request_id: str) -> EntryStatus | None:
        """Status of an entry; None when it is not (or no longer) cached."""
        entry = self._entries.get(request_id)
        return entry.status if entry is not None else None

    def finish(self, request_id: str, *, complete: bool = True, text: str | None = None) -> None:
        """Close a streaming entry. ``text``: the final whole text, when it differs from what
        was streamed (post-processing trimmed it). An empty entry is dropped."""
        entry = self._entries.get(request_id)
        if entry is None or entry.status is not EntryStatus.STREAMING:
            return
        if text is not None:
            entry.parts[:] = [text]
        if not entry.text:
            self._remove(request_id)
            return
        entry.status = EntryStatus.COMPLETE if complete else EntryStatus.PARTIAL

    def discard(self, request_id: str) -> None:
        """Forget an entry (engine error)."""
        self._remove(request_id)

    def invalidate(self, path: str) -> None:
        """Forget every entry of a document (closed, or changed outside the typing path)."""
        for context in [c for c in self._by_context if c[0] == path]:
            for request_id in list(self._by_context.get(context, ())):
                self._remove(request_id)

    def invalidate_others(self, path: str) -> None:
        """Forget the finished entries of every document but ``path``, which changed: their
        prompts took definitions and edits from it (a completion streaming now is kept for the
        requests following it)."""
        for request_id, entry in list(self._entries.items()):
            if entry.context[0] != path and entry.status is not EntryStatus.STREAMING:
                self._remove(request_id)

    def clear(self) -> None:
        """Forget every entry (a new engine: these are another model's completions)."""
        self._entries.clear()
        self._by_context.clear()

    def _remove(self, request_id: str) -> None:
        entry = self._entries.pop(request_id, None)
        if entry is None:
            return
        ids = self._by_context.get(entry.context)
        if ids is not None:
            ids.remove(request_id)
            if not ids:
                del self._by_context[entry.context]

    def __len__(self) -> int:
        return len(self._entries)

    def stats(self) -> dict[str, int]:
        """Entries, lookups, hits, type-through hits, evictions: for status and metrics."""
        return {
            "entries": len(self._entries),
            "lookups": self._num_lookups,
            "hits": self._num_hits,
            "type_through_hits": self._num_type_through,
            "evictions": self._num_evictions,
        }
