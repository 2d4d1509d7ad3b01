"""The ``llamavim`` eval mode: the prompt llama.vim sends to llama.cpp's ``/infill``, as the
server renders it for Qwen2.5-Coder (docs/quality.md, "Peer modes", cites each rule's source).

The plugin sends the local context by lines (``n_prefix`` = 256 lines above the cursor,
``n_suffix`` = 64 below, the cursor line's text before the cursor as ``prompt``) and a ring
buffer of chunks (``input_extra``) gathered over time from text the user opened, saved, yanked
or moved away from. The server puts the chunks before the FIM prefix in the repo-level form
(``<|repo_name|>`` then ``<|file_sep|>name`` and text per chunk, then ``<|file_sep|>filename``)
and cuts by tokens: the prefix to 3/4 of a batch (its start dropped), the suffix to 1/4 minus the
prompt's tokens (its end dropped), the chunks to what the context has left (the oldest dropped).

In the eval the batch is half the budget (``n_batch = budget // 2``) and the chunks get the other
half (the server's ``n_ctx - n_batch - 2 n_predict``), so the whole prompt stays within the
budget. The ring is filled by replaying the plugin's events for what the point source provides:
each open file of the session entered (a chunk of the lines around line 1) and, when edited,
saved at its last edit (a chunk around it); then the point's own file entered at the cursor and
the chunks an automatic request picks there (beyond ``n_prefix`` above, beyond ``n_suffix``
below), moved into the ring as the plugin does once the user pauses; then the request's own
eviction of chunks too similar to the cursor's surroundings. llama.vim picks chunk positions at
random: here from a generator seeded by the point.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from app.evaluation.corpus import cut_tail
from app.evaluation.peer_common import PeerInput, cut_head
from engine.base import ContextSnippet, PromptParts, TokenCounter

N_PREFIX = 256  # lines before the cursor line (g:llama_config.n_prefix)
N_SUFFIX = 64  # lines after it (n_suffix)
RING_N_CHUNKS = 16  # chunks kept in the ring (ring_n_chunks)
RING_CHUNK_SIZE = 64  # lines (ring_chunk_size); a pick takes half of it plus one
RING_SCOPE = 1024  # lines above the cursor an automatic request picks from (ring_scope)
MAX_QUEUED = 16  # queued chunks before the oldest is dropped (s:pick_chunk)
PICK_DISTANCE = 32  # an automatic request picks chunks when the cursor moved more lines
EVICT_SIMILAR = 0.9  # a new chunk evicts (or is refused by) chunks more similar than this
EVICT_CONTEXT = 0.5  # a request evicts ring chunks more similar than this to its surroundings
REPO_NAME = "myproject"  # llama.cpp's fixed project name (the profile writes its own)
CURRENT_FILE = "filename"  # llama.cpp's fixed name of the file being completed
_NON_WORD = re.compile(r"[^0-9A-Za-z_]+")  # Vim's \W+


@dataclass(frozen=True, slots=True)
class Chunk:
    data: tuple[str, ...]  # the chunk's lines
    filename: str  # the buffer it came from (expand('%'))

    @property
    def text(self) -> str:
        return "\n".join(self.data) + "\n"


@dataclass(slots=True)
class Ring:
    """llama.vim's ring buffer: ``chunks`` sent as input_extra, ``queued`` waiting."""

    chunks: list[Chunk] = field(default_factory=list)
    queued: list[Chunk] = field(default_factory=list)
    num_evicted: int = 0


def chunk_sim(c0: tuple[str, ...], c1: tuple[str, ...]) -> float:
    """s:chunk_sim: twice the tokens of ``c1`` found in ``c0``'s token set over both counts."""
    t0 = [t for t in _NON_WORD.split("\n".join(c0)) if t]
    t1 = [t for t in _NON_WORD.split("\n".join(c1)) if t]
    if not t0 and not t1:
        return 1.0
    set0 = set(t0)
    common = sum(1 for t in t1 if t in set0)
    return 2.0 * common / (len(t0) + len(t1))


