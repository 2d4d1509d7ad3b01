"""KV states on pages of their own (engine/llamacpp_session.py ``state_buffer``)."""

from __future__ import annotations

import ctypes
import gc
from pathlib import Path

from engine.llamacpp_session import state_buffer


def _mapped(address: int) -> bool:
    for line in Path("/proc/self/maps").read_text().splitlines():
        start, end = (int(x, 16) for x in line.split()[0].split("-"))
        if start <= address < end:
            return True
    return False


def test_a_state_buffer_is_zeroed_writable_and_unmapped_when_dropped() -> None:
    # a bigger block freed: glibc raises its mmap threshold to it, and serves blocks up to that
    # size from its heap from now on (as after the first evicted KV state)
    bigger = (ctypes.c_uint8 * (8 * 1024 * 1024))()
    del bigger
    size = 3 * 1024 * 1024 + 5  # a KV state's size is no multiple of a page
    buf = state_buffer(size)
    assert len(buf) == size and buf[0] == 0 and buf[size - 1] == 0
    ctypes.memset(buf, 7, size)
    assert buf[size - 1] == 7
    address = ctypes.addressof(buf)
    assert address % 4096 == 0 and _mapped(address)
    del buf
    gc.collect()
    # given back to the system at once: from the C heap, a freed state stayed in the process
    assert not _mapped(address)
