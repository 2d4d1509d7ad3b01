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

A soak (``--minutes M``: rounds until M minutes have passed, instead of ``--rounds``) with
``--churn K`` adds what hours of use bring besides typing: each round K buffers are closed and
as many other files opened, one completion is superseded by the next keystroke's (an
incremental edit), the client asks for status (as the tray does each second), and, on the
benchmark's own copy of the standard library (never a ``--root`` of yours), a line is appended
to a file on disk that no buffer holds (the watcher re-reads it). ``timeline`` has a row per
round: elapsed seconds, requests, RSS, the largest buffer opened so far (characters), the lines
in the daemon's token count cache (``token_line_cache`` of the status metrics, from the churn's
status request; None without churn or without an exact tokenizer) and the largest file edited
on disk so far (bytes).
Memory that follows the largest file parsed, in a buffer or re-read from disk, is a high-water
mark reached once, not a leak (docs/daemon.md "Measured figures"). ``growth_mb_per_hour`` is
the slope over the timeline's second half by time; ``home_mb`` the daemon's files (state,
snapshots, log) at the start and the end.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import parse_assignments
from app.errors import Cancelled
from app.evaluation.corpus_archive import corpus_folder
from bench.daemon_proc import (
    add_set_argument,
    code_version,
    private_daemon,
    rss_mb,
    wait_indexed,
    wait_ready,
)
from daemon.protocol import Position, Range, TextEdit

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
    parser.add_argument("--minutes", type=float, default=0.0,
                        help="a soak: rounds until this many minutes have passed (not --rounds)")
    parser.add_argument("--churn", type=int, default=0,
                        help="each round: close this many buffers and open as many others, "
                        "supersede one completion, ask for status, edit a file on disk "
                        "(the standard library copy only)")
    add_set_argument(parser)


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


def slope_per_1000(requests: list[float], mb: list[float]) -> float | None:
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


@dataclass
class _Doc:
    """A buffer the benchmark types in: its text as the daemon has it, and where a line goes."""

    path: Path
    text: str
    places: list[int]  # lines a new line may follow (assignments)
    version: int = 0

    def type_line(self, n: int, rng: random.Random) -> tuple[int, str]:
        """Insert a new line after a random assignment; (its 0-based line, its text)."""
        lines = self.text.split("\n")
        at = rng.choice(self.places)
        indent = _CODE_LINE.match(lines[at])
        typed = f"{indent.group(1) if indent else ''}value_r{n} = "
        lines.insert(at + 1, typed)
        self.places[:] = [q + 1 if q > at else q for q in self.places]
        self.text = "\n".join(lines)
        self.version += 1
        return at + 1, typed

    def type_char(self, line: int, col: int, char: str) -> TextEdit:
        """One keystroke at (line, col), as an editor sends it: an incremental edit."""
        lines = self.text.split("\n")
        lines[line] = lines[line][:col] + char + lines[line][col:]
        self.text = "\n".join(lines)
        self.version += 1
        at = Position(line=line, col=col)
        return TextEdit(range=Range(start=at, end=at), text=char)


def folder_mb(path: Path) -> float:
    """Bytes of the files under ``path``, in MB."""
    total = 0
    for f in path.rglob("*"):
        try:
            if f.is_file() and not f.is_symlink():
                total += f.stat().st_size
        except OSError:
            continue
    return round(total / 1e6, 2)


