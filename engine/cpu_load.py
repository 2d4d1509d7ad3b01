"""How many cores other work keeps busy right now, measured around the model load.

The llamacpp engine runs a decode step as a graph whose nodes every thread must finish before
the next one starts, and llama.cpp's threads wait for each other by spinning. When the engine's
threads get less than a core each (a build on one of two cores, in another session: Linux
schedules each session as one group, so the daemon's group gets half the machine), a waiting
thread spins out its time slice at every node: a daemon started beside one busy loop in another
session decoded at 1-3 s per token on two threads, and its first completion took 27-60 s
(docs/latency.md, "Busy at start"). One thread decodes at ~60 ms per token there.

So the engine starts on its smaller thread count when other work keeps at least
``BUSY_CORES`` cores busy during the load, and on all cores otherwise; its thread governors
then measure as they serve. The 1-minute load average, used before, lags by minutes: after a
build it still said "busy" on an idle machine, and while a build starts it still says "idle".

The figure is the machine's non-idle CPU time (``/proc/stat``: user, system, irq, softirq,
steal; not ``nice``, whose work yields to ours, and not idle or iowait) minus this process's
own, over the wall time between two samples. Linux only: elsewhere :func:`sample` returns None
and the engine starts on all cores. Niced work is left out because the daemon's own index
workers run niced beside the load; niced work in another session (``nice make``) does take
that session's share, and is then found by the governors on the first requests instead (a
count far slower than its figure is left after one request: engine/llamacpp.py).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BUSY_CORES", "CpuSample", "busy_jiffies", "others_busy_cores", "sample"]

BUSY_CORES = 0.5  # other work using this many cores or more: start on the smaller count
PROC_STAT = Path("/proc/stat")
# /proc/stat "cpu" fields counted as busy: user, system, irq, softirq, steal (guest time is
# already inside user); not nice (1), idle (3) or iowait (4)
_BUSY_FIELDS = (0, 2, 5, 6, 7)


@dataclass(frozen=True, slots=True)
class CpuSample:
    busy_s: float  # the machine's busy CPU seconds so far (all cores)
    own_s: float  # this process's CPU seconds so far (all its threads)
    at: float  # time.monotonic() of the sample


def busy_jiffies(proc_stat: str) -> int:
    """Busy clock ticks of all cores from the text of ``/proc/stat`` (its ``cpu`` line);
    ValueError when there is none."""
    for line in proc_stat.splitlines():
        parts = line.split()
        if parts and parts[0] == "cpu":
            values = [int(v) for v in parts[1:]]
            return sum(values[i] for i in _BUSY_FIELDS if i < len(values))
    raise ValueError("no cpu line in /proc/stat")


def sample() -> CpuSample | None:
    """The machine's and this process's CPU time now; None where ``/proc/stat`` is not."""
    try:
        ticks = busy_jiffies(PROC_STAT.read_text())
        hz = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return None
    own = os.times()
    return CpuSample(ticks / hz, own.user + own.system, time.monotonic())


def others_busy_cores(before: CpuSample, after: CpuSample) -> float:
    """Cores other work kept busy between two samples (0 when no time passed)."""
    wall = after.at - before.at
    if wall <= 0:
        return 0.0
    others = (after.busy_s - before.busy_s) - (after.own_s - before.own_s)
    return max(0.0, others / wall)
