"""Lifecycle: one daemon per user, files and modes, start on demand, signals, backoff."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.errors import AlreadyRunning, DaemonError
from daemon import lifecycle
from daemon.supervisor import backoff_delay
from tests.daemon.harness import RawClient, short_home

REPO = Path(__file__).parents[2]


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path


def test_lock_is_exclusive_and_says_where(home: Path) -> None:
    first = lifecycle.DaemonLock()
    first.acquire()
    first.write_info(["ipc:///somewhere"], "/log")
    info = lifecycle.read_daemon_info()
    assert info is not None and info.pid == os.getpid() and info.endpoints == ("ipc:///somewhere",)
    with pytest.raises(AlreadyRunning, match=r"pid \d+\) at ipc:///somewhere"):
        lifecycle.DaemonLock().acquire()
    first.release()
    assert lifecycle.read_daemon_info() is None  # stale file: nobody holds it
    again = lifecycle.DaemonLock()
    again.acquire()
    again.release()


def test_runtime_dir_private_and_token_0600(home: Path) -> None:
    lifecycle.prepare_socket_path()
    assert stat.S_IMODE(lifecycle.socket_path().parent.stat().st_mode) == 0o700
    token = lifecycle.read_or_create_token()
    assert len(token) >= 32 and lifecycle.read_or_create_token() == token
    assert stat.S_IMODE(lifecycle.token_path().stat().st_mode) == 0o600


def test_too_long_socket_path_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOSPIN_HOME", "/tmp/" + "x" * 120)
    with pytest.raises(DaemonError, match="too long"):
        lifecycle.ipc_endpoint()


def test_backoff_doubles_and_caps() -> None:
    assert [backoff_delay(n, base_s=0.5, cap_s=4) for n in range(1, 7)] == [
        0.5, 1.0, 2.0, 4.0, 4.0, 4.0]


def _daemon_env(home: Path) -> dict[str, str]:
    return {**os.environ, "NOSPIN_HOME": str(home),
            "NOSPIN_ENGINE_FACTORY": "tests.daemon.fakes:make_engine",
            "PYTHONPATH": str(REPO)}


def _quiet_daemon(home: Path, **env: str) -> subprocess.Popen[bytes]:
    """``nospin daemon --no-index`` with the scripted engine (``env`` on top), serving."""
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "daemon", "--no-index"],
                            cwd=REPO, env={**_daemon_env(home), **env},
                            stderr=subprocess.DEVNULL)
    try:
        _wait_socket(proc)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc


def _wait_socket(proc: subprocess.Popen[bytes], timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while not (lifecycle.socket_path().exists() and lifecycle.read_daemon_info()):
        assert proc.poll() is None, "daemon exited"
        assert time.monotonic() < deadline, "daemon did not start"
        time.sleep(0.05)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_foreground_daemon_stops_cleanly_on_signal(home: Path, sig: signal.Signals) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "daemon", "--no-index"],
                            cwd=REPO, env=_daemon_env(home), stderr=subprocess.PIPE)
    try:
        _wait_socket(proc)
        sock = lifecycle.socket_path()
        assert stat.S_IMODE(sock.stat().st_mode) == 0o600
        # a second daemon says where the first one is
        second = subprocess.run([sys.executable, "-m", "app.cli", "daemon"], cwd=REPO,
                                env=_daemon_env(home), capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 1
        assert f"pid {proc.pid}" in second.stderr and f"ipc://{sock}" in second.stderr
        raw = RawClient()
        raw.send({"type": "status", "id": "s"})
        assert raw.recv(10)["type"] == "status"
        raw.close()
        proc.send_signal(sig)
        _, err_bytes = proc.communicate(timeout=20)
        assert proc.returncode == 0
        err = err_bytes.decode()
        assert "serving on ipc://" in err and "shutting down" in err
        assert not sock.exists()
        assert lifecycle.read_daemon_info() is None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_a_config_set_loading_an_engine_gets_a_reply_on_shutdown(home: Path) -> None:
    proc = _quiet_daemon(home, NOSPIN_FAKE_START_S="2.0")
    try:
        raw = RawClient()
        raw.send({"type": "status", "id": "s"})
        deadline = time.monotonic() + 30
        while raw.until_final("s", timeout_s=10)[-1]["engine"]["state"] != "ready":
            assert time.monotonic() < deadline
            time.sleep(0.2)
            raw.send({"type": "status", "id": "s"})
        raw.send({"type": "config.set", "id": "c", "changes": {"engine.n_ctx": 8192}})
        time.sleep(0.5)  # the new engine loads for 2 s
        proc.send_signal(signal.SIGTERM)
        final = raw.until_final("c", timeout_s=20)[-1]
        assert final["type"] == "error" and final["code"] == "daemon", final
        assert "not changed" in final["message"]
        raw.close()
        assert proc.wait(20) == 0
        saved = home / "config" / "config.toml"
        assert not saved.exists() or "n_ctx" not in saved.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_pending_request_gets_a_reply_on_shutdown(home: Path) -> None:
    proc = _quiet_daemon(home, NOSPIN_FAKE_TOKEN_DELAY_S="1.0")
    try:
        src = home / "a.py"
        src.write_text("def f():\n    \n")
        raw = RawClient()
        raw.send({"type": "complete", "id": "c", "path": str(src), "line": 1, "col": 4,
                  "options": {"deadline_ms": 60000, "multiline": True}})
        first = raw.recv(20)
        assert first["id"] == "c"
        proc.send_signal(signal.SIGTERM)
        final = raw.until_final("c", timeout_s=20)[-1]
        assert final["type"] in ("error", "done")
        if final["type"] == "error":
            assert final["code"] in ("daemon", "cancelled")
        raw.close()
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_another_user_cannot_connect(home: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to switch to another uid in a child")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "daemon", "--no-index"],
                            cwd=REPO, env=_daemon_env(home), stderr=subprocess.DEVNULL)
    try:
        _wait_socket(proc)
        path = str(lifecycle.socket_path())
        # the home folder itself must be traversable for the test to mean anything
        os.chmod(home, 0o755)
        pid = os.fork()
        if pid == 0:  # child: become nobody and try to connect
            code = 0
            try:
                os.setgid(65534)
                os.setuid(65534)
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    s.connect(path)
                    code = 1  # connected: the test fails
                except PermissionError:
                    code = 0
                except OSError:
                    code = 2
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, "another user could reach the socket"
        # and the owner can
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        s.close()
    finally:
        proc.terminate()
        proc.wait(20)


def test_lock_file_json_names_endpoints(home: Path) -> None:
    lock = lifecycle.DaemonLock()
    lock.acquire()
    lock.write_info(["ipc:///a", "tcp://127.0.0.1:5"], "/l")
    raw = json.loads(lifecycle.lock_path().read_text())
    assert raw["endpoints"] == ["ipc:///a", "tcp://127.0.0.1:5"] and raw["pid"] == os.getpid()
    lock.release()


def test_a_fatal_crash_is_reported_by_the_next_daemon(home: Path) -> None:
    """A native fault ends the daemon before Python logs anything (2026-12-02: llama.cpp's AMX
    kernels on a VM). faulthandler writes it to crash.txt; the next daemon reports it in its
    status, keeps it as last-crash.txt, and a clean exit leaves nothing to report."""
    from app.paths import state_dir
    from daemon.crashlog import CRASH_FILE, LAST_CRASH_FILE

    src = home / "a.py"
    src.write_text("def f():\n    \n")
    crashing = subprocess.Popen([sys.executable, "-m", "app.cli", "daemon", "--no-index"],
                                cwd=REPO, env={**_daemon_env(home), "NOSPIN_FAKE_SEGFAULT": "1"},
                                stderr=subprocess.DEVNULL)
    try:
        _wait_socket(crashing)
        assert (state_dir() / CRASH_FILE).read_text() == ""  # armed, nothing yet
        raw = RawClient()
        raw.send({"type": "complete", "id": "c", "path": str(src), "line": 1, "col": 4,
                  "options": {"deadline_ms": 60000}})
        assert crashing.wait(30) == -signal.SIGSEGV
        raw.close()
    finally:
        if crashing.poll() is None:
            crashing.kill()
            crashing.wait()
    report = (state_dir() / CRASH_FILE).read_text()
    assert "Fatal Python error: Segmentation fault" in report and "in _run" in report
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "daemon", "--no-index"],
                            cwd=REPO, env=_daemon_env(home), stderr=subprocess.PIPE)
    try:
        _wait_socket(proc)
        status = subprocess.run([sys.executable, "-m", "app.cli", "status", "--json"],
                                cwd=REPO, env=_daemon_env(home), capture_output=True,
                                text=True, timeout=60)
        crash = json.loads(status.stdout)["last_crash"]
        assert crash["error"] == "Segmentation fault"
        assert crash["where"].startswith("daemon/fakes.py:") and crash["where"].endswith("_run")
        assert Path(crash["path"]).read_text() == report
        assert crash["path"] == str(state_dir() / LAST_CRASH_FILE)
        text = subprocess.run([sys.executable, "-m", "app.cli", "status"], cwd=REPO,
                              env=_daemon_env(home), capture_output=True, text=True, timeout=60)
        assert "CRASHED    the previous daemon: Segmentation fault in daemon/fakes.py:" in \
            text.stdout
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        assert proc.returncode == 0
        assert "the previous daemon crashed: Segmentation fault" in err.decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert not (state_dir() / CRASH_FILE).exists()  # a clean exit: nothing to report next time
    again = subprocess.Popen([sys.executable, "-m", "app.cli", "daemon", "--no-index"],
                             cwd=REPO, env=_daemon_env(home), stderr=subprocess.DEVNULL)
    try:
        _wait_socket(again)
        raw = RawClient()
        raw.send({"type": "status", "id": "s"})
        assert raw.recv(10)["last_crash"] == {}  # it exited cleanly: nothing to report
        raw.close()
        again.send_signal(signal.SIGTERM)
        assert again.wait(20) == 0
    finally:
        if again.poll() is None:
            again.kill()
            again.wait()
