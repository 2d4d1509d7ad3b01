"""A restart: the first completions of a daemon session, before and after a restart.

Two daemons one after the other on the same ``NOSPIN_HOME`` (the embedded model), each serving
the same editor session: at each of ``--positions`` cursor places in a file (README's
``docs/example.py`` by default: small enough for the normal tier on 2 cores; a standard-library
module's full-budget prompt is predicted at ~11 s there, fast mode whatever was learnt) the
document is opened, warmed at the cursor (``warm``, as editors do on cursor moves) and, once the
warm-up has finished, completed there. The first daemon starts from the latency model's priors;
the second from what the first learnt (``daemon/speed_store.py``) unless ``--forget`` deletes
``state/speed.json`` between them. Per session: each completion's tier, the time the scheduler
predicted for it at full settings, and its real total; the model's figures at the start and end.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from app.client import AsyncClient
from bench.daemon_proc import REPO, code_version, private_daemon, wait_ready
from daemon.speed_store import FILE_NAME

# the scheduler's prediction at full settings, which chose the tier (daemon/replies.tier_reason;
# the request log's predicted_ms is the one at the tier chosen)
_PREDICTED = re.compile(r"predicted (\d+) ms at full settings")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--file", default=str(REPO / "docs" / "example.py"),
                        help="the document (default: README's docs/example.py)")
    parser.add_argument("--positions", type=int, default=6,
                        help="cursor places completed per session")
    parser.add_argument("--runs", type=int, default=3,
                        help="pairs of sessions, each on a new NOSPIN_HOME")
    parser.add_argument("--engine", choices=("embedded", "fake"), default="embedded",
                        help="the embedded model, or the tests' scripted engine")
    parser.add_argument("--forget", action="store_true",
                        help="delete what the first daemon learnt before the second starts "
                             "(the code before speed.json, for comparison)")


def cursor_places(text: str, count: int) -> list[tuple[int, int]]:
    """``count`` (line, col) places, 0-based, spread over the file: the end of the leading
    whitespace of indented lines with a statement (as when a new line was just started)."""
    lines = text.splitlines()
    candidates = [(i, len(ln) - len(ln.lstrip())) for i, ln in enumerate(lines)
                  if ln.startswith("    ") and ln.strip() and not ln.strip().startswith("#")]
    if not candidates:
        return []
    step = max(1, len(candidates) // (count + 1))
    return candidates[step::step][:count]


async def _warmups_done(client: AsyncClient) -> int:
    status = await client.status()
    return int(status.metrics.get("num_warmups") or 0)


async def _session(path: Path, places: list[tuple[int, int]]) -> dict[str, Any]:
    await wait_ready(300)
    client = AsyncClient(autostart=False, idle_timeout_s=120)
    await client.connect()
    try:
        model_start = (await client.status()).metrics.get("queue", {}).get("model", {})
        text = path.read_text(encoding="utf-8")
        await client.open(str(path), text)
        rows = []
        for line, col in places:
            before = await _warmups_done(client)
            queued = await client.warm(str(path), line, col) == "warming"  # else warm already
            give_up = time.monotonic() + 60
            while queued and await _warmups_done(client) <= before \
                    and time.monotonic() < give_up:
                await asyncio.sleep(0.1)
            done = await client.complete(str(path), line, col)
            found = _PREDICTED.search(done.tier_reason)
            rows.append({"line": line + 1, "tier": done.tier,
                         "predicted_ms": int(found.group(1)) if found else None,
                         "total_ms": round(done.timings.total_ms),
                         "tokens": done.num_tokens, "reason": done.finish_reason})
        model_end = (await client.status()).metrics.get("queue", {}).get("model", {})
    finally:
        await client.close()
    return {"completions": rows, "model_start": model_start, "model_end": model_end}


def _summary(sessions: list[dict[str, Any]]) -> dict[str, Any]:
    """The first completion of each session: its tier, predicted and real time (medians)."""
    firsts = [s["completions"][0] for s in sessions if s["completions"]]
    predicted = [r["predicted_ms"] for r in firsts if r["predicted_ms"] is not None]
    rows = [r for s in sessions for r in s["completions"]]
    return {
        "first_tiers": [r["tier"] for r in firsts],
        "first_predicted_ms_median": statistics.median(predicted) if predicted else None,
        "first_total_ms_median": statistics.median(r["total_ms"] for r in firsts)
        if firsts else None,
        "tiers": [r["tier"] for r in rows],
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    code = code_version()  # at the start: a commit made while it runs is not what ran
    path = Path(args.file).resolve()
    places = cursor_places(path.read_text(encoding="utf-8"), args.positions)
    runs: list[dict[str, Any]] = []
    for _ in range(args.runs):
        home = Path(tempfile.mkdtemp(prefix="nsrestart", dir="/tmp"))
        pair = []
        try:
            for n in range(2):
                if n == 1 and args.forget:
                    (home / "state" / FILE_NAME).unlink(missing_ok=True)
                with private_daemon(home=home, engine=args.engine):
                    pair.append(asyncio.run(_session(path, places)))
            saved = (home / "state" / FILE_NAME).exists()
        finally:
            shutil.rmtree(home, ignore_errors=True)
        runs.append({"speed_file_saved": saved, "sessions": pair})
    return {
        "bench": "restart", "code": code, "file": str(path), "positions": len(places),
        "forget": args.forget, "engine": args.engine,
        "before_restart": _summary([r["sessions"][0] for r in runs]),
        "after_restart": _summary([r["sessions"][1] for r in runs]),
        "runs": runs,
    }
