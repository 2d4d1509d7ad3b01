"""Typing replay: nospin's completion pipeline against a naive whole-file prompt, same model.

At seeded cursor lines of real files (default: this interpreter's standard library), a simulated
user types the first characters of the real line one by one. An editor-like client sends a
completion request when a keystroke is followed by the debounce pause, cancels the request still
running when it sends a new one, and waits for the request of the last keystroke. Two pipelines
replay the same schedule one after the other, each on its own engine instance (same model and
settings), so their KV caches never meet:

- ``nospin``: the root indexed first; ``assemble_context`` with the engine's tokenizer; a
  prefill-only BACKGROUND warm-up when the cursor arrives at a point (as an editor plugin sends on
  cursor move); ``cache_key`` = the file, so KV states survive file switches; post-processing.
- ``naive``: the whole file as a PSM FIM prompt (prefix = all before the cursor, suffix = all
  after), cut to the context limit keeping the lines nearest the cursor; no warm-up.

Latencies are client-side, from the moment the debounce expired (context assembly included) to
the first streamed text and to the ``Finished`` event. Prints one JSON object; docs/latency.md.
"""

from __future__ import annotations

import argparse
import difflib
import os
import random
import sysconfig
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from app.config import Config, EngineConfig, parse_assignments
from app.evaluation.corpus import build_index, percentile
from app.evaluation.corpus_archive import corpus_folder
from bench.busy import parse_span
from bench.daemon_proc import add_set_argument, code_version
from bench.latency_pipelines import NaivePipeline, NospinPipeline, Pipeline
from bench.latency_points import Key, Point, sample_points, typing_schedule
from daemon.tokens import LineCachedCounter
from engine.base import (
    Engine,
    EngineEvent,
    EngineTokenCounter,
    Finished,
    FinishReason,
    PromptParts,
    TextChunk,
)
from engine.postprocess import postprocess

NAIVE_FORMAT_TOKENS = 8  # FIM markers and slack the naive prompt leaves for the format


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root", type=corpus_folder, default=None, help="folder of files (default: the stdlib)"
    )
    parser.add_argument("--files", type=int, default=2, help="files to visit (full run: 3)")
    parser.add_argument("--points", type=int, default=1, help="cursor lines per file (full: 3)")
    parser.add_argument("--keys", type=int, default=4, help="keystrokes per point (full: 6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--typing-ms", type=float, default=125.0, help="mean keystroke interval")
    parser.add_argument(
        "--jitter", type=float, default=0.6, help="intervals drawn from mean x (1 +- jitter)"
    )
    parser.add_argument("--debounce-ms", type=float, default=75.0)
    parser.add_argument(
        "--open-ms",
        type=float,
        default=0.0,
        help="file opened this long before the cursor first arrives in it (0: not modelled)",
    )
    parser.add_argument(
        "--think-ms", type=float, default=400.0, help="cursor arrival to first keystroke"
    )
    parser.add_argument("--max-tokens", type=int, default=16, help="new tokens per completion")
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument(
        "--threads", type=int, default=0, help="engine n_threads (0: measured per phase)"
    )
    parser.add_argument(
        "--prefill-chunk", type=int, default=0, help="engine prefill step (0: engine default)"
    )
    parser.add_argument(
        "--budget", type=int, default=0, help="nospin context budget (0: config default)"
    )
    parser.add_argument(
        "--suffix-lines", type=int, default=-1, help="lines after the cursor line (-1: config)"
    )
    parser.add_argument(
        "--layout",
        choices=("auto", "stable", "cursor"),
        default=None,
        help="nospin context layout (default: config, context.layout)",
    )
    parser.add_argument(
        "--whole-file-share",
        type=float,
        default=-1.0,
        help="show a file whole when it fits this share of the budget (-1: config)",
    )
    parser.add_argument("--no-warmup", action="store_true", help="nospin without warm-ups")
    add_set_argument(parser, ", for the daemon pipeline, e.g. engine.num_draft_tokens=3")
    parser.add_argument(
        "--busy-loop",
        type=parse_span,
        default=None,
        metavar="START[:STOP]",
        help="daemon pipeline: a busy loop in another session from START to STOP seconds "
        "after the daemon starts (negative START: before it), as a build in another terminal",
    )
    parser.add_argument("--min-lines", type=int, default=150, help="smallest file to visit")
    parser.add_argument(
        "--pipelines",
        default="nospin,naive,daemon",
        help="comma-separated: nospin, naive, daemon (the same replay through a private daemon "
        "as an editor plugin drives it: scheduler, tiers, completion cache)",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="gitignore-style pattern the index leaves out (site-packages/ with the stdlib)",
    )
    parser.add_argument("--request-timeout-s", type=float, default=600.0)


