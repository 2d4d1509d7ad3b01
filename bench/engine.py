"""llamacpp engine figures: prefill/decode speed, first token cold/warm/restored, speculation.

Runs the embedded model (or ``--model``) through the real engine on a slice of a real source
file, prints one JSON object. Used for docs/engine.md. ``--engines llamacpp,xllamacpp`` runs
the CPU engines side by side instead, each in a child process, one after the other
(bench/engine_compare.py).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from app.config import EngineConfig


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", default="", help="GGUF file (default: the embedded model)")
    parser.add_argument("--lines", type=int, default=60, help="lines of prefix before the cursor")
    parser.add_argument("--new-tokens", type=int, default=32)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--engines", default="", help="comma-separated engine kinds to run side "
                        "by side (llamacpp,xllamacpp), each in its own process; default: the "
                        "llamacpp engine's own figures")
    parser.add_argument("--repeat", type=int, default=1, help="--engines: rounds, in turn")


def _source() -> str:
    import json.decoder

    return Path(json.decoder.__file__).read_text("utf-8")


def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.engines:
        from bench.engine_compare import compare

        return compare(args)
    from app.config import PROMPT_LOOKUP
    from engine.base import GenerationRequest, PromptParts, generate_sync
    from engine.llamacpp import LlamaCppEngine
    from engine.models import resolve_model_path
    from engine.profiles import select_profile
    from engine.requantize import cpu_weights

    path = cpu_weights(resolve_model_path(args.model))  # the weights the daemon loads
    lines = _source().splitlines(keepends=True)
    cut = min(len(lines) - 4, args.lines + 20)

    def parts(shift: int = 0, typed: str = "") -> PromptParts:
        prefix = "".join(lines[20 + shift : cut + shift]) + typed
        suffix = "".join(lines[cut + shift : cut + shift + 2])
        return PromptParts("json/decoder.py", "python", (), prefix, suffix)

    out: dict[str, Any] = {"model": path.name}
    cfg = EngineConfig(n_ctx=4096, n_threads=args.threads, kv_state_slots=8)
    engine = LlamaCppEngine(
        model_path=path,
        profile=select_profile("", path.name),
        config=cfg,
        draft_model_path=Path(PROMPT_LOOKUP),
    )
    t0 = time.monotonic()
    engine.start()
    out["load_s"] = round(time.monotonic() - t0, 2)

    def go(rid: str, p: PromptParts, key: str, **kw: Any) -> dict[str, Any]:
        kw.setdefault("max_new_tokens", args.new_tokens)
        kw.setdefault("speculation", False)
        f, _first = generate_sync(
            engine, GenerationRequest(rid, prompt=p, cache_key=key, **kw), timeout_s=600
        )
        s = f.stats
        return {
            "prompt_tokens": s.num_prompt_tokens,
            "cached_tokens": s.num_cached_tokens,
            "restored_state": s.restored_state,
            "prefill_ms": round(s.prefill_ms, 1),
            "first_token_ms": round(s.first_token_ms, 1),
            "decode_ms": round(s.decode_ms, 1),
            "generated": s.num_generated_tokens,
            "total_ms": round(s.total_ms, 1),
            "draft": [s.num_draft_tokens, s.num_draft_accepted],
            "speculation_used": s.speculation_used,
            "note": s.speculation_note,
        }

    cold = go("cold", parts(), "a")
    out["cold"] = cold
    uncached = cold["prompt_tokens"] - cold["cached_tokens"]
    out["prefill_tok_s"] = round(uncached / (cold["prefill_ms"] / 1000), 1)
    out["decode_tok_s"] = round((cold["generated"] - 1) / (cold["decode_ms"] / 1000), 1)
    out["warm_same_prompt"] = go("warm", parts(), "a")
    out["typed_2_chars"] = go("typed", parts(typed="  "), "a")
    other = go("other-doc", parts(shift=200), "b")
    out["other_document_cold"] = other
    out["switch_back_restored"] = go("back", parts(), "a")
    st = engine.stats().extra
    out["kv_state_bytes_per_doc"] = int(st["kv_states_bytes"] / max(1.0, st["kv_states"]))
    out["kv_state_save_ms"] = round(st["kv_state_save_ms"], 2)
    out["kv_state_restore_ms"] = round(st["kv_state_restore_ms"], 2)
    warm = go("warmup", parts(shift=100), "c", prefill_only=True)
    out["prefill_only_warmup"] = warm
    out["after_warmup"] = go("after-warmup", parts(shift=100), "c")
    # speculation (prompt lookup) vs plain on the same prompt, decode only (prefix cached)
    out["plain_again"] = go("plain2", parts(), "a", max_new_tokens=64)
    out["prompt_lookup"] = go("spec", parts(), "a", max_new_tokens=64, speculation=True)
    gs = engine.stats()
    out["speculation"] = {
        "acceptance": round(gs.acceptance_rate, 3),
        "enabled_after": gs.speculation_enabled,
        "note": gs.speculation_note,
    }
    engine.close()
    return out