def pick_chunk(
    ring: Ring, text: list[str], filename: str, rng: random.Random, *, do_evict: bool
) -> None:
    """s:pick_chunk: queue a chunk of ``text`` (lines): all of it when shorter than the chunk
    size, else ``RING_CHUNK_SIZE // 2 + 1`` lines from a random start (Vim's slices include their
    end). An equal chunk already held is not queued again; a similar one (over 0.9) is evicted
    when ``do_evict``, else the new one is dropped. The scan stops before index 0, as the
    plugin's ``range(len - 1, 0, -1)`` does."""
    if len(text) < 3:
        return
    half = RING_CHUNK_SIZE // 2
    if len(text) + 1 < RING_CHUNK_SIZE:
        lines = text
    else:
        l0 = rng.randint(0, max(0, len(text) - half))
        l1 = min(l0 + half, len(text))
        lines = text[l0 : l1 + 1]
    chunk = Chunk(tuple(lines), filename)
    if any(c.data == chunk.data for c in ring.chunks + ring.queued):
        return
    for held in (ring.queued, ring.chunks):
        for i in range(len(held) - 1, 0, -1):
            if chunk_sim(held[i].data, chunk.data) > EVICT_SIMILAR:
                if not do_evict:
                    return
                del held[i]
                ring.num_evicted += 1
    if len(ring.queued) == MAX_QUEUED:
        del ring.queued[0]
    ring.queued.append(chunk)


def ring_update(ring: Ring) -> None:
    """s:ring_update, run until the queue is empty (the user paused: one a second)."""
    while ring.queued:
        if len(ring.chunks) == RING_N_CHUNKS:
            del ring.chunks[0]
        ring.chunks.append(ring.queued.pop(0))


def around(lines: list[str], line: int) -> list[str]:
    """The lines the plugin's BufEnter/BufLeave/BufWritePost take: ``RING_CHUNK_SIZE // 2``
    either side of ``line`` (0-based)."""
    half = RING_CHUNK_SIZE // 2
    return lines[max(0, line - half) : min(line + half, len(lines) - 1) + 1]


def fill_ring(peer: PeerInput, rng: random.Random) -> Ring:
    """The ring at the point: the session's files entered (and saved where edited), then the
    point's file entered and an automatic request's picks at the cursor, queue drained."""
    ring = Ring()
    point, lines = peer.point, peer.lines
    if peer.session is not None:
        last_edit: dict[str, int] = {}
        for edit in peer.session.recent_edits:
            last_edit[edit.path] = max(edit.start_line, edit.end_line - 1)
        for path, text in peer.session.open_files:
            if path == point.path:
                continue
            file_lines = text.split("\n")
            pick_chunk(ring, around(file_lines, 0), path, rng, do_evict=True)  # BufEnter
            if path in last_edit:  # BufWritePost at the last edit, then BufLeave
                pick_chunk(ring, around(file_lines, last_edit[path]), path, rng, do_evict=True)
            ring_update(ring)
    y = point.line  # 0-based; the plugin's l:pos_y is 1-based
    pick_chunk(ring, around(lines, y), point.path, rng, do_evict=True)  # BufEnter
    # an automatic request more than PICK_DISTANCE lines from the last pick (s:pos_y_pick
    # starts at -9999: the first one at the point) picks beyond the local context
    top = lines[max(0, y - RING_SCOPE) : max(1, y + 1 - N_PREFIX)]
    pick_chunk(ring, top, point.path, rng, do_evict=False)
    last = len(lines) - 1
    below = lines[min(last, y + N_SUFFIX) : min(last, y + N_SUFFIX + RING_CHUNK_SIZE) + 1]
    pick_chunk(ring, below, point.path, rng, do_evict=False)
    ring_update(ring)
    # the request itself: evict chunks too similar to a random chunk around the cursor
    near = around(lines, y)
    half = RING_CHUNK_SIZE // 2
    l0 = rng.randint(0, max(0, len(near) - half))
    context = near[l0 : min(l0 + half, len(near)) + 1]
    for i in range(len(ring.chunks) - 1, 0, -1):
        if chunk_sim(ring.chunks[i].data, tuple(context)) > EVICT_CONTEXT:
            del ring.chunks[i]
            ring.num_evicted += 1
    return ring


