"""The llama.cpp server side of the ``xllamacpp`` engine: building its parameters, the body of
one completion request, and reading the chunks it streams back.

xllamacpp (PyPI, prebuilt abi3 wheels) runs llama.cpp's own C++ server in-process:
``Server(CommonParams)`` loads the model and starts the server's loop thread;
``Server.handle_completions(body, callback)`` runs one OpenAI-style ``/v1/completions`` request
on the calling thread (the GIL released), calling ``callback(chunk)`` with each streamed JSON
chunk; a callback that returns True ends the request (the server cancels its task before its
next step). Several threads calling it at once are served by the server's parallel slots with
continuous batching. Nothing here starts a thread or holds state of a request.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import PROMPT_LOOKUP
from app.errors import EngineError, InputError, ModelError

# logit bias that makes every allowed token outrank every other (greedy among the allowed keeps
# their order: each gets the same offset); llama.cpp's own "ban" is the JSON value false
ALLOW_BIAS = 1000.0
SLOT_SIMILARITY = 0.01
LOOKUP_NGRAM = 3  # tokens an n-gram lookup matches (the llamacpp engine's prompt lookup: 3)


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What the engine asks of llama.cpp's server (all fixed for the server's lifetime)."""

    n_ctx: int  # context of one slot, in tokens
    n_parallel: int  # slots: requests decoded at once (continuous batching)
    n_threads: int  # decode threads
    n_threads_batch: int  # prefill threads
    n_batch: int  # prompt tokens per step: a cancel or a deadline lands within one step
    cache_ram_mib: int  # host-memory prompt cache of slots' KV states (documents); 0: none
    extra_buffers: bool = True  # llama.cpp's extra buffer types (engine/cpu_build.py)
    # speculation: "" none, PROMPT_LOOKUP (the server's n-gram lookup in the slot's own
    # tokens), else a draft model's GGUF path; draft_tokens per step
    draft: str = ""
    draft_tokens: int = 3


def load_server(model_path: Path, settings: ServerSettings) -> Any:
    """Start llama.cpp's server on ``model_path`` with a Q8_0 KV cache and flash attention;
    raise ModelError when xllamacpp is missing or the model does not load."""
    try:
        import xllamacpp as xlc
    except ImportError as exc:  # pragma: no cover - installed with nospin
        raise ModelError("xllamacpp is not installed", detail=str(exc)) from exc
    if not model_path.is_file():
        raise ModelError(f"model {model_path} does not exist")
    p = xlc.CommonParams()
    p.model.path = str(model_path)
    p.n_parallel = settings.n_parallel
    # the server divides n_ctx among its slots (kv_unified off): each slot gets n_ctx
    p.n_ctx = settings.n_ctx * settings.n_parallel
    p.n_batch = settings.n_batch
    p.n_ubatch = settings.n_batch
    p.cpuparams.n_threads = settings.n_threads
    p.cpuparams_batch.n_threads = settings.n_threads_batch
    p.cache_type_k = xlc.ggml_type.GGML_TYPE_Q8_0
    p.cache_type_v = xlc.ggml_type.GGML_TYPE_Q8_0
    p.flash_attn_type = xlc.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_ENABLED
    p.cache_ram_mib = settings.cache_ram_mib
    # a request goes to the slot holding the longest share of its prompt when that share is at
    # least this (llama.cpp's default 0.1 sent a document to another slot after a warm-up that
    # stopped at 7% of its prompt); else to the least recently used slot
    p.slot_prompt_similarity = SLOT_SIMILARITY
    p.no_extra_bufts = not settings.extra_buffers
    p.n_gpu_layers = 0  # the CPU wheel: nothing to offload
    _speculation(xlc, p, settings)
    p.ctx_shift = False  # a prompt longer than a slot is an error, never silently cut
    p.warmup = False  # a warm-up decode at load costs the first request nothing it saves
    p.verbosity = -1  # llama.cpp's log is off (its ~2,000 lines at load)
    p.endpoint_metrics = False
    # the server also listens on a local HTTP port (xllamacpp always starts it): a random key
    # keeps other local programs out; the engine's in-process calls do not pass through it
    p.api_keys = [secrets.token_urlsafe(32)]
    p.n_threads_http = 1
    try:
        return xlc.Server(p)
    except (RuntimeError, ValueError, OSError) as exc:
        raise ModelError(f"cannot load model {model_path}", detail=str(exc)) from exc


def _speculation(xlc: Any, p: Any, settings: ServerSettings) -> None:
    """The server's speculation: n-gram lookup (``ngram-simple``: the last ``LOOKUP_NGRAM``
    tokens found earlier in the slot's tokens, the ``draft_tokens`` after them drafted) or a
    draft model in the same slots, with its own Q8_0 KV cache and the same threads."""
    if not settings.draft:
        return
    kinds = xlc.common_speculative_type
    spec = p.speculative
    spec.draft.n_max = settings.draft_tokens
    spec.draft.n_min = 0
    if settings.draft == PROMPT_LOOKUP:
        spec.types = [kinds.COMMON_SPECULATIVE_TYPE_NGRAM_SIMPLE]
        spec.ngram_simple.size_n = LOOKUP_NGRAM
        spec.ngram_simple.size_m = settings.draft_tokens
        return
    path = Path(settings.draft)
    if not path.is_file():
        raise ModelError(f"draft model {path} does not exist")
    spec.types = [kinds.COMMON_SPECULATIVE_TYPE_DRAFT_SIMPLE]
    spec.draft.mparams.path = str(path)
    spec.draft.n_gpu_layers = 0
    spec.draft.cache_type_k = xlc.ggml_type.GGML_TYPE_Q8_0
    spec.draft.cache_type_v = xlc.ggml_type.GGML_TYPE_Q8_0
    spec.draft.cpuparams.n_threads = settings.n_threads
    spec.draft.cpuparams_batch.n_threads = settings.n_threads_batch