# --- the editor-like client --------------------------------------------------------------------


@dataclass(slots=True)
class Sent:
    """One request as the client saw it (times are time.monotonic())."""

    request_id: str
    point: int
    num_typed: int
    warmup: bool
    sent: float
    parts: PromptParts | None = None  # None: the daemon's request (its text post-processed)
    first: float | None = None
    finished: float | None = None
    result: Finished | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def sink(self, event: EngineEvent) -> None:
        if isinstance(event, TextChunk):
            if self.first is None and event.text:
                self.first = time.monotonic()
        else:
            self.finished = time.monotonic()
            self.result = event
            self.done.set()


def replay(
    engine: Engine,
    pipeline: Pipeline,
    points: list[Point],
    schedules: list[list[Key]],
    *,
    debounce_ms: float,
    timeout_s: float,
    open_ms: float = 0.0,
) -> list[Sent]:
    """Run the typing session against ``engine`` in real time; returns every request sent.
    ``open_ms`` > 0: each file is opened that long before the cursor first arrives in it."""
    sent: list[Sent] = []
    opened: set[str] = set()
    for p, (point, keys) in enumerate(zip(points, schedules, strict=True)):
        with pipeline.point(point):
            opening: Sent | None = None
            if open_ms > 0 and point.path not in opened:
                # the editor opens the file, then the cursor arrives open_ms later
                opened.add(point.path)
                request = pipeline.open_warmup(point, f"{pipeline.name}/{p}/open")
                if request is not None:
                    opening = Sent(request.request_id, p, 0, True, time.monotonic())
                    sent.append(opening)
                    engine.submit(request, opening.sink)
                time.sleep(open_ms / 1000)
            if opening is not None and not opening.done.is_set():
                engine.cancel(opening.request_id)  # the daemon replaces it with the cursor's
                opening.done.wait(30)
            t0 = time.monotonic()
            warm = pipeline.warmup(point, f"{pipeline.name}/{p}/warm")
            warm_sent: Sent | None = None
            if warm is not None:
                warm_sent = Sent(warm.request_id, p, 0, True, t0)
                sent.append(warm_sent)
                engine.submit(warm, warm_sent.sink)
            running: Sent | None = None
            for k, key in enumerate(keys):
                if not key.send:
                    continue
                _sleep_until(t0 + (key.at_ms + debounce_ms) / 1000)
                s = Sent(f"{pipeline.name}/{p}/{k + 1}", p, k + 1, False, time.monotonic())
                if running is not None and not running.done.is_set():
                    engine.cancel(running.request_id)
                request = pipeline.request(point, k + 1, s.request_id)
                s.parts = pipeline.parts_of(request)
                sent.append(s)
                engine.submit(request, s.sink)
                running = s
            if running is not None and not running.done.wait(timeout_s):
                engine.cancel(running.request_id)
                running.done.wait(30)
            if warm_sent is not None and not warm_sent.done.is_set():
                engine.cancel(warm_sent.request_id)  # the cursor moves on: an editor drops it
                warm_sent.done.wait(30)
    return sent


def _sleep_until(deadline: float) -> None:
    delay = deadline - time.monotonic()
    if delay > 0:
        time.sleep(delay)


# --- figures -----------------------------------------------------------------------------------


def _ms(values: list[float], q: float) -> float:
    return round(percentile(values, q), 1)


