"""GPU check of the exllamav2 engine: build, load, Q8 cache, speculation, 8 jobs, cancel (JSON).

For a CUDA machine with no network. Run it through ``bench/gpu_check.sh``, which installs the
wheels carried in ``bench/vendor/`` (exllamav2 0.3.2, pure Python with its C++/CUDA sources, plus
the few small packages nospin and the converter need) into ``build/gpu_site`` and points
``TORCH_EXTENSIONS_DIR`` at ``build/torch_extensions``; the first ``import exllamav2`` then
JIT-compiles the extension (timed here, cached for later runs on the same machine).

The script creates on the spot, from nothing but the Python standard library's source text:
a byte-level BPE tokenizer (``tokenizers``) with Qwen2.5-Coder's special markers, a random
Llama-architecture model (FP16 safetensors + config.json) and a smaller random draft of the same
vocabulary. Random weights make acceptance rates meaningless except at the ends: a draft that is
the main model itself is accepted well above the 0.4 switch-off (not always: on the H200 it was
0.63-0.64, and the greedy text with and without it differed: the draft's one-token passes and
the verify's batched pass do not compute the same logits here; the spec_probe stage asks why), an
unrelated one nearly never (which must switch speculation off).

Stages, each timed, each check recorded with its value:
  env       torch, CUDA, GPU, nvcc, flash-attn (paged mode needs >= 2.5.7)
  build     import exllamav2 (JIT build), size of the built extension
  models    tokenizer, main model, draft model
  library   exllamav2 directly: load with Q8 cache, greedy with and without a draft (the main model
            as its own draft), 8 concurrent jobs, cancel, prefix reuse after cancel
  engine    nospin's ExLlamaV2Engine through its public interface: FIM prompt with marker strings
            in the source, stop strings, single line, 8 concurrent requests with a cancel and a
            deadline, warm-up (prefill only) then cache reuse, speculation with a faithful draft,
            switch-off with an unrelated draft
  speed     diagnostic: the bare model's one-token forward against the generator's time per
            token, with a profile of the generator's Python side
  latency   diagnostic: completions through the engine at Qwen2.5-Coder-1.5B's size (random
            weights): cold FIM prompts at both budgets, keystrokes after them, a long decode
  spec_probe diagnostic: self-draft acceptance with the Q8 and FP16 caches, with the output head
            as made and 10x larger (decisive greedy choices)
  quantize  ``nospin model quantize`` on the random model (small calibration), then generation
            from the EXL2 result through the engine

Prints one JSON object (also written to --out) and exits 0 when every check passed, 1 when one
failed, 2 when the setup (GPU, build) failed. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Qwen2.5-Coder's markers, so that nospin's "qwen2.5-coder" profile renders FIM prompts for it.
SPECIAL_TOKENS = (
    "<|endoftext|>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|fim_pad|>",
    "<|repo_name|>",
    "<|file_sep|>",
    "<|im_start|>",
    "<|im_end|>",
)
VOCAB_SIZE = 4096
N_CTX = 2048


@dataclass(frozen=True)
class Shape:
    """Llama model dimensions."""

    hidden: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int


MAIN = Shape(hidden=1024, layers=8, heads=8, kv_heads=4, head_dim=128, intermediate=2816)
DRAFT = Shape(hidden=512, layers=2, heads=4, kv_heads=2, head_dim=128, intermediate=1408)
# Qwen2.5-Coder-1.5B's dimensions and vocabulary, for timings only (random weights): a real
# model cannot reach the GPU machine (no network, 64 MiB carried per call)
QWEN_1_5B = Shape(hidden=1536, layers=28, heads=12, kv_heads=2, head_dim=128, intermediate=8960)
QWEN_VOCAB = 151_936


# a faithful draft (the model itself) must keep speculation on with a margin over the 0.4 rule
FAITHFUL_MIN_ACCEPTANCE = 0.5

# --------------------------------------------------------------------------- results


class Report:
    """Collects stages, checks and failures; becomes the JSON output."""

    def __init__(self, budget_s: float) -> None:
        self.t0 = time.monotonic()
        self.budget_s = budget_s
        self.data: dict[str, Any] = {"ok": False, "stages": {}, "checks": [], "failures": []}

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def check(self, name: str, ok: bool, value: Any = None, expect: Any = None) -> bool:
        entry = {"name": name, "ok": bool(ok), "value": value}
        if expect is not None:
            entry["expect"] = expect
        self.data["checks"].append(entry)
        if not ok:
            self.data["failures"].append(name)
        print(f"[{self.elapsed():7.1f}s] {'ok  ' if ok else 'FAIL'} {name}: {value}", flush=True)
        return bool(ok)

    def stage(self, name: str, fn: Callable[[], dict[str, Any]], *, required: bool = False) -> bool:
        if self.elapsed() > self.budget_s:
            self.data["stages"][name] = {"ok": False, "skipped": "time budget spent"}
            print(f"[{self.elapsed():7.1f}s] skip {name}: time budget spent", flush=True)
            return False
        print(f"[{self.elapsed():7.1f}s] stage {name}", flush=True)
        t = time.monotonic()
        try:
            info = fn()
            ok = True
        except Exception as exc:
            info = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
            ok = False
            self.data["failures"].append(f"stage {name}")
            print(info["traceback"], flush=True)
        info.update(ok=ok, s=round(time.monotonic() - t, 2))
        self.data["stages"][name] = info
        if not ok and required:
            raise SystemExit(2)
        return ok


# --------------------------------------------------------------------------- model making


# a generation that ended by itself: a random-weight model's text often repeats, and the
# engines' StreamFilter ends degenerate repetition (finish reason "repetition")
NATURAL_END = ("length", "stop", "repetition")  # FinishReason values


def corpus(limit_bytes: int = 3_000_000) -> list[str]:
    """Source text of the standard library (sorted, so the tokenizer is reproducible)."""
    root = Path(sysconfig.get_paths()["stdlib"])
    texts: list[str] = []
    total = 0
    for path in sorted(root.glob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        texts.append(text)
        total += len(text)
        if total >= limit_bytes:
            break
    return texts


def make_tokenizer(out: Path) -> int:
    """Write a byte-level BPE tokenizer.json (+ tokenizer_config.json); return the EOS id."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(corpus(), trainer)
    out.mkdir(parents=True, exist_ok=True)
    tok.save(str(out / "tokenizer.json"))
    eos = tok.token_to_id("<|endoftext|>")
    (out / "tokenizer_config.json").write_text(
        json.dumps({"add_bos_token": False, "eos_token": "<|endoftext|>", "bos_token": None})
    )
    return int(eos)


