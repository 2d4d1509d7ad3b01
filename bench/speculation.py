"""Speculative decoding: plain vs draft model vs prompt lookup, same model, same prompts.

Loads the main model (default: Qwen2.5-Coder-1.5B, ``qwen2.5-coder-1.5b``) with the real
``LlamaCppEngine`` once per configuration, one engine at a time (each closed before the next
starts, so they never compete for the CPU): ``plain`` (no drafter), ``draft-model-K`` (the
embedded 0.5B drafting K tokens) and ``prompt-lookup-K``. Every configuration completes the same
seeded cursor points of real standard-library files (single-line and multi-line completions,
greedy, FIM with a few suffix lines). Each engine first decodes an unmeasured plain warm-up
request, which also gives the speculation governor its plain baseline.

Greedy speculation must give exactly the plain text: ``outputs_identical`` compares every
point's text and finish reason with the plain configuration's.

By default the governor only observes (``--governor observe``): speculation stays on for every
point, so the figures are those of speculation itself, and ``governor`` says whether and after
which request the switch-off rule fired and why. ``--governor enforce`` is what the daemon does.

Prints one JSON object; docs/engine.md ("Speculative decoding").
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import EngineConfig

DEFAULT_MODEL = "qwen2.5-coder-1.5b"
DEFAULT_DRAFT = "embedded"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model", default=DEFAULT_MODEL, help="main model: a model name or GGUF file"
    )
    parser.add_argument(
        "--draft", default=DEFAULT_DRAFT, help="draft model: a model name or GGUF file"
    )
    parser.add_argument(
        "--configs",
        default="plain,draft-model,prompt-lookup",
        help=(
            "comma-separated: plain, draft-model, prompt-lookup; draft-model-K and "
            "prompt-lookup-K pin num_draft_tokens (plain always runs first)"
        ),
    )
    parser.add_argument(
        "--draft-tokens", default="5", help="comma-separated num_draft_tokens values, e.g. 3,5"
    )
    parser.add_argument("--points", type=int, default=8, help="cursor points (one per file)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--root", type=Path, default=None, help="folder of .py files (default: the stdlib)"
    )
    parser.add_argument("--prefix-lines", type=int, default=40, help="lines before the cursor")
    parser.add_argument("--suffix-lines", type=int, default=3, help="lines after the cursor line")
    parser.add_argument("--line-tokens", type=int, default=32, help="max tokens, single-line")
    parser.add_argument("--block-tokens", type=int, default=64, help="max tokens, multi-line")
    parser.add_argument("--threads", type=int, default=0, help="engine n_threads (0: default)")
    parser.add_argument("--n-ctx", type=int, default=2048)
    parser.add_argument(
        "--governor",
        choices=("observe", "enforce"),
        default="observe",
        help="observe: record the switch-off verdict, keep speculating; enforce: as the daemon",
    )
    parser.add_argument(
        "--plain-again", action="store_true", help="run plain once more at the end (load drift)"
    )
    parser.add_argument("--request-timeout-s", type=float, default=600.0)
    parser.add_argument(
        "--engine", choices=("llamacpp", "xllamacpp"), default="llamacpp",
        help="xllamacpp: the server's own speculation (its governor is not applied: observe)",
    )


# --- points ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpecPoint:
    path: str  # relative to the root
    line: int  # 0-based cursor line; the cursor sits after its indentation
    prefix: str
    suffix: str
    multiline: bool
    truth: str  # the real rest of the line (single-line) or the next lines (multi-line)


def sample_spec_points(
    root: Path,
    *,
    points: int,
    seed: int,
    prefix_lines: int,
    suffix_lines: int,
) -> list[SpecPoint]:
    """Seeded cursor points, one per file: even ones single-line, odd ones multi-line.

    The cursor sits after the indentation of a code line; the prefix is the ``prefix_lines``
    lines above plus that indentation, the suffix the ``suffix_lines`` lines after the cursor
    line (single-line) or after the 4 lines the completion may fill (multi-line).
    """
    from bench.latency_points import sample_points

    rng = random.Random(seed)
    raw = sample_points(root, files=points, points=1, keys=0, min_lines=150, rng=rng)
    out: list[SpecPoint] = []
    for i, p in enumerate(raw):
        lines = p.text.split("\n")
        multiline = i % 2 == 1
        skip = 4 if multiline else 1
        start = max(0, p.line - prefix_lines)
        prefix = "".join(line + "\n" for line in lines[start : p.line])
        prefix += lines[p.line][: p.column]
        after = lines[p.line + skip : p.line + skip + suffix_lines]
        suffix = "\n" + "\n".join(after) + ("\n" if after else "")
        truth = "\n".join([lines[p.line][p.column :], *lines[p.line + 1 : p.line + skip]])
        out.append(SpecPoint(p.path, p.line, prefix, suffix, multiline, truth))
    return out


# --- one configuration -------------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    from app.evaluation.corpus import percentile

    return round(percentile(values, q), 1)


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def _log(message: str) -> None:
    print(f"[bench speculation] {message}", file=sys.stderr, flush=True)


def run_config(
    name: str,
    *,
    args: argparse.Namespace,
    model_path: Path,
    draft_path: Path | None,
    num_draft: int,
    points: list[SpecPoint],
) -> dict[str, Any]:
    """Start one engine, warm it up, complete every point, close it; the figures as a dict."""
    from engine.base import GenerationRequest, PromptParts, generate_sync
    from engine.factory import profile_for
    from engine.llamacpp import LlamaCppEngine
    from engine.speculation import SpeculationGovernor

    cfg = EngineConfig(
        n_ctx=args.n_ctx,
        n_threads=args.threads,
        kv_state_slots=0,
        speculation=draft_path is not None,
        num_draft_tokens=num_draft,
    )
    governor = SpeculationGovernor(
        min_acceptance=cfg.speculation_min_acceptance, enforce=args.governor == "enforce"
    )
    engine: Any
    if args.engine == "xllamacpp":
        from engine.xllamacpp import XLlamaCppEngine

        engine = XLlamaCppEngine(
            model_path=model_path, profile=profile_for(cfg, model_path), config=cfg,
            n_parallel=1, draft="" if draft_path is None else str(draft_path),
        )
    else:
        engine = LlamaCppEngine(
            model_path=model_path,
            profile=profile_for(cfg, model_path),
            config=cfg,
            draft_model_path=draft_path,
            governor=governor,
        )
    out: dict[str, Any] = {"config": name, "engine": args.engine,
                           "num_draft_tokens": num_draft if draft_path else 0}
    out["load_before"] = _load()
    t0 = time.monotonic()
    engine.start()
    out["load_s"] = round(time.monotonic() - t0, 2)
    try:
        # Unmeasured plain warm-up: first-call allocations, and the governor's plain baseline.
        import json.decoder

        warm_text = Path(json.decoder.__file__).read_text("utf-8")[:1500]
        for attempt in range(6):
            warm = GenerationRequest(
                f"{name}-warmup-{attempt}",
                prompt_text=warm_text,
                max_new_tokens=16,
                speculation=False,
            )
            generate_sync(engine, warm, timeout_s=args.request_timeout_s)
            if governor.plain_tokens >= governor.baseline_tokens or draft_path is None:
                break
        rows: list[dict[str, Any]] = []
        tripped_after: int | None = None
        for i, point in enumerate(points):
            parts = PromptParts(point.path, "python", (), point.prefix, point.suffix)
            req = GenerationRequest(
                f"{name}-{i}",
                prompt=parts,
                max_new_tokens=args.block_tokens if point.multiline else args.line_tokens,
                single_line=not point.multiline,
                speculation=True,
                cache_key=f"point-{i}",
            )
            fin, _first = generate_sync(engine, req, timeout_s=args.request_timeout_s)
            s = fin.stats
            rows.append(
                {
                    "point": i,
                    "reason": fin.reason.value,
                    "text": fin.text,
                    "error": fin.error,
                    "prompt_tokens": s.num_prompt_tokens,
                    "generated": s.num_generated_tokens,
                    "prefill_ms": round(s.prefill_ms, 1),
                    "decode_ms": round(s.decode_ms, 1),
                    "first_token_ms": round(s.first_token_ms, 1),
                    "total_ms": round(s.total_ms, 1),
                    "proposed": s.num_draft_tokens,
                    "accepted": s.num_draft_accepted,
                    "speculated": s.speculation_used,
                }
            )
            if governor.tripped and tripped_after is None:
                tripped_after = i
            _log(
                f"{name} point {i}: {s.num_generated_tokens} tokens, total {s.total_ms:.0f} ms, "
                f"decode {s.decode_ms:.0f} ms, draft {s.num_draft_accepted}/{s.num_draft_tokens}"
            )
        est = engine.stats()
    finally:
        engine.close()
    out["load_after"] = _load()
    out.update(_summary(rows))
    out["governor"] = {
        "enforced": governor.enforce,
        "switched_off": governor.tripped,
        "after_request": tripped_after,
        "note": governor.note,
        "enabled_at_end": est.speculation_enabled,
        "plain_baseline_ms_per_token": (
            round(governor.plain_ms / governor.plain_tokens, 1) if governor.plain_tokens else None
        ),
        "spec_ms_per_token": (
            round(governor.spec_ms / governor.spec_tokens, 1) if governor.spec_tokens else None
        ),
    }
    out["requests"] = rows
    return out


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in rows if not r["error"]]
    decode_tokens = sum(max(0, r["generated"] - 1) for r in ok)
    decode_ms = sum(r["decode_ms"] for r in ok)
    proposed = sum(r["proposed"] for r in ok)
    accepted = sum(r["accepted"] for r in ok)
    totals = [r["total_ms"] for r in ok]
    return {
        "requests_ok": len(ok),
        "errors": [r["error"] for r in rows if r["error"]],
        "generated_tokens": sum(r["generated"] for r in ok),
        "decode_tok_s": round(decode_tokens / (decode_ms / 1000), 2) if decode_ms else None,
        "decode_ms_sum": round(decode_ms, 1),
        "total_ms_p50": _percentile(totals, 0.5),
        "total_ms_max": round(max(totals), 1) if totals else None,
        "total_ms_sum": round(sum(totals), 1),
        "prefill_ms_p50": _percentile([r["prefill_ms"] for r in ok], 0.5),
        "first_token_ms_p50": _percentile([r["first_token_ms"] for r in ok], 0.5),
        "speculated_requests": sum(1 for r in ok if r["speculated"]),
        "draft_proposed": proposed,
        "draft_accepted": accepted,
        "acceptance": round(accepted / proposed, 3) if proposed else None,
    }


def compare(plain: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Ratios against plain (>1 means faster for tok/s, slower for ms) and output identity."""
    mismatches = [
        a["point"]
        for a, b in zip(plain["requests"], other["requests"], strict=True)
        if (a["text"], a["reason"]) != (b["text"], b["reason"])
    ]
    return {
        "outputs_identical": not mismatches,
        "mismatched_points": mismatches,
        "decode_tok_s_vs_plain": _ratio(other["decode_tok_s"], plain["decode_tok_s"]),
        "total_ms_p50_vs_plain": _ratio(other["total_ms_p50"], plain["total_ms_p50"]),
        "total_ms_sum_vs_plain": _ratio(other["total_ms_sum"], plain["total_ms_sum"]),
        "decode_ms_sum_vs_plain": _ratio(other["decode_ms_sum"], plain["decode_ms_sum"]),
    }