def local_context(peer: PeerInput) -> tuple[str, str, str]:
    """s:fim_ctx_local: (input_prefix, prompt, input_suffix) by lines. The cursor line's
    indentation stays in ``prompt`` (the plugin drops a whitespace-only line's and re-indents on
    accept; kept here so the completion inserts at the cursor as every mode's does)."""
    point, lines = peer.point, peer.lines
    y = point.line
    cur = lines[y]
    prefix = "\n".join(lines[max(0, y - N_PREFIX) : y]) + "\n"
    middle = cur[: point.column]
    suffix = cur[point.column :] + "\n" + "\n".join(lines[y + 1 : y + 1 + N_SUFFIX]) + "\n"
    return prefix, middle, suffix


def build_llamavim(peer: PeerInput) -> tuple[PromptParts, int]:
    """The llamavim prompt of ``peer.point`` and its token count as the server would count it
    (the FIM markers included)."""
    rng = random.Random(f"llamavim:{peer.seed}:{peer.point.id}")
    ring = fill_ring(peer, rng)
    counter = peer.counter
    prefix, middle, suffix = local_context(peer)
    n_batch = peer.budget // 2
    n_prompt = counter.count(middle)
    prefix = cut_tail(prefix, 3 * (n_batch // 4), counter)
    suffix = cut_head(suffix, max(0, n_batch // 4 - (2 + n_prompt)), counter)
    # the server's batch holds the prefix, prompt, suffix and two markers; the middle marker
    # is the one token more the chunks leave
    snippets, n_extra = fit_extra(ring.chunks, peer.budget - n_batch - 1, counter)
    parts = PromptParts(
        path=CURRENT_FILE, language=peer.point.language, snippets=snippets,
        prefix=prefix + middle, suffix=suffix,
    )
    n_local = counter.count(prefix) + n_prompt + counter.count(suffix) + 3  # FIM markers
    return parts, n_local + n_extra


def fit_extra(
    chunks: list[Chunk], room: int, counter: TokenCounter
) -> tuple[tuple[ContextSnippet, ...], int]:
    """The chunks as repo-level snippets within ``room`` tokens, the oldest dropped first and
    the oldest kept cut from its start at a line (the server cuts the token stream's start);
    returns them and their tokens with the repo header and the current file's separator."""
    fixed = 1 + counter.count(REPO_NAME + "\n") + 1 + counter.count(CURRENT_FILE + "\n")
    costs = [1 + counter.count(c.filename + "\n") + counter.count(c.text) for c in chunks]
    if not chunks or fixed >= room:
        return (), 0
    total, first = fixed + sum(costs), 0
    while first < len(chunks) and total > room:
        total -= costs[first]
        first += 1
    kept = list(chunks[first:])
    out = [ContextSnippet(path=c.filename, text=c.text[:-1]) for c in kept]
    if first > 0:  # part of the chunk before the kept ones, from a line start
        dropped = chunks[first - 1]
        left = room - total - 1 - counter.count(dropped.filename + "\n")
        if left > 0:
            part = cut_tail(dropped.text, left, counter)
            part = part[part.find("\n") + 1 :] if not part.startswith(dropped.data[0]) else part
            if part.strip():
                out.insert(0, ContextSnippet(path=dropped.filename, text=part.rstrip("\n")))
                total += 1 + counter.count(dropped.filename + "\n") + counter.count(part)
    return tuple(out), total
