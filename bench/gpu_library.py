"""GPU check stages that drive exllamav2 directly: the library's own checks and two diagnostics
(where decode time goes; why a model drafting for itself is not always accepted)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from bench.gpu_models import MAIN, N_CTX, write_model
from bench.gpu_report import FAITHFUL_MIN_ACCEPTANCE, Report


def _load(model_dir: Path, cache_tokens: int) -> tuple[Any, Any, Any]:
    from exllamav2 import ExLlamaV2, ExLlamaV2Cache_Q8, ExLlamaV2Config

    config = ExLlamaV2Config(str(model_dir))
    config.arch_compat_overrides()
    config.max_seq_len = N_CTX
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
    config, model, cache = _load(work / "main", cache_tokens)
    info["load_main_s"] = round(time.monotonic() - t, 2)
    t = time.monotonic()
    _, draft, draft_cache = _load(work / "main", cache_tokens)  # the main model as its own draft
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


def stage_speed(work: Path) -> dict[str, Any]:
    """Where decode time goes (diagnostic, no checks): the model's own one-token forward against
    the dynamic generator's time per token, with a profile of the generator's Python side."""
    import cProfile
    import io
    import pstats

    import torch
    from exllamav2 import ExLlamaV2Cache_Q8, ExLlamaV2Tokenizer
    from exllamav2.generator import ExLlamaV2DynamicGenerator, ExLlamaV2DynamicJob, ExLlamaV2Sampler

    info: dict[str, Any] = {}
    config, model, cache = _load(work / "main", N_CTX)
    tokenizer = ExLlamaV2Tokenizer(config)
    ids = tokenizer.encode("def fibonacci(n):\n    ", encode_special_tokens=False)
    n = 32
    # the bare model: one token at a time through the Q8 cache, greedy, a sync per token
    cache.current_seq_len = 0
    model.forward(ids[:, :-1], cache=cache, preprocess_only=True)
    last = ids[:, -1:]
    for timed in (False, True):  # the first pass warms the kernels up
        start = cache.current_seq_len
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(n):
            logits = model.forward(last, cache=cache, last_id_only=True)
            last = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True).cpu()
        torch.cuda.synchronize()
        if timed:
            info["forward_ms_per_token"] = round((time.perf_counter() - t) * 1000 / n, 2)
        cache.current_seq_len = start
    # the dynamic generator (as the engine drives it), profiled
    gen_cache = ExLlamaV2Cache_Q8(model, max_seq_len=N_CTX)
    gen = ExLlamaV2DynamicGenerator(
        model=model, cache=gen_cache, tokenizer=tokenizer, paged=False, max_batch_size=1
    )
    gen.warmup()
    greedy = ExLlamaV2Sampler.Settings.greedy
    prof = cProfile.Profile()
    for run in ("warm", "timed", "profiled"):  # the profiler slows Python: its own run
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
        if run != "warm":
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


def _self_draft(work: Path, model_name: str, cache_class: str) -> dict[str, Any]:
    """Acceptance of a model drafting for itself: one greedy 64-token job, unpaged."""
    import exllamav2
    import torch
    from exllamav2 import ExLlamaV2, ExLlamaV2Config, ExLlamaV2Tokenizer
    from exllamav2.generator import ExLlamaV2DynamicGenerator, ExLlamaV2DynamicJob, ExLlamaV2Sampler

    def load() -> tuple[Any, Any, Any]:
        config = ExLlamaV2Config(str(work / model_name))
        config.arch_compat_overrides()
        config.max_seq_len = N_CTX
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
    """Why a model drafting for itself is not accepted every time: cache type x logit gaps.

    Diagnostic only (no checks): self-draft acceptance with the Q8 and the FP16 cache, for the
    check's model and for the same weights with a 10x output head (decisive greedy choices).
    """
    sharp = work / "main-sharp"
    if not (sharp / "model.safetensors").exists():
        eos = json.loads((work / "main" / "config.json").read_text())["eos_token_id"]
        write_model(sharp, MAIN, tokenizer_dir=work / "tokenizer", eos_id=eos, seed=1, head_std=0.5)
    out: dict[str, Any] = {}
    for name in ("main", "main-sharp"):
        for cache_class in ("ExLlamaV2Cache_Q8", "ExLlamaV2Cache"):
            out[f"{name}/{cache_class}"] = _self_draft(work, name, cache_class)
            print(f"  spec_probe {name}/{cache_class}: {out[f'{name}/{cache_class}']}", flush=True)
    return out
