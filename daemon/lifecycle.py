"""The daemon's life: one per user (lock file), where it listens, starting it on demand,
signals, and keeping its engine alive (restart with backoff).

Files (all under the user's private directories, see ``app.paths``)::

    runtime_dir()/daemon.sock    ipc socket, mode 0600 (directory 0700)
    runtime_dir()/daemon.lock    flock'ed while a daemon runs; JSON: pid, endpoints, log
    config_dir()/daemon.token    token for the optional tcp://127.0.0.1 listener, mode 0600
    state_dir()/daemon.log       log of a daemon started on demand
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from app.errors import AlreadyRunning, DaemonError
from app.paths import atomic_write, config_dir, ensure_private_dir, runtime_dir, state_dir

log = logging.getLogger(__name__)

MAX_IPC_PATH = 100  # sun_path is 108 bytes on Linux; keep a margin


def socket_path() -> Path:
    return runtime_dir() / "daemon.sock"


def ipc_endpoint() -> str:
    path = socket_path()
    if len(str(path)) > MAX_IPC_PATH:
        raise DaemonError(
            f"socket path {path} is too long for ipc:// ({len(str(path))} > {MAX_IPC_PATH})",
            detail="set NOSPIN_HOME or XDG_RUNTIME_DIR to a shorter directory",
        )
    return f"ipc://{path}"


def lock_path() -> Path:
    return runtime_dir() / "daemon.lock"


def log_path() -> Path:
    return state_dir() / "daemon.log"


def token_path() -> Path:
    return config_dir() / "daemon.token"


def tcp_endpoint(port: int) -> str:
    return f"tcp://127.0.0.1:{port}"


def read_token() -> str | None:
    """The tcp token, or None when none was created."""
    try:
        return token_path().read_text(encoding="ascii").strip() or None
    except FileNotFoundError:
        return None


def read_or_create_token() -> str:
    """Return the tcp token, creating the token file (0600) on first use."""
    token = read_token()
    if token:
        return token
    token = secrets.token_urlsafe(32)
    ensure_private_dir(config_dir())
    atomic_write(token_path(), token.encode("ascii"), mode=0o600)
    return token


@dataclass(frozen=True, slots=True)
class DaemonInfo:
    """What the lock file says about the running daemon."""

    pid: int
    endpoints: tuple[str, ...]
    log_path: str
    started: float


# Windows locks byte ranges: lock one byte far past the info, so the info stays readable
_LOCK_OFFSET = 1 << 20


def _try_lock(fd: int, *, exclusive: bool) -> bool:
    """Non-blocking lock of the lock file: flock on POSIX, a byte-range lock on Windows."""
    if sys.platform == "win32":  # pragma: no cover - checked on Windows only
        import msvcrt

        pos = os.lseek(fd, 0, os.SEEK_CUR)
        os.lseek(fd, _LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
        finally:
            os.lseek(fd, pos, os.SEEK_SET)
    import fcntl

    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - checked on Windows only
        import msvcrt

        os.lseek(fd, _LOCK_OFFSET, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def read_daemon_info() -> DaemonInfo | None:
    """The running daemon's info from the lock file, or None when no daemon holds the lock."""
    path = lock_path()
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        if _try_lock(fd, exclusive=False):
            _unlock(fd)
            return None  # nobody holds it: stale file
        # held exclusively: a daemon runs; read what it wrote
        os.lseek(fd, 0, os.SEEK_SET)
        data = os.read(fd, 65536)
    finally:
        os.close(fd)
    try:
        raw = json.loads(data)
        return DaemonInfo(
            pid=int(raw["pid"]),
            endpoints=tuple(str(e) for e in raw["endpoints"]),
            log_path=str(raw.get("log_path", "")),
            started=float(raw.get("started", 0.0)),
        )
    except (ValueError, KeyError, TypeError):
        return None


