"""Tray tests: Qt offscreen, and a real daemon process (fake engine) in a private NOSPIN_HOME."""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before pytest-qt creates the QApplication

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from daemon import lifecycle
from tests.daemon.harness import short_home

REPO = Path(__file__).parents[2]
FAKE_ENGINE = "tests.daemon.fakes:make_engine"


class DaemonProcess:
    """``nospin daemon`` as a child process with the fake engine (no model to load)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> int:
        log_file = self.home / "test-daemon.log"
        with open(log_file, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "daemon", "--no-index"],
                cwd=REPO, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=os.environ.copy(),
            )
        lifecycle.wait_for_socket(self.proc, log_file, timeout_s=60)
        return self.proc.pid

    def kill(self) -> None:
        """Kill it hard (no clean shutdown), as a crash would."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)


def stop_any_daemon() -> None:
    """Stop whatever daemon holds this home's lock (the fixture's or one the tray started)."""
    info = lifecycle.read_daemon_info()
    if info is None:
        return
    try:
        os.kill(info.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 20
    while lifecycle.read_daemon_info() is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    if lifecycle.read_daemon_info() is not None:
        os.kill(info.pid, signal.SIGKILL)


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        monkeypatch.setenv("NOSPIN_ENGINE_FACTORY", FAKE_ENGINE)  # daemons the tray starts too
        monkeypatch.setenv("PYTHONPATH", str(REPO))
        monkeypatch.delenv("NOSPIN_ENDPOINT", raising=False)
        try:
            yield path
        finally:
            stop_any_daemon()


@pytest.fixture
def daemon(home: Path) -> Iterator[DaemonProcess]:
    process = DaemonProcess(home)
    process.start()
    yield process
    stop_any_daemon()
    if process.proc is not None and process.proc.poll() is None:
        process.proc.kill()
        process.proc.wait(10)
