"""Fixtures of the editor tests: a private NOSPIN_HOME whose daemon runs the embedded model
(``home``), or the scripted fake engine (``fake_home``); each stops its daemon at the end."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from daemon import lifecycle
from tests.editors.harness import end_servers


@pytest.fixture
def home() -> Iterator[Path]:
    """A home whose config points the daemon at the embedded model (skips without it)."""
    from engine.models import embedded_model_path

    try:
        model = embedded_model_path()
    except Exception as exc:
        pytest.skip(f"embedded model not installed: {exc}")
    home = Path(tempfile.mkdtemp(prefix="nsv", dir="/tmp"))  # short ipc paths
    (home / "config").mkdir()
    (home / "config" / "config.toml").write_text(f'[engine]\nmodel = "{model}"\n')
    try:
        yield home
    finally:
        end_servers(home)  # a server left running would start a daemon after the stop below
        os.environ["NOSPIN_HOME"] = str(home)
        try:
            info = lifecycle.read_daemon_info()
            if info is not None:
                os.kill(info.pid, signal.SIGTERM)
                deadline = time.monotonic() + 20
                while lifecycle.read_daemon_info() is not None and time.monotonic() < deadline:
                    time.sleep(0.1)
        finally:
            del os.environ["NOSPIN_HOME"]
            shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def fake_home() -> Iterator[Path]:
    """A home with a project folder ``proj``; the test sets NOSPIN_ENGINE_FACTORY (FAKE_ENGINE)
    so that the daemon its editor starts answers from the scripted engine."""
    home = Path(tempfile.mkdtemp(prefix="nsf", dir="/tmp"))  # short ipc paths
    (home / "proj").mkdir()
    (home / "proj" / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    try:
        yield home
    finally:
        end_servers(home)  # the editor's `nospin lsp` could start a daemon after the stop below
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("NOSPIN_HOME", str(home))
            lifecycle.stop_daemon(20.0)
        shutil.rmtree(home, ignore_errors=True)
