"""Pure logic of the exllamav2 engine: no torch, no exllamav2, testable on any machine.

The GPU shell (``engine/exllama.py``) owns the model, the cache and the dynamic generator and calls
``iterate()`` on its engine thread; everything that decides something lives here and takes plain
data:

- ``plan_generator``: paged or not, batch size, cache and sequence lengths, from what the library
  reports (flash-attn >= 2.5.7 present or not) and the configuration.
- ``prompt_pieces``: a request's prompt as a model profile's pieces, the blanks and partial word
  at the prefix's end cut (token healing, as the llamacpp engine does; the job's filter makes
  the model spell them first, ``handle_result`` removes them from the start of the output);
  ``render_token_ids``: pieces to token ids, piece by piece (special
  markers by id, source text encoded as plain text).
- the streamed text goes through ``engine.stream_filter.StreamFilter``, as in the other engines
  (stop strings, single line, block end, repetition; text that could still become a stop string
  is held back).
- ``handle_result`` / ``finish_request``: one generator result dict (or a cancelled job's
  snapshot, shaped the same way) to ``TextChunk``/``Finished`` events and ``GenerationStats``.
- when to speculate is ``engine.speculation.SpeculationGovernor``, shared with the llamacpp
  engine (design.md §3: below 0.4 speculation only adds latency).

Result dicts are those of exllamav2 0.3.2's ``ExLlamaV2DynamicGenerator.iterate()``
(exllamav2/generator/dynamic.py): ``stage`` ("started" | "prefill" | "streaming"), ``identifier``,
``eos``, ``text`` (only when there is new text), and on ``eos``: ``eos_reason`` ("stop_token" |
"stop_string" | "max_new_tokens" | "end_filter"), ``new_tokens``, ``prompt_tokens``,
``cached_tokens``, ``time_enqueued``, ``time_prefill``, ``time_generate`` (seconds), and with a
draft model ``accepted_draft_tokens`` / ``rejected_draft_tokens``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from app.errors import EngineError, InputError, ModelError, NospinError
from engine.base import (
    EngineEvent,
    EventSink,
    Finished,
    FinishReason,
    GenerationRequest,
    GenerationStats,
    TextChunk,
)
from engine.blocks import request_block
from engine.healing import heal_start, split_heal, split_trailing_blanks
from engine.profiles import ModelProfile, Piece, Pieces
from engine.stream_filter import StreamFilter

# exllamav2's dynamic generator pages the cache in blocks of this many tokens
# (dynamic.PAGED_PAGE_SIZE); the cache length must be a multiple of it in every mode.
PAGE_SIZE = 256
# Cache lengths are rounded to this: a multiple of PAGE_SIZE that every Q8 cache's q_block
# (a power of two up to 512, cache.py) divides, so the model and draft caches come out the same
# length, as the generator asserts.
CACHE_ALIGN = 512
# The generator's default max_q_size (tokens evaluated per sequence per step).
DEFAULT_MAX_Q_SIZE = 8
# ExLlamaV2Config.max_input_len default (longest forward pass; also the prefill chunk).
MAX_INPUT_LEN = 2048
# Upper bound on the paged cache (tokens shared by all running jobs), so that a large max_batch
# times n_ctx does not ask for more KV memory than a workstation card has.
MAX_CACHE_TOKENS = 65_536

# eos_reason of a generator result -> our finish reason
EOS_REASONS: dict[str, FinishReason] = {
    "stop_token": FinishReason.STOP,
    "stop_string": FinishReason.STOP,
    "max_new_tokens": FinishReason.LENGTH,
    "end_filter": FinishReason.STOP,
}


# --------------------------------------------------------------------------- generator plan


@dataclass(frozen=True, slots=True)
class GeneratorPlan:
    """How the dynamic generator is built; decided once at load."""

    paged: bool  # paged attention (flash-attn >= 2.5.7): continuous batching
    max_batch_size: int  # jobs run at once (1 when not paged)
    max_seq_len: int  # model's context length as configured (multiple of PAGE_SIZE)
    cache_tokens: int  # cache length shared by all jobs (multiple of PAGE_SIZE)
    max_q_size: int  # tokens per sequence per forward; must hold 1 + num_draft_tokens
    num_draft_tokens: int  # 0 without a draft model
    note: str  # one line for logs and stats: why this plan


def _round_up(n: int, multiple: int) -> int:
    return (n + multiple - 1) // multiple * multiple


def plan_generator(
    *,
    n_ctx: int,
    model_max_seq_len: int,
    max_batch: int,
    paged_attention: bool,
    num_draft_tokens: int,
) -> GeneratorPlan:
    """Decide paged mode, batch size and lengths.

    ``paged_attention`` is exllamav2's ``attn.has_flash_attn_with_paged`` (flash-attn >= 2.5.7
    installed) and not ``config.no_flash_attn``. Without it the generator must run unpaged, where
    its only cache page is the whole cache and one job runs at a time.
    """
    seq_len = min(n_ctx, model_max_seq_len) if model_max_seq_len > 0 else n_ctx
    seq_len = max(PAGE_SIZE, _round_up(seq_len, PAGE_SIZE))
    max_q = max(DEFAULT_MAX_Q_SIZE, num_draft_tokens + 1)
    if paged_attention:
        # The generator asserts max_q_size * max_batch_size <= the model's max_input_len, which
        # load_autosplit sets to min(2048, max_seq_len).
        batch = max(1, min(max_batch, min(MAX_INPUT_LEN, seq_len) // max_q))
        cache = min(seq_len * batch, max(seq_len, MAX_CACHE_TOKENS))
        cache = _round_up(cache, CACHE_ALIGN)
        note = f"paged: up to {batch} jobs at once in a {cache}-token cache"
        return GeneratorPlan(True, batch, seq_len, cache, max_q, num_draft_tokens, note)
    note = "unpaged: flash-attn >= 2.5.7 not available, one job at a time"
    cache = _round_up(seq_len, CACHE_ALIGN)
    return GeneratorPlan(False, 1, seq_len, cache, max_q, num_draft_tokens, note)


def job_max_new_tokens(requested: int, num_draft_tokens: int) -> int:
    """``max_new_tokens`` to give an ExLlamaV2DynamicJob.

    The generator ends a job at ``max_new_tokens - num_draft_tokens`` (dynamic.py,
    ``receive_sample``), so ask for the draft length on top.
    """
    return max(1, requested) + num_draft_tokens


def stop_token_ids(
    eos_token_id: int | None,
    extra_eos_ids: Iterable[int] | None,
    profile_stop_ids: Iterable[int | None],
) -> list[int]:
    """Token ids that end a job: EOS, generation_config's EOS list, the profile's stop tokens."""
    out: list[int] = []
    for tid in [eos_token_id, *(extra_eos_ids or ()), *profile_stop_ids]:
        if tid is not None and tid >= 0 and tid not in out:
            out.append(tid)
    return out


# --------------------------------------------------------------------------- prompt rendering


class PieceLike(Protocol):
    """engine.profiles.Piece: a special marker or plain text."""

    @property
    def text(self) -> str: ...

    @property
    def is_special(self) -> bool: ...


def render_token_ids(
    pieces: Sequence[PieceLike],
    *,
    encode_text: Callable[[str], list[int]],
    special_id: Callable[[str], int | None],
    bos_id: int | None = None,
) -> list[int]:
    """Token ids of a rendered prompt, built piece by piece.

    Special pieces become exactly one id (``special_id``; a marker the vocabulary lacks is a
    ModelError: the profile does not fit the model). Text pieces go through ``encode_text``, which
    must treat marker strings in source as text. ``bos_id`` is put first when given.
    """
    ids: list[int] = [bos_id] if bos_id is not None else []
    for piece in pieces:
        if piece.is_special:
            tid = special_id(piece.text)
            if tid is None:
                raise ModelError(
                    f"the model's vocabulary has no special token {piece.text!r}; "
                    "set engine.model_profile to the profile of this model family"
                )
            ids.append(tid)
        elif piece.text:
            ids.extend(encode_text(piece.text))
    return ids


def strip_markers(text: str, markers: Iterable[str]) -> str:
    """Remove special-token strings from source text (fallback when a tokenizer cannot be told to
    encode them as plain text)."""
    for marker in sorted(set(markers), key=len, reverse=True):
        if marker and marker in text:
            text = text.replace(marker, "")
    return text


# --------------------------------------------------------------------------- per-request state


@dataclass(slots=True)
class RequestState:
    """Book-keeping of one request on the engine thread."""

    request: GenerationRequest
    sink: EventSink
    submitted_at: float  # time.monotonic() at submit()
    stream: StreamFilter
    seq: int = 0  # submission order, for fair ordering within a priority
    started_at: float | None = None  # monotonic, when the engine handed it to the generator
    first_text_at: float | None = None  # monotonic, first non-empty TextChunk
    speculation_used: bool = False  # the job ran with the draft model
    speculation_note: str = ""
    num_prompt_tokens: int = 0  # known once rendered
    finished: bool = False
    heal: str = ""  # text cut from the prompt's end (prompt_pieces) not yet seen in the output

    @classmethod
    def create(
        cls,
        request: GenerationRequest,
        sink: EventSink,
        *,
        submitted_at: float,
        seq: int = 0,
        extra_stops: Iterable[str] = (),
    ) -> RequestState:
        stream = StreamFilter(
            stop=tuple(dict.fromkeys(s for s in (*request.stop, *extra_stops) if s)),
            single_line=request.single_line,
            block=request_block(request),
        )
        return cls(request, sink, submitted_at, stream, seq=seq)

    @property
    def sort_key(self) -> tuple[int, int]:
        """Order of the waiting list: interactive first, then submission order."""
        return (int(self.request.priority), self.seq)

    def past_deadline(self, now: float) -> bool:
        deadline = self.request.deadline
        return deadline is not None and now >= deadline


@dataclass(slots=True)
class Step:
    """What the engine thread must do after handling one result."""

    events: list[EngineEvent] = field(default_factory=list)
    finished: bool = False  # the request is over (its Finished is in events)
    cancel_job: bool = False  # the job is still in the generator: cancel it


def prompt_pieces(
    profile: ModelProfile, request: GenerationRequest, *, healing: bool = False
) -> tuple[Pieces, str]:
    """The request's prompt as ``profile``'s pieces, and the text cut from its prefix's end.

    Spaces or tabs at the end of the prefix (after ``return ``, an indent) are cut, as the
    llamacpp and remote engines do (``split_trailing_blanks``): a prompt that ends in a lone
    space token leads the model astray, and the model writes the blanks again itself. With
    ``healing`` (``engine.token_healing``) a partial word at the end is cut too
    (``split_heal``); the job's filter then makes the model spell it first (``engine.steering``).
    ``handle_result`` removes the cut text from the start of the output (``RequestState.heal``).
    """
    if request.prompt is None:
        return (Piece(request.prompt_text or ""),), ""
    split = split_heal if healing else split_trailing_blanks
    prefix, heal = split(request.prompt.prefix)
    parts = replace(request.prompt, prefix=prefix) if heal else request.prompt
    return profile.render(parts), heal


def handle_result(state: RequestState, result: Mapping[str, Any], now: float) -> Step:
    """Map one ``iterate()`` result of this request's job to events.

    ``now`` is time.monotonic(). A stop found by the stream filter finishes the request and
    asks for the job to be cancelled; an ``eos`` result finishes it with the mapped reason.
    """
    step = Step()
    if state.finished:
        return step
    stage = result.get("stage")
    if stage == "started":
        if state.started_at is None:
            state.started_at = now
        return step
    if stage != "streaming":
        return step  # "prefill": progress only
    rid = state.request.request_id
    if not state.request.prefill_only:
        text = str(result.get("text", "") or "")
        if state.heal and text:
            text, state.heal = heal_start(text, state.heal)
        shown, stop = state.stream.push(text)
        if shown:
            if state.first_text_at is None:
                state.first_text_at = now
            step.events.append(TextChunk(rid, shown))
        if stop is not None:
            step.events.append(finish_request(state, stop, result, now))
            step.finished = True
            step.cancel_job = not bool(result.get("eos"))
            return step
    if result.get("eos"):
        if state.request.prefill_only:
            reason = FinishReason.PREFILLED
        else:
            reason = EOS_REASONS.get(str(result.get("eos_reason", "")), FinishReason.STOP)
        step.events.extend(finish_events(state, reason, result, now))
        step.finished = True
    return step


def finish_events(
    state: RequestState,
    reason: FinishReason,
    fields: Mapping[str, Any],
    now: float,
    *,
    error: NospinError | None = None,
) -> list[EngineEvent]:
    """Events that end a request at a natural end, cancel, deadline or error.

    Held text is released first (as a TextChunk) unless the request is being cancelled or failed,
    so the chunks always add up to ``Finished.text``.
    """
    events: list[EngineEvent] = []
    flush = reason not in (FinishReason.CANCELLED, FinishReason.ERROR, FinishReason.PREFILLED)
    if flush and not state.request.prefill_only:
        rest = state.stream.flush()
        if rest:
            if state.first_text_at is None:
                state.first_text_at = now
            events.append(TextChunk(state.request.request_id, rest))
    events.append(finish_request(state, reason, fields, now, error=error))
    return events


def finish_request(
    state: RequestState,
    reason: FinishReason,
    fields: Mapping[str, Any],
    now: float,
    *,
    error: NospinError | None = None,
) -> Finished:
    """The Finished event; ``fields`` is an eos result or a job snapshot with the same keys."""
    state.finished = True
    stream = state.stream
    text = "" if state.request.prefill_only else stream.text[: stream.emitted]
    stats = stats_from_fields(state, fields, now)
    if error is not None:
        return Finished(
            state.request.request_id,
            FinishReason.ERROR,
            text,
            stats,
            error=str(error),
            error_code=error.code,
        )
    return Finished(state.request.request_id, reason, text, stats)


def _num(fields: Mapping[str, Any], key: str) -> float:
    value = fields.get(key)
    if value is None:
        return 0.0
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def stats_from_fields(
    state: RequestState, fields: Mapping[str, Any], now: float
) -> GenerationStats:
    """GenerationStats from generator figures (seconds) and our own clock (monotonic)."""
    accepted = int(_num(fields, "accepted_draft_tokens"))
    rejected = int(_num(fields, "rejected_draft_tokens"))
    started = state.started_at
    prompt_tokens = int(_num(fields, "prompt_tokens")) or state.num_prompt_tokens
    return GenerationStats(
        num_prompt_tokens=prompt_tokens,
        num_cached_tokens=min(int(_num(fields, "cached_tokens")), prompt_tokens),
        num_generated_tokens=max(0, int(_num(fields, "new_tokens"))),
        prefill_ms=_num(fields, "time_prefill") * 1000.0,
        decode_ms=_num(fields, "time_generate") * 1000.0,
        first_token_ms=(
            (state.first_text_at - state.submitted_at) * 1000.0 if state.first_text_at else 0.0
        ),
        total_ms=(now - state.submitted_at) * 1000.0,
        queue_ms=((started if started is not None else now) - state.submitted_at) * 1000.0,
        num_draft_tokens=accepted + rejected,
        num_draft_accepted=accepted,
        num_draft_rejected=rejected,
        speculation_used=state.speculation_used,
        speculation_note=state.speculation_note,
    )


def error_for(exc: BaseException) -> NospinError:
    """Our error for a failure while serving a request (library errors become EngineError)."""
    if isinstance(exc, NospinError):
        return exc
    return EngineError(f"exllamav2 failed: {type(exc).__name__}", detail=str(exc)[:300])


def check_prompt_fits(num_prompt: int, job_new_tokens: int, max_seq_len: int) -> None:
    """Raise InputError when the prompt plus output cannot fit one sequence."""
    if num_prompt == 0:
        raise InputError("empty prompt")
    if num_prompt + job_new_tokens > max_seq_len:
        raise InputError(
            f"prompt of {num_prompt} tokens plus {job_new_tokens} new tokens exceeds the "
            f"context of {max_seq_len} tokens"
        )
