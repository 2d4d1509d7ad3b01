"""Which llama.cpp server slot a request of the ``xllamacpp`` engine goes to.

Each document keeps one slot: its requests name it (``id_slot``), so a keystroke's request lands
where the document's KV cache is, and waits there (the server defers a task for a busy slot)
while the superseded request's cancel lands, instead of starting a cold prefill on another slot
beside it. A document without a slot takes an idle one, the least recently used first (its old
document's state goes to the server's prompt cache), else the least recently used of all.
Requests without a document key get no slot here (-1): the server picks the slot holding the
longest share of their prompt.

Pure bookkeeping under one lock; no I/O.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field


@dataclass(slots=True)
class _Slot:
    owner: str = ""  # the document key whose KV cache the slot holds
    busy: int = 0  # requests on it now (running or waiting for it)
    used: int = 0  # when last acquired or released (a counter), for least recently used


@dataclass(slots=True)
class SlotMap:
    """Slot per document for ``n`` server slots; safe from any thread."""

    n: int
    _slots: list[_Slot] = field(init=False)
    _by_key: dict[str, int] = field(init=False, default_factory=dict)
    _clock: itertools.count[int] = field(init=False, default_factory=itertools.count)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError("a server has at least one slot")
        self._slots = [_Slot() for _ in range(self.n)]

    def acquire(self, key: str) -> int:
        """The slot for a request of document ``key``, or -1 for the server to choose (no
        key); pair with :meth:`release`."""
        if not key:
            return -1
        with self._lock:
            index = self._by_key.get(key)
            if index is None:
                index = min(range(self.n), key=lambda i: (self._slots[i].busy > 0,
                                                          self._slots[i].used))
                old = self._slots[index].owner
                if old:
                    self._by_key.pop(old, None)
                self._slots[index].owner = key
                self._by_key[key] = index
            slot = self._slots[index]
            slot.busy += 1
            slot.used = next(self._clock)
            return index

    def release(self, index: int) -> None:
        if index < 0:
            return
        with self._lock:
            slot = self._slots[index]
            slot.busy = max(0, slot.busy - 1)
            slot.used = next(self._clock)

    def owner(self, index: int) -> str:
        with self._lock:
            return self._slots[index].owner
