"""Helpers shared by the editor tests (test_nvim.py, test_vim.py): waiting for a condition,
and ending the language servers an editor left behind. The fixtures are in conftest.py."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).parents[2]
# the daemon's engine in the fast editor tests: scripted, always the same answer (fake_home)
FAKE_ENGINE = "tests.daemon.fakes:make_engine"


def use_fake_engine(
    monkeypatch: Any, pieces: tuple[str, ...] | None = None, token_delay_s: float = 0.005
) -> None:
    """The daemons started from here on run FAKE_ENGINE, which streams ``pieces`` (its usual
    answer when None) a piece every ``token_delay_s``."""
    monkeypatch.setenv("NOSPIN_ENGINE_FACTORY", FAKE_ENGINE)
    monkeypatch.setenv("NOSPIN_FAKE_TOKEN_DELAY_S", str(token_delay_s))
    if pieces is None:
        monkeypatch.delenv("NOSPIN_FAKE_PIECES", raising=False)
    else:
        monkeypatch.setenv("NOSPIN_FAKE_PIECES", json.dumps(pieces))


def wait_for(what: str, check: Callable[[], Any], timeout_s: float) -> Any:
    """``check()``'s first true value, polled every 0.1 s; fails after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}")


def end_servers(home: Path, timeout_s: float = 10.0) -> None:
    """Wait for the language servers of ``home`` (NOSPIN_HOME in their environment) to exit
    after the editor quit, then kill what is left: one still running when the daemon is stopped
    starts a new one on its next document update (it did: daemons outlived their tests)."""
    def servers() -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
                env = (entry / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"lsp" in cmd and f"NOSPIN_HOME={home}".encode() in env:
                found.append(int(entry.name))
        return found

    if not Path("/proc").is_dir():
        return
    deadline = time.monotonic() + timeout_s
    while servers() and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in servers():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def seed_crash_report(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What faulthandler leaves of a daemon that died in llama.cpp: the next daemon reports it."""
    from app.paths import state_dir
    from daemon.crashlog import CRASH_FILE

    monkeypatch.setenv("NOSPIN_HOME", str(home))
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CRASH_FILE).write_text(
        "Fatal Python error: Segmentation fault\n\n"
        "Current thread 0x00007f3a2b7fe6c0 (most recent call first):\n"
        '  File "/venv/lib/python3.11/site-packages/llama_cpp/_internals.py", line 329 in decode\n'
        '  File "/work/engine/llamacpp.py", line 512 in _run\n')
