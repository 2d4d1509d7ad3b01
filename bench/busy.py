"""Other work for a benchmark: a busy loop in a session of its own, for a stretch of the run.

A build in another terminal is its own session; Linux (autogroup) gives each session's group
an equal share of the machine, so a busy loop in the benchmark's own session (as the replays
before 2026-12-01 had it) understates what the daemon meets (docs/latency.md, "Busy at start").
``busy_loop(start_s, stop_s)`` runs ``python -c "while True: pass"`` with ``setsid`` semantics
from ``start_s`` to ``stop_s`` seconds after the block is entered; a negative ``start_s``
starts it that long before (the block's entry waits), as a build already running when the
daemon starts. The loop is killed when the block ends in any case.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

__all__ = ["BusySpan", "busy_loop", "parse_span", "thread_events"]


@dataclass(frozen=True, slots=True)
class BusySpan:
    start_s: float  # seconds after the block is entered (negative: before)
    stop_s: float | None  # None: until the block ends


def parse_span(text: str) -> BusySpan:
    """``START[:STOP]`` in seconds (``-20``, ``25``, ``-10:30``); ValueError when malformed."""
    start, _, stop = text.partition(":")
    span = BusySpan(float(start), float(stop) if stop else None)
    if span.stop_s is not None and span.stop_s <= span.start_s:
        raise ValueError(f"the busy loop must stop after it starts: {text!r}")
    return span


@contextmanager
def busy_loop(span: BusySpan | None) -> Iterator[float]:
    """Run the busy loop over ``span`` (None: no loop); yields the block's start (time.time())."""
    if span is None:
        yield time.time()
        return
    procs: list[subprocess.Popen[bytes]] = []
    lock = threading.Lock()
    done = threading.Event()

    def start() -> None:
        with lock:
            if not done.is_set():
                procs.append(subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                              start_new_session=True))

    def stop() -> None:
        with lock:
            for proc in procs:
                proc.kill()
                proc.wait()
            procs.clear()

    timers: list[threading.Timer] = []
    if span.start_s <= 0:
        start()
        time.sleep(-span.start_s)
    else:
        timers.append(threading.Timer(span.start_s, start))
    if span.stop_s is not None:
        timers.append(threading.Timer(max(0.0, span.stop_s), stop))
    for timer in timers:
        timer.daemon = True
        timer.start()
    try:
        yield time.time()
    finally:
        done.set()
        for timer in timers:
            timer.cancel()
        stop()


_EVENT = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) INFO engine\.llamacpp: llamacpp: (.*)$"
)


def thread_events(log_path: Path, since: float) -> list[dict[str, object]]:
    """The llamacpp engine's thread-count events in a daemon log (its start count, verdict
    changes, 'other work stopped'), each at seconds after ``since`` (time.time())."""
    try:
        lines = log_path.read_text(errors="replace").splitlines()
    except OSError:
        return []
    events: list[dict[str, object]] = []
    for line in lines:
        m = _EVENT.match(line)
        if m is None or "thread" not in m.group(2):
            continue
        at = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
        events.append({"at_s": round(at - since, 1), "event": m.group(2)})
    return events
