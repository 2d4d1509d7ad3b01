"""The KV-cache side of the llamacpp engine: one llama.cpp context, its tokens, prefix reuse and
saved KV states of recent documents.

Everything here runs on the engine thread (the tokenizer is engine/tokenizer.py). We drive
llama-cpp-python's ``Llama`` at its low level (``_ctx``, ``_batch``, ``input_ids``, ``n_tokens``)
instead of ``Llama.generate``: we need logits of every drafted token for speculative
verification, greedy argmax without a sampler chain, and KV states without the n_batch x n_vocab
score matrix that ``Llama.save_state`` copies.
"""

from __future__ import annotations

import ctypes
import importlib
import mmap
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from app.errors import EngineError, InputError, ModelError
from engine.llama_log import muted

ShouldStop = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class SavedState:
    """A document's KV cache, saved with llama_state_seq_get_data (KV cells only, no logits)."""

    tokens: tuple[int, ...]  # the tokens whose keys/values the state holds
    data: Any  # ctypes byte array with the state
    num_bytes: int


@dataclass(slots=True)
class PrefillResult:
    num_prompt_tokens: int
    num_cached_tokens: int  # tokens not evaluated: already in the KV cache (prefix or state)
    restored_state: bool  # a saved KV state was loaded
    complete: bool  # False when should_stop interrupted the prefill


def state_buffer(size: int) -> Any:
    """``size`` zeroed bytes for a KV state, as a ctypes array on pages of their own (an
    anonymous mapping, unmapped when the array is dropped). From the C heap, states of changing
    sizes evicted in turn left it fragmented: glibc raises its mmap threshold to the largest
    block freed, so after the first eviction every state came from the heap. Fresh pages cost a
    save more than reused heap did: a 7 MB state allocated and written 0.7 ms from the heap, 6.3
    ms mapped, 3.0 ms mapped with MAP_POPULATE (its pages made in one call; a one-off timeit)."""
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_POPULATE", 0)
    return (ctypes.c_uint8 * size).from_buffer(mmap.mmap(-1, max(1, size), flags=flags))


_PARAMS_LOCK = threading.Lock()  # load_llama patches llama-cpp-python's default params