class _Soak:
    """The rounds: typing and completions in every open buffer, and with ``churn`` the rest of
    a day's use (buffers closed and opened, a superseded completion, status, files on disk)."""

    def __init__(self, args: argparse.Namespace, client: Any, root: Path, docs: list[_Doc],
                 spare: list[_Doc], disk_files: list[Path], rng: random.Random) -> None:
        self.args, self.client, self.root, self.rng = args, client, root, rng
        self.open, self.spare, self.disk_files = docs, spare, disk_files
        self.requests = self.nonempty = self.superseded = self.disk_edits = 0
        self.swapped = 0  # buffers closed, each for another opened
        self.largest = max((len(d.text) for d in docs), default=0)  # largest buffer so far
        self.largest_disk = 0  # largest file edited on disk so far (bytes)
        self.cached_lines: int | None = None  # token_line_cache lines at the last status

    async def complete(self, doc: _Doc, line: int, col: int) -> Any:
        self.requests += 1  # sent (a superseded one ends in Cancelled)
        done = await self.client.complete(str(doc.path), line, col,
                                          max_tokens=self.args.max_tokens, multiline=False,
                                          deadline_ms=60_000)
        self.nonempty += bool(done.text.strip())
        return done

    async def round(self, n: int) -> None:
        for doc in self.open:
            line, typed = doc.type_line(n, self.rng)
            await self.client.change(str(doc.path), text=doc.text, version=doc.version)
            await self.complete(doc, line, len(typed))
        if self.args.churn:
            await self.churn(n)

    async def churn(self, n: int) -> None:
        # a completion superseded by the next keystroke's
        doc = self.rng.choice(self.open)
        line, typed = doc.type_line(n, self.rng)
        await self.client.change(str(doc.path), text=doc.text, version=doc.version)
        first = asyncio.ensure_future(self.complete(doc, line, len(typed)))
        await asyncio.sleep(0.02)
        edit = doc.type_char(line, len(typed), "1")
        await self.client.change(str(doc.path), edits=[edit], version=doc.version)
        await self.complete(doc, line, len(typed) + 1)
        try:
            await first
        except Cancelled:  # "superseded by a newer request for this document"
            self.superseded += 1
        status = await self.client.status()  # as the tray asks
        self.cached_lines = status.metrics.get("token_line_cache", {}).get("lines")
        # buffers closed, others opened
        for _ in range(min(self.args.churn, len(self.spare))):
            gone = self.open.pop(self.rng.randrange(len(self.open)))
            await self.client.close_document(str(gone.path))
            self.spare.append(gone)
            new = self.spare.pop(self.rng.randrange(len(self.spare) - 1))
            await self.client.open(str(new.path), new.text, root=str(self.root))
            self.open.append(new)
            self.largest = max(self.largest, len(new.text))
            self.swapped += 1
        # a file on disk no buffer holds (the benchmark's own copy only)
        if self.disk_files:
            held = {d.path for d in self.open}
            path = self.rng.choice([f for f in self.disk_files if f not in held])
            with path.open("a", encoding="utf-8") as out:
                out.write(f"\nsoak_value_{n} = {n}\n")
            self.largest_disk = max(self.largest_disk, path.stat().st_size)
            self.disk_edits += 1


