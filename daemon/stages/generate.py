"""Generate: the engine's ``GenerationRequest`` for a started request. ``Service._generation``
builds it and ``Service._submit`` submits it (``Engine.submit``; stage 5 of
``Service._complete``); the engine streams its events back to the event loop."""

from __future__ import annotations

from dataclasses import dataclass

from daemon.scheduler import StartInstruction
from engine.avoid import placeholder_starts
from engine.base import GenerationRequest, Priority, PromptParts
from engine.blocks import mid_line


@dataclass(frozen=True, slots=True)
class GenerateInput:
    """A completion (or warm-up) the scheduler started, with its prompt."""

    key: str  # the request's internal id
    parts: PromptParts  # the assembled prompt
    start: StartInstruction  # the scheduler's tier, token cap, deadline, speculation
    multiline: bool  # the request's line mode
    language: str  # the document's language
    warmup: bool  # a background warm-up: prefill only
    speculation: bool  # config engine.speculation
    cache_key: str  # the engine's KV-state key: the document path


def generation_request(inp: GenerateInput) -> GenerationRequest:
    """The engine request of a completion or warm-up."""
    s = inp.start
    return GenerationRequest(
        request_id=inp.key, prompt=inp.parts, max_new_tokens=max(1, s.max_new_tokens),
        single_line=not inp.multiline, deadline=s.deadline,
        # mid-line, a line break ends it (postprocess shows nothing after one)
        stop=("\n",) if not inp.multiline and mid_line(inp.parts.suffix) else (),
        priority=Priority.BACKGROUND if inp.warmup else Priority.INTERACTIVE,
        speculation=s.speculation and inp.speculation,
        prefill_only=inp.warmup, cache_key=inp.cache_key,
        avoid_starts=placeholder_starts(inp.parts.prefix, inp.language)
        if inp.multiline else ())


def conversation_request(key: str, prompt: str, start: StartInstruction, *,
                         max_new_tokens: int) -> GenerationRequest:
    """The engine request of a ``generate`` round: tiers cap completions; a conversation round
    gets its tokens until its deadline."""
    return GenerationRequest(
        request_id=key, prompt_text=prompt, max_new_tokens=max_new_tokens,
        stop=("```",), deadline=start.deadline, speculation=start.speculation)
