"""GPU check of the exllamav2 engine: build, load, Q8 cache, speculation, 8 jobs, cancel (JSON).

For a CUDA machine with no network. Run it through ``bench/gpu_check.sh``, which installs the
wheels in ``bench/vendor/wheels/`` (``bench/vendor/prepare.sh`` fetches them, sha256 pinned, before
the device call; exllamav2 0.3.2, pure Python with its C++/CUDA sources, plus
the few small packages nospin and the converter need) into ``build/gpu_site`` and points
``TORCH_EXTENSIONS_DIR`` at ``build/torch_extensions``; the first ``import exllamav2`` then
JIT-compiles the extension (timed here, cached for later runs on the same machine).

The script creates on the spot, from nothing but the Python standard library's source text:
a byte-level BPE tokenizer (``tokenizers``) with Qwen2.5-Coder's special markers, a random
Llama-architecture model (FP16 safetensors + config.json) and a smaller random draft of the same
vocabulary. Random weights make acceptance rates meaningless except at the ends: a draft that is
the main model itself is accepted nearly always (0.63 on the H200 in the first runs, when
exllamav2's unmasked SDPA let the verify pass see later tokens; the engine now runs unpaged with
``no_sdpa``), an unrelated one nearly never (which must switch speculation off).

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
  daemon    the daemon in this process on its ipc socket with the engine: a completion alone,
            then 8 from 8 clients at once (bench/gpu_daemon.py); unpaged one at a time
  sdpa_probe diagnostic: is decode time a per-new-key-length cost of torch SDPA (cuDNN plan
            builds, thread-local)? SDPA alone and the generator at new / repeated lengths, on
            new threads, with cuDNN off and with exllamav2's matmul attention (no_sdpa); and
            causality: a 6-token forward against six 1-token forwards, SDPA vs no_sdpa
  speed     diagnostic: the bare model's one-token forward (new lengths, then the same again)
            against the generator's time per token (first run, again, profiled), as the
            engine runs it
  latency   diagnostic: completions through the engine at Qwen2.5-Coder-1.5B's size (random
            weights): cold FIM prompts at both budgets, keystrokes after them, a long decode
  spec_probe diagnostic: self-draft acceptance through SDPA and no_sdpa, with the Q8 and FP16
            caches, with the output head as made and 10x larger (decisive greedy choices)
  quantize  ``nospin model quantize`` on the random model (small calibration), then generation
            from the EXL2 result through the engine
  paged     where build/fa_min/kit was carried: link a minimal flash-attn (bench/flash_min.py),
            then, in a child process with it importable, the engine and speculation stages in
            paged mode plus batching (8 requests at once vs one) and prefix pages across
            documents (bench/gpu_paged.py)

Modules: this one runs the stages (env and build here); ``gpu_models`` makes the tokenizer and
models, ``gpu_library`` holds the stages that drive exllamav2 directly (library, sdpa_probe,
speed, spec_probe), ``gpu_engine`` those that go through nospin (engine, speculation, latency,
quantize), ``gpu_report`` the report and shared thresholds.

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
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.gpu_daemon import stage_daemon
from bench.gpu_engine import stage_engine, stage_latency, stage_quantize, stage_speculation
from bench.gpu_library import stage_library, stage_sdpa_probe, stage_spec_probe, stage_speed
from bench.gpu_models import stage_models
from bench.gpu_paged import stage_paged
from bench.gpu_report import Report

ROOT = Path(__file__).resolve().parents[1]


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
    rep = Report(args.budget_s, Path(args.out) if args.out else None)

    def body() -> None:
        rep.stage("env", stage_env, required=True)
        rep.data["env"] = rep.data["stages"]["env"]
        rep.stage("build", lambda: stage_build(rep), required=True)
        rep.stage("models", lambda: stage_models(work), required=True)
        # (name, stage, its usual seconds on the H200: a stage that would end past the budget
        # is skipped rather than cut by the caller's timeout)
        stages: list[tuple[str, Callable[[], dict[str, Any]], float]] = [
            ("library", lambda: stage_library(rep, work), 15.0),
            ("engine", lambda: stage_engine(rep, work), 10.0),
            ("speculation", lambda: stage_speculation(rep, work), 25.0),
            # completions from 8 clients through the daemon on its socket (bench/gpu_daemon.py)
            ("daemon", lambda: stage_daemon(rep, work, paged=False), 20.0),
            ("sdpa_probe", lambda: stage_sdpa_probe(work), 30.0),
            ("speed", lambda: stage_speed(work), 0.0),
            ("latency", lambda: stage_latency(work), 0.0),
            ("spec_probe", lambda: stage_spec_probe(work), 0.0),
            ("quantize", lambda: stage_quantize(rep, work), 110.0),
            # last: links a minimal flash-attn carried in build/fa_min/kit, then repeats the
            # engine checks paged in a child process (bench/gpu_paged.py)
            ("paged", lambda: stage_paged(rep, ROOT, work, ROOT / "build" / "fa_min" / "kit"),
             120.0),
        ]
        for name, fn, expect_s in stages:
            if name in skip:
                rep.data["stages"][name] = {"ok": False, "skipped": "--skip"}
                continue
            rep.stage(name, fn, expect_s=expect_s)

    return rep.run(body)


if __name__ == "__main__":
    sys.exit(main())
