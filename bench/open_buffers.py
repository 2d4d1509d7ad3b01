"""Open buffers over the index: what a completion in another file pays for unsaved buffers.

The index of ``--root`` (default: the standard library, tests and site-packages left out) as
the daemon builds it; ``--buffers`` seeded modules get an unsaved buffer (the saved text with a
function appended), and a completion is asked in another module. Wall milliseconds, the median
of ``--repeat`` runs, of ``BufferOverlay.snapshot`` (daemon/overlay.py) as the daemon calls it
on each request: ``first`` (every buffer summarised, the overlaid snapshot made), ``one_changed``
(one buffer edited since: one summary, one snapshot), ``unchanged`` (the same texts: the kept
snapshot), ``clean_first`` / ``clean`` (buffers equal to their saved files: digests only); of
the whole context assembly with the index alone and with the overlaid snapshot; and of
retrieval over the edited buffers, their windows scanned afresh (``retrieval_cold``: what every
request paid before the scans were cached per text) and from the cache (``retrieval``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sysconfig
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from app.config import Config
from app.evaluation.corpus import build_index
from daemon.context import ContextRequest, assemble_context, summarize_stable
from daemon.context.retrieve import _windows, similar_windows
from daemon.overlay import Buffer, BufferOverlay
from daemon.tokens import LineCachedCounter
from engine.base import TokenCounter
from engine.factory import load_tokenizer

EXCLUDE = ("site-packages/", "test/", "tests/", "idle_test/")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=Path, default=None,
                        help="project folder (default: the standard library)")
    parser.add_argument("--buffers", type=int, default=4, help="unsaved buffers")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--seed", type=int, default=0)


def _ms(fn: Callable[[], Any], repeat: int, setup: Callable[[], Any] | None = None) -> float:
    times: list[float] = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(times), 3)


def run(args: argparse.Namespace) -> dict[str, Any]:
    root = (args.root or Path(sysconfig.get_paths()["stdlib"])).resolve()
    config = Config()
    index, build_s = build_index(root, config, EXCLUDE if args.root is None else ())
    base = index.snapshot()
    rng = random.Random(args.seed)
    paths = sorted(p for p, s in base.files.items()
                   if p.endswith(".py") and 2_000 < s.num_bytes < 200_000)
    chosen = rng.sample(paths, args.buffers + 1)
    current, edited = chosen[0], chosen[1:]
    saved = {p: (root / p).read_text(encoding="utf-8") for p in chosen}
    added = "\n\ndef nospin_bench_added(value: int, *, scale: float = 1.0) -> float:\n" \
            '    """A function only the buffer has."""\n    return value * scale\n'
    dirty = [Buffer(p, saved[p] + added) for p in edited]
    clean = [Buffer(p, saved[p]) for p in edited]
    never = lambda path: False  # noqa: E731 - every buffer here has its file indexed
    box: dict[str, BufferOverlay] = {}

    def fresh() -> None:
        box["o"] = BufferOverlay()

    def snap(buffers: list[Buffer]) -> Any:
        return box["o"].snapshot(base, buffers, exclude=current, on_disk=never)

    out: dict[str, Any] = {"root": str(root), "files": len(base.files),
                           "names": len(base.symbols), "index_build_s": round(build_s, 1),
                           "buffers": args.buffers, "repeat": args.repeat}
    out["first_ms"] = _ms(lambda: snap(dirty), args.repeat, fresh)
    serial = iter(range(10**6))

    def edit_one() -> None:
        fresh()
        snap(dirty)
        dirty[0] = Buffer(dirty[0].path, saved[dirty[0].path] + added + f"# {next(serial)}\n")

    out["one_changed_ms"] = _ms(lambda: snap(dirty), args.repeat, edit_one)
    overlaid = snap(dirty)
    assert overlaid is not base and overlaid.lookup("nospin_bench_added")
    out["unchanged_ms"] = _ms(lambda: snap(dirty), args.repeat)
    out["clean_first_ms"] = _ms(lambda: snap(clean), args.repeat, fresh)
    out["clean_ms"] = _ms(lambda: snap(clean), args.repeat)
    assert snap(clean) is base

    loaded = load_tokenizer(config)
    counter: TokenCounter | None = LineCachedCounter(loaded) if loaded is not None else None
    text = saved[current]
    line = text.count("\n") // 2
    summary = summarize_stable(current, text, line, "python")
    request = ContextRequest(path=current, text=text, line=line, column=0, language="python",
                             budget_tokens=config.context.budget_tokens)
    for name, snapshot in (("index", base), ("overlaid", overlaid)):
        out[f"assemble_ms_{name}"] = _ms(
            partial(assemble_context, request, index=snapshot, counter=counter,
                    config=config.context, summary=summary),
            args.repeat)
    out["counter"] = "exact" if counter else "estimate"
    # retrieval over the edited buffers (daemon.context.retrieve.similar_windows): each
    # buffer's windows scanned afresh, as every request did before they were cached per text,
    # and from the cache, as a request does while another document is typed in
    recent = [(b.path, b.text) for b in dirty]
    query = "".join(text.splitlines(keepends=True)[max(0, line - 40) : line])
    out["retrieval_cold_ms"] = _ms(partial(similar_windows, query, recent), args.repeat,
                                   _windows.cache_clear)
    out["retrieval_ms"] = _ms(partial(similar_windows, query, recent), args.repeat)
    out["retrieval_kb"] = sum(len(b.text) for b in dirty) // 1000
    return out
