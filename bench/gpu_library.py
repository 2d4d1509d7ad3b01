"""GPU check stages that drive exllamav2 directly: the library's own checks and three diagnostics
(is decode time a per-new-length cost of torch SDPA; where decode time goes; why a model
drafting for itself is not always accepted).

Unpaged (no flash-attn), the engine sets ``config.no_sdpa`` (exllamav2's matmul attention, which
masks causally; its SDPA path does not: engine/exllama.py); so do these stages where they stand
for the engine (``_load(..., no_sdpa=True)``). ``sdpa_probe`` and ``spec_probe`` compare both."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from bench.gpu_models import MAIN, N_CTX, write_model
from bench.gpu_report import FAITHFUL_MIN_ACCEPTANCE, Report


def _load(model_dir: Path, cache_tokens: int, *, no_sdpa: bool = False) -> tuple[Any, Any, Any]:
    from exllamav2 import ExLlamaV2, ExLlamaV2Cache_Q8, ExLlamaV2Config

    config = ExLlamaV2Config(str(model_dir))
    config.arch_compat_overrides()
    config.max_seq_len = N_CTX
    config.no_sdpa = config.no_sdpa or no_sdpa
    model = ExLlamaV2(config)
    cache = ExLlamaV2Cache_Q8(model, max_seq_len=cache_tokens, lazy=True)
    model.load_autosplit(cache, progress=False)
    return config, model, cache


def _run_jobs(gen: Any, jobs: list[Any]) -> dict[Any, list[dict[str, Any]]]:
    """Enqueue jobs, iterate to the end; results per identifier."""
    out: dict[Any, list[dict[str, Any]]] = {j.identifier: [] for j in jobs}
    gen.enqueue(jobs)
    while gen.num_remaining_jobs():
        for r in gen.iterate():
            out[r["identifier"]].append(r)
    return out


def _eos(results: list[dict[str, Any]]) -> dict[str, Any]:
    ends = [r for r in results if r.get("eos")]
    return ends[-1] if ends else {}


def stage_library(rep: Report, work: Path) -> dict[str, Any]:
    import exllamav2.attn as attn
    import torch
    from exllamav2 import ExLlamaV2Tokenizer
    from exllamav2.generator import ExLlamaV2DynamicGenerator, ExLlamaV2DynamicJob, ExLlamaV2Sampler

    info: dict[str, Any] = {}
    paged = bool(attn.has_flash_attn_with_paged)
    cache_tokens = N_CTX * (8 if paged else 1)
    t = time.monotonic()
    config, model, cache = _load(work / "main", cache_tokens, no_sdpa=not paged)  # as the engine
    info["load_main_s"] = round(time.monotonic() - t, 2)
    info["no_sdpa"] = bool(config.no_sdpa)
    t = time.monotonic()
    # the main model as its own draft
    _, draft, draft_cache = _load(work / "main", cache_tokens, no_sdpa=not paged)
    info["load_draft_s"] = round(time.monotonic() - t, 2)
    info["gpu_mem_allocated_mb"] = round(torch.cuda.memory_allocated() / 2**20, 1)
    tokenizer = ExLlamaV2Tokenizer(config)
    rep.check(
        "library.cache_is_q8", type(cache).__name__ == "ExLlamaV2Cache_Q8", type(cache).__name__
    )
    batch = 8 if paged else 1
    common = dict(model=model, cache=cache, tokenizer=tokenizer, paged=paged, max_batch_size=batch)
    plain = ExLlamaV2DynamicGenerator(**common)
    plain.warmup()
    spec = ExLlamaV2DynamicGenerator(
        **common, draft_model=draft, draft_cache=draft_cache, num_draft_tokens=5
    )
    spec.warmup()
    ids = tokenizer.encode("def fibonacci(n):\n    ", encode_special_tokens=False)
    greedy = ExLlamaV2Sampler.Settings.greedy

    def job(ident: Any, prompt_ids: Any, n: int, num_draft: int = 0) -> Any:
        return ExLlamaV2DynamicJob(
            input_ids=prompt_ids,
            max_new_tokens=n + num_draft,
            gen_settings=greedy(),
            identifier=ident,
        )

    t = time.monotonic()
    a = _run_jobs(plain, [job("a", ids, 64)])["a"]
    plain_s = time.monotonic() - t
    t = time.monotonic()
    b = _run_jobs(spec, [job("b", ids, 64, 5)])["b"]
    spec_s = time.monotonic() - t
    # Both generators write the same cache; a fresh page table keeps stale pages from matching.
    plain = ExLlamaV2DynamicGenerator(**common)
    text_a = "".join(r.get("text", "") for r in a)
    text_b = "".join(r.get("text", "") for r in b)
    ea, eb = _eos(a), _eos(b)
    acc, rej = eb.get("accepted_draft_tokens", 0), eb.get("rejected_draft_tokens", 0)
    rate = acc / (acc + rej) if acc + rej else 0.0
    info.update(
        plain_s=round(plain_s, 3),
        spec_s=round(spec_s, 3),
        plain_new_tokens=ea.get("new_tokens"),
        spec_new_tokens=eb.get("new_tokens"),
        eos_keys=sorted(eb.keys()),
        accepted=acc,
        rejected=rej,
        same_text_with_and_without_draft=text_a == text_b,
    )
    rep.check(
        "library.plain_64_tokens",
        ea.get("new_tokens") == 64 or ea.get("eos_reason") == "stop_token",
        ea.get("new_tokens"),
    )
    rep.check(
        "library.spec_64_tokens_with_max_plus_draft",
        eb.get("new_tokens") == 64 or eb.get("eos_reason") == "stop_token",
        eb.get("new_tokens"),
        64,
    )
    rep.check(
        "library.self_draft_acceptance",
        rate >= FAITHFUL_MIN_ACCEPTANCE,
        round(rate, 3),
        f">= {FAITHFUL_MIN_ACCEPTANCE}",
    )
    for key in ("time_prefill", "time_generate", "prompt_tokens", "cached_tokens", "new_tokens"):
        rep.check(f"library.eos_has_{key}", key in eb, eb.get(key))

    # 8 concurrent jobs (one at a time when not paged)
    prompts = [
        tokenizer.encode(f"# task {i}\nclass Thing{i}:\n    def ", encode_special_tokens=False)
        for i in range(8)
    ]
    t = time.monotonic()
    res = _run_jobs(plain, [job(i, p, 32) for i, p in enumerate(prompts)])
    info["eight_jobs_s"] = round(time.monotonic() - t, 3)
    ends = {i: sum(1 for r in rs if r.get("eos")) for i, rs in res.items()}
    rep.check("library.eight_jobs_one_eos_each", all(v == 1 for v in ends.values()), ends)

    # cancel: stop job 0 after 3 streamed results; job 1 must finish; nothing after the cancel
    j0, j1 = job("c0", prompts[0], 200), job("c1", prompts[1], 16)
    plain.enqueue([j0, j1])
    seen0 = after_cancel = 0
    cancelled = False
    while plain.num_remaining_jobs():
        for r in plain.iterate():
            if r["identifier"] == "c0" and r["stage"] == "streaming":
                if cancelled:
                    after_cancel += 1
                seen0 += 1
        if seen0 >= 3 and not cancelled:
            plain.cancel(j0)
            cancelled = True
    rep.check("library.cancel_no_results_after", after_cancel == 0 and cancelled, after_cancel)
    rep.check(
        "library.queue_empty_after_cancel",
        plain.num_remaining_jobs() == 0,
        plain.num_remaining_jobs(),
    )
    # the same prompt again: its prefix should come from the cache
    again = _eos(_run_jobs(plain, [job("r", prompts[1], 8)])["r"])
    info["cached_tokens_on_repeat"] = again.get("cached_tokens")
    rep.check(
        "library.prefix_reuse_on_repeat",
        (again.get("cached_tokens") or 0) > 0,
        again.get("cached_tokens"),
    )
    for m in (model, draft):
        m.unload()
    del plain, spec, cache, draft_cache
    torch.cuda.empty_cache()
    return info


def stage_sdpa_probe(work: Path) -> dict[str, Any]:
    """Is decode time a per-new-key-length cost in torch SDPA (cuDNN plan builds)? Diagnostic.

    Fingerprint of torch's cuDNN attention plan cache (thread-local, keyed on s_q/s_kv/strides):
    new lengths slow, the same lengths again fast on the same thread, slow again on a new thread,
    and fast at new lengths once cuDNN SDPA is off or exllamav2 uses its matmul attention
    (``no_sdpa``). Then causality: one 6-token forward against six 1-token forwards after the
    same prefix, through SDPA (as exllamav2 0.3.2 calls it: no mask) and through ``no_sdpa``.
    """
    import itertools
    import os
    import statistics
    import threading
    from collections.abc import Callable

    import torch
    import torch.nn.functional as F
    from exllamav2 import ExLlamaV2Cache, ExLlamaV2Tokenizer
    from exllamav2.generator import ExLlamaV2DynamicGenerator, ExLlamaV2DynamicJob, ExLlamaV2Sampler

    info: dict[str, Any] = {
        "torch": torch.__version__,
        "cudnn_version": torch.backends.cudnn.version(),
        "cudnn_sdp_enabled": torch.backends.cuda.cudnn_sdp_enabled(),
        "env_TORCH_CUDNN_SDPA_DEPRIORITIZED": os.environ.get("TORCH_CUDNN_SDPA_DEPRIORITIZED"),
    }
    dev = torch.device("cuda:0")
    scale = 128**-0.5

    def qkv(length: int, sq: int = 1) -> tuple[Any, Any, Any]:
        # exllamav2's _attn_torch layout: q a transposed (b, s, h, d) view, k/v contiguous
        # (b, h, s, d) out of repeat_kv
        q = torch.randn(1, sq, 8, 128, device=dev, dtype=torch.half).transpose(1, 2)
        k = torch.randn(1, 8, length, 128, device=dev, dtype=torch.half)
        return q, k, torch.randn_like(k)

    def in_thread(fn: Callable[[], Any]) -> Any:
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["r"] = fn()
            except Exception as exc:  # keep the stage alive, report the error
                box["r"] = repr(exc)

        th = threading.Thread(target=target)
        th.start()
        th.join()
        return box.get("r")

    # 1. the backend SDPA picks for exllamav2's decode shape (torch.nn.attention.SDPBackend:
    #    0 math, 1 flash, 2 efficient, 3 cudnn)
    q, k, v = qkv(300)
    try:
        info["sdp_choice"] = int(torch._fused_sdp_choice(q, k, v, None, 0.0, False, scale=scale))
    except Exception as exc:
        info["sdp_choice"] = repr(exc)
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        F.scaled_dot_product_attention(q, k, v, None, scale=scale)
        torch.cuda.synchronize()
    info["sdpa_ops"] = sorted({e.key for e in prof.key_averages() if "attention" in e.key})

    # 2. SDPA alone: new key lengths, the same again, the same on a new thread, cuDNN off
    def sdpa_ms(lengths: list[int]) -> dict[str, float]:
        times = []
        for n in lengths:
            q, k, v = qkv(n)
            torch.cuda.synchronize()
            t = time.perf_counter()
            F.scaled_dot_product_attention(q, k, v, None, scale=scale)
            torch.cuda.synchronize()
            times.append((time.perf_counter() - t) * 1000)
        return {"p50_ms": round(statistics.median(times), 3), "max_ms": round(max(times), 2)}

    fresh = list(range(1000, 1024))
    info["sdpa_new_lengths"] = sdpa_ms(fresh)
    info["sdpa_same_lengths_again"] = sdpa_ms(fresh)
    info["sdpa_same_lengths_new_thread"] = in_thread(lambda: sdpa_ms(fresh))
    torch.backends.cuda.enable_cudnn_sdp(False)
    try:
        info["sdpa_new_lengths_cudnn_off"] = sdpa_ms(list(range(2000, 2024)))
    finally:
        torch.backends.cuda.enable_cudnn_sdp(True)

    # 3. the generator (Q8 cache, unpaged, SDPA as shipped): time per decoded token
    config, model, cache = _load(work / "main", N_CTX)
    tokenizer = ExLlamaV2Tokenizer(config)
    gen = ExLlamaV2DynamicGenerator(
        model=model, cache=cache, tokenizer=tokenizer, paged=False, max_batch_size=1
    )
    gen.warmup()
    greedy = ExLlamaV2Sampler.Settings.greedy

    def decode_ms(prompt_len: int, n: int = 24) -> dict[str, Any]:
        g = torch.Generator().manual_seed(prompt_len)
        ids = torch.randint(16, 4000, (1, prompt_len), generator=g)
        job = ExLlamaV2DynamicJob(  # no stop conditions: it runs to max_new_tokens
            input_ids=ids, max_new_tokens=n, gen_settings=greedy(), identifier=prompt_len
        )
        gen.enqueue(job)
        stamps: list[float] = []
        t0 = time.perf_counter()
        while gen.num_remaining_jobs():
            if any(r.get("stage") == "streaming" for r in gen.iterate()):
                stamps.append(time.perf_counter())
        gaps = [(b - a) * 1000 for a, b in itertools.pairwise(stamps)]
        return {
            "prompt": prompt_len,
            "first_ms": round((stamps[0] - t0) * 1000, 1) if stamps else None,
            "p50_ms": round(statistics.median(gaps), 2) if gaps else None,
            "max_ms": round(max(gaps), 1) if gaps else None,
        }

    # the same lengths twice on one new thread, then once more on another new thread
    info["gen_new_thread_twice"] = in_thread(lambda: [decode_ms(600), decode_ms(600)])
    info["gen_same_lengths_other_thread"] = in_thread(lambda: decode_ms(600))
    torch.backends.cuda.enable_cudnn_sdp(False)
    try:
        info["gen_cudnn_off_new_lengths"] = in_thread(lambda: decode_ms(900))
    finally:
        torch.backends.cuda.enable_cudnn_sdp(True)
    model.config.no_sdpa = True  # exllamav2's matmul attention (read per call)
    try:
        info["gen_no_sdpa_new_lengths"] = in_thread(lambda: decode_ms(1200))
    finally:
        model.config.no_sdpa = False

    # 4. causality: one 6-token forward against six 1-token forwards after the same prefix, FP16
    #    cache (no Q8 rounding)
    def block_vs_steps(no_sdpa: bool) -> dict[str, Any]:
        model.config.no_sdpa = no_sdpa
        try:
            c = ExLlamaV2Cache(model, max_seq_len=256)
            ids = torch.randint(16, 4000, (1, 38), generator=torch.Generator().manual_seed(7))
            model.forward(ids[:, :32], cache=c, preprocess_only=True)
            block = model.forward(ids[:, 32:38], cache=c).float().cpu()
            c.current_seq_len = 32
            steps = torch.cat(
                [model.forward(ids[:, 32 + i : 33 + i], cache=c).float().cpu() for i in range(6)],
                dim=1,
            )
        finally:
            model.config.no_sdpa = False
        return {
            "max_abs_diff": round((block - steps).abs().max().item(), 4),
            "argmax_agree_of_6": int((block.argmax(-1) == steps.argmax(-1)).sum().item()),
        }

    info["causal_sdpa"] = block_vs_steps(False)
    info["causal_no_sdpa"] = block_vs_steps(True)
    model.unload()  # the generator and caches go with this frame
    return info


def stage_speed(work: Path) -> dict[str, Any]:
    """Where decode time goes (diagnostic, no checks): the model's own one-token forward against
    the dynamic generator's time per token, with a profile of the generator's Python side."""
    import cProfile
    import io
    import pstats

    import exllamav2.attn as attn
    import torch
    from exllamav2 import ExLlamaV2Cache_Q8, ExLlamaV2Tokenizer
    from exllamav2.generator import ExLlamaV2DynamicGenerator, ExLlamaV2DynamicJob, ExLlamaV2Sampler

    info: dict[str, Any] = {}
    config, model, cache = _load(work / "main", N_CTX, no_sdpa=not attn.has_flash_attn_with_paged)
    info["no_sdpa"] = bool(config.no_sdpa)
    tokenizer = ExLlamaV2Tokenizer(config)
    ids = tokenizer.encode("def fibonacci(n):\n    ", encode_special_tokens=False)
    n = 32
    # the bare model: one token at a time through the Q8 cache, greedy, a sync per token
    cache.current_seq_len = 0
    model.forward(ids[:, :-1], cache=cache, preprocess_only=True)
    last = ids[:, -1:]
    for timed in ("first", "again"):  # new lengths, then the same lengths again
        start = cache.current_seq_len
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(n):
            logits = model.forward(last, cache=cache, last_id_only=True)
            last = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True).cpu()
        torch.cuda.synchronize()
        info[f"forward_{timed}_ms_per_token"] = round((time.perf_counter() - t) * 1000 / n, 2)
        cache.current_seq_len = start
    # the dynamic generator (as the engine drives it), profiled
    gen_cache = ExLlamaV2Cache_Q8(model, max_seq_len=N_CTX)
    gen = ExLlamaV2DynamicGenerator(
        model=model, cache=gen_cache, tokenizer=tokenizer, paged=False, max_batch_size=1
    )
    gen.warmup()
    greedy = ExLlamaV2Sampler.Settings.greedy
    prof = cProfile.Profile()
    # "warm" meets lengths past the warm-up's for the first time, "timed" the same again; the
    # profiler slows Python: its own run
    for run in ("warm", "timed", "profiled"):
        job = ExLlamaV2DynamicJob(
            input_ids=ids, max_new_tokens=64, gen_settings=greedy(), identifier=run
        )
        iterations = 0
        t = time.perf_counter()
        if run == "profiled":
            prof.enable()
        gen.enqueue(job)
        while gen.num_remaining_jobs():
            gen.iterate()
            iterations += 1
        prof.disable()
        ms = (time.perf_counter() - t) * 1000
        info[f"generator_{run}_ms_per_token"] = round(ms / 64, 2)
        info["generator_iterations"] = iterations
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(25)
    info["generator_profile_tottime"] = [ln for ln in text.getvalue().splitlines() if ln.strip()]
    smi = subprocess.run(
        [
            "nvidia-smi",
            "--query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,utilization.gpu",
            "--format=csv",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    info["nvidia_smi"] = smi.stdout.strip()
    model.unload()
    del gen, gen_cache, cache
    torch.cuda.empty_cache()
    return info


def _self_draft(work: Path, model_name: str, cache_class: str, no_sdpa: bool) -> dict[str, Any]:
    """Acceptance of a model drafting for itself: one greedy 64-token job, unpaged."""
    import exllamav2
    import torch
    from exllamav2 import ExLlamaV2, ExLlamaV2Config, ExLlamaV2Tokenizer
    from exllamav2.generator import ExLlamaV2DynamicGenerator, ExLlamaV2DynamicJob, ExLlamaV2Sampler

    def load() -> tuple[Any, Any, Any]:
        config = ExLlamaV2Config(str(work / model_name))
        config.arch_compat_overrides()
        config.max_seq_len = N_CTX
        config.no_sdpa = no_sdpa
        model = ExLlamaV2(config)
        cache = getattr(exllamav2, cache_class)(model, max_seq_len=N_CTX, lazy=True)
        model.load_autosplit(cache, progress=False)
        return config, model, cache

    config, model, cache = load()
    _, draft, draft_cache = load()
    tokenizer = ExLlamaV2Tokenizer(config)
    common = dict(model=model, cache=cache, tokenizer=tokenizer, paged=False, max_batch_size=1)
    ids = tokenizer.encode("def fibonacci(n):\n    ", encode_special_tokens=False)
    greedy = ExLlamaV2Sampler.Settings.greedy
    texts = []
    ends = []
    # 64 new tokens each: the generator ends a drafted job at max_new_tokens - num_draft_tokens
    for extra, kw in (
        (0, {}),
        (5, dict(draft_model=draft, draft_cache=draft_cache, num_draft_tokens=5)),
    ):
        gen = ExLlamaV2DynamicGenerator(**common, **kw)
        job = ExLlamaV2DynamicJob(
            input_ids=ids, max_new_tokens=64 + extra, gen_settings=greedy(), identifier="p"
        )
        res = _run_jobs(gen, [job])["p"]
        texts.append("".join(r.get("text", "") for r in res))
        ends.append(_eos(res))
        del gen
    acc = ends[1].get("accepted_draft_tokens", 0)
    rej = ends[1].get("rejected_draft_tokens", 0)
    for m in (model, draft):
        m.unload()
    del cache, draft_cache
    torch.cuda.empty_cache()
    return {
        "accepted": acc,
        "rejected": rej,
        "acceptance": round(acc / (acc + rej), 3) if acc + rej else None,
        "same_text_as_without_draft": texts[0] == texts[1],
    }


def stage_spec_probe(work: Path) -> dict[str, Any]:
    """Why a model drafting for itself is not accepted every time: attention path x cache type
    x logit gaps.

    Diagnostic only (no checks): self-draft acceptance through torch SDPA (unmasked: the verify
    pass sees later tokens) and through exllamav2's matmul attention (``no_sdpa``, as the
    engine runs unpaged), with the Q8 and the FP16 cache, for the check's model and for the
    same weights with a 10x output head (decisive greedy choices).
    """
    sharp = work / "main-sharp"
    if not (sharp / "model.safetensors").exists():
        eos = json.loads((work / "main" / "config.json").read_text())["eos_token_id"]
        write_model(sharp, MAIN, tokenizer_dir=work / "tokenizer", eos_id=eos, seed=1, head_std=0.5)
    out: dict[str, Any] = {}
    cells = [
        ("main", "ExLlamaV2Cache_Q8", False),
        ("main", "ExLlamaV2Cache", False),
        ("main", "ExLlamaV2Cache_Q8", True),
        ("main", "ExLlamaV2Cache", True),
        ("main-sharp", "ExLlamaV2Cache_Q8", True),
    ]
    for name, cache_class, no_sdpa in cells:
        key = f"{name}/{cache_class}/{'no_sdpa' if no_sdpa else 'sdpa'}"
        out[key] = _self_draft(work, name, cache_class, no_sdpa)
        print(f"  spec_probe {key}: {out[key]}", flush=True)
    return out
