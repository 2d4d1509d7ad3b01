"""A real ``nospin daemon`` process for the tray tests (fake engine, private NOSPIN_HOME)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from daemon import lifecycle

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