def write_model(
    out: Path,
    shape: Shape,
    *,
    tokenizer_dir: Path,
    eos_id: int,
    seed: int,
    head_std: float = 0.05,
    vocab_size: int = 0,
) -> Path:
    """A random Llama model in FP16 safetensors with config.json and the tokenizer files.

    ``head_std`` scales the output head (the other weights are the same for one seed): larger
    values give larger gaps between the top logits, so greedy choices survive rounding.
    ``vocab_size`` larger than the tokenizer's gives a model of that width whose extra output
    rows are zero (never the greedy choice), as Qwen's padded vocabulary.
    """
    import torch
    from safetensors.torch import save_file

    out.mkdir(parents=True, exist_ok=True)
    g = torch.Generator().manual_seed(seed)
    vocab = json.loads((tokenizer_dir / "tokenizer.json").read_text())["model"]["vocab"]
    known = max(len(vocab), VOCAB_SIZE)
    vocab_size = max(known, vocab_size)

    def rnd(*size: int, std: float = 0.02) -> Any:
        return (torch.randn(*size, generator=g) * std).half()

    h, q, kv = shape.hidden, shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
    tensors: dict[str, Any] = {
        "model.embed_tokens.weight": rnd(vocab_size, h, std=1.0),
        "model.norm.weight": torch.ones(h).half(),
        "lm_head.weight": rnd(vocab_size, h, std=head_std),
    }
    tensors["lm_head.weight"][known:] = 0
    for i in range(shape.layers):
        p = f"model.layers.{i}."
        tensors[p + "input_layernorm.weight"] = torch.ones(h).half()
        tensors[p + "post_attention_layernorm.weight"] = torch.ones(h).half()
        tensors[p + "self_attn.q_proj.weight"] = rnd(q, h)
        tensors[p + "self_attn.k_proj.weight"] = rnd(kv, h)
        tensors[p + "self_attn.v_proj.weight"] = rnd(kv, h)
        tensors[p + "self_attn.o_proj.weight"] = rnd(h, q)
        tensors[p + "mlp.gate_proj.weight"] = rnd(shape.intermediate, h)
        tensors[p + "mlp.up_proj.weight"] = rnd(shape.intermediate, h)
        tensors[p + "mlp.down_proj.weight"] = rnd(h, shape.intermediate)
    save_file(tensors, str(out / "model.safetensors"), metadata={"format": "pt"})
    config = {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": h,
        "intermediate_size": shape.intermediate,
        "num_hidden_layers": shape.layers,
        "num_attention_heads": shape.heads,
        "num_key_value_heads": shape.kv_heads,
        "head_dim": shape.head_dim,
        "hidden_act": "silu",
        "rms_norm_eps": 1e-5,
        "rope_theta": 10000.0,
        "max_position_embeddings": 4096,
        "vocab_size": vocab_size,
        "tie_word_embeddings": False,
        "torch_dtype": "float16",
        "bos_token_id": eos_id,
        "eos_token_id": eos_id,
    }
    (out / "config.json").write_text(json.dumps(config, indent=2))
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(tokenizer_dir / name, out / name)
    return out


