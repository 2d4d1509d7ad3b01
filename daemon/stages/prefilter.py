"""Prefilter: what a ``complete`` asks, decided before anything else, and whether it needs the
engine at all (completions paused, or the type-through cache has the answer). Called by
``Service._complete`` (its stage 1) on the event loop, once per request."""

from __future__ import annotations

from dataclasses import dataclass

from daemon import protocol as p
from daemon.completion_cache import CacheHit, CompletionCache
from daemon.documents import offset_of
from engine.blocks import decide_multiline


@dataclass(frozen=True, slots=True)
class PrefilterInput:
    """A ``complete`` request on its document, as it arrived."""

    path: str  # normalised document path
    text: str  # the document's text at arrival
    line: int  # cursor line, 0-based
    col: int  # cursor column, 0-based, in code points
    language: str  # the document's language
    options: p.CompleteOptions  # the request's options
    paused: bool  # config completion.paused
    default_max_tokens: int  # config completion.max_tokens, for options.max_tokens None
    cache: CompletionCache  # the type-through cache (read only here)


@dataclass(frozen=True, slots=True)
class Prefiltered:
    """What the request asks, and the answer when it needs no engine."""

    paused: bool  # completions are paused: answer "paused", nothing else was decided
    offset: int = 0  # of the cursor in the text
    prefix: str = ""  # the text before the cursor
    suffix: str = ""  # the text after the cursor
    multiline: bool = False  # the line mode ("auto" decided from the cursor's line)
    max_tokens: int = 0  # the token cap
    # (path, prefix, suffix, ask): the completion cache's key (ask: line mode / token cap)
    cache_key: tuple[str, str, str, str] = ("", "", "", "")
    hit: CacheHit | None = None  # the cache's answer (None: a miss)


def prefilter(inp: PrefilterInput) -> Prefiltered:
    """Decide the cursor offset (InputError when outside the text), the line mode and the token
    cap, and look the request up in the completion cache (not when completions are paused)."""
    offset = offset_of(inp.text, inp.line, inp.col)
    if inp.paused:
        return Prefiltered(paused=True)
    prefix, suffix = inp.text[:offset], inp.text[offset:]
    opts = inp.options
    max_tokens = opts.max_tokens or inp.default_max_tokens
    # what else shapes the answer: the line mode (auto decided as it will be, from the
    # cursor's line and the one above) and the token cap
    multiline = (decide_multiline(prefix, suffix, inp.language) if opts.multiline == "auto"
                 else bool(opts.multiline))
    ask = f"{multiline}/{max_tokens}"
    return Prefiltered(
        paused=False, offset=offset, prefix=prefix, suffix=suffix, multiline=multiline,
        max_tokens=max_tokens, cache_key=(inp.path, prefix, suffix, ask),
        hit=inp.cache.lookup(inp.path, prefix, suffix, ask))
