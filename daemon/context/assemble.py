"""``assemble_context``: the token-budgeted context for one completion point.

The pipeline, pure from data in to data out:
split at the cursor -> current-file candidates (anchored window, suffix, enclosing code, head,
outline of the rest) -> cross-file candidates (related definitions, similar windows, edit
history) -> fit the budget (``budget.fit_budget``) -> segments in stable-first prompt order.

Stable first (design.md §7). Layout "stable" ("auto" at budgets up to ``stable_max_budget``): a
file block (head and skeleton of the file's definitions, cut to ``file_block_share`` of the
budget, ``fast_file_block_share`` at a fast tier's) that is the same for every cursor position
in a file version, then what depends on the cursor, each as prefix text: cross-file snippets as
comments, enclosing code, the cursor window; the rest of the budget is shared among these as
usual. A cursor move then re-prefills only what follows the file block. Layout "cursor" ("auto"
above that budget): snippets before the file, then the current file from its head to the cursor
with the rest of the file outlined around the cursor. In both, only the cursor line and the
short suffix change per keystroke, so the engine reuses the KV cache of everything before them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from app.config import ContextConfig
from daemon.context.budget import (
    MAX_CHARS_PER_TOKEN,
    Candidate,
    allowances,
    count_within,
    fit_budget,
)
from daemon.context.candidates import CandidateBuilder, HistorySource
from daemon.context.types import AssembledContext, ContextRequest, DroppedSegment, Kind
from daemon.context.window import (
    CursorParts,
    head_end,
    split_at_cursor,
    suffix_cap,
    suffix_lines,
    suffix_text,
)
from daemon.documents import offset_of
from daemon.import_names import import_module_at, module_names
from daemon.index import IndexSnapshot, ProjectIndex
from daemon.languages import detect_language
from daemon.parse import summarize
from daemon.skeleton import Outline
from daemon.symbols import FileSummary
from daemon.tokens import CharEstimator
from engine.base import TokenCounter

WIDEN_MIN_TOKENS = 48  # leftover budget worth a second pass with a wider cursor window
WIDEN_LINES_FACTOR = 4  # how far up the widened window may reach, in cursor_lines_before
# leftover worth a third pass when the widened window covered the enclosing function's parts
REWIDEN_MIN_TOKENS = 8
_SHOWN = (Kind.CURSOR_WINDOW, Kind.SUFFIX)
_ENCLOSING = (Kind.ENCLOSING,)

__all__ = [
    "HistorySource",
    "assemble_context",
    "expected_suffix_tokens",
    "stable_text",
    "summarize_stable",
]


def assemble_context(
    request: ContextRequest,
    *,
    index: ProjectIndex | IndexSnapshot | None = None,
    history: HistorySource | None = None,
    counter: TokenCounter | None = None,
    config: ContextConfig | None = None,
    recent: Sequence[tuple[str, str]] = (),
    summary: FileSummary | None = None,
) -> AssembledContext:
    """Assemble the prompt context for ``request`` within ``request.budget_tokens``.

    ``index`` gives cross-file definitions, ``history`` the edit summary, ``recent`` the
    (path, text) of recently edited or opened files for similar-window retrieval, ``summary``
    a ready ``summarize_stable`` of the request (made here when None). Raises CursorError when the
    cursor is outside the text. Never returns more than ``budget_tokens`` tokens.
    """
    started = time.perf_counter()
    config = config or ContextConfig()
    language = request.language or detect_language(request.path)
    counter = counter or CharEstimator(language)
    parts = split_at_cursor(request.text, request.line, request.column)
    if summary is None:
        summary = summarize_stable(request.path, request.text, request.line, language)
    budget = request.budget_tokens
    stable = uses_stable_layout(config, budget)
    outlines: dict[frozenset[str], Outline] = {}  # made once, shared by the builders below
    block: Candidate | None = None
    head_stop = head_end(summary, parts.lines) if stable else 0
    if stable:
        block = _builder(
            request, language, parts, summary, index, counter, config, {}, outlines
        ).file_block(int(budget * file_block_share(config, budget)), head_stop)

    whole_tokens = _whole_file_tokens(request, config, counter)

    def fit(rest: int) -> tuple[list[Candidate], list[DroppedSegment], int]:
        """The cursor-dependent parts (all of them in the "cursor" layout) in ``rest`` tokens,
        and the first line of the cursor window."""
        s = config.shares
        allow = allowances(
            rest,
            {
                "cursor": s.cursor,
                "enclosing": s.enclosing,
                "related": s.related,
                "retrieval": s.retrieval,
                "history": s.history,
                "instructions": s.instructions,
            },
        )
        builder = _builder(
            request, language, parts, summary, index, counter, config, allow, outlines
        )

        def build(
            cursor_allow: int, lines_before: int, whole: bool = False
        ) -> tuple[list[Candidate], list[DroppedSegment], int]:
            window = builder.window(cursor_allow, lines_before, whole=whole)
            enclosing = builder.enclosing(window.shown_from)
            candidates = [
                builder.instructions(),
                *window.candidates,
                *enclosing.candidates,
                *(() if stable else builder.current_file(window, enclosing)),
                *builder.related(window, enclosing),
                *builder.retrieved(window, recent),
                *builder.history(window, history),
            ]
            kept, dropped = fit_budget(candidates, rest, allow, counter)
            return kept, dropped, window.start

        if _fits_whole(whole_tokens, rest, config):
            kept, dropped, start = build(rest - allow["instructions"], len(parts.lines), True)
            if start == 0 and not any(d.kind is Kind.CURSOR_WINDOW for d in dropped):
                return kept, dropped, start
        kept, dropped, start = build(allow["cursor"], config.cursor_lines_before)
        leftover = rest - _tokens(kept)
        if leftover >= WIDEN_MIN_TOKENS and start > 0:
            # budget left over: widen the cursor window upwards and assemble again, into what
            # the window and suffix took plus the leftover (their one token of slack each)
            reach = config.cursor_lines_before * WIDEN_LINES_FACTOR
            first = kept
            kept, dropped, start = build(_tokens(kept, _SHOWN) + leftover - 2, reach)
            leftover = rest - _tokens(kept)
            covered = _tokens(kept, _ENCLOSING) < _tokens(first, _ENCLOSING)
            if covered and leftover >= REWIDEN_MIN_TOKENS and start > 0:
                # the wider window covers the enclosing function the first pass showed apart
                # (its header and body above the window): give the window what they took
                kept, dropped, start = build(_tokens(kept, _SHOWN) + leftover - 2, reach)
        return kept, dropped, start

    if block is None:
        kept, dropped, _ = fit(budget)
    else:
        kept, dropped, start = fit(budget - block.segment.num_tokens)
        window_dropped = any(d.kind in (Kind.CURSOR_WINDOW, Kind.SUFFIX) for d in dropped)
        if window_dropped or start == 0 or start <= head_stop <= parts.line:
            # a budget too small for the block and the cursor window: the window wins; or the
            # window shows the file from its head on (its first line, or inside the licence
            # comment or the imports) down to the cursor below the head: the block would only
            # repeat it (hiredis's alloc.c and libevent.h showed every definition above the
            # cursor twice; a cursor in the head has a block without it). Assembled again
            # without it, the window may reach less far (the related definitions take the room)
            kept, dropped, _ = fit(budget)
            seg = block.segment
            reason = "over budget" if window_dropped else "the window shows the file's top"
            dropped.append(DroppedSegment(seg.kind, seg.tier, seg.source, seg.num_tokens, reason))
        else:
            kept = sorted([*kept, block], key=lambda c: c.order)
    segments = tuple(c.segment for c in kept)
    total = sum(seg.num_tokens for seg in segments)
    return AssembledContext(
        path=request.path,
        language=language,
        segments=segments,
        budget_tokens=budget,
        num_tokens=total,
        num_tokens_before_trim=total + sum(d.num_tokens for d in dropped),
        dropped=tuple(dropped),
        assemble_ms=(time.perf_counter() - started) * 1000.0,
        import_names=_import_names(index, request.path, parts.line_prefix, language),
    )


def _import_names(
    index: ProjectIndex | IndexSnapshot | None, path: str, line_prefix: str, language: str
) -> frozenset[str] | None:
    """``AssembledContext.import_names``: what the cursor line's ``from M import`` may take."""
    module = import_module_at(line_prefix, language) if index is not None else None
    if module is None or index is None:
        return None
    snapshot = index.snapshot() if isinstance(index, ProjectIndex) else index
    return module_names(snapshot, module, path)


