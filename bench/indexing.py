"""Indexing beside the engine: prefill speed while the project indexer's initial scan runs.

Loads the configured engine, times ``--prompts`` prefills of ~160-token standard-library
snippets on an idle engine, then starts ``ProjectIndexer.build`` of ``--root`` (its parse
worker processes at ``--worker-nice``, as the daemon runs them) in a thread and prefills back to
back until the scan ends. Prints the prefill milliseconds per token before and during the scan
and the scan's duration: with the engine this busy the scan gets only what the engine leaves.
Used for docs/context.md, "Indexing beside the engine".
"""

from __future__ import annotations

import argparse
import statistics
import sysconfig
import threading
import time
from pathlib import Path
from typing import Any

from app.evaluation.corpus_archive import corpus_folder


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=sysconfig.get_paths()["stdlib"],
                        help="the project to index (default: the standard library)")
    parser.add_argument("--exclude", action="append", default=["site-packages/"],
                        help="gitignore-style pattern left out of the scan (repeatable)")
    parser.add_argument("--worker-nice", type=int, default=None,
                        help="the parse workers' nice increment (default: the daemon's)")
    parser.add_argument("--prompts", type=int, default=3, help="prefills before the scan")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from app.config import load
    from daemon import parse_worker
    from daemon.index import ProjectIndex
    from daemon.indexer import IndexerLimits, ProjectIndexer
    from engine.base import GenerationRequest, generate_sync
    from engine.factory import create_engine

    nice = parse_worker.WORKER_NICE if args.worker_nice is None else args.worker_nice
    root = corpus_folder(args.root)
    text = (Path(sysconfig.get_paths()["stdlib"]) / "json" / "encoder.py").read_text()
    engine = create_engine(load())
    engine.start()
    n = 0

    def prefill() -> float:
        nonlocal n
        n += 1
        start = (n * 700) % max(1, len(text) - 600)
        done, _ = generate_sync(engine, GenerationRequest(
            request_id=f"p{n}", prompt_text=text[start:start + 600], max_new_tokens=1,
            cache_key=f"k{n}"))
        return done.stats.prefill_ms / max(1, done.stats.num_prompt_tokens)

    try:
        prefill()  # the first after a load runs cold
        idle = [prefill() for _ in range(args.prompts)]
        finished = threading.Event()
        build_s: list[float] = []
        index = ProjectIndex(root)

        def build() -> None:
            limits = IndexerLimits(extra_ignores=tuple(args.exclude), worker_nice=nice)
            indexer = ProjectIndexer(root, limits, index)
            t0 = time.monotonic()
            try:
                indexer.build()
            finally:
                build_s.append(time.monotonic() - t0)
                finished.set()

        thread = threading.Thread(target=build, name="bench-index")
        thread.start()
        during: list[float] = []
        while not finished.is_set():
            during.append(prefill())
        thread.join()
    finally:
        engine.close()
    return {
        "root": str(root), "worker_nice": nice,
        "prefill_ms_per_token_idle": round(statistics.median(idle), 2),
        "prefill_ms_per_token_during_scan": round(statistics.median(during), 2),
        "prefills_during_scan": len(during),
        "scan_s": round(build_s[0], 1),
        "files_indexed": len(index),
    }
