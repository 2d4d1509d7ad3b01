"""KV states: the llamacpp engine's resident memory while requests switch among documents.

Each request is for one of ``--docs`` standard library files (seeded), with a prefix of a
seeded 20-90 lines, so saved KV states come in changing sizes, are restored, and are evicted
from the ``--slots`` LRU in turn, as when a user moves among more files than the cache holds.
The engine's process RSS (``/proc/self/status`` VmRSS) is read every 25 requests.

Side by side in one run (``--allocations mapped,heap``, the default): one child process per
way of allocating a saved state, run at the same time on the same seeded requests. ``mapped``
is the engine's (``state_buffer``: an anonymous mapping per state, unmapped when it is
dropped); ``heap`` the ctypes array it replaced, from the C heap (glibc keeps the freed blocks,
and raises its mmap threshold to the largest block freed, so after the first eviction every
state came from the heap). ``rss_mb`` per allocation: after the first request (the model
loaded, no state saved yet: ``start``), the mean and the
maximum over the second half of the requests.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import random
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

from bench.daemon_proc import REPO, code_version, rss_mb

ALLOCATIONS = ("mapped", "heap")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allocations", default="mapped,heap",
                        help="comma-separated, run side by side: mapped (the engine's), heap")
    parser.add_argument("--docs", type=int, default=12, help="documents switched among")
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--slots", type=int, default=8, help="engine.kv_state_slots")
    parser.add_argument("--threads", type=int, default=1,
                        help="engine.n_threads of each child (1: two children share 2 cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--child", default="", help=argparse.SUPPRESS)


def _heap_buffer(size: int) -> Any:
    return (ctypes.c_uint8 * size)()


def _documents(count: int) -> list[tuple[str, list[str]]]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(f for f in stdlib.glob("*.py") if f.stat().st_size > 20_000)[:count]
    return [(f.name, f.read_text("utf-8", "replace").splitlines(keepends=True)) for f in files]


def _child(args: argparse.Namespace) -> dict[str, Any]:
    """One allocation's run, in this process; the timeline as [request, seconds, RSS MB]."""
    import os

    from app.config import EngineConfig
    from engine import llamacpp_session
    from engine.base import GenerationRequest, PromptParts, generate_sync
    from engine.llamacpp import LlamaCppEngine
    from engine.models import resolve_model_path
    from engine.profiles import select_profile
    from engine.requantize import cpu_weights

    if args.child == "heap":
        llamacpp_session.state_buffer = _heap_buffer  # what the engine did before
    rng = random.Random(args.seed)
    docs = _documents(args.docs)
    path = cpu_weights(resolve_model_path(""))
    engine = LlamaCppEngine(
        model_path=path, profile=select_profile("", path.name),
        config=EngineConfig(n_ctx=4096, n_threads=args.threads, kv_state_slots=args.slots))
    engine.start()
    timeline: list[list[float]] = []
    t0 = time.monotonic()
    try:
        for i in range(args.requests):
            name, lines = rng.choice(docs)
            n = rng.randint(20, 90)
            prefix = "".join(lines[:n]) + "x" * rng.randint(0, 3)
            parts = PromptParts(name, "python", (), prefix, "".join(lines[n : n + 2]))
            request = GenerationRequest(f"r{i}", prompt=parts, cache_key=name, max_new_tokens=2,
                                        speculation=False)
            generate_sync(engine, request, timeout_s=600)
            if i % 25 == 0 or i == args.requests - 1:
                timeline.append([i + 1, round(time.monotonic() - t0, 1),
                                 rss_mb(os.getpid()) or 0.0])
        saved_mb = engine.stats().extra["kv_states_bytes"] / 1e6
    finally:
        engine.close()
    return {"timeline": timeline, "kv_states_mb": round(saved_mb, 1)}


def summary(timeline: list[list[float]]) -> dict[str, float]:
    """RSS after the first request; its mean and maximum over the second half of them."""
    last = timeline[-1][0]
    second = [mb for n, _s, mb in timeline if n > last / 2] or [timeline[-1][2]]
    return {"start": timeline[0][2], "second_half_mean": round(sum(second) / len(second), 1),
            "second_half_max": max(second)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.child:
        return _child(args)
    allocations = [a for a in args.allocations.split(",") if a]
    unknown = sorted(set(allocations) - set(ALLOCATIONS))
    if unknown or not allocations:
        raise SystemExit(f"--allocations: {', '.join(unknown) or 'none'}; "
                         f"choose from {', '.join(ALLOCATIONS)}")
    argv = [f"--{k}={getattr(args, k)}" for k in ("docs", "requests", "slots", "threads", "seed")]
    code = code_version()  # before the children: the tree may move while they run
    children = {
        a: subprocess.Popen(  # side by side: the same requests, at the same time
            [sys.executable, "-m", "app.cli", "bench", "kv-states", *argv, "--child", a],
            cwd=REPO, stdout=subprocess.PIPE, text=True)
        for a in allocations
    }
    out: dict[str, Any] = {"code": code, "docs": args.docs, "requests": args.requests,
                           "slots": args.slots, "threads": args.threads, "rss_mb": {},
                           "timeline": {}}
    for allocation, proc in children.items():
        stdout, _ = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"the {allocation} run failed (exit {proc.returncode})")
        result = json.loads(stdout)
        out["timeline"][allocation] = result["timeline"]
        out["rss_mb"][allocation] = summary(result["timeline"])
        out["kv_states_mb"] = result["kv_states_mb"]
    return out
