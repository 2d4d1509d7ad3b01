"""The prompts compared by ``nospin eval``, one builder per mode.

- ``nospin``: the context assembler's prompt (``assemble_context``) for the buffer, with the
  corpus index (the document's entry replaced by the parse of the buffer without the cursor
  line, ``summarize_stable``, as the daemon parses it) and an empty edit
  history, within ``config.context.budget_tokens`` counted as the daemon counts them (the
  engine's exact tokenizer when it has one, else the character estimate) - what the daemon
  sends.
- ``naive_full``: the whole buffer as one PSM FIM prompt (prefix = all text before the cursor,
  suffix = all text after it), cut at line boundaries to the model's context (``n_ctx`` minus
  the output reserve); when it must be cut, the suffix keeps at most a quarter.
- ``naive_tail``: the text just before the cursor cut to nospin's budget (the same counter),
  from a line start,
  plus the same short suffix nospin uses (rest of the cursor line and
  ``config.context.suffix_max_lines`` lines), no cross-file context.
- ``llamavim``, ``continue``, ``tabby``: the context those tools build, at nospin's budget
  counted by the model's tokenizer (``peer_modes.build_peer_prompt``).

Every builder sees only the buffer (ground truth removed) and returns ``PromptParts`` plus the
time it took; nothing here talks to the engine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.config import ContextConfig
from app.evaluation import MODE_NAMES, PEER_MODES
from app.evaluation.corpus import buffer_in_index
from app.evaluation.sampling import EvalPoint
from daemon.context import ContextRequest, assemble_context, summarize_stable
from daemon.context.candidates import FORMAT_OVERHEAD
from daemon.context.window import split_at_cursor, suffix_cap, suffix_lines, suffix_text
from daemon.history import EditHistory
from daemon.index import ProjectIndex
from daemon.tokens import CharEstimator
from engine.base import PromptParts, TokenCounter

if TYPE_CHECKING:
    from app.evaluation.history import ReplayedPoint

MODES: tuple[str, ...] = MODE_NAMES


@dataclass(frozen=True, slots=True)
class BuiltPrompt:
    parts: PromptParts
    build_ms: float  # assembly (nospin) or cutting (naive modes)
    num_tokens_budgeted: int  # as the builder counted them (nospin: the assembler's estimate)
    # nospin: the names the cursor line's ``from M import`` may take (the daemon's
    # post-processing cuts an import list at a name outside them); None for the other modes
    import_names: frozenset[str] | None = None


def build_prompt(
    mode: str,
    point: EvalPoint,
    *,
    index: ProjectIndex,
    history: EditHistory,
    config: ContextConfig,
    exact: TokenCounter,
    max_prompt_tokens: int,
    budget_counter: TokenCounter | None = None,
    replayed: ReplayedPoint | None = None,
) -> BuiltPrompt:
    """The prompt of ``mode`` for ``point``. ``max_prompt_tokens`` bounds naive_full (exact);
    ``budget_counter`` counts the context budget of nospin and naive_tail (None: the assembler's
    character estimate, as the daemon does without an exact tokenizer). ``replayed``: the
    editor session of a point from history (nospin then assembles as the daemon does there:
    ``Projects.assemble_for`` with its open buffers, recently edited files and edit history;
    ``index`` and ``history`` are not used)."""
    counter = budget_counter or CharEstimator(point.language)
    started = time.perf_counter()
    import_names: frozenset[str] | None = None
    if mode == "nospin" and replayed is not None:
        ctx = replayed.replay.assemble(
            ContextRequest(
                path=point.path, text=point.buffer, line=point.line, column=point.column,
                language=point.language, budget_tokens=config.budget_tokens,
            ),
            config, counter,
        )
        parts, budgeted = ctx.to_prompt_parts(), ctx.num_tokens
        import_names = ctx.import_names
    elif mode == "nospin":
        # the buffer parsed without the cursor line, as the daemon parses it (daemon.projects)
        buffer_summary = summarize_stable(point.path, point.buffer, point.line, point.language)
        with buffer_in_index(index, point.path, buffer_summary):
            ctx = assemble_context(
                ContextRequest(
                    path=point.path, text=point.buffer, line=point.line, column=point.column,
                    language=point.language, budget_tokens=config.budget_tokens,
                ),
                index=index, history=history, counter=counter, config=config,
                summary=buffer_summary,
            )
        parts, budgeted = ctx.to_prompt_parts(), ctx.num_tokens
        import_names = ctx.import_names
    elif mode == "naive_full":
        prefix, suffix = _fit_full(point.before, point.after, max_prompt_tokens, exact)
        parts = _parts(point, prefix, suffix)
        budgeted = exact.count(prefix) + exact.count(suffix)
    elif mode == "naive_tail":
        cursor = split_at_cursor(point.buffer, point.line, point.column)
        n_suffix = suffix_lines(
            cursor, config.suffix_max_lines,
            suffix_cap(config.budget_tokens, config.suffix_share), counter,
        )
        suffix = suffix_text(cursor, n_suffix)
        room = config.budget_tokens - FORMAT_OVERHEAD - counter.count(suffix)
        prefix = _tail_from_line_start(point.before, max(0, room), counter)
        parts = _parts(point, prefix, suffix)
        budgeted = counter.count(prefix) + counter.count(suffix) + FORMAT_OVERHEAD
    elif mode in PEER_MODES:
        from app.evaluation.peer_modes import build_peer_prompt

        parts, budgeted = build_peer_prompt(
            mode, point, index=index, config=config, counter=budget_counter or exact,
            session=replayed.session if replayed is not None else None)
    else:
        raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    return BuiltPrompt(parts, (time.perf_counter() - started) * 1000.0, budgeted, import_names)


def _parts(point: EvalPoint, prefix: str, suffix: str) -> PromptParts:
    return PromptParts(
        path=point.path, language=point.language, snippets=(), prefix=prefix, suffix=suffix
    )


def _tail_from_line_start(text: str, budget: int, counter: TokenCounter) -> str:
    """The longest tail of ``text`` that starts at a line start (or is the cursor line's part)
    and fits ``budget`` tokens."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    lo, hi = 0, len(starts) - 1  # find the first line start whose tail fits
    while lo < hi:
        mid = (lo + hi) // 2
        if counter.count(text[starts[mid] :]) <= budget:
            hi = mid
        else:
            lo = mid + 1
    tail = text[starts[lo] :]
    return tail if counter.count(tail) <= budget else ""


def _head_to_line_end(text: str, budget: int, counter: TokenCounter) -> str:
    """The longest head of ``text`` that ends at a line end and fits ``budget`` tokens."""
    ends = [i + 1 for i, ch in enumerate(text) if ch == "\n"] + [len(text)]
    lo, hi = -1, len(ends) - 1  # find the last line end whose head fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if counter.count(text[: ends[mid]]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return text[: ends[lo]] if lo >= 0 else ""


def _fit_full(before: str, after: str, limit: int, counter: TokenCounter) -> tuple[str, str]:
    """The whole buffer as (prefix, suffix), cut at line boundaries to ``limit`` tokens."""
    n_before, n_after = counter.count(before), counter.count(after)
    if n_before + n_after <= limit:
        return before, after
    suffix = after if n_after <= limit // 4 else _head_to_line_end(after, limit // 4, counter)
    room = limit - counter.count(suffix)
    cursor_line = before[before.rfind("\n") + 1 :]
    head = before[: len(before) - len(cursor_line)]
    prefix = _tail_from_line_start(head, room - counter.count(cursor_line), counter)
    return prefix + cursor_line, suffix
