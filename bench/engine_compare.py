"""The CPU engines side by side (``nospin bench engine --engines llamacpp,xllamacpp``).

Each engine runs in a child process of its own, one after the other (``--repeat`` rounds, in
turn), on the same weights (the embedded model's re-quantized CPU file unless ``--model``) and
the same prompts: a slice of a real source file cold, the same prompt again, two characters
typed, another document and back, a cold 2,048-token prompt, a 64-token decode, and two
requests at once. The child prints its figures as JSON with its resident memory (VmRSS, VmHWM
from ``/proc/self/status``) once the requests are done. The parent prints one JSON object: each
engine's rounds and, per figure, the median over rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
COLD_TOKENS = 2048  # the cold prompt's length
# the figures whose median over rounds the summary shows
SUMMARY = (
    "load_s", "prefill_ms_per_token", "decode_ms_per_token", "cold_first_token_ms",
    "warm_first_token_ms", "typed_first_token_ms", "switch_back_first_token_ms",
    "cold_2048_prefill_ms", "cold_2048_first_token_ms", "two_at_once_ms", "one_after_other_ms",
    "rss_mb", "hwm_mb",
)


def compare(args: argparse.Namespace) -> dict[str, Any]:
    """Run each engine of ``args.engines`` in a child, ``args.repeat`` rounds in turn."""
    kinds = [k.strip() for k in args.engines.split(",") if k.strip()]
    rounds: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
    for _ in range(max(1, args.repeat)):
        for kind in kinds:
            rounds[kind].append(_child(kind, args))
    out: dict[str, Any] = {"cpus": os.cpu_count(), "load_avg_1m": round(os.getloadavg()[0], 2)}
    for kind, runs in rounds.items():
        ok = [r for r in runs if "error" not in r]
        summary = {
            key: round(statistics.median(r[key] for r in ok), 1)
            for key in SUMMARY
            if ok and all(key in r for r in ok)
        }
        out[kind] = {"median": summary, "rounds": runs}
    return out


def _child(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, "-m", "bench.engine_compare", "--kind", kind,
               "--model", args.model, "--lines", str(args.lines),
               "--threads", str(args.threads), "--new-tokens", str(args.new_tokens)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=1800, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"error": f"exit {proc.returncode}: {proc.stderr.strip()[-600:]}"}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


# --- the child: one engine ---------------------------------------------------------------------


def measure(kind: str, model: str, lines_before: int, threads: int, new_tokens: int
            ) -> dict[str, Any]:
    from app.config import Config, EngineConfig
    from engine.base import GenerationRequest, PromptParts, generate_sync
    from engine.factory import create_engine
    from engine.models import resolve_model_path
    from engine.requantize import cpu_weights

    path = cpu_weights(resolve_model_path(model))
    cfg = EngineConfig(kind=kind, model=str(path), n_ctx=4096, n_threads=threads,
                       kv_state_slots=8, speculation=False, requantize=False, n_parallel=2)
    engine = create_engine(Config(engine=cfg))
    import json.decoder as source_module

    lines = Path(source_module.__file__).read_text("utf-8").splitlines(keepends=True)
    cut = min(len(lines) - 4, lines_before + 20)

    def parts(shift: int = 0, typed: str = "") -> PromptParts:
        prefix = "".join(lines[20 + shift : cut + shift]) + typed
        suffix = "".join(lines[cut + shift : cut + shift + 2])
        return PromptParts("json/decoder.py", "python", (), prefix, suffix)

    t0 = time.monotonic()
    engine.start()
    out: dict[str, Any] = {"engine": kind, "model": path.name,
                           "load_s": round(time.monotonic() - t0, 2)}

    def go(rid: str, p: PromptParts | None, key: str, **kw: Any) -> dict[str, Any]:
        kw.setdefault("max_new_tokens", new_tokens)
        req = GenerationRequest(rid, prompt=p, cache_key=key, speculation=False, **kw)
        f, _first = generate_sync(engine, req, timeout_s=900)
        s = f.stats
        return {"reason": f.reason.value, "prompt_tokens": s.num_prompt_tokens,
                "cached_tokens": s.num_cached_tokens, "prefill_ms": round(s.prefill_ms, 1),
                "first_token_ms": round(s.first_token_ms, 1), "decode_ms": round(s.decode_ms, 1),
                "generated": s.num_generated_tokens, "total_ms": round(s.total_ms, 1)}

    cold = go("cold", parts(), "a")
    out["cold"] = cold
    out["cold_first_token_ms"] = cold["first_token_ms"]
    out["warm_first_token_ms"] = go("warm", parts(), "a")["first_token_ms"]
    out["typed_first_token_ms"] = go("typed", parts(typed="  "), "a")["first_token_ms"]
    go("other", parts(shift=200), "b")
    out["switch_back_first_token_ms"] = go("back", parts(), "a")["first_token_ms"]
    # a cold prompt of COLD_TOKENS tokens: the file's lines until the count is reached
    text, n = "", 0
    for line in lines:
        if n + engine.count_tokens(line) > COLD_TOKENS - 16:
            break
        text += line
        n += engine.count_tokens(line)
    big = go("cold-2048", PromptParts("json/big.py", "python", (), text, "\n"), "big",
             max_new_tokens=1)
    out["cold_2048"] = big
    out["cold_2048_prefill_ms"] = big["prefill_ms"]
    out["cold_2048_first_token_ms"] = big["first_token_ms"]
    uncached = big["prompt_tokens"] - big["cached_tokens"]
    out["prefill_ms_per_token"] = round(big["prefill_ms"] / max(1, uncached), 2)
    # decode: 64 tokens of a plain prompt, no stop rule but the model's own end
    dec = go("decode", None, "d", prompt_text="def fibonacci_numbers(count):\n",
             max_new_tokens=64)
    out["decode"] = dec
    out["decode_ms_per_token"] = round(dec["decode_ms"] / max(1, dec["generated"] - 1), 2)
    # two documents' completions submitted together, against one after the other
    docs = (parts(shift=60), parts(shift=120))
    go("seq-warm-1", docs[0], "s1", prefill_only=True)
    go("seq-warm-2", docs[1], "s2", prefill_only=True)
    t1 = time.monotonic()
    go("seq-1", docs[0], "s1")
    go("seq-2", docs[1], "s2")
    out["one_after_other_ms"] = round((time.monotonic() - t1) * 1000, 1)
    t2 = time.monotonic()
    threads_ = [threading.Thread(target=go, args=(f"par-{i}", d, f"s{i + 1}"))
                for i, d in enumerate(docs)]
    for t in threads_:
        t.start()
    for t in threads_:
        t.join()
    out["two_at_once_ms"] = round((time.monotonic() - t2) * 1000, 1)
    status = Path("/proc/self/status").read_text()
    for field, key in (("VmRSS", "rss_mb"), ("VmHWM", "hwm_mb")):
        for line in status.splitlines():
            if line.startswith(field + ":"):
                out[key] = round(int(line.split()[1]) / 1024, 1)
    out["stats"] = engine.stats().extra
    engine.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", required=True)
    parser.add_argument("--model", default="")
    parser.add_argument("--lines", type=int, default=60)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--new-tokens", type=int, default=32)
    a = parser.parse_args()
    print(json.dumps(measure(a.kind, a.model, a.lines, a.threads, a.new_tokens)))


if __name__ == "__main__":
    main()
