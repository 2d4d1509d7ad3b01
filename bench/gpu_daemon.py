"""The daemon runs a batching engine's requests side by side (GPU check, paged mode).

``batch_through_daemon`` starts a daemon in this process on its real ipc socket (under
``NOSPIN_HOME``) with the given engine, sends one completion alone, then ``n`` at once from
``n`` clients on ``n`` documents (none supersedes another), and returns the times, the
scheduler's capacity, each request's tier and reason, and ``speedup``: tokens per second with
``n`` at once against one alone. A daemon that runs one request at a time (before 2026-12-03 it
did, whatever the engine declared) gets about 1; one that batches far more. ``stage_daemon``
runs it with the exllamav2 engine in paged mode (bench/gpu_paged.py); the tests run it with a
scripted batching engine on the CPU (tests/bench/test_gpu_daemon.py).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.config import Config, value_at
from bench.gpu_report import Report
from engine.base import Engine

__all__ = ["batch_through_daemon", "stage_daemon"]


def _document(i: int) -> str:
    body = "".join(f"    total_{i} += item.weight * {j}\n" for j in range(6))
    return (f"class Basket{i}:\n    def __init__(self, items):\n        self.items = items\n\n"
            f"    def weigh(self):\n        total_{i} = 0\n        for item in self.items:\n"
            f"{body}        ")


def batch_through_daemon(make_engine: Callable[[], Engine], config: Config, *, n: int = 8,
                         max_tokens: int = 32, timeout_s: float = 120.0,
                         engine_for: Callable[[Config], Engine] | None = None,
                         reload: dict[str, Any] | None = None,
                         memory_mb: Callable[[], float] | None = None) -> dict[str, Any]:
    """One completion alone, then ``n`` at once, through a daemon in this process; then, with
    ``reload`` (engine settings), a ``config.set`` of them (``engine_for`` builds the new
    engine) and a completion on the new engine, ``memory_mb()`` read before and after (the
    old engine's memory must be freed)."""
    from daemon.in_thread import daemon_in_thread

    factory_for = None if engine_for is None else (lambda changed: lambda: engine_for(changed))
    with daemon_in_thread(config, engine_factory=make_engine, engine_factory_for=factory_for,
                          start_timeout_s=60, stop_timeout_s=60) as daemon:
        return asyncio.run(_drive(daemon.endpoint, n, max_tokens, timeout_s, reload,
                                  memory_mb))


async def _drive(endpoint: str, n: int, max_tokens: int, timeout_s: float,
                 reload: dict[str, Any] | None, memory_mb: Callable[[], float] | None
                 ) -> dict[str, Any]:
    from app.client import AsyncClient

    folder = Path(tempfile.mkdtemp(prefix="nospin-batch-"))
    clients = [AsyncClient(endpoint, autostart=False, idle_timeout_s=timeout_s)
               for _ in range(n)]
    try:
        for client in clients:
            await client.connect()
        status = await clients[0].status()
        deadline = time.monotonic() + timeout_s
        while status.engine.get("state") != "ready":
            if time.monotonic() > deadline:
                raise RuntimeError(f"engine not ready: {status.engine}")
            await asyncio.sleep(0.1)
            status = await clients[0].status()

        async def one(client: AsyncClient, i: int, tag: str) -> dict[str, Any]:
            text = _document(i)
            path = str(folder / f"{tag}{i}.py")
            lines = text.split("\n")
            t = time.monotonic()
            done = await client.complete(
                path, len(lines) - 1, len(lines[-1]), text=text, max_tokens=max_tokens,
                multiline=True, deadline_ms=int(timeout_s * 1000))
            return {"s": round(time.monotonic() - t, 3), "tier": done.tier,
                    "reason": done.finish_reason, "tokens": done.num_tokens}

        await one(clients[0], n, "warm")  # first request: loads, measures threads, warms up
        t = time.monotonic()
        alone = await one(clients[0], n + 1, "alone")
        one_s = time.monotonic() - t
        t = time.monotonic()
        together = await asyncio.gather(*(one(c, i, "doc") for i, c in enumerate(clients)))
        n_s = time.monotonic() - t
        status = await clients[0].status()
        queue = (status.metrics or {}).get("queue") or {}
        tokens = sum(r["tokens"] for r in together)
        # tokens per second together against alone: requests may end early (a stop, a
        # repetition), so their times alone do not compare
        rate_alone = alone["tokens"] / one_s if one_s > 0 else 0.0
        speedup = (tokens / n_s) / rate_alone if n_s > 0 and rate_alone > 0 else None
        reloaded: dict[str, Any] = {}
        if reload:
            before = memory_mb() if memory_mb else None
            t = time.monotonic()
            reply = await clients[0].config_set(reload, note="gpu check: reload")
            reloaded["s"] = round(time.monotonic() - t, 2)
            reloaded["values"] = {k: value_at(reply.values, k) for k in reload}
            after_status = await clients[0].status()
            reloaded["capabilities"] = after_status.engine.get("capabilities")
            reloaded["completion"] = await one(clients[0], n + 2, "reloaded")
            if memory_mb:
                reloaded.update(memory_before_mb=before, memory_after_mb=memory_mb())
        return {
            "reload": reloaded,
            "capacity": queue.get("capacity"),
            "engine_capabilities": status.engine.get("capabilities"),
            "one_s": round(one_s, 3), "n_s": round(n_s, 3),
            "tokens_alone": alone["tokens"], "tokens_together": tokens,
            "speedup": round(speedup, 2) if speedup is not None else None,
            "alone": alone, "together": together,
        }
    finally:
        for client in clients:
            await client.close()


def stage_daemon(rep: Report, work: Path, *, paged: bool, n: int = 8) -> dict[str, Any]:
    """exllamav2 through the daemon: completions from n clients at once all answered; paged,
    run side by side (capacity n, well over one request's tokens per second), unpaged one at a
    time (capacity 1)."""
    from app.config import ContextConfig, EngineConfig
    from bench.gpu_engine import _engine
    from bench.gpu_models import N_CTX

    os.environ["NOSPIN_HOME"] = tempfile.mkdtemp(prefix="ns", dir="/tmp")  # a short socket path
    config = Config(engine=EngineConfig(kind="exllamav2", model=str(work / "main"), n_ctx=N_CTX,
                                        max_batch=n, model_profile="qwen2.5-coder"),
                    context=ContextConfig(budget_tokens=512))
    reload = None if paged else {"engine.n_ctx": 1024}

    def engine_for(changed: Config) -> Engine:
        engine: Engine = _engine(work / "main", max_batch=changed.engine.max_batch,
                                 n_ctx=changed.engine.n_ctx)
        return engine

    def gpu_mb() -> float:
        import torch

        torch.cuda.synchronize()
        return round(float(torch.cuda.memory_allocated()) / 2**20, 1)

    info = batch_through_daemon(lambda: _engine(work / "main", max_batch=n), config, n=n,
                                engine_for=engine_for, reload=reload, memory_mb=gpu_mb)
    if reload:  # engine settings changed while it runs: a new engine, the old one's memory freed
        r = info["reload"]
        rep.check("daemon.reload_applied", (r["capabilities"] or {}).get("n_ctx") == 1024,
                  r["capabilities"], "n_ctx 1024")
        rep.check("daemon.reload_serves", r["completion"]["reason"] not in ("deadline",
                                                                          "cancelled"),
                  r["completion"])
        rep.check("daemon.reload_frees_memory",
                  r["memory_after_mb"] <= r["memory_before_mb"] * 1.05 + 16,
                  [r["memory_before_mb"], r["memory_after_mb"]], "after <= before")
    rep.check("daemon.capacity", info["capacity"] == (n if paged else 1), info["capacity"],
              n if paged else 1)
    reasons = [r["reason"] for r in [info["alone"], *info["together"]]]
    rep.check("daemon.all_done", not {"deadline", "cancelled"} & set(reasons), reasons)
    if paged:  # tokens per second with n at once against one alone (one at a time: about 1)
        speedup = info["speedup"]
        rep.check("daemon.concurrent", speedup is not None and speedup > 2.5, speedup, "> 2.5")
    return info

