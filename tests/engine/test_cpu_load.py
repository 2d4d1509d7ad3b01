"""engine/cpu_load.py: what other work uses of the CPU, from /proc/stat."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from engine import cpu_load
from engine.cpu_load import CpuSample, busy_jiffies, others_busy_cores

STAT = """cpu  100 50 30 1000 40 5 6 7 0 0
cpu0 50 25 15 500 20 2 3 3 0 0
intr 12345
"""


def test_busy_ticks_count_user_system_irq_softirq_and_steal_not_nice_idle_or_iowait() -> None:
    assert busy_jiffies(STAT) == 100 + 30 + 5 + 6 + 7
    assert busy_jiffies("cpu  1 2 3 4\n") == 1 + 3  # an old kernel's four fields
    with pytest.raises(ValueError):
        busy_jiffies("intr 1\n")


def test_others_are_the_machine_less_this_process() -> None:
    before = CpuSample(busy_s=10.0, own_s=2.0, at=100.0)
    after = CpuSample(busy_s=11.5, own_s=2.5, at=101.0)  # 1.5 s busy, 0.5 of it ours
    assert others_busy_cores(before, after) == pytest.approx(1.0)
    assert others_busy_cores(after, after) == 0.0
    assert others_busy_cores(before, CpuSample(10.0, 3.0, 101.0)) == 0.0  # never negative


def test_a_busy_process_is_seen_and_our_own_work_is_not() -> None:
    first = cpu_load.sample()
    if first is None:
        pytest.skip("no /proc/stat here")
    end = time.monotonic() + 0.4
    while time.monotonic() < end:  # this process's own work
        pass
    ours = others_busy_cores(first, cpu_load.sample() or first)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        before = cpu_load.sample()
        time.sleep(0.5)
        after = cpu_load.sample()
    finally:
        busy.kill()
        busy.wait()
    assert before is not None and after is not None
    assert others_busy_cores(before, after) > ours + 0.5