def summarize(sent: list[Sent], points: list[Point]) -> dict[str, Any]:
    """Per-pipeline figures over the requests actually sent (warm-ups reported apart)."""
    reqs = [s for s in sent if not s.warmup]
    warms = [s for s in sent if s.warmup and not s.request_id.endswith("/open")]
    first = [(s.first - s.sent) * 1000 for s in reqs if s.first is not None]
    completed = [
        s
        for s in reqs
        if s.result is not None
        and s.result.reason not in (FinishReason.CANCELLED, FinishReason.ERROR)
    ]
    finished = [(s.finished - s.sent) * 1000 for s in completed if s.finished is not None]
    last = [s for s in completed if s.num_typed == len(points[s.point].typed)]
    last_ms = [(s.finished - s.sent) * 1000 for s in last if s.finished is not None]
    cancelled = [
        s for s in reqs if s.result is not None and s.result.reason is FinishReason.CANCELLED
    ]
    prefilled = [
        s.result.stats for s in reqs if s.result is not None and s.result.stats.num_prompt_tokens
    ]
    prompt_tokens = sum(st.num_prompt_tokens for st in prefilled)
    cached = sum(st.num_cached_tokens for st in prefilled)
    texts = []
    shown: dict[int, str] = {}  # id(sent) -> the post-processed completion
    scores: dict[int, tuple[bool, float]] = {}  # id(sent) -> (exact line, edit similarity)
    for s in completed:
        assert s.result is not None
        text = s.result.text
        if s.parts is not None:
            text = postprocess(text, s.parts.prefix, s.parts.suffix, s.parts.language, False)
        texts.append(text)
        shown[id(s)] = text
        truth = points[s.point].rest[s.num_typed :].rstrip().strip()
        scores[id(s)] = (
            text.strip() == truth,
            difflib.SequenceMatcher(None, text.strip(), truth).ratio(),
        )
    exact = sum(scores[id(s)][0] for s in completed)
    similarity = sum(scores[id(s)][1] for s in completed)
    last_exact = sum(scores[id(s)][0] for s in last)
    n = len(completed)
    arrival = [w.result.stats for w in warms if w.result is not None]
    arrival_prompt = sum(st.num_prompt_tokens for st in arrival)
    return {
        "requests_sent": len(reqs),
        "requests_completed": n,
        "requests_cancelled": len(cancelled),
        "requests_error": sum(
            1 for s in reqs if s.result is not None and s.result.reason is FinishReason.ERROR
        ),
        "cancelled_before_first_token": sum(1 for s in cancelled if s.first is None),
        "first_token_ms_p50": _ms(first, 0.5),
        "first_token_ms_p95": _ms(first, 0.95),
        "first_token_ms_max": round(max(first, default=0.0), 1),
        "first_token_n": len(first),
        "finished_ms_p50": _ms(finished, 0.5),
        "finished_ms_p95": _ms(finished, 0.95),
        "finished_n": len(finished),
        "finished_last_key_ms_p50": _ms(last_ms, 0.5),
        "finished_last_key_ms_p95": _ms(last_ms, 0.95),
        "finished_last_key_ms_max": round(max(last_ms, default=0.0), 1),
        "mean_prompt_tokens": round(prompt_tokens / len(prefilled), 1) if prefilled else 0.0,
        "cache_reuse_share": round(cached / prompt_tokens, 4) if prompt_tokens else 0.0,
        "completions_nonempty": sum(1 for t in texts if t.strip()),
        "line_exact_match": round(exact / n, 3) if n else 0.0,
        "line_edit_similarity": round(similarity / n, 3) if n else 0.0,
        # the completion the user waits for: each point's last keystroke
        "last_key_line_exact_match": round(last_exact / len(last), 3) if last else 0.0,
        "last_key_line_edit_similarity": (
            round(sum(scores[id(s)][1] for s in last) / len(last), 3) if last else 0.0
        ),
        "last_key_n": len(last),
        # what they were, against the real line: "path:line typed|completion // real rest"
        "last_key_completions": [
            f"{points[s.point].path}:{points[s.point].line + 1} "
            f"{points[s.point].typed}|{shown[id(s)].strip()} // "
            f"{points[s.point].rest[s.num_typed:].strip()}"
            for s in last
        ],
        "warmups_sent": len(warms),
        "warmups_prefilled": sum(
            1 for s in warms if s.result is not None and s.result.reason is FinishReason.PREFILLED
        ),
        # how much of a point's prompt the KV cache already held when the cursor arrived
        "warmup_cache_reuse_share": round(
            sum(st.num_cached_tokens for st in arrival) / arrival_prompt, 4
        )
        if arrival_prompt
        else 0.0,
        "warmup_mean_prompt_tokens": round(
            sum(s.result.stats.num_prompt_tokens for s in warms if s.result is not None)
            / len(warms),
            1,
        )
        if warms
        else 0.0,
    }


