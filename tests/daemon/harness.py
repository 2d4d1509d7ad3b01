"""Run a real daemon (real ipc socket, in a thread of the test process) and talk raw ZeroMQ."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import zmq

from app.config import Config, default_config_path
from daemon import lifecycle
from daemon.in_thread import DaemonThread, daemon_in_thread
from daemon.service import Service
from engine.base import Engine
from tests.daemon.fakes import FakeEngine


@contextmanager
def short_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """NOSPIN_HOME in a short /tmp folder (ipc paths must stay under ~100 bytes)."""
    home = Path(tempfile.mkdtemp(prefix="ns", dir="/tmp"))
    monkeypatch.setenv("NOSPIN_HOME", str(home))
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)


@dataclass
class DaemonHandle:
    """The daemon in this process (its service, endpoint and loop) and the engines it made."""

    daemon: DaemonThread
    engines: list[Engine] = field(default_factory=list)

    @property
    def service(self) -> Service:
        return self.daemon.service

    @property
    def endpoint(self) -> str:
        return self.daemon.endpoint

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the daemon's loop and return its result."""
        return self.daemon.call(fn)


@contextmanager
def running_daemon(
    config: Config | None = None,
    *,
    engine_factory: Callable[[], Engine] | None = None,
    index_projects: bool = False,
    engine_factory_for: Callable[[Config], Engine] | None = None,
) -> Iterator[DaemonHandle]:
    """A daemon serving on the real ipc socket of NOSPIN_HOME until the block ends.

    ``engine_factory_for``: the engine of a changed configuration (engine settings set with
    ``config.set`` load a new one); every engine made either way is in ``engines``."""
    engines: list[Engine] = []

    def factory() -> Engine:
        engine = engine_factory() if engine_factory else FakeEngine()
        engines.append(engine)
        return engine

    def factory_for(changed: Config) -> Callable[[], Engine]:
        assert engine_factory_for is not None

        def make() -> Engine:
            engine = engine_factory_for(changed)
            engines.append(engine)
            return engine
        return make

    with daemon_in_thread(config or Config(), engine_factory=factory,
                          engine_factory_for=factory_for if engine_factory_for else None,
                          config_path=default_config_path(),
                          index_projects=index_projects) as daemon:
        yield DaemonHandle(daemon, engines)


class RawClient:
    """A plain DEALER socket: send bytes, receive decoded JSON replies."""

    def __init__(self, endpoint: str | None = None, *, routing_id: bytes | None = None) -> None:
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        if routing_id is not None:  # else ROUTER numbers the connection
            self.sock.setsockopt(zmq.ROUTING_ID, routing_id)
        self.sock.connect(endpoint or lifecycle.ipc_endpoint())

    def send(self, data: bytes | dict[str, Any]) -> None:
        if isinstance(data, dict):
            data = json.dumps(data).encode()
        self.sock.send(data)

    def recv(self, timeout_s: float = 5.0) -> dict[str, Any]:
        if not self.sock.poll(int(timeout_s * 1000)):
            raise TimeoutError("no reply")
        reply: dict[str, Any] = json.loads(self.sock.recv())
        return reply

    def until_final(self, request_id: str, timeout_s: float = 10.0) -> list[dict[str, Any]]:
        """Every reply for ``request_id`` up to and including its final one (others dropped)."""
        out: list[dict[str, Any]] = []
        while True:
            reply = self.recv(timeout_s)
            if reply.get("id") != request_id:
                continue
            out.append(reply)
            if reply["type"] not in ("chunk", "heartbeat", "event"):
                return out

    def close(self) -> None:
        self.sock.close(0)
        self.ctx.term()


def write_project(root: Path) -> Path:
    """A tiny Python project; returns the file to complete in."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    src = root / "calc.py"
    src.write_text("def add(a, b):\n    \n\n\ndef sub(a, b):\n    return a - b\n")
    return src
