"""Load on the daemon: N concurrent clients x M completions on the real socket.

Starts its own daemon process (private NOSPIN_HOME, embedded model unless ``--engine fake``),
waits for the engine, then runs N clients, each with its own connection, each typing through
lines of real source files (seeded): a request, 1-3 more characters of the line, the next
request, and so on (so prefix reuse and type-through are exercised as in an editor). Reports
replies lost (no final reply) and duplicated (must both be 0), errors by code, p50/p95 of the
time to the final reply and to the first chunk, tier counts and shares, cache hits, and the
daemon's peak RSS (VmHWM).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.client import AsyncClient
from app.commands.argtypes import positive_int
from app.config import parse_assignments
from app.errors import ConfigError, DaemonError, NospinError
from bench.daemon_proc import add_set_argument, private_daemon, rss_mb, wait_ready
from daemon import protocol as p
from daemon.discovery import IgnoreRules, walk_project
from daemon.metrics import percentile

REPO = Path(__file__).resolve().parents[1]
TIER_NAMES = {0: "none", 1: "normal", 2: "cap", 3: "fast"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--clients", type=positive_int, default=16)
    parser.add_argument("--requests", type=positive_int, default=100, help="per client")
    parser.add_argument("--deadline-ms", type=int, default=2500)
    parser.add_argument("--think-ms", type=int, default=0, help="pause between a client's requests")
    parser.add_argument("--engine", choices=("embedded", "fake"), default="embedded")
    parser.add_argument("--files", default=str(REPO / "daemon"),
                        help="folder of source files to type through")
    parser.add_argument("--max-bytes", type=int, default=0,
                        help="only files of at most this size (0: any); small files are shown "
                             "whole in the prompt (context.whole_file_share)")
    parser.add_argument("--exclude", action="append", default=[], metavar="PATTERN",
                        help="gitignore-style pattern of files to leave out, repeatable")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-tokens", type=int, default=24)
    add_set_argument(parser)


@dataclass(slots=True)
class Result:
    client: int
    ok: bool  # a done reply
    code: str  # error code, "" when done
    tier: int
    cache: str
    total_ms: float  # client-side, send to final reply
    first_ms: float | None  # client-side, send to first chunk
    lost: bool  # no final reply (client timed out)
    done: p.DoneReply | None = None  # the final reply, when one came


def _typing_points(files: list[Path], rng: random.Random, count: int
                   ) -> list[tuple[str, str, int, int]]:
    """(path, buffer, line, col) points: a user typing through lines of code."""
    points: list[tuple[str, str, int, int]] = []
    while len(points) < count:
        path = rng.choice(files)
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        candidates = [i for i, ln in enumerate(lines) if len(ln.strip()) > 12]
        if not candidates:
            continue
        line = rng.choice(candidates)
        text = lines[line].rstrip("\n")
        col = len(text) - len(text.lstrip())
        while col < len(text) and len(points) < count:
            buffer = "".join(lines[:line]) + text[:col] + "\n" + "".join(lines[line + 1:])
            points.append((str(path), buffer, line, col))
            col += rng.randint(1, 3)
    return points


async def _client(index: int, points: list[tuple[str, str, int, int]], args: argparse.Namespace,
                  results: list[Result], dup: list[int]) -> None:
    client = AsyncClient(autostart=False, idle_timeout_s=30.0, client_name=f"load-{index}")
    await client.connect()
    try:
        for real_path, buffer, line, col in points:
            # each client edits its own copies: one client's request must not supersede another's
            path = f"/nospin-load/client{index}/{Path(real_path).name}"
            start = time.monotonic()
            first: list[float] = []

            def on_chunk(_: str, first: list[float] = first, start: float = start) -> None:
                if not first:
                    first.append((time.monotonic() - start) * 1000)

            try:
                done = await client.complete(path, line, col, text=buffer,
                                             max_tokens=args.max_tokens,
                                             deadline_ms=args.deadline_ms, on_chunk=on_chunk)
                results.append(Result(index, True, "", done.tier, done.cache,
                                      (time.monotonic() - start) * 1000,
                                      first[0] if first else None, False, done))
            except DaemonError as exc:  # no reply in time: lost
                results.append(Result(index, False, exc.code, 0, "",
                                      (time.monotonic() - start) * 1000, None,
                                      "no reply" in str(exc)))
            except NospinError as exc:
                results.append(Result(index, False, exc.code, 0, "",
                                      (time.monotonic() - start) * 1000, None, False))
            if args.think_ms:
                await asyncio.sleep(args.think_ms / 1000)
        await asyncio.sleep(0.5)  # late duplicates would arrive now
    finally:
        dup.append(client.num_unexpected_finals)
        await client.close()


async def _run(args: argparse.Namespace, pid: int) -> dict[str, Any]:
    await wait_ready(180)
    rng = random.Random(args.seed)
    root = Path(args.files)
    rules = IgnoreRules(root, extra_patterns=args.exclude)
    files = [f.path for f in walk_project(root, max_bytes=args.max_bytes or 10**9, rules=rules)
             if f.path.suffix == ".py"]
    if not files:
        raise ConfigError(f"no .py files to type through in {args.files}")
    path, buffer, line, col = _typing_points(files, rng, 1)[0]
    async with AsyncClient(autostart=False, idle_timeout_s=60) as warm:
        await warm.complete(path, line, col, text=buffer, max_tokens=args.max_tokens,
                            deadline_ms=60_000)
    results: list[Result] = []
    dup: list[int] = []
    start = time.monotonic()
    await asyncio.gather(*[
        _client(i, _typing_points(files, random.Random(args.seed * 1000 + i), args.requests),
                args, results, dup)
        for i in range(args.clients)
    ])
    wall = time.monotonic() - start
    async with AsyncClient(autostart=False) as status_client:
        status = await status_client.status()
    total = args.clients * args.requests
    totals = [r.total_ms for r in results]
    served = [r for r in results if r.ok]
    firsts = [r.first_ms for r in served if r.first_ms is not None]
    tiers = Counter(TIER_NAMES.get(r.tier, str(r.tier)) for r in served)
    codes = Counter(r.code for r in results if not r.ok)

    def pct(values: list[float], q: float) -> float | None:
        v = percentile(values, q)
        return None if v is None else round(v, 1)

    misses = [r.total_ms for r in served if r.cache == "miss"]

    return {
        "clients": args.clients,
        "requests_per_client": args.requests,
        "requests": total,
        "engine": args.engine,
        "deadline_ms": args.deadline_ms,
        "think_ms": args.think_ms,
        "files": args.files,
        "num_files": len(files),
        "max_bytes": args.max_bytes,
        "config_overrides": parse_assignments(args.set),
        "wall_s": round(wall, 1),
        "replies_final": len(results) - sum(r.lost for r in results),
        "replies_lost": sum(r.lost for r in results) + (total - len(results)),
        "replies_duplicated": sum(dup),
        "served": len(served),
        # the machine's ceiling: completions served per second, and those the engine ran (not
        # answered from the cache); with think time T, serving 90% of the clients takes at least
        # 0.9 x clients / (T + deadline) completions per second
        "served_per_s": round(len(served) / wall, 2) if wall > 0 else None,
        "engine_served_per_s": round(len(misses) / wall, 2) if wall > 0 else None,
        "needed_per_s_for_90pct": _needed(args),
        "errors": dict(codes),
        "total_ms": {"p50": pct(totals, 50), "p95": pct(totals, 95), "max": pct(totals, 100)},
        "served_total_ms": {"p50": pct([r.total_ms for r in served], 50),
                            "p95": pct([r.total_ms for r in served], 95)},
        "first_chunk_ms": {"p50": pct(firsts, 50), "p95": pct(firsts, 95)},
        "engine_served_total_ms": {"p50": pct(misses, 50), "p95": pct(misses, 95),
                                   "n": len(misses)},
        "finish_reasons": dict(Counter(r.done.finish_reason for r in served if r.done)),
        "slowest": [_detail(r) for r in sorted(served, key=lambda r: -r.total_ms)[:5]],
        "tiers": dict(tiers),
        "tier_shares": {k: round(v / total, 3) for k, v in tiers.items()}
        | {"shed_or_error": round(sum(codes.values()) / total, 3)},
        "cache": dict(Counter(r.cache for r in served)),
        "daemon_peak_rss_mb": rss_mb(pid, "VmHWM"),
        "daemon_metrics": {k: status.metrics.get(k) for k in
                           ("first_token_ms", "total_ms", "tiers", "num_shed", "cache")},
    }


def _needed(args: argparse.Namespace) -> float | None:
    """The fewest completions per second that serving 90% of the clients takes: each client
    asks again ``think_ms`` after each reply, which takes at most the deadline (with zero think
    a shed reply comes back at once and the client asks again: no finite rate serves 90%)."""
    if not args.think_ms:
        return None
    return round(0.9 * args.clients / ((args.think_ms + args.deadline_ms) / 1000), 2)


def _detail(r: Result) -> dict[str, Any]:
    """One served request's figures, for the slowest few: where its time went."""
    out: dict[str, Any] = {"total_ms": round(r.total_ms, 1), "cache": r.cache}
    d = r.done
    if d is not None:
        t = d.timings
        out |= {"tier": TIER_NAMES.get(d.tier, str(d.tier)), "tier_reason": d.tier_reason,
                "finish_reason": d.finish_reason, "num_tokens": d.num_tokens,
                "queue_ms": round(t.queue_ms, 1), "context_ms": round(t.context_ms, 1),
                "prefill_ms": round(t.prefill_ms, 1), "decode_ms": round(t.decode_ms, 1)}
        if d.context.budget_tokens:  # a context was assembled
            out |= {"prompt_tokens": d.context.num_prompt_tokens,
                    "cached_tokens": d.context.num_cached_tokens,
                    "budget_tokens": d.context.budget_tokens}
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    with private_daemon(parse_assignments(args.set), engine=args.engine, prefix="nsload") as proc:
        return asyncio.run(_run(args, proc.pid))