def completion_body(
    prompt: Sequence[int],
    *,
    max_tokens: int,
    temperature: float = 0.0,
    seed: int = 0,
    allow: Sequence[int] = (),
    ban: Sequence[int] = (),
    want_ids: bool = False,
) -> dict[str, Any]:
    """The JSON body of one streamed completion of the token ids ``prompt``.

    Greedy at temperature 0, else plain softmax sampling with ``seed`` (no top-k/top-p/min-p:
    the llamacpp engine's sampling). ``allow``: only these tokens may come (a logit bias above
    all others); ``ban``: these may not. ``want_ids``: each chunk carries its token's id.
    """
    body: dict[str, Any] = {
        "prompt": list(prompt),
        "max_tokens": max(1, max_tokens),
        "stream": True,
        "return_progress": True,  # a chunk per prefill step: cancel and deadline are seen
        "cache_prompt": True,
        "temperature": max(0.0, temperature),
        "top_k": 0,
        "top_p": 1.0,
        "min_p": 0.0,
        "repeat_penalty": 1.0,
    }
    if temperature > 0:
        body["seed"] = seed
    bias: list[list[Any]] = [[int(t), ALLOW_BIAS] for t in allow]
    bias += [[int(t), False] for t in ban]
    if bias:
        body["logit_bias"] = bias
    if want_ids:
        body["n_probs"] = 1
    return body


@dataclass(frozen=True, slots=True)
class Chunk:
    """One streamed chunk of a completion, read from its JSON."""

    kind: str  # "progress" (a prefill step), "token", "final" or "error"
    text: str = ""  # the token's text (may be "" while a UTF-8 sequence is incomplete)
    token: int = -1  # the token's id when asked for (want_ids), else -1
    finish_reason: str = ""  # "stop" (end of text), "length" (max_tokens)
    prompt_total: int = 0  # prompt tokens of the request (progress chunks)
    prompt_cached: int = 0  # of them reused from the slot or the prompt cache
    prompt_processed: int = 0  # of them in the KV cache so far (cached included)
    prefill_ms: float = 0.0  # time of prefill so far (progress) or in all (final)
    decode_ms: float = 0.0  # final only
    generated: int = 0  # final only
    drafted: int = 0  # final only: draft tokens proposed (speculation)
    accepted: int = 0  # final only: of them accepted
    error: str = ""
    error_type: str = ""


def parse_chunk(data: Any) -> Chunk:
    """Read one chunk the server streamed (a dict), or raise EngineError when it is none."""
    if not isinstance(data, dict):
        raise EngineError(f"llama.cpp's server streamed {type(data).__name__}, not an object")
    err = data.get("error")
    if err is not None or ("code" in data and "message" in data):
        e = err if isinstance(err, dict) else data
        return Chunk("error", error=str(e.get("message", err)), error_type=str(e.get("type", "")))
    progress = data.get("prompt_progress")
    if isinstance(progress, dict):
        return Chunk(
            "progress",
            prompt_total=int(progress.get("total", 0)),
            prompt_cached=int(progress.get("cache", 0)),
            prompt_processed=int(progress.get("processed", 0)),
            prefill_ms=float(progress.get("time_ms", 0.0)),
        )
    choices = data.get("choices") or [{}]
    choice = choices[0] if isinstance(choices[0], dict) else {}
    reason = choice.get("finish_reason") or ""
    text = str(choice.get("text") or "")
    token = -1
    logprobs = choice.get("logprobs")
    if isinstance(logprobs, dict):
        content = logprobs.get("content") or []
        if content and isinstance(content[0], dict):
            token = int(content[0].get("id", -1))
    timings = data.get("timings")
    if reason or (isinstance(timings, dict) and "usage" in data):
        t = timings if isinstance(timings, dict) else {}
        return Chunk(
            "final",
            text=text,
            token=token,
            finish_reason=str(reason),
            prompt_cached=int(t.get("cache_n", 0)),
            prompt_processed=int(t.get("cache_n", 0)) + int(t.get("prompt_n", 0)),
            prefill_ms=float(t.get("prompt_ms", 0.0)),
            decode_ms=float(t.get("predicted_ms", 0.0)),
            generated=int(t.get("predicted_n", 0)),
            drafted=int(t.get("draft_n", 0)),
            accepted=int(t.get("draft_n_accepted", 0)),
        )
    return Chunk("token", text=text, token=token)


def raise_for(chunk: Chunk) -> None:
    """Raise the nospin error of an error chunk: a request the server refused for its input
    (too long for a slot, a bad field) is an InputError, anything else an EngineError."""
    if chunk.kind != "error":
        return
    message = f"llama.cpp's server: {chunk.error}"
    if chunk.error_type in ("exceed_context_size_error", "invalid_request_error"):
        raise InputError(message)
    raise EngineError(message)
