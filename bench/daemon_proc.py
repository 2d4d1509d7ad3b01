"""A private nospin daemon for benchmarks: its own NOSPIN_HOME, the embedded model (or the test
suite's scripted engine), configuration overrides; stopped and removed afterwards."""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app import config as cfg
from app.client import AsyncClient
from app.errors import DaemonError
from daemon import lifecycle

REPO = Path(__file__).resolve().parents[1]


def add_set_argument(parser: argparse.ArgumentParser, example: str = "") -> None:
    """``--set KEY=VALUE`` (repeatable): a change to the benchmark daemon's configuration, read
    with ``app.config.parse_assignments`` as ``nospin config set`` reads it."""
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="daemon config change (dotted key; the value read as the key's "
                        f"type, as `nospin config set` reads it){example}; repeatable")


def code_version() -> str:
    """The code a benchmark and its daemon run: the repository folder and its commit, "+dirty"
    with uncommitted changes. An A/B against an older worktree must show two different values
    (``python -m`` puts the working directory first on the module path: run it from there)."""
    def git(*args: str) -> str:
        try:
            out = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True,
                                 text=True, timeout=10, check=True)
        except (OSError, subprocess.SubprocessError):
            return ""
        return out.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = "+dirty" if git("status", "--porcelain", "--untracked-files=no") else ""
    return f"{REPO} {commit}{dirty}"


@dataclass(frozen=True, slots=True)
class DaemonProc:
    home: Path  # its NOSPIN_HOME (config, state, socket)
    pid: int
    log_path: Path


def _start(home: Path, changes: dict[str, Any], engine: str, index: bool
           ) -> subprocess.Popen[bytes]:
    env = {**os.environ, "NOSPIN_HOME": str(home), "PYTHONPATH": str(REPO)}
    (home / "config").mkdir(parents=True, exist_ok=True)
    changes = dict(changes)
    if engine == "fake":
        env["NOSPIN_ENGINE_FACTORY"] = "tests.daemon.fakes:make_engine"
        env.setdefault("NOSPIN_FAKE_TOKEN_DELAY_S", "0.03")
    else:
        from engine.models import embedded_model_path

        saved = os.environ.pop("NOSPIN_HOME", None)
        try:
            changes.setdefault("engine.model", str(embedded_model_path()))  # the user's copy
        finally:
            if saved is not None:
                os.environ["NOSPIN_HOME"] = saved
    cfg.save(cfg.with_changes(cfg.Config(), changes), home / "config" / "config.toml")
    command = [sys.executable, "-m", "app.cli", "daemon", *(() if index else ("--no-index",))]
    log = open(home / "daemon.log", "wb")  # noqa: SIM115 - the child keeps it
    try:
        # its own session, as the client's autostart (daemon/lifecycle.py) starts it: Linux
        # schedules each session as one group, so busy work elsewhere takes half the machine
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    finally:
        log.close()


@contextmanager
def private_daemon(changes: dict[str, Any] | None = None, *, engine: str = "embedded",
                   index: bool = False, prefix: str = "nsbench",
                   home: Path | None = None) -> Iterator[DaemonProc]:
    """Run a daemon with ``changes`` (dotted config keys) on its own NOSPIN_HOME, which this
    process uses meanwhile (clients find that daemon); ``index``: index project roots.
    ``home``: that NOSPIN_HOME (the caller's, kept after: a daemon after this one finds what
    this one left); by default a new one, deleted after."""
    owned = home is None
    home = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp")) if home is None else home
    saved = os.environ.get("NOSPIN_HOME")
    proc = _start(home, changes or {}, engine, index)
    os.environ["NOSPIN_HOME"] = str(home)
    try:
        yield DaemonProc(home, proc.pid, home / "daemon.log")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if saved is None:
            os.environ.pop("NOSPIN_HOME", None)
        else:
            os.environ["NOSPIN_HOME"] = saved
        if owned and os.environ.get("NOSPIN_BENCH_KEEP"):  # to read its logs after
            print(f"daemon home kept: {home}", file=sys.stderr)
        elif owned:
            shutil.rmtree(home, ignore_errors=True)


async def wait_ready(timeout_s: float) -> None:
    """Until the daemon's engine is ready (DaemonError when it failed or took too long)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if lifecycle.read_daemon_info() is not None:
            client = AsyncClient(autostart=False, idle_timeout_s=5.0)
            try:
                await client.connect()
                status = await client.status()
                if status.engine.get("state") == "ready":
                    return
                if status.engine.get("state") == "failed":
                    raise DaemonError(f"engine failed: {status.engine.get('last_error')}")
            finally:
                await client.close()
        await asyncio.sleep(0.2)
    raise DaemonError("the daemon's engine did not become ready")


async def wait_indexed(client: AsyncClient, timeout_s: float, *, root: str | None = None,
                       on_poll: Callable[[], None] | None = None) -> float:
    """Until the daemon has indexed ``root`` (any root when None) and builds no index; the
    seconds it took. ``on_poll`` runs at every look (a reading taken meanwhile)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        status = await client.status()
        if on_poll is not None:
            on_poll()
        if not status.indexing and (root in status.roots if root else status.roots):
            return time.monotonic() - start
        await asyncio.sleep(0.5)
    raise DaemonError(f"the daemon did not finish indexing within {timeout_s:.0f} s")


def rss_mb(pid: int, field: str = "VmRSS") -> float | None:
    """A process's resident (VmRSS) or peak resident (VmHWM) memory in MB; None if gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None
