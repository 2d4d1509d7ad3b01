"""bench/busy.py: a busy loop in another session for a stretch of a benchmark."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bench.busy import BusySpan, busy_loop, parse_span, thread_events
from engine import cpu_load


def test_spans_parse_and_bad_ones_are_refused() -> None:
    assert parse_span("-20") == BusySpan(-20.0, None)
    assert parse_span("25") == BusySpan(25.0, None)
    assert parse_span("-10:30") == BusySpan(-10.0, 30.0)
    for bad in ("10:5", "x", "1:y"):
        with pytest.raises(ValueError):
            parse_span(bad)


def _busy_cores(seconds: float) -> float:
    before = cpu_load.sample()
    time.sleep(seconds)
    after = cpu_load.sample()
    assert before is not None and after is not None
    return cpu_load.others_busy_cores(before, after)


def test_the_loop_runs_in_its_own_session_over_its_span_only() -> None:
    if cpu_load.sample() is None:
        pytest.skip("no /proc/stat here")
    with busy_loop(BusySpan(0.3, 1.2)):
        quiet = _busy_cores(0.25)  # before it starts
        time.sleep(0.15)
        busy = _busy_cores(0.6)
        ours = [p for p in Path("/proc").iterdir() if p.name.isdigit()
                and b"while True: pass" in _cmdline(p)]
        assert ours and all(os.getsid(int(p.name)) == int(p.name) for p in ours)  # setsid
        time.sleep(0.4)
        after = _busy_cores(0.4)  # stopped at 1.2 s
    assert busy > quiet + 0.5 and busy > after + 0.5


def _cmdline(proc: Path) -> bytes:
    try:
        return (proc / "cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return b""


def test_thread_events_are_read_from_the_daemon_log(tmp_path: Path) -> None:
    log = tmp_path / "daemon.log"
    since = time.mktime(time.strptime("2026-12-01 13:45:00", "%Y-%m-%d %H:%M:%S"))
    log.write_text(
        "2026-12-01 13:45:01,500 INFO daemon.server: listening\n"
        "2026-12-01 13:45:02,250 INFO engine.llamacpp: llamacpp: other work keeps 1.0 cores "
        "busy: starting on 1 thread(s)\n"
        "2026-12-01 13:45:05,000 INFO engine.llamacpp: llamacpp: made the q8_0 weights\n"
        "2026-12-01 13:45:30,000 INFO engine.llamacpp: llamacpp: decoding on 2 thread(s) "
        "(1: 47 ms, 2: 25 ms per token)\n"
    )
    events = thread_events(log, since)
    assert [e["at_s"] for e in events] == [2.2, 30.0]
    assert str(events[1]["event"]).startswith("decoding on 2 thread(s)")
    assert thread_events(tmp_path / "missing.log", since) == []