# --------------------------------------------------------------------------- stages


def stage_env() -> dict[str, Any]:
    import torch

    info: dict[str, Any] = {
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "cuda_available": torch.cuda.is_available(),
        "nvcc": shutil.which("nvcc"),
        "ninja": shutil.which("ninja"),
        "CUDA_HOME": os.environ.get("CUDA_HOME", ""),
        "TORCH_CUDA_ARCH_LIST": os.environ.get("TORCH_CUDA_ARCH_LIST", ""),
        "MAX_JOBS": os.environ.get("MAX_JOBS", ""),
        "TORCH_EXTENSIONS_DIR": os.environ.get("TORCH_EXTENSIONS_DIR", ""),
    }
    if torch.cuda.is_available():
        info["gpu"] = torch.cuda.get_device_name(0)
        info["capability"] = list(torch.cuda.get_device_capability(0))
        info["gpu_mem_gib"] = round(torch.cuda.get_device_properties(0).total_memory / 2**30, 1)
    if info["nvcc"]:
        out = subprocess.run(["nvcc", "--version"], capture_output=True, text=True, check=False)
        info["nvcc_version"] = out.stdout.strip().splitlines()[-1] if out.stdout else ""
    try:
        import flash_attn

        info["flash_attn"] = flash_attn.__version__
    except ImportError:
        info["flash_attn"] = None
    for mod in ("tokenizers", "safetensors", "numpy", "pandas", "fastparquet", "msgspec"):
        try:
            info[mod] = __import__(mod).__version__
        except Exception as exc:
            info[mod] = f"missing ({type(exc).__name__})"
    if not torch.cuda.is_available():
        raise RuntimeError(f"torch sees no CUDA device: {json.dumps(info, default=str)}")
    return info


