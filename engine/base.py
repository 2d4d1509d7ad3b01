"""The one engine interface every backend implements (llamacpp, exllamav2, remote).

Threading contract: a backend does all model work on its own engine thread. ``submit`` and
``cancel`` may be called from any thread and return at once; results arrive through the
``EventSink`` callback, called on the engine thread (callers hop to their own loop, e.g. with
``loop.call_soon_threadsafe``). Every submitted request ends with exactly one ``Finished`` event,
whatever happens (error, cancel, deadline): no request is ever left hanging.
"""

from __future__ import annotations

import enum
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


class TokenCounter(Protocol):
    """Counts tokens of a text; the engine's exact tokenizer or a calibrated estimator."""

    def count(self, text: str) -> int: ...


class Priority(enum.IntEnum):
    INTERACTIVE = 0  # an editor is waiting
    BACKGROUND = 1  # warm-up, prefetch: yields to interactive work


class FinishReason(enum.Enum):
    """Why a generation ended; the one table of finish reasons."""

    STOP = "stop"  # a stop string or the end-of-text token
    LENGTH = "length"  # max_new_tokens reached
    NEWLINE = "newline"  # single-line completion reached the end of its line
    REPETITION = "repetition"  # degenerate repetition detected
    CANCELLED = "cancelled"  # cancelled or superseded
    DEADLINE = "deadline"  # deadline passed; what was generated so far is kept
    PREFILLED = "prefilled"  # a prefill-only (warm-up) request finished
    ERROR = "error"  # the backend failed; see Finished.error


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a backend can do, declared by the backend, never guessed by callers."""

    fim: bool  # understands fill-in-the-middle prompts (prefix + suffix)
    speculation: bool  # has a draft model or prompt lookup configured and usable
    batching: bool  # runs several generations at once
    max_batch: int  # 1 when batching is False
    exact_tokenizer: bool  # count_tokens is the model's own tokenizer
    kv_state_cache: bool  # keeps KV states of recent documents for fast switching
    n_ctx: int  # context length in tokens
    # a prefill stopped part-way keeps what it evaluated, and the next request whose prompt
    # starts the same goes on from there (one sequence with prefix reuse): a completion can
    # take over its document's warm-up instead of waiting for it (daemon.scheduler)
    resumable_prefill: bool = False


@dataclass(frozen=True, slots=True)
class ContextSnippet:
    """A piece of cross-file context (definitions, similar code, edit history) for the prompt."""

    path: str  # project-relative path it came from; "" for edit history or notes
    text: str  # source text or summary; never contains secrets beyond the user's own code


@dataclass(frozen=True, slots=True)
class PromptParts:
    """What the context assembler hands the engine; the model profile renders it."""

    path: str  # project-relative path of the document being completed
    language: str  # language id ("python", "typescript", ... or "text")
    snippets: tuple[ContextSnippet, ...]  # cross-file context, most stable first
    prefix: str  # text before the cursor (possibly head + summary + window)
    suffix: str  # text after the cursor (short: it is recomputed on every keystroke)


@dataclass(frozen=True, slots=True)
class GenerationRequest:
    request_id: str  # unique per request; cancel() takes it
    prompt: PromptParts | None = None  # rendered by the backend's model profile
    prompt_text: str | None = None  # a plain prefix prompt (no FIM), used when prompt is None
    max_new_tokens: int = 64
    stop: tuple[str, ...] = ()  # stop strings (not included in the output)
    single_line: bool = False  # stop at the end of the first non-empty line
    deadline: float | None = None  # time.monotonic() after which generation stops (DEADLINE)
    priority: Priority = Priority.INTERACTIVE
    speculation: bool = True  # allow speculative decoding when the backend has it
    prefill_only: bool = False  # warm-up: fill the KV cache, generate nothing
    cache_key: str = ""  # document identity for the KV state cache ("" = none)
    temperature: float = 0.0  # 0: greedy (the default); > 0: sample (eval top-k alternatives)
    seed: int = 0  # sampling seed when temperature > 0: same request and seed, same text
    # the first non-blank text never starts with one of these (engine.avoid: block starts
    # where the model would copy a placeholder from the prompt); honoured by llamacpp
    avoid_starts: tuple[str, ...] = ()

    def __repr__(self) -> str:  # never print source text
        return (
            f"GenerationRequest(id={self.request_id!r}, max_new_tokens={self.max_new_tokens}, "
            f"single_line={self.single_line}, prefill_only={self.prefill_only})"
        )


@dataclass(slots=True)
class GenerationStats:
    """Per-request figures reported in every Finished event."""

    num_prompt_tokens: int = 0
    num_cached_tokens: int = 0  # prompt tokens reused from the KV cache (prefix or state cache)
    num_generated_tokens: int = 0
    prefill_ms: float = 0.0
    decode_ms: float = 0.0
    first_token_ms: float = 0.0  # from submit to the first text chunk
    total_ms: float = 0.0  # from submit to finish
    queue_ms: float = 0.0  # waiting before the engine thread took it
    num_draft_tokens: int = 0  # draft tokens proposed
    num_draft_accepted: int = 0
    num_draft_rejected: int = 0
    speculation_used: bool = False
    speculation_note: str = ""  # e.g. "off: acceptance 0.31 < 0.4"
    restored_state: bool = False  # KV state of this document was restored from the state cache
    # prompt tokens this request's prefill evaluated, up to where it stopped when it was cut
    # short (num_prompt_tokens is the whole prompt's); 0: not reported by this engine
    num_prefilled_tokens: int = 0


@dataclass(frozen=True, slots=True)
class TextChunk:
    request_id: str
    text: str  # new text since the previous chunk


@dataclass(frozen=True, slots=True)
class Finished:
    request_id: str
    reason: FinishReason
    text: str  # the whole generated text (after stop handling)
    stats: GenerationStats
    error: str = ""  # message when reason is ERROR
    error_code: str = ""  # app.errors code when reason is ERROR


EngineEvent = TextChunk | Finished
EventSink = Callable[[EngineEvent], None]


@dataclass(slots=True)
class EngineStats:
    """Rolling figures of a backend, for status and the tray."""

    requests: int = 0
    draft_accepted: int = 0
    draft_proposed: int = 0
    speculation_enabled: bool = False
    speculation_note: str = ""  # why it is off, when it is
    model: str = ""
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def acceptance_rate(self) -> float:
        return self.draft_accepted / self.draft_proposed if self.draft_proposed else 0.0


class Engine(ABC):
    """A model backend. Construct, ``start()`` (loads the model), submit, ``close()``."""

    name: str = "engine"

    @property
    @abstractmethod
    def capabilities(self) -> Capabilities:
        """Declared capabilities (valid after start())."""

    @abstractmethod
    def start(self) -> None:
        """Load the model and start the engine thread; raise ModelError/EngineUnavailable."""

    @abstractmethod
    def count_tokens(self, text: str) -> int:
        """Exact token count of ``text`` as plain source (no special tokens)."""

    @abstractmethod
    def submit(self, request: GenerationRequest, sink: EventSink) -> None:
        """Queue a request; events go to ``sink``; exactly one Finished ends it."""

    @abstractmethod
    def cancel(self, request_id: str) -> None:
        """Stop a request between tokens (its Finished has reason CANCELLED). Unknown ids: no-op."""

    @abstractmethod
    def stats(self) -> EngineStats:
        """Rolling statistics (speculation acceptance, state)."""

    @abstractmethod
    def close(self) -> None:
        """Stop the engine thread and free the model. Pending requests finish CANCELLED."""

    def is_alive(self) -> bool:
        """False once the engine thread died; the daemon restarts the engine then."""
        return True


class EngineTokenCounter:
    """Adapts an Engine to the TokenCounter protocol."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def count(self, text: str) -> int:
        return self._engine.count_tokens(text)


