"""GPU check of the exllamav2 engine in paged mode: continuous batching and prefix pages.

Paged mode needs flash-attn >= 2.5.7, which the H200 image lacks and which has no wheel for its
torch 2.11 / CUDA 13. ``bench/flash_min_prep.sh`` compiles a minimal flash-attn (fp16, head dim
128, forward only) into kernel objects on a CPU machine with the same nvcc; the last stage of the
GPU check (``stage_paged``) links its torch binding on the GPU machine (``bench/flash_min.py``)
and runs this module in a fresh process with that flash_attn importable (exllamav2 decides paged
or not when it is imported). There it repeats the engine and speculation stages paged, then
checks what paged mode is for:

- batching: 8 requests of 64 tokens at once take far less than 8 times one request;
- prefix pages: after a second document, the first one's prompt plus a keystroke reuses whole
  256-token pages of the first prompt (the llamacpp engine's KV state cache, paged);
- the daemon: 8 completions from 8 clients at once run side by side (bench/gpu_daemon.py).

``python -m bench.gpu_paged --work DIR --out FILE`` writes the report JSON; the parent merges
its checks with a ``paged.`` prefix.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.gpu_report import NATURAL_END, Report

PAGE_SIZE = 256  # exllamav2's page; a reused prefix is a whole number of pages


def stage_paged(rep: Report, root: Path, work: Path, kit: Path) -> dict[str, Any]:
    """Link the minimal flash-attn, then run the paged checks in a child process."""
    if not kit.is_dir():
        return {"skipped": f"no flash-attn kit at {kit} (bench/flash_min_prep.sh makes it)"}
    from bench.flash_min import build, env_with_path, prebuilt

    t = time.monotonic()
    ext = root / "build" / "fa_min" / "ext"
    flash_path = prebuilt(kit, ext)
    info: dict[str, Any] = {"flash_prebuilt": flash_path is not None}
    if flash_path is None:
        flash_path = build(kit, ext)
    info["flash_build_s"] = round(time.monotonic() - t, 1)
    out = work / "paged.json"
    env = env_with_path(flash_path)
    t = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "bench.gpu_paged", "--work", str(work), "--out", str(out)],
        cwd=root,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=max(30.0, rep.budget_s + 60 - rep.elapsed()),
    )
    info["child_s"] = round(time.monotonic() - t, 1)
    info["child_rc"] = proc.returncode
    info["child_log_tail"] = proc.stdout[-3000:] + proc.stderr[-3000:]
    if not out.exists():
        rep.check("paged.child_report", False, proc.returncode)
        return info
    child = json.loads(out.read_text())
    for check in child.get("checks", []):
        rep.check("paged." + check["name"], check["ok"], check.get("value"), check.get("expect"))
    for name in child.get("failures", []):
        if name.startswith("stage "):
            rep.data["failures"].append("paged." + name)
    info["child"] = child.get("stages", {})
    return info


def stage_flash(rep: Report) -> dict[str, Any]:
    """flash_attn imports, and exllamav2 runs paged with it."""
    import exllamav2.attn as attn
    import flash_attn

    info = {
        "flash_attn": flash_attn.__version__,
        "flash_attn_file": flash_attn.__file__,
        "has_flash_attn_with_paged": bool(attn.has_flash_attn_with_paged),
    }
    rep.check("flash.paged_available", info["has_flash_attn_with_paged"], info["flash_attn"])
    return info


def stage_batching(rep: Report, work: Path) -> dict[str, Any]:
    """Paged: 8 requests at once against one alone, and prefix pages across documents."""
    from bench.gpu_engine import Collector, _engine
    from engine.base import GenerationRequest, generate_sync

    info: dict[str, Any] = {}
    engine = _engine(work / "main", max_batch=8)
    try:
        caps = engine.capabilities
        info["capabilities"] = {k: getattr(caps, k) for k in caps.__slots__}
        rep.check("batching.capability", caps.batching and caps.max_batch == 8, caps.max_batch)
        rep.check("batching.kv_state_cache", caps.kv_state_cache, caps.kv_state_cache)
        # one request alone, then eight at once (different prompts, same length)
        prompts = [f"# module {i}\nclass Store{i}:\n    def " for i in range(8)]
        t = time.monotonic()
        one, _ = generate_sync(
            engine, GenerationRequest("one", prompt_text=prompts[0], max_new_tokens=64),
            timeout_s=60,
        )
        one_s = time.monotonic() - t
        col = Collector()
        ids = [f"b{i}" for i in range(8)]
        t = time.monotonic()
        for rid, prompt in zip(ids, prompts, strict=True):
            engine.submit(GenerationRequest(rid, prompt_text=prompt, max_new_tokens=64), col)
        done = col.wait(ids, 120)
        eight_s = time.monotonic() - t
        info.update(one_s=round(one_s, 3), eight_s=round(eight_s, 3))
        info["eight_over_one"] = round(eight_s / one_s, 2) if one_s > 0 else None
        rep.check("batching.eight_finished", done, sorted(col.finished))
        reasons = {i: col.finished[i][0].reason.value for i in ids if i in col.finished}
        rep.check(
            "batching.eight_natural_end",
            all(r in NATURAL_END for r in reasons.values()) and one.reason.value in NATURAL_END,
            reasons,
        )
        # decoding together: 8 requests in well under 8 times one (unpaged runs them in turn)
        rep.check("batching.concurrent", eight_s < 4 * one_s, info["eight_over_one"], "< 4")

        # prefix pages across documents: A, then B, then A with one more character
        def doc(name: str) -> str:
            body = "".join(f"    value_{name}_{i} = compute_{i}(value_{i})\n" for i in range(60))
            return f"def build_{name}(config):\n{body}    return "

        a, b = doc("alpha"), doc("beta")
        fa, _ = generate_sync(
            engine, GenerationRequest("A", prompt_text=a, max_new_tokens=8), timeout_s=60
        )
        generate_sync(engine, GenerationRequest("B", prompt_text=b, max_new_tokens=8), timeout_s=60)
        fa2, _ = generate_sync(
            engine, GenerationRequest("A2", prompt_text=a + "r", max_new_tokens=8), timeout_s=60
        )
        pages = (fa.stats.num_prompt_tokens - 1) // PAGE_SIZE
        info["prefix"] = {
            "prompt_tokens": fa2.stats.num_prompt_tokens,
            "cached_tokens": fa2.stats.num_cached_tokens,
            "whole_pages_of_A": pages,
        }
        rep.check(
            "batching.prefix_pages_after_another_document",
            pages > 0 and fa2.stats.num_cached_tokens >= pages * PAGE_SIZE,
            [fa2.stats.num_cached_tokens, fa2.stats.num_prompt_tokens],
            f">= {pages * PAGE_SIZE}",
        )
    finally:
        engine.close()
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--work", required=True, help="the GPU check's work folder (models)")
    ap.add_argument("--out", required=True, help="write the report JSON here")
    ap.add_argument("--budget-s", type=float, default=240.0)
    args = ap.parse_args(argv)
    from bench.gpu_daemon import stage_daemon
    from bench.gpu_engine import stage_engine, stage_speculation

    work = Path(args.work)
    rep = Report(args.budget_s, Path(args.out))
    def body() -> None:
        rep.stage("flash", lambda: stage_flash(rep), required=True)
        rep.stage("batching", lambda: stage_batching(rep, work))
        rep.stage("daemon", lambda: stage_daemon(rep, work, paged=True))  # through the daemon
        rep.stage("engine", lambda: stage_engine(rep, work))
        rep.stage("speculation", lambda: stage_speculation(rep, work))

    return rep.run(body)


if __name__ == "__main__":
    sys.exit(main())
