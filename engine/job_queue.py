"""The request queues both CPU engines keep (llamacpp, xllamacpp): a job per submitted request,
an interactive and a background queue under one condition, and the one way a job ends.

``JobQueues`` is a mixin: the engine sets the attributes it declares in its ``__init__`` and
calls these methods from its engine thread(s). A job ends exactly once, through ``_finish``,
which sends its ``Finished`` event; a sink that raises is logged and never kills the engine.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from app.errors import EngineDied, NospinError
from engine.base import (
    EngineStats,
    EventSink,
    Finished,
    FinishReason,
    GenerationRequest,
    GenerationStats,
    Priority,
    TextChunk,
)

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Job:
    """One submitted request on its way through an engine."""

    request: GenerationRequest
    sink: EventSink
    submitted: float  # time.monotonic() at submit
    seq: int
    stats: GenerationStats = field(default_factory=GenerationStats)
    started: float = 0.0  # first time an engine thread took it


J = TypeVar("J", bound=Job)


class JobQueues(Generic[J]):
    """Queued jobs and how they end (see the module docstring)."""

    # set in the engine's __init__
    _cond: threading.Condition
    _interactive: deque[J]
    _background: deque[J]
    _cancelled: set[str]  # ids cancelled and not finished yet
    _active: set[str]  # ids submitted and not finished yet
    _stats: EngineStats
    _closing: bool  # the engine is closing: whatever runs stops
    _dead: bool  # the engine thread died
    _death: str  # why

    def _enqueue(self, job: J, running: bool, name: str) -> None:
        """Queue ``job`` for the engine's thread(s); when ``running`` is false, or the engine
        died or is closing, answer it here with ``engine_died``: still exactly one Finished."""
        request = job.request
        with self._cond:
            dead = self._dead or self._closing or not running
            if not dead:
                self._active.add(request.request_id)
                queue = (self._interactive if request.priority == Priority.INTERACTIVE
                         else self._background)
                queue.append(job)
                self._cond.notify_all()
        if dead:
            self._fail(job, EngineDied(self._death or f"the {name} engine is not running"))

    def cancel(self, request_id: str) -> None:
        """Stop ``request_id`` within one step (queued: it finishes ``cancelled`` unrun)."""
        with self._cond:
            if request_id in self._active:
                self._cancelled.add(request_id)
                self._cond.notify_all()

    def _stopped(self, job: J) -> FinishReason | None:
        """Why ``job`` must stop now (cancel, close, deadline), or None."""
        if job.request.request_id in self._cancelled or self._closing:
            return FinishReason.CANCELLED
        deadline = job.request.deadline
        if deadline is not None and time.monotonic() >= deadline:
            return FinishReason.DEADLINE
        return None

    def _emit(self, job: J, text: str) -> None:
        """Stream ``text`` to the job's sink (nothing for an empty one)."""
        if not text:
            return
        if not job.stats.first_token_ms:
            job.stats.first_token_ms = (time.monotonic() - job.submitted) * 1000
        self._safe_sink(job, TextChunk(job.request.request_id, text))

    def _finish(
        self, job: J, reason: FinishReason, text: str, error: str = "", code: str = ""
    ) -> None:
        """End ``job``: its figures, its ids forgotten, its ``Finished`` event."""
        job.stats.total_ms = (time.monotonic() - job.submitted) * 1000
        with self._cond:
            self._stats.requests += 1
            self._cancelled.discard(job.request.request_id)
            self._active.discard(job.request.request_id)
        event = Finished(job.request.request_id, reason, text, job.stats, error, code)
        self._safe_sink(job, event)

    def _fail(self, job: J, exc: NospinError) -> None:
        self._finish(job, FinishReason.ERROR, "", str(exc), exc.code)

    @staticmethod
    def _safe_sink(job: Job, event: TextChunk | Finished) -> None:
        try:
            job.sink(event)
        except Exception:  # a broken sink must not kill the engine
            log.exception("event sink of %s failed", job.request.request_id)

    def _reap_cancelled_locked(self) -> None:
        """Finish queued jobs that were cancelled before they ran (lock held)."""
        if not self._cancelled:
            return
        for queue in (self._interactive, self._background):
            for job in [j for j in queue if j.request.request_id in self._cancelled]:
                queue.remove(job)
                self._cond.release()
                try:
                    self._finish(job, FinishReason.CANCELLED, "")
                finally:
                    self._cond.acquire()

    def _drain(self, reason: FinishReason, error: EngineDied | None = None) -> None:
        """Finish every queued job: with ``error``, or ``reason`` when there is none."""
        with self._cond:
            jobs = [*self._interactive, *self._background]
            self._interactive.clear()
            self._background.clear()
        for job in jobs:
            if error is not None:
                self._fail(job, error)
            else:
                self._finish(job, reason, "")