def _ratios(naive: dict[str, Any], other: dict[str, Any]) -> dict[str, float | None]:
    """Naive's p50 / p95 figures over another pipeline's (the same replay)."""
    return {
        name: _ratio(naive[name], other[name])
        for name in (
            "first_token_ms_p50",
            "first_token_ms_p95",
            "finished_ms_p50",
            "finished_ms_p95",
            "finished_last_key_ms_p50",
            "finished_last_key_ms_p95",
        )
    }


def _targets(figures: dict[str, Any]) -> dict[str, bool]:
    """Issue 3's absolute targets for one pipeline: p50 / p95 to the finished completion."""
    return {
        "finished_p50_le_300ms": figures["finished_ms_p50"] <= 300,
        "finished_p95_le_1100ms": figures["finished_ms_p95"] <= 1100,
    }


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 2) if b > 0 else None


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# --- run ---------------------------------------------------------------------------------------


def _engine(args: argparse.Namespace) -> Engine:
    """The CPU engine the daemon runs (engine.kind "auto": llamacpp where llama-cpp-python is
    installed, else xllamacpp), built by engine.factory as the daemon builds it."""
    from engine.factory import create_engine

    cfg = EngineConfig(
        n_ctx=args.n_ctx, n_threads=args.threads, speculation=False, kv_state_slots=8,
        prefill_chunk=args.prefill_chunk or EngineConfig().prefill_chunk,
    )
    engine = create_engine(Config(engine=cfg))
    engine.start()
    return engine


def _with_engine(args: argparse.Namespace, body: Callable[[Engine], Any]) -> Any:
    engine = _engine(args)
    try:
        return body(engine)
    finally:
        engine.close()


