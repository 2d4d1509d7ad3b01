"""Memory of a long-running daemon: many open documents, an indexed root, rounds of edits.

A private daemon (bench/daemon_proc.py: its own ``NOSPIN_HOME``, the embedded model, or the test
suite's scripted engine with ``--engine fake``) indexes ``--root``; one client opens ``--docs``
seeded files of it as buffers, then runs ``--rounds`` rounds: in each, every buffer gets a new
line typed in it (a full-text change, as an editor sends one after a paste) and a completion at
its end. The daemon's resident memory (``/proc/PID/status`` VmRSS; its parse workers apart) is
read when the engine is ready, once the root is indexed, after the buffers are opened, after
each round and after they are closed. ``growth_mb_per_1000_requests`` is the least-squares
slope over the second half of the rounds (the bounded caches fill in the first): a daemon that
keeps nothing it should not stays near 0.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.daemon_proc import code_version, private_daemon, rss_mb, wait_ready

_CODE_LINE = re.compile(r"^( *)[A-Za-z_][\w.]* *= *\S")  # an assignment: its indentation is safe


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default="",
                        help="project root to index and open files of (default: a copy of the "
                        "standard library's .py files, tests and site-packages left out)")
    parser.add_argument("--docs", type=int, default=50, help="buffers opened")
    parser.add_argument("--rounds", type=int, default=6, help="edit + completion per buffer, "
                        "this many times")
    parser.add_argument("--engine", choices=("embedded", "fake"), default="embedded",
                        help="the embedded model, or the tests' scripted engine (memory of "
                        "everything but the model)")
    parser.add_argument("--max-tokens", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--index-timeout-s", type=float, default=600.0)


def children_rss_mb(pid: int) -> float:
    """Resident memory of ``pid``'s child processes (the indexer's parse workers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid:
            total += rss_mb(int(stat.parent.name)) or 0.0
    return round(total, 1)


def slope_per_1000(requests: list[int], mb: list[float]) -> float | None:
    """Least-squares MB per 1,000 requests (None with fewer than two points)."""
    n = len(mb)
    if n < 2 or len(requests) != n:
        return None
    mx, my = sum(requests) / n, sum(mb) / n
    var = sum((x - mx) ** 2 for x in requests)
    if var == 0:
        return None
    cov = sum((x - mx) * (y - my) for x, y in zip(requests, mb, strict=True))
    return round(cov / var * 1000, 2)


def pick_documents(root: Path, count: int, rng: random.Random) -> list[tuple[Path, str, list[int]]]:
    """``count`` seeded .py files of ``root`` (tests and site-packages left out) with the lines
    a new line may follow (assignments, whose indentation a new statement can take)."""
    skip = ("site-packages", "test", "tests", "idle_test")
    found: list[tuple[Path, str, list[int]]] = []
    paths = sorted(p for p in root.rglob("*.py")
                   if not set(p.relative_to(root).parts[:-1]) & set(skip))
    rng.shuffle(paths)
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = text.split("\n")
        places = [i for i, line in enumerate(lines) if _CODE_LINE.match(line)]
        if len(lines) >= 50 and len(text) < 200_000 and len(places) >= 3:
            found.append((path, text, places))
        if len(found) == count:
            break
    return found


async def _run(args: argparse.Namespace, pid: int, root: Path) -> dict[str, Any]:
    from app.client import AsyncClient

    rng = random.Random(args.seed)
    docs = pick_documents(root, args.docs, rng)
    if not docs:
        raise SystemExit(f"no .py file of {root} has 50 lines with 3 assignments to type after")
    out: dict[str, Any] = {"docs": len(docs)}
    rss: dict[str, Any] = {}
    await wait_ready(300)
    rss["ready"] = rss_mb(pid)
    client = AsyncClient(autostart=False, idle_timeout_s=120)
    await client.connect()
    try:
        # the first buffer starts the root's index build; wait for its end
        t = time.monotonic()
        first_path, first_text, _ = docs[0]
        await client.open(str(first_path), first_text, root=str(root))
        give_up = time.monotonic() + args.index_timeout_s
        peak_children = 0.0
        while True:
            status = await client.status()
            peak_children = max(peak_children, children_rss_mb(pid))
            if not status.indexing and str(root) in status.roots:
                break
            if time.monotonic() > give_up:
                raise TimeoutError("the root was not indexed in time")
            await asyncio.sleep(0.5)
        out["index_s"] = round(time.monotonic() - t, 1)
        rss["indexed"] = rss_mb(pid)
        out["parse_workers_peak_rss_mb"] = peak_children
        for path, text, _ in docs[1:]:
            await client.open(str(path), text, root=str(root))
        rss["opened"] = rss_mb(pid)
        texts = {path: text for path, text, _ in docs}
        versions = dict.fromkeys(texts, 0)
        rounds: list[float | None] = []
        requests = nonempty = 0
        t = time.monotonic()
        for n in range(args.rounds):
            for path, _, places in docs:
                lines = texts[path].split("\n")
                at = rng.choice(places)
                indent = _CODE_LINE.match(lines[at])
                typed = f"{indent.group(1) if indent else ''}value_r{n} = "
                lines.insert(at + 1, typed)
                places[:] = [p + 1 if p > at else p for p in places]
                texts[path] = "\n".join(lines)
                versions[path] += 1
                await client.change(str(path), text=texts[path], version=versions[path])
                done = await client.complete(
                    str(path), at + 1, len(typed), max_tokens=args.max_tokens,
                    multiline=False, deadline_ms=60_000)
                requests += 1
                nonempty += bool(done.text.strip())
            rounds.append(rss_mb(pid))
        out["rounds_s"] = round(time.monotonic() - t, 1)
        rss["rounds"] = rounds
        status = await client.status()
        out["completion_cache"] = status.metrics.get("completion_cache")
        out["documents_open"] = status.num_documents
        for path, _, _ in docs:
            await client.close_document(str(path))
        await asyncio.sleep(1.0)
        rss["closed"] = rss_mb(pid)
        rss["peak"] = rss_mb(pid, "VmHWM")
        out.update(requests=requests, completions_nonempty=nonempty)
        per_round = len(docs)
        points = [(per_round * (i + 1), v) for i, v in enumerate(rounds) if v is not None]
        points = points[len(points) // 2:]  # the second half: the first fills the caches
        out["growth_mb_per_1000_requests"] = slope_per_1000([x for x, _ in points],
                                                            [y for _, y in points])
    finally:
        await client.close()
    out["rss_mb"] = rss
    return out


def stdlib_copy(into: Path) -> Path:
    """The standard library's .py files (tests and site-packages left out) copied under
    ``into``: a fixed project of ~750 files whose index the daemon builds as a user's."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    skip = {"site-packages", "test", "tests", "idle_test", "__pycache__"}
    root = into / "stdlib"
    for path in stdlib.rglob("*.py"):
        rel = path.relative_to(stdlib)
        if set(rel.parts[:-1]) & skip:
            continue
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, root / rel)
    (root / "pyproject.toml").write_text("[project]\nname = 'stdlib-copy'\n")
    return root


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="nsmem-root") as tmp:
        root = Path(args.root).resolve() if args.root else stdlib_copy(Path(tmp))
        if not root.is_dir():
            raise SystemExit(f"--root {root} is not a folder")
        with private_daemon(engine=args.engine, index=True, prefix="nsmem") as daemon:
            result = asyncio.run(_run(args, daemon.pid, root))
    return {"code": code_version(), "root": args.root or "the standard library's .py files",
            "engine": args.engine, "rounds": args.rounds, "max_tokens": args.max_tokens,
            "cpus": os.cpu_count(), **result}
