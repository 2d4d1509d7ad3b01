"""llama.cpp's log, muted without Python while it floods.

llama-cpp-python routes every llama.cpp log line through a Python callback, even the lines it
then drops, so each one needs the GIL. A model load writes about 2,200 of them (the GGUF
metadata, one per tensor, the context's set-up). With another Python thread running, as the
project index does while the daemon starts, each line waits for that thread's switch interval
(5 ms): the load took 3.3-4.3 s beside a spinning thread instead of 0.41-0.55 s.

:func:`muted` points llama.cpp's log at a native function that ignores its arguments (libc's
``getpid``: the C calling conventions nospin runs on leave unused arguments to the caller) for
a block and gives llama-cpp-python its callback back after. Nested and concurrent blocks share
one mute. Where no such function can be found, the block runs with the log as it is; where
llama-cpp-python is not installed (the xllamacpp engine, whose own log is off), there is no log
to mute and the block just runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import sys
import threading
from collections.abc import Iterator
from typing import Any

log = logging.getLogger(__name__)

_lock = threading.Lock()
_depth = 0
_noop: Any = None  # the native no-op as a llama_log_callback; False once it was not found


def _native_noop(llama_cpp: Any) -> Any:
    global _noop
    if _noop is None:
        try:
            if sys.platform == "win32":
                func = ctypes.WinDLL("kernel32").GetCurrentProcessId  # type: ignore[attr-defined]
            else:
                func = ctypes.CDLL(ctypes.util.find_library("c") or None).getpid
            _noop = ctypes.cast(func, llama_cpp.llama_log_callback)
        except (OSError, AttributeError, TypeError):  # pragma: no cover - no libc to call
            log.info("no native no-op found; llama.cpp's log goes through Python")
            _noop = False
    return _noop


def _python_callback(llama_cpp: Any) -> Any:
    from llama_cpp import _logger  # llama-cpp-python's own route, installed at import

    return _logger.llama_log_callback


@contextlib.contextmanager
def muted() -> Iterator[None]:
    """No llama.cpp log, and no GIL taken for it, for the block (any thread)."""
    global _depth
    try:
        import llama_cpp
    except ImportError:  # no llama-cpp-python, no log of its to mute
        yield
        return

    noop = _native_noop(llama_cpp)
    if noop is False:
        yield
        return
    with _lock:
        _depth += 1
        if _depth == 1:
            llama_cpp.llama_log_set(noop, ctypes.c_void_p(0))
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                llama_cpp.llama_log_set(_python_callback(llama_cpp), ctypes.c_void_p(0))


__all__ = ["muted"]
