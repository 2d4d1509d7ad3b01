"""Tray tests: Qt offscreen, and a real daemon process (fake engine) in a private NOSPIN_HOME."""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before pytest-qt creates the QApplication

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.harness import short_home
from tests.ui.harness import FAKE_ENGINE, REPO, DaemonProcess, stop_any_daemon


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
