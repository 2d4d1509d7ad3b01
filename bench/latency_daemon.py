"""The typing replay through the daemon: what the user of an editor plugin waits for.

The same points and keystroke schedules as the engine pipelines of ``bench/latency.py``, sent
over the real socket to a private daemon (``bench.daemon_proc``) as the editor plugins send them
(app/lsp/server.py): ``open`` when a file is first visited, a full-text ``change`` when the
cursor arrives at a point (the buffer with that line cut at the cursor), ``warm`` there (unless
``--no-warmup``), a ``change`` with the one inserted character per keystroke, and a
``complete`` (single line, at most ``--max-tokens``, the default deadline) per debounced
keystroke; a newer ``complete`` supersedes the one still running (the daemon cancels it) and the
client waits for the last keystroke's reply. The daemon runs with the product's configuration
but for the replay's budget, ``n_ctx`` and threads: its scheduler (tiers, deadlines), completion
cache (type-through), warm-ups, KV state slots and project index. The daemon indexes only roots
with a project marker, so the root's ``.py`` files are copied into a temporary project, which
is indexed before the replay starts.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.client import AsyncClient
from app.config import ContextConfig, TierConfig
from app.errors import NospinError
from app.evaluation.corpus import percentile
from app.paths import state_dir
from bench.busy import BusySpan, busy_loop, thread_events
from bench.daemon_proc import private_daemon, wait_indexed, wait_ready
from bench.latency import Sent
from bench.latency_points import Key, Point
from daemon import protocol as p
from daemon.discovery import IgnoreRules, walk_project
from daemon.metrics import CANCEL_REASONS
from daemon.scheduler import Tier
from engine.base import Finished, FinishReason, GenerationStats
from engine.llamacpp import MIN_MEASURED_PREFILL

INDEX_TIMEOUT_S = 900.0


def copy_project(root: Path, dest: Path, exclude: Sequence[str]) -> int:
    """The files of ``root`` the index would read (``exclude``: extra gitignore-style patterns,
    as the engine pipelines' index gets them) into ``dest``, with a ``pyproject.toml`` marking
    it a project; returns how many."""
    count = 0
    rules = IgnoreRules(root, extra_patterns=exclude)
    for found in walk_project(root, max_bytes=ContextConfig().max_file_bytes, rules=rules):
        target = dest / found.rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(found.path, target)
        except OSError:
            continue
        count += 1
    (dest / "pyproject.toml").write_text("[project]\nname = 'replay'\n")
    return count


def _finished(request_id: str, done: p.DoneReply) -> Finished:
    try:
        reason = FinishReason(done.finish_reason)
    except ValueError:
        reason = FinishReason.STOP
    ctx = done.context
    stats = GenerationStats(
        num_prompt_tokens=ctx.num_prompt_tokens if ctx else 0,
        num_cached_tokens=ctx.num_cached_tokens if ctx else 0,
        num_generated_tokens=done.num_tokens,
    )
    return Finished(request_id, reason, done.text, stats)


async def _complete(client: AsyncClient, sent: Sent, path: str, line: int, col: int,
                    max_tokens: int, replies: list[p.DoneReply]) -> None:
    def on_chunk(text: str) -> None:
        if sent.first is None and text:
            sent.first = time.monotonic()

    try:
        done = await client.complete(path, line, col, max_tokens=max_tokens, multiline=False,
                                     on_chunk=on_chunk)
    except NospinError as exc:
        sent.finished = time.monotonic()
        reason = FinishReason.CANCELLED if exc.code == "cancelled" else FinishReason.ERROR
        sent.result = Finished(sent.request_id, reason, "", GenerationStats(), str(exc),
                               exc.code)
        return
    sent.finished = time.monotonic()
    if sent.first is None and done.text:
        sent.first = sent.finished  # a cache answer: shown at once, no chunks
    sent.result = _finished(sent.request_id, done)
    replies.append(done)


async def _replay(project: Path, points: Sequence[Point], schedules: Sequence[Sequence[Key]], *,
                  debounce_ms: float, max_tokens: int, warm: bool, timeout_s: float,
                  ) -> tuple[list[Sent], list[p.DoneReply], float, dict[str, Any]]:
    """The requests sent, the final replies, the time the index took and ``end_figures``."""
    client = AsyncClient(autostart=False, idle_timeout_s=timeout_s, client_name="bench-latency")
    await client.connect()
    sent: list[Sent] = []
    replies: list[p.DoneReply] = []
    opened: set[str] = set()
    try:
        first = str(project / points[0].path)
        await client.open(first, points[0].buffer(0)[0])
        opened.add(first)
        index_s = await wait_indexed(client, INDEX_TIMEOUT_S)
        for i, (point, keys) in enumerate(zip(points, schedules, strict=True)):
            path = str(project / point.path)
            text, column = point.buffer(0)
            if path not in opened:
                await client.open(path, text)
                opened.add(path)
            else:
                await client.change(path, text=text)
            t0 = time.monotonic()
            if warm:
                await client.warm(path, point.line, column)
            tasks: list[asyncio.Task[None]] = []
            typed = 0
            for k, key in enumerate(keys):
                await _sleep_until(t0 + key.at_ms / 1000)
                at = p.Position(line=point.line, col=column + typed)
                await client.change(path, edits=[p.TextEdit(range=p.Range(start=at, end=at),
                                                            text=point.typed[typed])])
                typed += 1
                if not key.send:
                    continue
                await _sleep_until(t0 + (key.at_ms + debounce_ms) / 1000)
                s = Sent(f"daemon/{i}/{k + 1}", i, k + 1, False, time.monotonic())
                sent.append(s)
                tasks.append(asyncio.create_task(_complete(
                    client, s, path, point.line, column + typed, max_tokens, replies)))
            await asyncio.gather(*tasks)
        status = await client.status()
    finally:
        await client.close()
    return sent, replies, index_s, end_figures(status.metrics.get("queue", {}), status.engine)


def end_figures(queue: dict[str, Any], engine: dict[str, Any]) -> dict[str, Any]:
    """What the daemon's status says at the end of a replay: its latency model, how often the
    fast tier's budget changed, the other work's cores at the engine's start, and the thread
    probes (runs on a count other than the verdict's, and how many of them an editor's request
    took: each one slowed it)."""
    extra = engine.get("extra", {})
    return {
        "scheduler_model": queue.get("model", {}),
        "fast_budget_tokens": queue.get("fast_budget_tokens"),
        "fast_budget_changes": queue.get("fast_budget_changes"),
        "thread_probes": {
            key: int(value) for key, value in sorted(extra.items()) if "_probes" in key
        },
        # cores other work kept busy while the engine loaded (>= 0.5: it started on fewer)
        "busy_cores_at_start": extra.get("busy_cores_at_start"),
    }


async def _sleep_until(deadline: float) -> None:
    delay = deadline - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)


def run_daemon_pipeline(
    root: Path,
    points: Sequence[Point],
    schedules: Sequence[Sequence[Key]],
    *,
    changes: dict[str, Any],
    exclude: Sequence[str],
    debounce_ms: float,
    max_tokens: int,
    warm: bool,
    timeout_s: float,
    busy: BusySpan | None = None,
) -> tuple[list[Sent], dict[str, Any]]:
    """Replay through a private daemon with config ``changes``; the requests sent and the
    daemon-only figures (tiers, cache answers, ...). ``busy``: a busy loop in another session
    over that span, seconds from the daemon's start (bench/busy.py)."""
    with tempfile.TemporaryDirectory(prefix="nsreplay", dir="/tmp") as tmp:
        project = Path(tmp) / "project"
        num_files = copy_project(root, project, exclude)
        with busy_loop(busy) as since, private_daemon(changes, index=True,
                                                      prefix="nslat") as daemon:

            async def main() -> tuple[list[Sent], list[p.DoneReply], float, dict[str, Any]]:
                await wait_ready(180)
                return await _replay(project, points, schedules, debounce_ms=debounce_ms,
                                     max_tokens=max_tokens, warm=warm, timeout_s=timeout_s)

            sent, replies, index_s, end = asyncio.run(main())
            log = _read_request_log(state_dir() / "requests.jsonl", len(sent))
            events = thread_events(daemon.log_path, since)
    extra = {
        "busy_loop": None if busy is None else {"start_s": busy.start_s, "stop_s": busy.stop_s},
        "thread_events": events,  # the engine's thread counts over time (seconds from start)
        "project_files": num_files,
        "warm_requests": len(points) if warm else 0,
        "index_wait_s": round(index_s, 1),
        **end,
        **request_log_figures(log),
        "tiers": dict(Counter(Tier(r.tier).label if r.tier else "none" for r in replies)),
        "cache_answers": dict(Counter(r.cache for r in replies)),
        "finish_reasons": dict(Counter(r.finish_reason for r in replies)),
        "errors": dict(Counter(
            s.result.error_code for s in sent
            if s.result is not None and s.result.reason is FinishReason.ERROR)),
        "error_messages": sorted({
            s.result.error for s in sent
            if s.result is not None and s.result.reason is FinishReason.ERROR})[:5],
    }
    return sent, extra


_SERVED = ("stop", "length", "newline", "repetition")  # engine runs that ended by themselves


def _read_request_log(path: Path, num_sent: int, wait_s: float = 2.0) -> list[dict[str, Any]]:
    """The daemon's request log (one JSON object a line); the last final replies can reach the
    client just before their line is written, so it waits up to ``wait_s`` for one line per
    request sent."""
    end = time.monotonic() + wait_s
    while True:
        try:
            lines = path.read_text().splitlines()
        except OSError:
            lines = []
        records = [json.loads(line) for line in lines if line.strip()]
        done = sum(1 for r in records if r.get("kind") == "complete")
        if done >= num_sent or time.monotonic() > end:
            return records
        time.sleep(0.1)


SLOW_MS = TierConfig().cap_ms  # a completion past it was capped: what a user notices
SETTLED_S = 30.0  # "after start-up": requests arriving this long after the replay's first
MIN_PREFILL_TOKENS = MIN_MEASURED_PREFILL  # shorter prefills say little about the rate


def request_log_figures(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """From the daemon's request log: its scheduler's predicted total time against the real
    one, over engine-served completions that ended by themselves (the ratio's median, p90 and
    the share within 2x); its own warm-ups (sent by the replay's ``warm``, or for shed
    documents), how many of them finished their prefill, how long the first one took (it runs
    beside the index scan) and how much of their prompts the KV cache held when they arrived
    (the reuse at a new cursor position); the completions that found their whole prompt cached
    and their prefill time; the engine's prefill rate (ms per evaluated prompt token, counted
    as the scheduler's model counts it: ``_prefilled``, at least ``MIN_PREFILL_TOKENS``); the
    completions that took over ``SLOW_MS`` once the daemon had run ``SETTLED_S`` (start-up
    over); and the engine's prefill and decode time, all of it and the share spent on
    requests stopped before their end (cancelled, superseded, preempted: their prefill stays
    in the KV cache for the next request, their decoding is lost)."""
    completions = [r for r in records if r.get("kind") == "complete"]
    served = [
        r for r in completions
        if not r.get("cache_hit") and r.get("finish_reason") in _SERVED
    ]
    ratios = [
        r["predicted_ms"] / r["total_ms"]
        for r in served
        if r.get("predicted_ms") and r.get("total_ms", 0) > 0
    ]
    warmups = sorted((r for r in records if r.get("kind") == "warmup"), key=_arrival)
    rates = [
        r["prefill_ms"] / new
        for r in records
        if (new := _prefilled(r)) >= MIN_PREFILL_TOKENS and r.get("prefill_ms", 0) > 0
    ]
    # completions whose whole prompt was in the KV cache, its last logits too: no prefill step
    whole = [
        r for r in served
        if 0 < r.get("num_prompt_tokens", 0) <= r.get("num_cached_tokens", 0)
    ]
    arrived = [w for w in warmups if w.get("num_prompt_tokens", 0) > 0]
    arrived_prompt = sum(w["num_prompt_tokens"] for w in arrived)
    engine_ms = sum(r.get("prefill_ms", 0.0) + r.get("decode_ms", 0.0) for r in records)
    cancelled_ms = sum(
        r.get("prefill_ms", 0.0) + r.get("decode_ms", 0.0)
        for r in records
        if r.get("finish_reason") in CANCEL_REASONS
    )
    start = min((_arrival(r) for r in records), default=0.0)
    settled = [r for r in completions if _arrival(r) - start >= SETTLED_S]
    return {
        "prediction_ratio_p50": _rounded(percentile(ratios, 0.5) if ratios else None),
        "prediction_ratio_p90": _rounded(percentile(ratios, 0.9) if ratios else None),
        "prediction_within_2x": (
            round(sum(1 for x in ratios if 0.5 <= x <= 2.0) / len(ratios), 3) if ratios else None
        ),
        "prediction_n": len(ratios),
        "daemon_warmups": len(warmups),
        "daemon_warmups_prefilled": sum(r.get("finish_reason") == "prefilled" for r in warmups),
        "first_warmup_ms": round(warmups[0]["total_ms"]) if warmups else None,
        # how much of a point's prompt the KV cache held when the cursor arrived (the daemon's
        # warm-ups: the replay's own ``warm`` replies carry no figures)
        "warmup_cache_reuse_share": (
            round(sum(w.get("num_cached_tokens", 0) for w in arrived) / arrived_prompt, 4)
            if arrived_prompt else None
        ),
        "warmup_mean_prompt_tokens": (
            round(arrived_prompt / len(arrived), 1) if arrived else None
        ),
        "whole_prompt_cached": len(whole),
        "whole_prompt_cached_prefill_ms_p50": _rounded(
            percentile([r.get("prefill_ms", 0.0) for r in whole], 0.5) if whole else None
        ),
        "prefill_ms_per_token_p50": _rounded(percentile(rates, 0.5) if rates else None),
        "prefill_ms_per_token_p90": _rounded(percentile(rates, 0.9) if rates else None),
        "prefill_n": len(rates),
        "settled_completions": len(settled),
        "settled_over_slow_ms": sum(r.get("total_ms", 0) > SLOW_MS for r in settled),
        "engine_ms": round(engine_ms),
        "cancelled_engine_ms": round(cancelled_ms),
        "cancelled_engine_share": round(cancelled_ms / engine_ms, 3) if engine_ms else None,
    }


def _prefilled(record: dict[str, Any]) -> int:
    """Prompt tokens a request's prefill evaluated, as the scheduler's latency model counts
    them (``LatencyModel.observe_prefill``, the scheduler's call for requests cut short): what
    the engine reported, which covers a request stopped mid-prefill (a warm-up a completion
    took over, a superseded keystroke); else the uncached prompt of one that ran to its end."""
    if record.get("num_prefilled_tokens"):
        return int(record["num_prefilled_tokens"])
    if record.get("cache_hit") or record.get("finish_reason") not in (*_SERVED, "prefilled"):
        return 0  # no engine run, or stopped before its end and the engine did not say where
    return int(record.get("num_prompt_tokens", 0)) - int(record.get("num_cached_tokens", 0))


def _arrival(record: dict[str, Any]) -> float:
    """Wall-clock seconds when the request arrived (its line holds when it ended)."""
    return float(record.get("time", 0.0)) - float(record.get("total_ms", 0.0)) / 1000


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)
