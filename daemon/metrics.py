"""Rolling request metrics and the JSON-lines request log.

The server builds one :class:`RequestRecord` per request when its final reply goes out (served,
cancelled, shed or failed) and calls ``Metrics.record``; a request the engine was still running
when it was answered (cancelled, superseded, preempted) is recorded when the engine stops it,
with what it prefilled and decoded (``RequestRecord.with_engine_figures``; daemon/records.py).
The record goes into a rolling window (the last ``window_requests`` requests within
``window_s`` seconds) and, when a log is attached, one JSON line into the request log.
``Metrics.snapshot(now)`` answers status, the tray's metrics stream and configuration
snapshots.

Times in records and ``now`` are wall-clock seconds (``time.time()``): the log needs real times.
Logs never carry source text: paths are hashed (:func:`hash_path`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.base import GenerationStats

__all__ = [
    "CANCEL_REASONS", "Metrics", "RequestLog", "RequestRecord", "engine_figures", "hash_path",
    "percentile",
]

# finish reasons (RequestRecord.finish_reason) counted apart in the snapshot
_SHED_REASONS = frozenset({"shed", "expired"})
# requests stopped before their end (the request log's finish_reason)
CANCEL_REASONS = frozenset({"cancelled", "superseded", "preempted"})


def hash_path(path: str) -> str:
    """A short stable hash of a document path (16 hex chars), for logs."""
    return hashlib.blake2b(path.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0-100) of values by linear interpolation; None for no values.

    Same definition as numpy's default ("linear"): p50 of [1, 2, 3, 4] is 2.5.
    """
    if not values:
        return None
    if not 0.0 <= q <= 100.0:
        raise ValueError("q must be between 0 and 100")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """Figures of one finished request; one line of the request log."""

    time: float  # wall-clock seconds when the final reply went out
    request_id: str
    path_hash: str  # hash_path(document path); never the path's contents
    kind: str  # "complete", "generate", "warmup"
    tier: str  # "normal", "cap", "fast", or "" when never started (shed)
    watch: bool  # tier normal but predicted past normal_ms
    finish_reason: str  # engine FinishReason value, or "cancelled"/"superseded"/"shed"/...
    first_token_ms: float | None  # from arrival to the first chunk; None when no text came
    total_ms: float  # from arrival to the final reply
    predicted_ms: float | None = None  # scheduler's prediction at start; None when not started
    num_prompt_tokens: int = 0
    num_cached_tokens: int = 0  # prompt tokens reused from the KV cache
    # prompt tokens the engine evaluated, up to where it stopped when cut short (a warm-up a
    # completion took over); 0 when the engine does not say
    num_prefilled_tokens: int = 0
    num_generated_tokens: int = 0
    num_tokens_saved: int = 0  # tokens removed by context trimming/compression
    cache_hit: bool = False  # answered from the completion cache (type-through)
    num_draft_proposed: int = 0  # speculation: draft tokens proposed
    num_draft_accepted: int = 0  # speculation: draft tokens accepted
    error_code: str = ""  # app.errors code of an error/shed/cancel reply; "" when served
    # where the time went (engine stats; 0 when the engine never ran it): waiting in the
    # engine's own queue, prefill, decode; and the daemon's context assembly
    engine_queue_ms: float = 0.0
    prefill_ms: float = 0.0
    decode_ms: float = 0.0
    context_ms: float = 0.0
    # the daemon's side, from arrival: to the scheduler's start (waiting for a warm-up or a
    # slot), and to the engine's submit (start + the engine's readiness + context assembly);
    # None when it never got that far
    held_ms: float | None = None
    submit_ms: float | None = None
    detail: str = ""  # reason text for shed/errors (no source text)

    def __repr__(self) -> str:
        return (
            f"RequestRecord(id={self.request_id!r}, tier={self.tier!r}, "
            f"finish={self.finish_reason!r}, total_ms={self.total_ms:.0f})"
        )

    @property
    def acceptance(self) -> float | None:
        """Speculation acceptance rate of this request; None when nothing was proposed."""
        if self.num_draft_proposed <= 0:
            return None
        return self.num_draft_accepted / self.num_draft_proposed

    def with_engine_figures(self, stats: GenerationStats) -> RequestRecord:
        """This record with the engine's figures of the request (what it prefilled and
        decoded before it stopped), for a request whose final reply went out first (the
        tokens streamed before it count when the engine reports fewer)."""
        figures = engine_figures(stats)
        figures["num_generated_tokens"] = max(self.num_generated_tokens, stats.num_generated_tokens)
        return dataclasses.replace(self, **figures)

    def to_log_dict(self) -> dict[str, Any]:
        """The JSON-lines log object: every field plus ``acceptance``."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        data["acceptance"] = self.acceptance
        return data


class RequestLog:
    """Appends one JSON line per request, rotating by size; never raises on I/O errors.

    A full disk or an unwritable folder is counted (``num_errors``, ``last_error``) and reported
    through ``Metrics.snapshot``; serving continues. Files are created 0600.
    """

    def __init__(self, path: Path, *, max_bytes: int = 10_000_000, backups: int = 3) -> None:
        """``path``: e.g. state_dir()/"requests.jsonl"; rotated to .1 ... .``backups``."""
        self.path = path  # the live log file
        self.max_bytes = max_bytes  # rotate when the file would grow past this
        self.backups = max(0, backups)  # rotated files kept
        self._fh: IO[bytes] | None = None
        self._size = 0
        self._num_errors = 0
        self._last_error = ""
        self._num_written = 0

    def _open(self) -> IO[bytes]:
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            self._fh = os.fdopen(fd, "ab")
            self._size = self._fh.seek(0, os.SEEK_END)
        return self._fh

    def _rotate(self) -> None:
        self.close()
        if self.backups == 0:
            self.path.unlink(missing_ok=True)
            return
        for i in range(self.backups - 1, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{i}")
            if older.exists():
                os.replace(older, self.path.with_name(f"{self.path.name}.{i + 1}"))
        if self.path.exists():
            os.replace(self.path, self.path.with_name(f"{self.path.name}.1"))

    def write(self, record: RequestRecord) -> bool:
        """Append one line; True when written, False when it failed (counted)."""
        try:
            line = (json.dumps(record.to_log_dict(), separators=(",", ":")) + "\n").encode()
            fh = self._open()
            if self._size > 0 and self._size + len(line) > self.max_bytes:
                self._rotate()
                fh = self._open()
            fh.write(line)
            fh.flush()
            self._size += len(line)
            self._num_written += 1
            return True
        except (OSError, ValueError, TypeError) as exc:
            self._num_errors += 1
            self._last_error = f"{type(exc).__name__}: {exc}"
            self._close(quiet=True)
            return False

    @property
    def num_errors(self) -> int:
        return self._num_errors

    @property
    def num_written(self) -> int:
        return self._num_written

    @property
    def last_error(self) -> str:
        return self._last_error

    def close(self) -> None:
        """Close the file handle (the daemon's shutdown); a later write reopens it."""
        self._close(quiet=False)

    def _close(self, *, quiet: bool) -> None:
        fh, self._fh = self._fh, None
        if fh is None:
            return
        try:
            fh.close()
        except OSError as exc:  # a buffered line that could not be flushed
            if not quiet:
                self._num_errors += 1
                self._last_error = f"{type(exc).__name__}: {exc}"


def engine_figures(stats: GenerationStats) -> dict[str, Any]:
    """The RequestRecord fields that come from the engine's figures of a request."""
    return {
        "num_prompt_tokens": stats.num_prompt_tokens,
        "num_cached_tokens": stats.num_cached_tokens,
        "num_prefilled_tokens": stats.num_prefilled_tokens,
        "num_generated_tokens": stats.num_generated_tokens,
        "num_draft_proposed": stats.num_draft_tokens,
        "num_draft_accepted": stats.num_draft_accepted,
        "engine_queue_ms": stats.queue_ms,
        "prefill_ms": stats.prefill_ms,
        "decode_ms": stats.decode_ms,
    }


def _ms(values: list[float], q: float) -> float | None:
    v = percentile(values, q)
    return None if v is None else round(v, 1)


def _ms_summary(values: list[float]) -> dict[str, float | None]:
    return {"p50": _ms(values, 50), "p95": _ms(values, 95)}


def _phases(ran: list[RequestRecord]) -> dict[str, float | None]:
    """Medians of where the time of requests the engine ran went, in order: held by the
    scheduler (for a warm-up of the document or a slot), to the engine's submit (its readiness
    and the context assembly), its queue, prefill, decode."""
    return {
        "num": float(len(ran)),
        "held": _ms([r.held_ms or 0.0 for r in ran], 50),
        "to_engine": _ms([(r.submit_ms or 0.0) - (r.held_ms or 0.0) for r in ran], 50),
        "queue": _ms([r.engine_queue_ms for r in ran], 50),
        "prefill": _ms([r.prefill_ms for r in ran], 50),
        "decode": _ms([r.decode_ms for r in ran], 50),
    }


class Metrics:
    """Rolling window of request records with percentiles and counters."""

    def __init__(
        self,
        *,
        window_requests: int = 500,
        window_s: float = 600.0,
        log: RequestLog | None = None,
    ) -> None:
        self.window_requests = window_requests  # most records kept
        self.window_s = window_s  # records older than this (at snapshot time) are left out
        self.log = log  # request log written by record(); None: no log
        self._records: deque[RequestRecord] = deque(maxlen=window_requests)
        self._num_total = 0  # records since start (not windowed)

    def record(self, record: RequestRecord) -> None:
        """Add a finished request to the window (and to the log when one is attached)."""
        self._records.append(record)
        self._num_total += 1
        if self.log is not None:
            self.log.write(record)

    def _window(self, now: float) -> list[RequestRecord]:
        start = now - self.window_s
        return [r for r in self._records if r.time >= start]

    def snapshot(self, now: float) -> dict[str, Any]:
        """Figures over the window ending at ``now`` (wall clock) as plain JSON-able data:
        num_requests, first_token_ms/total_ms {p50, p95}, phases_ms (medians of where the
        time of served requests the engine ran went: ``_phases``), tiers {normal, cap, fast}, watch,
        finish_reasons, speculation {proposed, accepted, acceptance}, num_tokens_saved,
        cache {hits, hit_rate}, num_shed, num_errors, num_cancelled, log {errors, last_error},
        window {requests, seconds}.

        Latency percentiles cover requests that were served (not shed, cancelled or failed).
        The daemon's background warm-ups (kind "warmup": no user waits on them) are counted in
        num_warmups only.
        """
        window = self._window(now)
        records = [r for r in window if r.kind != "warmup"]
        served = [
            r
            for r in records
            if not r.error_code and r.finish_reason not in _SHED_REASONS | CANCEL_REASONS
        ]
        first = [r.first_token_ms for r in served if r.first_token_ms is not None]
        total = [r.total_ms for r in served]
        ran = [r for r in served if not r.cache_hit and r.submit_ms is not None]
        tiers = Counter(r.tier for r in records if r.tier)
        reasons = Counter(r.finish_reason for r in records)
        proposed = sum(r.num_draft_proposed for r in records)
        accepted = sum(r.num_draft_accepted for r in records)
        hits = sum(1 for r in records if r.cache_hit)
        num_shed = sum(1 for r in records if r.finish_reason in _SHED_REASONS)
        num_cancelled = sum(1 for r in records if r.finish_reason in CANCEL_REASONS)
        num_errors = sum(
            1
            for r in records
            if r.error_code
            and r.finish_reason not in _SHED_REASONS
            and r.finish_reason not in CANCEL_REASONS
        )
        return {
            "num_requests": len(records),
            "num_warmups": len(window) - len(records),
            "num_served": len(served),
            "num_total": self._num_total,
            "first_token_ms": _ms_summary(first),
            "total_ms": _ms_summary(total),
            "phases_ms": _phases(ran),
            "tiers": {name: tiers.get(name, 0) for name in ("normal", "cap", "fast")},
            "watch": sum(1 for r in records if r.watch),
            "finish_reasons": dict(sorted(reasons.items())),
            "speculation": {
                "proposed": proposed,
                "accepted": accepted,
                "acceptance": round(accepted / proposed, 4) if proposed else None,
            },
            "num_prompt_tokens": sum(r.num_prompt_tokens for r in records),
            "num_tokens_saved": sum(r.num_tokens_saved for r in records),
            "cache": {
                "hits": hits,
                "hit_rate": round(hits / len(records), 4) if records else None,
            },
            "num_shed": num_shed,
            "num_cancelled": num_cancelled,
            "num_errors": num_errors,
            "log": {
                "errors": self.log.num_errors if self.log else 0,
                "last_error": self.log.last_error if self.log else "",
            },
            "window": {"requests": self.window_requests, "seconds": self.window_s},
        }

    def reset(self) -> None:
        """Start a new period (after a configuration change has been snapshotted)."""
        self._records.clear()