async def _run(args: argparse.Namespace, pid: int, root: Path, home: Path,
               edit_disk: bool) -> dict[str, Any]:
    from app.client import AsyncClient

    rng = random.Random(args.seed)
    picked = pick_documents(root, args.docs * (2 if args.churn else 1), rng)
    if not picked:
        raise SystemExit(f"no .py file of {root} has 50 lines with 3 assignments to type after")
    all_docs = [_Doc(path, text, places) for path, text, places in picked]
    docs, spare = all_docs[:args.docs], all_docs[args.docs:]
    disk_files: list[Path] = []
    if args.churn and edit_disk:
        taken = {d.path for d in all_docs}
        disk_files = sorted(f for f in root.rglob("*.py") if f not in taken)
    out: dict[str, Any] = {"docs": len(docs)}
    rss: dict[str, Any] = {}
    await wait_ready(300)
    rss["ready"] = rss_mb(pid)
    home_mb = {"ready": folder_mb(home)}
    client = AsyncClient(autostart=False, idle_timeout_s=120)
    await client.connect()
    try:
        # the first buffer starts the root's index build; wait for its end
        t = time.monotonic()
        await client.open(str(docs[0].path), docs[0].text, root=str(root))
        peak = [0.0]  # the parse workers' RSS at its highest while the index is built

        def read_workers() -> None:
            peak[0] = max(peak[0], children_rss_mb(pid))

        await wait_indexed(client, args.index_timeout_s, root=str(root), on_poll=read_workers)
        out["parse_workers_peak_rss_mb"] = peak[0]
        out["index_s"] = round(time.monotonic() - t, 1)
        rss["indexed"] = rss_mb(pid)
        for doc in docs[1:]:
            await client.open(str(doc.path), doc.text, root=str(root))
        rss["opened"] = rss_mb(pid)
        soak = _Soak(args, client, root, docs, spare, disk_files, rng)
        # (seconds, requests, RSS MB, the largest buffer opened so far in characters, lines in
        # the daemon's token count cache, the largest file edited on disk so far in bytes)
        timeline: list[tuple[float, int, float | None, int, int | None, int]] = []
        t = time.monotonic()
        n = 0
        while (time.monotonic() - t < args.minutes * 60) if args.minutes else n < args.rounds:
            await soak.round(n)
            n += 1
            timeline.append((round(time.monotonic() - t, 1), soak.requests, rss_mb(pid),
                             soak.largest, soak.cached_lines, soak.largest_disk))
        out["rounds_s"] = round(time.monotonic() - t, 1)
        rss["rounds"] = [row[2] for row in timeline]
        status = await client.status()
        out["completion_cache"] = status.metrics.get("completion_cache")
        out["documents_open"] = status.num_documents
        for doc in soak.open:
            await client.close_document(str(doc.path))
        await asyncio.sleep(1.0)
        rss["closed"] = rss_mb(pid)
        rss["peak"] = rss_mb(pid, "VmHWM")
        home_mb["end"] = folder_mb(home)
        out.update(rounds=n, requests=soak.requests, completions_nonempty=soak.nonempty)
        if args.churn:
            out["churned"] = {"superseded": soak.superseded, "buffers_swapped": soak.swapped,
                              "disk_edits": soak.disk_edits}
        half = [(x, s, v) for x, s, v, *_ in timeline[len(timeline) // 2:] if v is not None]
        # the second half: the first fills the caches
        out["growth_mb_per_1000_requests"] = slope_per_1000([s for _, s, _ in half],
                                                            [v for _, _, v in half])
        # x in thousandths of an hour: the slope per 1,000 of them is MB per hour
        out["growth_mb_per_hour"] = slope_per_1000([x / 3.6 for x, _, _ in half],
                                                   [v for _, _, v in half])
        out["timeline"] = [list(row) for row in timeline] if args.minutes else None
    finally:
        await client.close()
    out["rss_mb"] = rss
    out["home_mb"] = home_mb
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


def run(args: argparse.Namespace, *, edit_disk: bool | None = None) -> dict[str, Any]:
    """The benchmark; ``edit_disk``: whether churn edits files on disk (default: only in the
    benchmark's own copy of the standard library)."""
    code = code_version()  # at the start: a soak runs for an hour, the tree may move meanwhile
    with tempfile.TemporaryDirectory(prefix="nsmem-root") as tmp:
        root = corpus_folder(args.root).resolve() if args.root else stdlib_copy(Path(tmp))
        if not root.is_dir():
            raise SystemExit(f"--root {root} is not a folder")
        with private_daemon(parse_assignments(args.set), engine=args.engine, index=True,
                            prefix="nsmem") as daemon:
            result = asyncio.run(_run(args, daemon.pid, root, daemon.home,
                                      edit_disk=not args.root if edit_disk is None
                                      else edit_disk))
    return {"code": code, "root": args.root or "the standard library's .py files",
            "engine": args.engine, "minutes": args.minutes, "churn": args.churn,
            "max_tokens": args.max_tokens, "config_overrides": parse_assignments(args.set),
            "cpus": os.cpu_count(), **result}
