"""Assemble: a started completion's (or warm-up's) context at its tier's budget, on a worker
thread (the event loop keeps serving), and the prompt parts the engine renders. Called by
``Service._assemble`` (stage 4 of ``Service._complete``) once the scheduler has started the
request."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from app.config import ContextConfig
from daemon.context.types import AssembledContext, ContextRequest
from daemon.documents import crop_around
from daemon.projects import Projects, assemble
from engine.base import PromptParts, TokenCounter
from engine.blocks import decide_multiline


@dataclass(frozen=True, slots=True)
class AssembleInput:
    """The document at the request's arrival, the budget its tier allows."""

    projects: Projects  # the roots' indexes and edit histories
    root: str  # the document's project root
    path: str  # the document's normalised path
    text: str  # the document's text at arrival
    line: int  # cursor line, 0-based
    col: int  # cursor column, 0-based
    language: str  # the document's language
    budget_tokens: int  # the tier's context budget
    context: ContextConfig  # config [context]
    counter: TokenCounter | None  # the engine's exact tokenizer (None: estimate)
    multiline: bool | None  # the request's line mode (None: decide from the prompt)


@dataclass(frozen=True, slots=True)
class AssembledPrompt:
    """The context and what the engine gets from it."""

    context: AssembledContext  # the segments, their tokens and what was dropped
    context_ms: float  # time the assembly took, the worker thread's wait included
    parts: PromptParts  # the prompt the engine's model profile renders
    multiline: bool  # the line mode: the request's, else decided from the prompt's cursor


def _assemble(inp: AssembleInput) -> AssembledContext:
    """On the worker thread: the context of the document cropped to
    ``context.max_assemble_chars`` around the cursor (a huge buffer's whole parse and summary
    held the engine's slot and, holding the GIL, the event loop for seconds)."""
    text, line, col = crop_around(inp.text, inp.line, inp.col, inp.context.max_assemble_chars)
    return inp.projects.assemble_for(assemble, ContextRequest(
        path=inp.projects.rel_path(inp.root, inp.path), text=text, line=line, column=col,
        language=inp.language, budget_tokens=inp.budget_tokens),
        inp.root, inp.context, inp.counter)


async def assemble_prompt(inp: AssembleInput) -> AssembledPrompt:
    """Assemble the context off the event loop (context.md) and group it into prompt parts."""
    t0 = time.monotonic()
    context = await asyncio.to_thread(_assemble, inp)
    context_ms = (time.monotonic() - t0) * 1000
    parts = context.to_prompt_parts()
    multiline = inp.multiline
    if multiline is None:
        multiline = decide_multiline(parts.prefix, parts.suffix, inp.language)
    return AssembledPrompt(context, context_ms, parts, multiline)