def generate_sync(
    engine: Engine,
    request: GenerationRequest,
    *,
    timeout_s: float | None = None,
    stop_when: Callable[[str], bool] | None = None,
) -> tuple[Finished, float | None]:
    """Run one request to the end from a plain thread.

    ``stop_when`` sees the text streamed so far after each chunk; when it returns True the
    request is cancelled (its Finished then has reason CANCELLED and the text so far).
    Returns the Finished event and the time to the first chunk in seconds (None when no text
    came). Used by the CLI, tests and benchmarks; the daemon uses submit() directly.
    """
    done = threading.Event()
    result: list[Finished] = []
    first: list[float] = []
    chunks: list[str] = []
    stopping = [False]
    start = time.monotonic()

    def sink(event: EngineEvent) -> None:
        if isinstance(event, TextChunk):
            if not first and event.text:
                first.append(time.monotonic() - start)
            if stop_when is not None and not stopping[0]:
                chunks.append(event.text)
                if stop_when("".join(chunks)):
                    stopping[0] = True
                    engine.cancel(request.request_id)
        else:
            result.append(event)
            done.set()

    engine.submit(request, sink)
    if not done.wait(timeout_s):
        engine.cancel(request.request_id)
        done.wait(5.0)
    if not result:
        from app.errors import EngineError

        raise EngineError(f"engine {engine.name} gave no answer for {request.request_id}")
    return result[0], (first[0] if first else None)
