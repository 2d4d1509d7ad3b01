"""A small in-test Engine: scripted text, one engine thread, cancel/deadline, and a crash switch.

Good for the server's unit tests; the end-to-end tests use the real embedded model.
``make_engine`` is the ``--engine-factory tests.daemon.fakes:make_engine`` of a daemon process.
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from collections import deque

from app.config import Config
from engine.base import (
    Capabilities,
    Engine,
    EngineStats,
    EventSink,
    Finished,
    FinishReason,
    GenerationRequest,
    GenerationStats,
    TextChunk,
)

DEFAULT_PIECES = ("return", " a", " +", " b", "\n", "\n", "print", "(add", "(1, 2))", "\n")


class FakeEngine(Engine):
    name = "fake"

    def __init__(self, *, pieces: tuple[str, ...] = DEFAULT_PIECES, token_delay_s: float = 0.005,
                 fail_start: bool = False, prefill_s: float = 0.0,
                 resumable_prefill: bool = False, max_batch: int = 1,
                 start_s: float = 0.0) -> None:
        self.pieces = pieces
        self.max_batch = max_batch  # over 1: batching, that many requests run at once
        self.start_s = start_s  # a model's load time
        self.resumable_prefill = resumable_prefill  # declared only: the fake keeps no KV cache
        self.prefill_s = prefill_s  # an uninterruptible "prefill" before the first token
        self.token_delay_s = token_delay_s
        self.fail_start = fail_start
        self._jobs: queue.Queue[tuple[GenerationRequest, EventSink] | None] = queue.Queue()
        self._cancelled: set[str] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._dead = False
        self._crash = threading.Event()
        # the latest requests (a bounded record: a long run through a daemon, bench memory,
        # must not see the fake's own growth)
        self.submitted: deque[GenerationRequest] = deque(maxlen=512)
        self.cancel_calls: deque[str] = deque(maxlen=512)  # ids engine.cancel() was called with
        self.num_requests = 0
        self.closed = False

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(fim=True, speculation=False, batching=self.max_batch > 1,
                            max_batch=self.max_batch,
                            exact_tokenizer=False, kv_state_cache=False, n_ctx=4096,
                            resumable_prefill=self.resumable_prefill)

    def start(self) -> None:
        time.sleep(self.start_s)
        if self.fail_start:
            from app.errors import ModelNotInstalled

            raise ModelNotInstalled("fake model missing")
        self._thread = threading.Thread(target=self._loop, daemon=True, name="fake-engine")
        self._thread.start()

    def count_tokens(self, text: str) -> int:
        return max(1, len(text) // 3)

    def submit(self, request: GenerationRequest, sink: EventSink) -> None:
        self.submitted.append(request)
        self._jobs.put((request, sink))

    def cancel(self, request_id: str) -> None:
        with self._lock:
            self.cancel_calls.append(request_id)
            self._cancelled.add(request_id)

    def stats(self) -> EngineStats:
        return EngineStats(requests=self.num_requests, model="fake")

    def close(self) -> None:
        self.closed = True
        self._jobs.put(None)
        if self._thread is not None:
            self._thread.join(2)

    def is_alive(self) -> bool:
        return not self._dead and self._thread is not None and self._thread.is_alive()

    def crash(self) -> None:
        """Make the engine thread die mid-request without a Finished event."""
        self._crash.set()

    def _loop(self) -> None:
        slots = threading.BoundedSemaphore(self.max_batch)
        while True:
            job = self._jobs.get()
            if job is None:
                return
            request, sink = job
            if self.max_batch > 1:  # batching: up to max_batch requests run side by side
                slots.acquire()
                threading.Thread(target=self._run_slot, args=(request, sink, slots),
                                 daemon=True).start()
                continue
            if not self._run(request, sink):
                self._dead = True
                return  # crashed: pending requests never finish here

    def _run_slot(self, req: GenerationRequest, sink: EventSink,
                  slots: threading.BoundedSemaphore) -> None:
        try:
            if not self._run(req, sink):
                self._dead = True
        finally:
            slots.release()

    def _run(self, req: GenerationRequest, sink: EventSink) -> bool:
        self.num_requests += 1
        if os.environ.get("NOSPIN_FAKE_SEGFAULT") and not req.prefill_only:
            import faulthandler  # a real fatal signal, as a native fault in llama.cpp raises

            faulthandler._sigsegv()  # type: ignore[attr-defined]  # CPython test helper
        start = time.monotonic()
        stats = GenerationStats(num_prompt_tokens=100, prefill_ms=1.0)
        text = ""
        reason = FinishReason.LENGTH
        time.sleep(self.prefill_s)
        if req.prefill_only:
            stats.total_ms = (time.monotonic() - start) * 1000
            sink(Finished(req.request_id, FinishReason.PREFILLED, "", stats))
            return True
        for i, piece in enumerate(self.pieces):
            if self._crash.is_set():
                return False
            with self._lock:
                if req.request_id in self._cancelled:
                    self._cancelled.discard(req.request_id)
                    reason = FinishReason.CANCELLED
                    break
            if req.deadline is not None and time.monotonic() > req.deadline:
                reason = FinishReason.DEADLINE
                break
            if i >= req.max_new_tokens:
                reason = FinishReason.LENGTH
                break
            if req.single_line and "\n" in piece and text.strip():
                reason = FinishReason.NEWLINE
                break
            if any(stop in text + piece for stop in req.stop):  # as the engines' StreamFilter
                reason = FinishReason.STOP
                break
            time.sleep(self.token_delay_s)
            text += piece
            stats.num_generated_tokens += 1
            if i == 0:
                stats.first_token_ms = (time.monotonic() - start) * 1000
            sink(TextChunk(req.request_id, piece))
        else:
            reason = FinishReason.STOP
        stats.total_ms = (time.monotonic() - start) * 1000
        stats.decode_ms = stats.total_ms
        sink(Finished(req.request_id, reason, text, stats))
        return True


def make_engine(config: Config) -> FakeEngine:
    """The daemon's engine: NOSPIN_FAKE_TOKEN_DELAY_S between pieces, NOSPIN_FAKE_PIECES (a JSON
    list of strings) in place of DEFAULT_PIECES, NOSPIN_FAKE_START_S its load time; a model file
    named ``missing.gguf`` does not load (ModelNotInstalled at start)."""
    delay = float(os.environ.get("NOSPIN_FAKE_TOKEN_DELAY_S", "0.005"))
    pieces = os.environ.get("NOSPIN_FAKE_PIECES")
    return FakeEngine(token_delay_s=delay,
                      pieces=tuple(json.loads(pieces)) if pieces else DEFAULT_PIECES,
                      fail_start=os.path.basename(config.engine.model) == "missing.gguf",
                      start_s=float(os.environ.get("NOSPIN_FAKE_START_S", "0")))