def load_llama(
    path: Path, *, n_ctx: int, n_threads: int, n_batch: int = 512, logits_all: bool = False,
    extra_buffers: bool = True,
) -> Any:
    """Load a GGUF model with a Q8_0 KV cache and flash attention; raise ModelError on failure.
    ``extra_buffers`` False: without llama.cpp's extra buffer types (AMX, repacked weights;
    ``use_extra_bufts``), which ``Llama`` does not expose (engine/cpu_build.py says when)."""
    try:
        import llama_cpp
    except ImportError as exc:  # pragma: no cover - installed with nospin
        raise ModelError("llama-cpp-python is not installed") from exc

    def load() -> Any:  # not verbose: llama-cpp-python sends fds 1 and 2 to /dev/null meanwhile
        return llama_cpp.Llama(
            str(path),
            n_ctx=n_ctx,
            n_batch=n_batch,
            n_ubatch=n_batch,
            n_threads=n_threads or None,
            n_threads_batch=n_threads or None,
            type_k=llama_cpp.GGML_TYPE_Q8_0,
            type_v=llama_cpp.GGML_TYPE_Q8_0,
            flash_attn=True,
            logits_all=logits_all,
            verbose=False,
        )

    # the low-level module Llama.__init__ asks for its defaults (llama.py imports it whole)
    low: Any = importlib.import_module("llama_cpp.llama_cpp")
    defaults = low.llama_model_default_params

    def without_extra_buffers() -> Any:
        params = defaults()
        params.use_extra_bufts = False
        return params

    try:
        with _PARAMS_LOCK, muted():  # its ~2,200 log lines would each wait for the GIL
            if extra_buffers:
                return load()
            low.llama_model_default_params = without_extra_buffers
            try:
                return load()
            finally:
                low.llama_model_default_params = defaults
    except (ValueError, RuntimeError, OSError) as exc:
        raise ModelError(f"cannot load model {path}", detail=str(exc)) from exc


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token sequences."""
    n = min(len(a), len(b))
    if n == 0:
        return 0
    x = np.asarray(a[:n], dtype=np.int64)
    y = np.asarray(b[:n], dtype=np.int64)
    diff = np.nonzero(x != y)[0]
    return int(diff[0]) if diff.size else n


class KVSession:
    """One llama.cpp context: the tokens in its KV cache, prefix reuse, and a KV state LRU.

    Engine thread only. ``tokens`` mirrors the KV cache: position i holds tokens[i].
    """

    def __init__(self, llm: Any, *, state_slots: int) -> None:
        import llama_cpp

        self._lib = llama_cpp
        self.llm = llm
        self.ctx = llm._ctx
        self.n_ctx: int = llm.n_ctx()
        self.n_batch: int = llm.n_batch
        self.n_vocab: int = llm.n_vocab()
        self.tokens: list[int] = []
        self.key = ""  # cache_key of the document whose tokens are in the KV cache
        self.state_slots = state_slots
        self.states: OrderedDict[str, SavedState] = OrderedDict()
        self.last_state_bytes = 0
        self.last_save_ms = 0.0
        self.last_restore_ms = 0.0
        self.decode_threads: int = int(llm.n_threads)  # threads of one-token steps
        self.batch_threads: int = int(llm.n_threads_batch)  # threads of prefill and verify
        # the last finished prefill's prompt and the logits of its last token: the same prompt
        # again (a keystroke inside a word, a completion after its warm-up) starts from them
        # instead of evaluating its last token once more (one step, ~30 ms on 2 cores)
        self._prompt_logits: tuple[tuple[int, ...], np.ndarray[Any, np.dtype[np.float32]]] | None
        self._prompt_logits = None
        self._next_logits: np.ndarray[Any, np.dtype[np.float32]] | None = None  # for logits(-1)

    def set_threads(self, *, decode: int = 0, batch: int = 0) -> None:
        """Run one-token steps on ``decode`` threads and prompt chunks (and verify batches) on
        ``batch`` threads from now on; 0 keeps a count as it is."""
        decode, batch = decode or self.decode_threads, batch or self.batch_threads
        if (decode, batch) != (self.decode_threads, self.batch_threads):
            self._lib.llama_set_n_threads(self.ctx.ctx, decode, batch)
            self.decode_threads, self.batch_threads = decode, batch

    # --- KV cache contents ---------------------------------------------------------------

    def truncate(self, n: int) -> None:
        """Drop KV cells from position n on."""
        self._next_logits = None
        if n < len(self.tokens):
            if not self.ctx.kv_cache_seq_rm(0, n, -1):
                raise EngineError("llama.cpp refused to remove KV cells")
            del self.tokens[n:]
        self.llm.n_tokens = len(self.tokens)

    def decode(self, tokens: Sequence[int], *, all_logits: bool = False) -> None:
        """Evaluate ``tokens`` after the current ones, in one batch (len <= n_batch).

        Logits are kept for the last token, or for every token when ``all_logits``.
        """
        n_past = len(self.tokens)
        if n_past + len(tokens) > self.n_ctx:
            raise InputError(f"prompt and output exceed the context of {self.n_ctx} tokens")
        self._next_logits = None
        batch = self.llm._batch
        batch.set_batch(batch=list(tokens), n_past=n_past, logits_all=all_logits)
        try:
            self.ctx.decode(batch)
        except RuntimeError as exc:
            self.truncate(n_past)
            raise EngineError("llama.cpp decode failed", detail=str(exc)) from exc
        self.llm.input_ids[n_past : n_past + len(tokens)] = tokens
        self.tokens.extend(tokens)
        self.llm.n_tokens = len(self.tokens)

    def logits(self, i: int = -1) -> np.ndarray[Any, np.dtype[np.float32]]:
        """Logits of the i-th output of the last decode (-1: the last; after a prefill that
        evaluated nothing, its prompt's saved last logits)."""
        if i == -1 and self._next_logits is not None:
            return self._next_logits
        ptr = self.ctx.get_logits_ith(i)
        arr: np.ndarray[Any, np.dtype[np.float32]] = np.ctypeslib.as_array(
            ptr, shape=(self.n_vocab,)
        )
        return arr

    def argmax(self, i: int = -1) -> int:
        return int(self.logits(i).argmax())

    # --- prefill with prefix reuse and state restore --------------------------------------

    def to_evaluate(self, prompt: Sequence[int], *, key: str) -> int:
        """The prompt tokens ``prefill`` would evaluate now (what neither the cache nor a saved
        state of ``key`` holds), without changing anything."""
        common = common_prefix(self.tokens, prompt)
        if self._saved_logits_fit(prompt, common):
            return 0
        found = self._state_to_restore(prompt, key, common)
        return len(prompt) - min(found[1] if found else common, len(prompt) - 1)

    def _saved_logits_fit(self, prompt: Sequence[int], common: int) -> bool:
        """Whether the KV cache holds all of ``prompt`` and the saved logits are its last
        token's (the same tokens at the same positions give the same logits)."""
        saved = self._prompt_logits
        return (
            saved is not None
            and common >= len(prompt) == len(saved[0])
            and tuple(prompt) == saved[0]
        )

    def _state_to_restore(
        self, prompt: Sequence[int], key: str, common: int
    ) -> tuple[SavedState, int] | None:
        """The saved state of another document ``key`` and how many prompt tokens it holds,
        when that is more than 16 beyond the ``common`` prefix the cache holds; else None."""
        saved = self.states.get(key) if key and key != self.key else None
        if saved is None:
            return None
        saved_common = common_prefix(saved.tokens, prompt)
        return (saved, saved_common) if saved_common > common + 16 else None

    def prefill(
        self, prompt: Sequence[int], *, key: str, chunk: int, should_stop: ShouldStop
    ) -> PrefillResult:
        """Make the KV cache hold ``prompt`` with logits for its last token.

        Keeps the longest common prefix with the cached tokens (or with the saved state of
        ``key`` when that shares more), evaluates only the tail in chunks of ``chunk`` tokens
        and checks ``should_stop`` between chunks (partial work stays in the cache).
        """
        if not prompt:
            raise InputError("empty prompt")
        if len(prompt) >= self.n_ctx:
            raise InputError(f"prompt of {len(prompt)} tokens exceeds the context of {self.n_ctx}")
        common = common_prefix(self.tokens, prompt)
        restored = False
        if key != self.key:
            self._save_current(common)
            found = self._state_to_restore(prompt, key, common)
            if found is not None:
                self._restore(key, found[0])
                common = found[1]
                restored = True
            self.key = key
        if self._saved_logits_fit(prompt, common):
            self.truncate(len(prompt))
            self._next_logits = self._prompt_logits[1] if self._prompt_logits else None
            return PrefillResult(len(prompt), len(prompt), restored, complete=True)
        # Logits are needed for the last prompt token: re-evaluate it when all is cached.
        keep = min(common, len(prompt) - 1)
        self.truncate(keep)
        cached = keep
        pos = keep
        while pos < len(prompt):
            if pos > keep and should_stop():
                return PrefillResult(len(prompt), cached, restored, complete=False)
            step = prompt[pos : pos + min(chunk, self.n_batch)]
            self.decode(step)
            pos += len(step)
        self._prompt_logits = (tuple(prompt), self.logits().copy())
        return PrefillResult(len(prompt), cached, restored, complete=True)

    def _save_current(self, common_with_next: int) -> None:
        """Save the current document's KV state before another document overwrites it."""
        if not self.key or self.state_slots <= 0 or len(self.tokens) < 32:
            return
        if common_with_next >= len(self.tokens) - 8:
            return  # the next prompt keeps nearly all of it anyway
        import time

        t0 = time.monotonic()
        size = self._lib.llama_state_seq_get_size(self.ctx.ctx, 0)
        buf = state_buffer(size)
        n = self._lib.llama_state_seq_get_data(self.ctx.ctx, buf, size, 0)
        if n <= 0:
            return
        self.states[self.key] = SavedState(tuple(self.tokens), buf, int(n))
        self.states.move_to_end(self.key)
        while len(self.states) > self.state_slots:
            self.states.popitem(last=False)
        self.last_state_bytes = int(n)
        self.last_save_ms = (time.monotonic() - t0) * 1000

    def _restore(self, key: str, saved: SavedState) -> None:
        import time

        t0 = time.monotonic()
        self.ctx.kv_cache_seq_rm(0, 0, -1)
        self.tokens = []
        with muted():  # a log line, which would wait for the GIL
            n = self._lib.llama_state_seq_set_data(self.ctx.ctx, saved.data, saved.num_bytes, 0)
        if n != saved.num_bytes:
            self.ctx.kv_cache_seq_rm(0, 0, -1)
            self.llm.n_tokens = 0
            del self.states[key]
            return
        self.tokens = list(saved.tokens)
        self.llm.input_ids[: len(self.tokens)] = self.tokens
        self.llm.n_tokens = len(self.tokens)
        self.states.move_to_end(key)
        self.last_restore_ms = (time.monotonic() - t0) * 1000

    def states_bytes(self) -> int:
        return sum(s.num_bytes for s in self.states.values())