def _tokens(kept: Sequence[Candidate], kinds: tuple[Kind, ...] | None = None) -> int:
    """Tokens of the kept candidates (of ``kinds`` only, when given)."""
    return sum(c.segment.num_tokens for c in kept if kinds is None or c.segment.kind in kinds)


def _whole_file_tokens(
    request: ContextRequest, config: ContextConfig, counter: TokenCounter
) -> int | None:
    """Tokens of the file when it may be shown whole (window from line 1, suffix to the end),
    None when it may not: ``whole_file_share`` off, a fast tier's budget (under
    ``whole_file_min_budget``), or surely too long. Counted without what is typed on the cursor
    line (the share leaves room for it), so typing does not flip the layout."""
    share = config.whole_file_share
    budget = request.budget_tokens
    if share <= 0 or budget < config.whole_file_min_budget:
        return None
    if len(request.text) > budget * share * MAX_CHARS_PER_TOKEN:
        return None  # not worth counting
    return counter.count(stable_text(request.text, request.line))


def _fits_whole(whole_tokens: int | None, room: int, config: ContextConfig) -> bool:
    """Whether a file of ``whole_tokens`` (None: may not be shown whole) is shown whole in
    ``room`` tokens."""
    return whole_tokens is not None and whole_tokens <= int(room * config.whole_file_share)