def stage_build(rep: Report) -> dict[str, Any]:
    t = time.monotonic()
    import exllamav2
    import exllamav2.attn as attn
    import exllamav2.ext as ext
    import exllamav2.generator  # the generator module imports cleanly

    build_s = time.monotonic() - t
    root = Path(os.environ.get("TORCH_EXTENSIONS_DIR", ""))
    libs = sorted(root.rglob("exllamav2_ext*.so")) if root.is_dir() else []
    if not getattr(ext, "build_jit", True):  # a prebuilt extension (gpu_check.sh)
        libs = [Path(ext.exllamav2_ext.__file__)]
    info = {
        "exllamav2": exllamav2.__version__,
        "import_and_build_s": round(build_s, 1),
        "jit": bool(getattr(ext, "build_jit", False)),
        "extension": str(libs[0]) if libs else None,
        "extension_mb": round(libs[0].stat().st_size / 2**20, 1) if libs else None,
        "has_flash_attn_with_paged": bool(attn.has_flash_attn_with_paged),
        "has_lower_right_sdpa": bool(getattr(attn, "has_lower_right_sdpa", False)),
    }
    rep.check("build.extension_loaded", True, info["extension_mb"])
    return info


def stage_models(work: Path) -> dict[str, Any]:
    t = time.monotonic()
    eos = make_tokenizer(work / "tokenizer")
    tok_s = time.monotonic() - t
    write_model(work / "main", MAIN, tokenizer_dir=work / "tokenizer", eos_id=eos, seed=1)
    write_model(work / "draft", DRAFT, tokenizer_dir=work / "tokenizer", eos_id=eos, seed=2)
    size = {
        n: round((work / n / "model.safetensors").stat().st_size / 2**20, 1)
        for n in ("main", "draft")
    }
    return {"tokenizer_s": round(tok_s, 1), "eos_id": eos, "size_mb": size}


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