def default_root() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def run(args: argparse.Namespace) -> dict[str, Any]:
    from engine.factory import engine_kind
    from engine.llamacpp import PREFILL_CHUNK

    root = (args.root or default_root()).resolve()
    exclude = tuple(args.exclude) + (() if args.root else ("site-packages/",))
    config = Config()
    budget = args.budget or config.context.budget_tokens
    context_config = config.context
    if args.suffix_lines >= 0:
        context_config = msgspec.structs.replace(context_config, suffix_max_lines=args.suffix_lines)
    if args.layout:
        context_config = msgspec.structs.replace(context_config, layout=args.layout)
    if args.whole_file_share >= 0:
        context_config = msgspec.structs.replace(
            context_config, whole_file_share=args.whole_file_share
        )
    pipelines = [p.strip() for p in args.pipelines.split(",") if p.strip()]
    rng = random.Random(args.seed)
    points = sample_points(
        root,
        files=args.files,
        points=args.points,
        keys=args.keys,
        min_lines=args.min_lines,
        rng=rng,
    )
    schedules = [
        typing_schedule(
            len(p.typed),
            think_ms=args.think_ms,
            typing_ms=args.typing_ms,
            jitter=args.jitter,
            debounce_ms=args.debounce_ms,
            rng=rng,
        )
        for p in points
    ]
    out: dict[str, Any] = {
        "root": str(root),
        "files": sorted({p.path for p in points}),
        "points": [f"{p.path}:{p.line + 1}" for p in points],
        "code": code_version(),
        "settings": {
            "files": args.files,
            "points_per_file": args.points,
            "keys": args.keys,
            "seed": args.seed,
            "typing_ms": args.typing_ms,
            "jitter": args.jitter,
            "debounce_ms": args.debounce_ms,
            "think_ms": args.think_ms,
            "open_ms": args.open_ms,
            "max_new_tokens": args.max_tokens,
            "single_line": True,
            "n_ctx": args.n_ctx,
            "threads": args.threads,
            "prefill_chunk": args.prefill_chunk or PREFILL_CHUNK,
            "budget_tokens": budget,
            "suffix_lines": context_config.suffix_max_lines,
            "layout": context_config.layout,
            "file_block_share": context_config.file_block_share,
            "warmup": not args.no_warmup,
            "engines": f"one {engine_kind(config.engine)} engine instance per pipeline, run one "
                       "after the other",
        },
        "load_avg_before": _load(),
    }

    def run_pipeline(engine: Engine, pipe: Pipeline) -> dict[str, Any]:
        """Replay every point through ``pipe`` on ``engine``; the pipeline's figures."""
        load = _load()
        sent = replay(
            engine,
            pipe,
            points,
            schedules,
            debounce_ms=args.debounce_ms,
            timeout_s=args.request_timeout_s,
            open_ms=args.open_ms,
        )
        figures = summarize(sent, points)
        figures["load_avg_at_start"] = load
        return figures

    if "nospin" in pipelines:
        index, build_s = build_index(root, config, exclude)
        out["index_build_s"] = round(build_s, 2)
        out["index_files"] = len(index)

        def nospin(engine: Engine) -> dict[str, Any]:
            pipe = NospinPipeline(
                index=index,
                counter=LineCachedCounter(EngineTokenCounter(engine)),
                config=context_config,
                budget=budget,
                max_tokens=args.max_tokens,
                warm=not args.no_warmup,
            )
            figures = run_pipeline(engine, pipe)
            figures["assemble_ms_p50"] = _ms(pipe.assemble_ms, 0.5)
            figures["assemble_ms_p95"] = _ms(pipe.assemble_ms, 0.95)
            return figures

        out["nospin"] = _with_engine(args, nospin)
    if "naive" in pipelines:

        def naive(engine: Engine) -> dict[str, Any]:
            limit = args.n_ctx - args.max_tokens - NAIVE_FORMAT_TOKENS
            counter = LineCachedCounter(EngineTokenCounter(engine))
            pipe = NaivePipeline(counter=counter, limit=limit, max_tokens=args.max_tokens)
            return run_pipeline(engine, pipe)

        out["naive"] = _with_engine(args, naive)
    if "daemon" in pipelines:
        from bench.latency_daemon import run_daemon_pipeline

        changes: dict[str, Any] = {
            "context.budget_tokens": budget,
            "context.suffix_max_lines": context_config.suffix_max_lines,
            "context.layout": context_config.layout,
            "context.whole_file_share": context_config.whole_file_share,
            "engine.n_ctx": args.n_ctx,
            "engine.n_threads": args.threads,
        } | parse_assignments(args.set)
        load = _load()
        sent, extra = run_daemon_pipeline(
            root,
            points,
            schedules,
            changes=changes,
            exclude=exclude,
            debounce_ms=args.debounce_ms,
            max_tokens=args.max_tokens,
            warm=not args.no_warmup,
            timeout_s=args.request_timeout_s,
            busy=args.busy_loop,
        )
        out["daemon"] = summarize(sent, points) | extra | {"load_avg_at_start": load}
    for name, target in (("nospin", "targets"), ("daemon", "targets_daemon")):
        if name not in out:
            continue
        out[target] = _targets(out[name])
        if "naive" in out:
            out[f"naive_over_{name}"] = ratios = _ratios(out["naive"], out[name])
            out[target]["p95_20x_below_naive"] = (ratios["finished_ms_p95"] or 0.0) >= 20
    out["load_avg_after"] = _load()
    return out