def expected_suffix_tokens(
    request: ContextRequest,
    config: ContextConfig,
    counter: TokenCounter | None = None,
    *,
    offset: int | None = None,
) -> int:
    """Tokens the prompt for ``request`` is expected to hold after the cursor: the rest of the
    file when the file is shown whole, else the short suffix (cursor line's rest and up to
    ``suffix_max_lines`` lines within ``suffix_share``). PSM puts the suffix after the typed
    text, so an engine prefills it again at every keystroke even for a warm document: the
    scheduler's cache hint counts it as uncached. An estimate, made before assembly (the budget
    is taken whole: the stable layout's file block is not subtracted). It runs on the daemon's
    request path: only the text after the cursor is split, and only as far as the suffix goes;
    ``offset``: the cursor's character offset when the caller has it (else found, and checked:
    CursorError when the cursor is outside the text). A suffix longer than the whole budget
    could hold (a huge line) gets a lower bound over the budget, not a tokenizer pass."""
    language = request.language or detect_language(request.path)
    counter = counter or CharEstimator(language)
    if offset is None:
        offset = offset_of(request.text, request.line, request.column)
    after = request.text[offset:]
    if _fits_whole(_whole_file_tokens(request, config, counter), request.budget_tokens, config):
        return counter.count(after)
    pieces = after.split("\n", config.suffix_max_lines + 1)
    lines = [piece + "\n" for piece in pieces[:-1]] + pieces[-1:]
    below = CursorParts(lines=lines, line=0, column=0, line_prefix="", line_suffix=lines[0])
    cap = suffix_cap(request.budget_tokens, config.suffix_share)
    n = suffix_lines(below, config.suffix_max_lines, cap, counter)
    return count_within(counter, suffix_text(below, n), request.budget_tokens)


def _builder(
    request: ContextRequest,
    language: str,
    parts: CursorParts,
    summary: FileSummary,
    index: ProjectIndex | IndexSnapshot | None,
    counter: TokenCounter,
    config: ContextConfig,
    allow: dict[str, int],
    outlines: dict[frozenset[str], Outline],
) -> CandidateBuilder:
    return CandidateBuilder(
        path=request.path,
        language=language,
        parts=parts,
        summary=summary,
        index=index.snapshot() if isinstance(index, ProjectIndex) else index,
        counter=counter,
        config=config,
        allow=allow,
        budget=request.budget_tokens,
        inline_snippets=uses_stable_layout(config, request.budget_tokens),
        outlines=outlines,
    )


def file_block_share(config: ContextConfig, budget: int) -> float:
    """The stable layout's file block share at ``budget``: ``fast_file_block_share`` at a fast
    tier's budget (under ``whole_file_min_budget``), else ``file_block_share``."""
    if budget < config.whole_file_min_budget:
        return config.fast_file_block_share
    return config.file_block_share


def uses_stable_layout(config: ContextConfig, budget: int) -> bool:
    """Whether ``config.layout`` means the stable layout at this budget."""
    if config.layout == "auto":
        return budget <= config.stable_max_budget
    return config.layout == "stable"


def stable_text(text: str, line: int) -> str:
    """``text`` with line ``line`` cut to its indentation: what is being typed is left out."""
    lines = text.split("\n")
    if 0 <= line < len(lines):
        current = lines[line]
        lines[line] = current[: len(current) - len(current.lstrip())]
    return "\n".join(lines)


def summarize_stable(path: str, text: str, line: int, language: str | None = None) -> FileSummary:
    """The summary the assembler works from: the document parsed without the cursor line.

    A half-typed line (``parse_row(``) makes the parser's error recovery move definition
    boundaries; without it, every keystroke on the line sees the same outline, so the prompt
    prefix stays the same. Callers cache it per document version and cursor line.
    """
    return summarize(path, stable_text(text, line), language, prose=True)