class Collector:
    """An EventSink that keeps every event of every request."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.chunks: dict[str, list[str]] = {}
        self.finished: dict[str, list[Any]] = {}
        self.done = threading.Condition(self.lock)
        self.on_chunk: Callable[[str], None] | None = None

    def __call__(self, event: Any) -> None:
        from engine.base import TextChunk

        with self.lock:
            if isinstance(event, TextChunk):
                self.chunks.setdefault(event.request_id, []).append(event.text)
            else:
                self.finished.setdefault(event.request_id, []).append(event)
                self.done.notify_all()
        if isinstance(event, TextChunk) and self.on_chunk is not None:
            self.on_chunk(event.request_id)

    def wait(self, ids: list[str], timeout: float) -> bool:
        end = time.monotonic() + timeout
        with self.lock:
            while not all(i in self.finished for i in ids):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.done.wait(left)
        return True


def _engine(model: Path, draft: Path | None = None, **kw: Any) -> Any:
    from app.config import EngineConfig
    from engine.exllama import ExLlamaV2Engine

    cfg = EngineConfig(
        kind="exllamav2",
        model=str(model),
        draft_model=str(draft) if draft else "",
        model_profile="qwen2.5-coder",
        n_ctx=N_CTX,
        max_batch=8,
        num_draft_tokens=5,
        **kw,
    )
    engine = ExLlamaV2Engine(cfg)
    engine.start()
    return engine


def stage_engine(rep: Report, work: Path) -> dict[str, Any]:
    from engine.base import (
        ContextSnippet,
        FinishReason,
        GenerationRequest,
        PromptParts,
        generate_sync,
    )

    info: dict[str, Any] = {}
    t = time.monotonic()
    engine = _engine(work / "main")
    info["start_s"] = round(time.monotonic() - t, 2)
    caps = engine.capabilities
    info["capabilities"] = {k: getattr(caps, k) for k in caps.__slots__}
    rep.check("engine.exact_tokenizer", caps.exact_tokenizer, caps.exact_tokenizer)
    rep.check("engine.fim_profile", caps.fim, caps.fim)
    n_marker = engine.count_tokens("<|fim_prefix|>")
    rep.check("engine.marker_in_source_is_text", n_marker > 1, n_marker, "> 1 token")
    try:
        parts = PromptParts(
            path="a.py",
            language="python",
            snippets=(ContextSnippet("b.py", "def helper(x):\n    return x * 2\n"),),
            prefix=(
                "import os\n# a file that mentions <|fim_prefix|> and <|endoftext|>\n"
                "def main():\n    "
            ),
            suffix="\n    return 0\n",
        )
        fin, ttft = generate_sync(
            engine, GenerationRequest("fim", prompt=parts, max_new_tokens=32), timeout_s=60
        )
        info["fim"] = {"reason": fin.reason.value, "stats": _stats(fin.stats), "ttft_s": ttft}
        rep.check(
            "engine.fim_finished",
            fin.reason.value in NATURAL_END,
            fin.reason.value,
        )
        rep.check(
            "engine.fim_prompt_tokens",
            fin.stats.num_prompt_tokens > 20,
            fin.stats.num_prompt_tokens,
        )
        if fin.reason is FinishReason.LENGTH:
            rep.check(
                "engine.fim_exact_length",
                fin.stats.num_generated_tokens == 32,
                fin.stats.num_generated_tokens,
                32,
            )

        # determinism, stop string, single line
        req: dict[str, Any] = dict(prompt_text="def parse_config(path):\n    ", max_new_tokens=48)
        f1, _ = generate_sync(engine, GenerationRequest("d1", **req), timeout_s=60)
        f2, _ = generate_sync(engine, GenerationRequest("d2", **req), timeout_s=60)
        rep.check("engine.greedy_deterministic", f1.text == f2.text, len(f1.text))
        info["greedy_text_len"] = len(f1.text)
        if len(f1.text) >= 16:
            stop = f1.text[10:13]
            expected = f1.text[: f1.text.find(stop)]
            f3, _ = generate_sync(
                engine, GenerationRequest("s1", stop=(stop,), **req), timeout_s=60
            )
            rep.check(
                "engine.stop_string",
                f3.reason is FinishReason.STOP and f3.text == expected,
                [f3.reason.value, len(f3.text), len(expected)],
            )
        f4, _ = generate_sync(
            engine, GenerationRequest("l1", single_line=True, **req), timeout_s=60
        )
        info["single_line"] = {
            "reason": f4.reason.value,
            "has_newline_after_content": "\n" in f4.text.lstrip("\n"),
        }
        rep.check(
            "engine.single_line_no_second_line",
            "\n" not in f4.text.lstrip(" \t\n"),
            f4.reason.value,
        )

        # 8 concurrent requests: one cancelled after its first chunk, one with a short deadline
        col = Collector()
        ids = [f"c{i}" for i in range(8)]

        def on_chunk(rid: str) -> None:
            if rid == "c3":
                engine.cancel("c3")

        col.on_chunk = on_chunk
        t = time.monotonic()
        for i, rid in enumerate(ids):
            deadline = time.monotonic() + 0.3 if rid == "c5" else None
            n = 1500 if rid == "c5" else 40
            engine.submit(
                GenerationRequest(
                    rid,
                    prompt_text=f"# job {i}\nclass Item{i}:\n    ",
                    max_new_tokens=n,
                    deadline=deadline,
                ),
                col,
            )
        all_done = col.wait(ids, 180)
        info["eight_requests_s"] = round(time.monotonic() - t, 2)
        rep.check("engine.eight_all_finished", all_done, sorted(col.finished))
        rep.check(
            "engine.eight_one_finished_each",
            all(len(col.finished.get(i, [])) == 1 for i in ids),
            {i: len(col.finished.get(i, [])) for i in ids},
        )
        reasons = {i: col.finished[i][0].reason.value for i in ids if i in col.finished}
        info["eight_reasons"] = reasons
        rep.check("engine.cancel_reason", reasons.get("c3") == "cancelled", reasons.get("c3"))
        rep.check("engine.deadline_reason", reasons.get("c5") == "deadline", reasons.get("c5"))
        consistent = all(
            "".join(col.chunks.get(i, [])) == col.finished[i][0].text
            for i in ids
            if i in col.finished
        )
        rep.check("engine.chunks_add_up_to_text", consistent, consistent)
        info["queue_ms"] = {
            i: round(col.finished[i][0].stats.queue_ms, 1) for i in ids if i in col.finished
        }

        # warm-up then the same prompt: its prefix comes from the cache
        warm = "import sys\n" * 40 + "def main():\n    "
        fw, _ = generate_sync(
            engine, GenerationRequest("w", prompt_text=warm, prefill_only=True), timeout_s=60
        )
        rep.check(
            "engine.prefill_only",
            fw.reason is FinishReason.PREFILLED and fw.text == "",
            fw.reason.value,
        )
        fr, _ = generate_sync(
            engine, GenerationRequest("w2", prompt_text=warm, max_new_tokens=8), timeout_s=60
        )
        rep.check(
            "engine.cache_reuse_after_warmup",
            fr.stats.num_cached_tokens > 0,
            [fr.stats.num_cached_tokens, fr.stats.num_prompt_tokens],
        )
        info["stats_after"] = _engine_stats(engine)
    finally:
        engine.close()
    rep.check("engine.closed", not engine.is_alive(), engine.is_alive())
    return info


def stage_speculation(rep: Report, work: Path) -> dict[str, Any]:
    from engine.base import FinishReason, GenerationRequest, generate_sync

    info: dict[str, Any] = {}
    # a faithful draft: the main model itself -> acceptance well above 0.4, speculation stays on
    engine = _engine(work / "main", work / "main")
    try:
        rep.check(
            "spec.capability", engine.capabilities.speculation, engine.capabilities.speculation
        )
        runs = []
        for i in range(3):
            fin, _ = generate_sync(
                engine,
                GenerationRequest(
                    f"f{i}", prompt_text=f"def step_{i}(state):\n    ", max_new_tokens=64
                ),
                timeout_s=60,
            )
            runs.append(fin)
        st = engine.stats()
        info["faithful"] = _engine_stats(engine)
        rep.check(
            "spec.faithful_used",
            all(f.stats.speculation_used for f in runs),
            [f.stats.speculation_used for f in runs],
        )
        rep.check(
            "spec.faithful_acceptance",
            st.acceptance_rate >= FAITHFUL_MIN_ACCEPTANCE,
            round(st.acceptance_rate, 3),
            f">= {FAITHFUL_MIN_ACCEPTANCE}",
        )
        rep.check("spec.faithful_still_on", st.speculation_enabled, st.speculation_note)
        lengths = [f.stats.num_generated_tokens for f in runs if f.reason is FinishReason.LENGTH]
        rep.check("spec.exact_length_with_draft", all(n == 64 for n in lengths), lengths, 64)
    finally:
        engine.close()
    # an unrelated draft: acceptance near 0 -> switched off, generator rebuilt without it
    engine = _engine(work / "main", work / "draft")
    try:
        for i in range(4):
            generate_sync(
                engine,
                GenerationRequest(
                    f"u{i}", prompt_text=f"def other_{i}(x):\n    ", max_new_tokens=64
                ),
                timeout_s=60,
            )
            if not engine.stats().speculation_enabled:
                break
        st = engine.stats()
        info["unrelated"] = _engine_stats(engine)
        rep.check(
            "spec.switched_off",
            not st.speculation_enabled and "acceptance" in st.speculation_note,
            st.speculation_note,
        )
        fin, _ = generate_sync(
            engine,
            GenerationRequest("after", prompt_text="def after(x):\n    ", max_new_tokens=16),
            timeout_s=60,
        )
        rep.check(
            "spec.runs_after_switch_off",
            fin.reason.value in NATURAL_END and not fin.stats.speculation_used,
            [fin.reason.value, fin.stats.speculation_used],
        )
        rep.check(
            "spec.capability_off",
            not engine.capabilities.speculation,
            engine.capabilities.speculation,
        )
    finally:
        engine.close()
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
    for ident in ("warm", "timed"):
        job = ExLlamaV2DynamicJob(
            input_ids=ids, max_new_tokens=64, gen_settings=greedy(), identifier=ident
        )
        prof = cProfile.Profile()
        iterations = 0
        t = time.perf_counter()
        prof.enable()
        gen.enqueue(job)
        while gen.num_remaining_jobs():
            gen.iterate()
            iterations += 1
        prof.disable()
        elapsed = time.perf_counter() - t
    info["generator_ms_per_token"] = round(elapsed * 1000 / 64, 2)
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


def _median(values: list[float]) -> float | None:
    return round(sorted(values)[len(values) // 2], 1) if values else None


def stage_latency(work: Path) -> dict[str, Any]:
    """Completion timings through ExLlamaV2Engine at Qwen2.5-Coder-1.5B's size (diagnostic).

    Random weights of the real dimensions and vocabulary (FP16, unpaged here): prefill, decode
    and time to first token are the model's and the engine's, whatever the weights say. FIM
    prompts cut from standard-library files at the daemon's two budgets (about 1,900 and 800
    tokens), each followed by a keystroke (the same prompt plus one character: prefix reuse),
    then one long decode.
    """
    from engine.base import GenerationRequest, PromptParts, generate_sync

    model_dir = work / "qwen-1.5b-shape"
    t = time.monotonic()
    if not (model_dir / "model.safetensors").exists():
        eos = json.loads((work / "main" / "config.json").read_text())["eos_token_id"]
        write_model(
            model_dir,
            QWEN_1_5B,
            tokenizer_dir=work / "tokenizer",
            eos_id=eos,
            seed=3,
            vocab_size=QWEN_VOCAB,
        )
    info: dict[str, Any] = {"write_s": round(time.monotonic() - t, 1)}
    t = time.monotonic()
    engine = _engine(model_dir, n_ctx=4096)
    info["start_s"] = round(time.monotonic() - t, 1)
    texts = [x for x in corpus(1_000_000) if len(x) > 12_000][:6]
    rows: list[dict[str, Any]] = []

    def run(rid: str, parts: Any, n: int) -> dict[str, Any]:
        fin, ttft = generate_sync(
            engine, GenerationRequest(rid, prompt=parts, max_new_tokens=n), timeout_s=120
        )
        st = fin.stats
        return {
            "id": rid,
            "reason": fin.reason.value,
            "prompt": st.num_prompt_tokens,
            "cached": st.num_cached_tokens,
            "new": st.num_generated_tokens,
            "ttft_ms": round(ttft * 1000, 1) if ttft is not None else None,
            "prefill_ms": round(st.prefill_ms, 1),
            "decode_ms_per_token": round(st.decode_ms / max(1, st.num_generated_tokens - 1), 2),
            "queue_ms": round(st.queue_ms, 1),
        }

    def fim(path: str, prefix: str, suffix: str = "") -> Any:
        return PromptParts(path=path, language="python", snippets=(), prefix=prefix, suffix=suffix)

    try:
        run("warm", fim("w.py", "x = "), 4)
        for budget, chars in (("normal", 6_000), ("fast", 2_500)):
            for i, text in enumerate(texts[:3] if budget == "normal" else texts[3:6]):
                cut = len(text) // 2
                prefix = text[max(0, cut - chars) : cut]
                suffix = text[cut : cut + chars // 8]
                path = f"{budget}{i}.py"
                rows.append(run(f"{budget}-cold-{i}", fim(path, prefix, suffix), 24))
                rows.append(run(f"{budget}-key-{i}", fim(path, prefix + "x", suffix), 24))
                rows[-2]["budget"] = rows[-1]["budget"] = budget
        rows.append(run("decode-256", fim("d.py", texts[0][:2_000]), 256))
        rows[-1]["budget"] = "decode"
        info["stats"] = _engine_stats(engine)
    finally:
        engine.close()
    info["requests"] = rows
    summary: dict[str, Any] = {}
    for budget in ("normal", "fast"):
        for kind in ("cold", "key"):
            sel = [r for r in rows if r["budget"] == budget and f"-{kind}-" in r["id"]]
            summary[f"{budget}_{kind}"] = {
                "prompt_tokens": _median([r["prompt"] for r in sel]),
                "cached_tokens": _median([r["cached"] for r in sel]),
                "ttft_ms_p50": _median([r["ttft_ms"] for r in sel if r["ttft_ms"] is not None]),
                "prefill_ms_p50": _median([r["prefill_ms"] for r in sel]),
                "decode_ms_per_token_p50": _median([r["decode_ms_per_token"] for r in sel]),
            }
    summary["decode_ms_per_token_256"] = rows[-1]["decode_ms_per_token"]
    info["summary"] = summary
    print(f"  latency summary: {json.dumps(summary)}", flush=True)
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
    for kw in ({}, dict(draft_model=draft, draft_cache=draft_cache, num_draft_tokens=5)):
        gen = ExLlamaV2DynamicGenerator(**common, **kw)
        job = ExLlamaV2DynamicJob(
            input_ids=ids, max_new_tokens=69, gen_settings=greedy(), identifier="p"
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


def stage_quantize(rep: Report, work: Path) -> dict[str, Any]:
    from app.commands.quantize import run
    from engine.base import GenerationRequest, generate_sync

    out = work / "main-exl2"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(f"{out}.work", ignore_errors=True)
    args = argparse.Namespace(
        hf_dir=str(work / "main"),
        out_dir=str(out),
        bits=4.0,
        head_bits=6,
        work_dir="",
        dataset_rows=8,
        length=256,
    )
    t = time.monotonic()
    rc = run(args)
    info: dict[str, Any] = {"quantize_s": round(time.monotonic() - t, 1), "rc": rc}
    rep.check("quantize.rc", rc == 0, rc)
    size = sum(p.stat().st_size for p in out.glob("*.safetensors"))
    info["exl2_mb"] = round(size / 2**20, 1)
    engine = _engine(out)
    try:
        fin, _ = generate_sync(
            engine,
            GenerationRequest("q", prompt_text="def f(x):\n    ", max_new_tokens=16),
            timeout_s=60,
        )
        rep.check(
            "quantize.exl2_generates",
            fin.reason.value in NATURAL_END,
            fin.reason.value,
        )
    finally:
        engine.close()
    return info


def _stats(stats: Any) -> dict[str, Any]:
    return {
        k: (round(v, 2) if isinstance(v, float) else v)
        for k, v in ((k, getattr(stats, k)) for k in stats.__slots__)
    }


def _engine_stats(engine: Any) -> dict[str, Any]:
    st = engine.stats()
    return {
        "requests": st.requests,
        "draft_accepted": st.draft_accepted,
        "draft_proposed": st.draft_proposed,
        "acceptance": round(st.acceptance_rate, 3),
        "speculation_enabled": st.speculation_enabled,
        "speculation_note": st.speculation_note,
        "extra": st.extra,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--work", default="build/gpu_check", help="folder for the generated models")
    ap.add_argument("--out", default="", help="also write the JSON here")
    ap.add_argument("--budget-s", type=float, default=520.0, help="skip stages started after this")
    ap.add_argument("--skip", default="", help="comma-separated stages to skip (e.g. quantize)")
    args = ap.parse_args(argv)
    # torch's JIT build runs `ninja`; the image's ninja sits next to its python
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    work = Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    rep = Report(args.budget_s)
    code = 0
    try:
        rep.stage("env", stage_env, required=True)
        rep.data["env"] = rep.data["stages"]["env"]
        rep.stage("build", lambda: stage_build(rep), required=True)
        rep.stage("models", lambda: stage_models(work), required=True)
        stages: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("library", lambda: stage_library(rep, work)),
            ("engine", lambda: stage_engine(rep, work)),
            ("speculation", lambda: stage_speculation(rep, work)),
            ("speed", lambda: stage_speed(work)),
            ("latency", lambda: stage_latency(work)),
            ("spec_probe", lambda: stage_spec_probe(work)),
            ("quantize", lambda: stage_quantize(rep, work)),
        ]
        for name, fn in stages:
            if name in skip:
                rep.data["stages"][name] = {"ok": False, "skipped": "--skip"}
                continue
            rep.stage(name, fn)
        code = 0 if not rep.data["failures"] else 1
    except SystemExit as exc:
        code = int(exc.code or 2)
    rep.data["ok"] = code == 0
    rep.data["total_s"] = round(rep.elapsed(), 1)
    text = json.dumps(rep.data, indent=2, default=str)
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    return code


if __name__ == "__main__":
    sys.exit(main())