# --- run ---------------------------------------------------------------------------------------


def parse_configs(text: str, ks: list[int]) -> list[tuple[str, int]]:
    """``--configs`` as (kind, num_draft_tokens) pairs besides plain, in order, no repeats.

    ``draft-model`` / ``prompt-lookup`` take every K of ``--draft-tokens``; ``draft-model-3``
    pins K. Raises SystemExit for an unknown name.
    """
    out: list[tuple[str, int]] = []
    for item in (c.strip() for c in text.split(",")):
        if not item or item == "plain":
            continue
        kind, _sep, tail = item.rpartition("-")
        if kind in ("draft-model", "prompt-lookup") and tail.isdigit():
            pairs = [(kind, int(tail))]
        elif item in ("draft-model", "prompt-lookup"):
            pairs = [(item, k) for k in ks]
        else:
            raise SystemExit(f"unknown --configs entry {item!r}")
        out.extend(p for p in pairs if p not in out)
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    import sysconfig

    from app.config import PROMPT_LOOKUP
    from engine.models import resolve_model_path
    from engine.requantize import cpu_weights

    root = (args.root or Path(sysconfig.get_paths()["stdlib"])).resolve()
    ks = [int(k) for k in args.draft_tokens.split(",") if k.strip()]
    wanted = parse_configs(args.configs, ks)
    model_path = cpu_weights(resolve_model_path(args.model))  # the weights the daemon loads
    uses_draft = any(kind == "draft-model" for kind, _k in wanted)
    draft_model = resolve_model_path(args.draft) if uses_draft else None
    points = sample_spec_points(
        root,
        points=args.points,
        seed=args.seed,
        prefix_lines=args.prefix_lines,
        suffix_lines=args.suffix_lines,
    )
    plan: list[tuple[str, Path | None, int]] = [("plain", None, 0)]
    for kind, k in wanted:
        draft = draft_model if kind == "draft-model" else Path(PROMPT_LOOKUP)
        plan.append((f"{kind}-{k}", draft, k))
    if args.plain_again:
        plan.append(("plain-again", None, 0))

    out: dict[str, Any] = {
        "command": "nospin bench speculation " + " ".join(sys.argv[3:]),
        "model": model_path.name,
        "draft_model": draft_model.name if draft_model else None,
        "cpu_count": os.cpu_count(),
        "n_threads": args.threads,
        "n_ctx": args.n_ctx,
        "governor_mode": args.governor,
        "seed": args.seed,
        "points": [
            {
                "path": p.path,
                "line": p.line + 1,
                "kind": "multi-line" if p.multiline else "single-line",
            }
            for p in points
        ],
        "load_before": _load(),
    }
    t0 = time.monotonic()
    results: dict[str, dict[str, Any]] = {}
    for name, draft, k in plan:
        _log(f"config {name} (load {_load()})")
        results[name] = run_config(
            name, args=args, model_path=model_path, draft_path=draft, num_draft=k, points=points
        )
    out["load_after"] = _load()
    out["wall_s"] = round(time.monotonic() - t0, 1)
    plain = results["plain"]
    summary: dict[str, Any] = {}
    for name, res in results.items():
        row = {
            key: res[key]
            for key in (
                "decode_tok_s",
                "total_ms_p50",
                "total_ms_sum",
                "prefill_ms_p50",
                "acceptance",
                "draft_proposed",
                "draft_accepted",
                "speculated_requests",
            )
        }
        row["governor_off"] = res["governor"]["switched_off"]
        row["governor_note"] = res["governor"]["note"]
        if name != "plain":
            row.update(compare(plain, res))
        summary[name] = row
    out["summary"] = summary
    out["outputs_identical"] = all(row.get("outputs_identical", True) for row in summary.values())
    out["configs"] = results
    return out