class DaemonLock:
    """The per-user lock: an exclusive flock on ``daemon.lock`` held for the daemon's life."""

    def __init__(self) -> None:
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise AlreadyRunning saying where the running daemon is."""
        ensure_private_dir(runtime_dir())
        fd = os.open(lock_path(), os.O_RDWR | os.O_CREAT, 0o600)
        if not _try_lock(fd, exclusive=True):
            os.close(fd)
            info = read_daemon_info()
            where = ", ".join(info.endpoints) if info else str(socket_path())
            pid = info.pid if info else "?"
            raise AlreadyRunning(
                f"a nospin daemon already runs for this user (pid {pid}) at {where}"
            ) from None
        self._fd = fd

    def write_info(self, endpoints: list[str], log_file: str) -> None:
        """Record pid and endpoints in the lock file (readers see it while the lock is held)."""
        if self._fd is None:
            raise DaemonError("write_info before acquire")
        data = json.dumps(
            {"pid": os.getpid(), "endpoints": endpoints, "log_path": log_file,
             "started": time.time()}
        ).encode()
        os.ftruncate(self._fd, 0)
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.write(self._fd, data)

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
        _unlock(self._fd)
        os.close(self._fd)
        self._fd = None


def prepare_socket_path() -> Path:
    """Make the runtime dir private (0700) and remove a stale socket left by a dead daemon.

    Call only while holding the DaemonLock (so the socket cannot belong to a live daemon).
    """
    ensure_private_dir(runtime_dir())
    path = socket_path()
    path.unlink(missing_ok=True)
    return path


def secure_socket(path: Path) -> None:
    """Restrict the bound ipc socket to the user (0600); other users cannot connect."""
    os.chmod(path, 0o600)


# --------------------------------------------------------------------------- start on demand
def spawn_daemon(*, extra_args: tuple[str, ...] = ()) -> tuple[subprocess.Popen[bytes], Path]:
    """Start ``nospin daemon`` detached (own session), logging to ``log_path()``; returns its
    process handle and the log file. The daemon is meant to outlive the caller (it is this
    user's, not the caller's), so it is never killed here: a thread of the caller waits for it,
    which reaps it when it exits while the caller runs (no zombie) and leaves the handle with
    an exit status (no ResourceWarning "subprocess ... is still running" when it is dropped).
    ``proc.poll()`` still says whether it has exited."""
    log_file = log_path()
    ensure_private_dir(log_file.parent)
    handle: IO[bytes] = open(log_file, "ab")  # noqa: SIM115 - handed to the child
    try:
        proc = subprocess.Popen(
            # -P: the working directory (a user's project) is not put on sys.path, so its own
            # `app` or `daemon` package never stands in for nospin's (or runs as the daemon)
            [sys.executable, "-P", "-m", "app.cli", "daemon", "--log-file", str(log_file),
             *extra_args],
            stdin=subprocess.DEVNULL,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
            env=os.environ.copy(),
        )
    finally:
        handle.close()
    threading.Thread(target=proc.wait, name=f"nospin-daemon-reaper-{proc.pid}",
                     daemon=True).start()
    return proc, log_file


def wait_for_socket(proc: subprocess.Popen[bytes], log_file: Path, *, timeout_s: float) -> None:
    """Wait until the spawned daemon's socket exists; raise DaemonError with the log path."""
    deadline = time.monotonic() + timeout_s
    path = socket_path()
    while time.monotonic() < deadline:
        if path.exists() and read_daemon_info() is not None:
            return
        code = proc.poll()
        if code is not None:
            if path.exists() and read_daemon_info() is not None:
                return  # lost a race with another starter: that daemon serves us
            raise DaemonError(
                f"the daemon exited with status {code} while starting; see {log_file}",
                detail=_log_tail(log_file),
            )
        time.sleep(0.05)
    raise DaemonError(
        f"the daemon did not open its socket within {timeout_s:.0f} s; see {log_file}",
        detail=_log_tail(log_file),
    )


def stop_daemon(timeout_s: float = 15.0) -> int | None:
    """Stop the daemon recorded in the lock file (SIGTERM: a clean shutdown that answers what
    is in flight) and wait until it has released the lock. Returns its pid; None when no daemon
    runs. Raises DaemonError when it is still running after ``timeout_s``."""
    info = read_daemon_info()
    if info is None:
        return None
    try:
        os.kill(info.pid, signal.SIGTERM)
    except ProcessLookupError:  # gone between the read and the signal
        return None
    except PermissionError as exc:
        raise DaemonError(f"cannot stop the daemon (pid {info.pid}): {exc}") from exc
    deadline = time.monotonic() + timeout_s
    while read_daemon_info() is not None:
        if time.monotonic() > deadline:
            raise DaemonError(
                f"the daemon (pid {info.pid}) did not stop within {timeout_s:.0f} s; "
                f"see {info.log_path or log_path()}"
            )
        time.sleep(0.05)
    return info.pid


def _log_tail(path: Path, lines: int = 5) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return " | ".join(text.strip().splitlines()[-lines:])


# --------------------------------------------------------------------------- signals
def install_stop_signals(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """SIGTERM and SIGINT set ``stop`` (clean shutdown); a second SIGINT is not needed."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
