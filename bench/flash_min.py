"""Link the minimal flash-attn kit into an importable ``flash_attn`` on a CUDA machine.

``bench/flash_min_prep.sh`` (CPU machine, same nvcc as the GPU image) compiles flash-attn 2.8.3's
forward kernels for fp16 / head dim 128 / sm_90 into ``build/fa_min/kit/objs/*.o``; what is left
for the GPU machine is the torch binding, ``kit/csrc/flash_api.cpp`` (one C++ file, no nvcc),
compiled against the local torch with ``torch.utils.cpp_extension.load`` and linked with those
objects into ``flash_attn_2_cuda``. :func:`build` returns a folder holding that module and the
kit's pure-Python ``flash_attn`` package: put it on ``PYTHONPATH`` and ``import flash_attn``
works in a fresh process (version 2.8.3, so exllamav2 0.3.2 runs its generator paged).

Anything but fp16 with head dim 128 (bf16, head dim 64, ...), dropout, ALiBi, softcap, local
windows and backward raise a RuntimeError that says so.

``python -m bench.flash_min --kit build/fa_min/kit --out build/fa_min/ext`` builds, then checks
in a fresh process (when CUDA is there) ``flash_attn_func`` (causal) and
``flash_attn_with_kvcache`` with a block table (page size 256, as exllamav2 uses) against plain
torch attention on random fp16 tensors, and the error for head dim 64; it prints one JSON object
and exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

MODULE = "flash_attn_2_cuda"
PAGE_SIZE = 256  # exllamav2's page size for flash_attn_with_kvcache's block_table
TOLERANCE = 1e-2  # max abs difference, fp16 kernel vs fp32 reference on N(0, 1) inputs
DEVICE = "cuda"  # the self-test's device (a test of the test may set "cpu" with a fake flash_attn)


def _kit_files(kit: Path) -> list[Path]:
    files = [kit / "csrc" / "flash_api.cpp", kit / "flash_attn" / "__init__.py"]
    missing = [str(f) for f in files if not f.is_file()]
    objs = sorted((kit / "objs").glob("*.o"))
    if missing or not objs:
        raise FileNotFoundError(
            f"incomplete flash-attn kit at {kit} (missing {missing or 'objs/*.o'}); "
            "bench/flash_min_prep.sh makes it"
        )
    return sorted(p for p in kit.rglob("*") if p.is_file())


def _digest(kit: Path, files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(str(f.relative_to(kit)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def env_with_path(site: Path) -> dict[str, str]:
    """This process's environment with ``site`` first on PYTHONPATH (a child then imports the
    built flash_attn)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH", "")) if p)
    return env


def prebuilt(kit: Path, out: Path) -> Path | None:
    """The site folder of an earlier :func:`build` of this very kit (the stamp matches), when its
    module imports with this machine's torch in a fresh process; else None. A site built on a CPU
    machine against the same torch (bench/gpu_vendor.sh) is used so, without compiling."""
    kit, out = kit.resolve(), out.resolve()
    site, stamp = out / "site", out / "kit.sha256"
    try:
        digest = _digest(kit, _kit_files(kit))
    except FileNotFoundError:
        return None
    if not stamp.is_file() or stamp.read_text().strip() != digest:
        return None
    if not any(site.glob(MODULE + "*.so")) or not (site / "flash_attn").is_dir():
        return None
    proc = subprocess.run(
        [sys.executable, "-c", f"import torch, {MODULE}"],
        env=env_with_path(site),
        capture_output=True,
        check=False,
        timeout=300,
    )
    return site if proc.returncode == 0 else None


def build(kit: Path, out: Path, *, verbose: bool = False) -> Path:
    """Compile the kit's binding against this torch, link the kernel objects; return the folder
    to put on ``sys.path`` / ``PYTHONPATH`` (it holds ``flash_attn/`` and ``flash_attn_2_cuda``).

    Incremental: ninja recompiles nothing when the kit is unchanged; a changed kit (which ninja
    would not notice in the objects) starts from an empty build folder.
    """
    from torch.utils import cpp_extension

    kit, out = kit.resolve(), out.resolve()
    digest = _digest(kit, _kit_files(kit))
    build_dir, site, stamp = out / "build", out / "site", out / "kit.sha256"
    if not stamp.is_file() or stamp.read_text().strip() != digest:
        shutil.rmtree(build_dir, ignore_errors=True)
        shutil.rmtree(site, ignore_errors=True)
        stamp.unlink(missing_ok=True)
    build_dir.mkdir(parents=True, exist_ok=True)

    objs = [str(p) for p in sorted((kit / "objs").glob("*.o"))]
    # torch works out nvcc arch flags even with no .cu source (and fails where it sees no GPU);
    # the kernels are sm_90 objects already, so name that, for this call only.
    arch = os.environ.get("TORCH_CUDA_ARCH_LIST")
    os.environ["TORCH_CUDA_ARCH_LIST"] = arch or "9.0"
    try:
        # No -std here: torch's own default (c++17 or c++20, as its headers need) applies.
        module = cpp_extension.load(
            name=MODULE,
            sources=[str(kit / "csrc" / "flash_api.cpp")],
            extra_cflags=["-O2"],
            extra_include_paths=[str(kit / "csrc" / "src")],
            extra_ldflags=[*objs, "-lcudart"],
            build_directory=str(build_dir),
            with_cuda=True,
            verbose=verbose,
        )
    finally:
        if arch is None:
            del os.environ["TORCH_CUDA_ARCH_LIST"]
    if module.__name__ != MODULE:  # torch renames on a second, different load in one process
        raise RuntimeError(f"torch built {module.__name__}, not {MODULE}; use a fresh process")

    site.mkdir(parents=True, exist_ok=True)
    so = Path(str(module.__file__))
    tmp = site / (so.name + ".tmp")
    shutil.copy2(so, tmp)
    os.replace(tmp, site / so.name)  # a new file: a process that has the old one mapped keeps it
    shutil.copytree(kit / "flash_attn", site / "flash_attn", dirs_exist_ok=True)
    stamp.write_text(digest + "\n")
    return site


def _reference(q: Any, k: Any, v: Any, *, causal: bool, scale: float) -> Any:
    """Plain attention in fp32; q (b, sq, h, d), k/v (b, sk, hk, d); causal is aligned to the
    bottom right (query i sees keys up to i + sk - sq), as flash-attn does."""
    import torch

    sq, h, sk, hk = q.shape[1], q.shape[2], k.shape[1], k.shape[2]
    qf = q.float().transpose(1, 2)
    kf = k.float().repeat_interleave(h // hk, dim=2).transpose(1, 2)
    vf = v.float().repeat_interleave(h // hk, dim=2).transpose(1, 2)
    s = (qf @ kf.transpose(-1, -2)) * scale
    if causal:
        i = torch.arange(sq, device=q.device)[:, None]
        j = torch.arange(sk, device=q.device)[None, :]
        s = s.masked_fill(j > i + (sk - sq), float("-inf"))
    return (s.softmax(-1) @ vf).transpose(1, 2)


def _check_func(seqlen: int) -> dict[str, Any]:
    import torch
    from flash_attn import flash_attn_func

    g = torch.Generator(device=DEVICE).manual_seed(seqlen)
    b, h, hk, d = 2, 8, 2, 128

    def rnd(*shape: int) -> Any:
        return torch.randn(*shape, generator=g, device=DEVICE, dtype=torch.float16)

    q, k, v = rnd(b, seqlen, h, d), rnd(b, seqlen, hk, d), rnd(b, seqlen, hk, d)
    scale = d**-0.5
    out = flash_attn_func(q, k, v, causal=True, softmax_scale=scale)
    diff = (out.float() - _reference(q, k, v, causal=True, scale=scale)).abs().max().item()
    return {"seqlen": seqlen, "max_abs_diff": diff, "ok": diff < TOLERANCE}


def _check_varlen() -> dict[str, Any]:
    """flash_attn_varlen_func as exllamav2 calls it (block-diagonal layers: not causal)."""
    import torch
    from flash_attn import flash_attn_varlen_func

    g = torch.Generator(device=DEVICE).manual_seed(7)
    lens, h, d = [100, 257, 31], 8, 128
    total = sum(lens)
    q, k, v = (
        torch.randn(total, h, d, generator=g, device=DEVICE, dtype=torch.float16) for _ in range(3)
    )
    cu = torch.tensor([0, *itertools.accumulate(lens)], dtype=torch.int32, device=DEVICE)
    out = flash_attn_varlen_func(q, k, v, cu, cu, max(lens), max(lens))
    diff, a = 0.0, 0
    for n in lens:
        s = slice(a, a + n)
        ref = _reference(q[None, s], k[None, s], v[None, s], causal=False, scale=d**-0.5)
        diff = max(diff, (out[None, s].float() - ref).abs().max().item())
        a += n
    return {"seqlens": lens, "max_abs_diff": diff, "ok": diff < TOLERANCE}


def _check_paged(q_len: int, append: bool) -> dict[str, Any]:
    """flash_attn_with_kvcache on a paged cache, as exllamav2's dynamic generator calls it."""
    import torch
    from flash_attn import flash_attn_with_kvcache

    g = torch.Generator(device=DEVICE).manual_seed(1000 + q_len)
    lens = [0, 300, 700] if append else [16, 300, 700]  # tokens in the cache before the call
    b, h, hk, d = len(lens), 8, 2, 128
    pages = (max(lens) + q_len + PAGE_SIZE - 1) // PAGE_SIZE
    n_blocks = b * pages + 3

    def rnd(*shape: int) -> Any:
        return torch.randn(*shape, generator=g, device=DEVICE, dtype=torch.float16)

    k_cache, v_cache = rnd(n_blocks, PAGE_SIZE, hk, d), rnd(n_blocks, PAGE_SIZE, hk, d)
    perm = torch.randperm(n_blocks, generator=g, device=DEVICE)[: b * pages]
    block_table = perm.view(b, pages).to(torch.int32)
    cache_seqlens = torch.tensor(lens, dtype=torch.int32, device=DEVICE)
    q = rnd(b, q_len, h, d)
    k_new = rnd(b, q_len, hk, d) if append else None
    v_new = rnd(b, q_len, hk, d) if append else None
    k_before, v_before = k_cache.clone(), v_cache.clone()
    scale = d**-0.5
    out = flash_attn_with_kvcache(
        q=q,
        k_cache=k_cache,
        v_cache=v_cache,
        k=k_new,
        v=v_new,
        cache_seqlens=cache_seqlens,
        block_table=block_table,
        causal=True,
        softmax_scale=scale,
    )
    attn_diff = cache_diff = 0.0
    for i, n in enumerate(lens):
        ks = k_before[block_table[i].long()].reshape(pages * PAGE_SIZE, hk, d)
        vs = v_before[block_table[i].long()].reshape(pages * PAGE_SIZE, hk, d)
        total = n + (q_len if append else 0)
        if k_new is not None and v_new is not None:
            ks[n:total], vs[n:total] = k_new[i], v_new[i]
            after = k_cache[block_table[i].long()].reshape(pages * PAGE_SIZE, hk, d)
            cache_diff = max(cache_diff, (after[:total] - ks[:total]).abs().max().item())
        ref = _reference(q[i : i + 1], ks[None, :total], vs[None, :total], causal=True, scale=scale)
        attn_diff = max(attn_diff, (out[i : i + 1].float() - ref).abs().max().item())
    return {
        "q_len": q_len,
        "append_kv": append,
        "cache_seqlens": lens,
        "max_abs_diff": attn_diff,
        "cache_write_max_abs_diff": cache_diff,
        "ok": attn_diff < TOLERANCE and cache_diff == 0.0,
    }


def _check_refused(head_dim: int, dtype_name: str) -> dict[str, Any]:
    import torch
    from flash_attn import flash_attn_func

    dtype = getattr(torch, dtype_name)
    q = torch.randn(1, 16, 4, head_dim, device=DEVICE, dtype=dtype)
    try:
        flash_attn_func(q, q, q, causal=True)
    except RuntimeError as e:
        msg = str(e).strip().splitlines()[0]
        return {"head_dim": head_dim, "dtype": dtype_name, "error": msg, "ok": "flash_min" in msg}
    return {"head_dim": head_dim, "dtype": dtype_name, "error": None, "ok": False}


def self_test() -> dict[str, Any]:
    """In the process that has the built folder on its path: import, versions, numerics."""
    import inspect

    import flash_attn
    import flash_attn_2_cuda  # noqa: F401  (exllamav2 imports it too)
    import torch
    from flash_attn import flash_attn_func

    version = [int(t) for t in flash_attn.__version__.split(".") if t.isdigit()]
    params = inspect.signature(flash_attn_func).parameters
    res: dict[str, Any] = {
        "flash_attn_version": flash_attn.__version__,
        "flash_attn_file": flash_attn.__file__,
        "torch": torch.__version__,
        "cuda_available": torch.cuda.is_available(),
        # exllamav2 0.3.2 attn.py's has_flash_attn_with_paged / _window / _softcap
        "exllamav2_paged": version >= [2, 5, 7],
        "exllamav2_window": "window_size" in params,
        "exllamav2_softcap": "softcap" in params,
    }
    if not res["cuda_available"]:
        res["ok"] = res["exllamav2_paged"]
        return res
    res["gpu"] = torch.cuda.get_device_name()
    checks: dict[str, dict[str, Any]] = {
        "func_causal_300": _check_func(300),
        "func_causal_512": _check_func(512),
        "varlen": _check_varlen(),
        "paged_decode": _check_paged(1, append=True),
        "paged_prefill": _check_paged(300, append=True),
        "paged_no_append": _check_paged(16, append=False),
        "refuse_head_dim_64": _check_refused(64, "float16"),
        "refuse_bf16": _check_refused(128, "bfloat16"),
    }
    torch.cuda.synchronize()
    res["checks"] = checks
    res["ok"] = res["exllamav2_paged"] and all(c["ok"] for c in checks.values())
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--kit", type=Path, default=Path("build/fa_min/kit"))
    ap.add_argument("--out", type=Path, default=Path("build/fa_min/ext"))
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--selftest", action="store_true", help="only test (flash_attn on the path)")
    args = ap.parse_args(argv)

    if args.selftest:
        res = self_test()
        print(json.dumps(res))
        return 0 if res["ok"] else 1

    report: dict[str, Any] = {"kit": str(args.kit), "out": str(args.out)}
    t = time.monotonic()
    try:
        site = build(args.kit, args.out, verbose=args.verbose)
    except Exception as e:  # report it as JSON, like the check passes
        report.update(build_s=round(time.monotonic() - t, 1), ok=False, error=repr(e)[-2000:])
        print(json.dumps(report))
        return 1
    report.update(build_s=round(time.monotonic() - t, 1), site=str(site))

    # A fresh process with only PYTHONPATH pointing at the result, as bench/gpu_paged.py runs.
    root = Path(__file__).resolve().parents[1]
    env = env_with_path(site)
    t = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "bench.flash_min", "--selftest"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    report["selftest_s"] = round(time.monotonic() - t, 1)
    lines = proc.stdout.strip().splitlines()
    try:
        report.update(json.loads(lines[-1]))
    except (IndexError, json.JSONDecodeError):
        report.update(ok=False, error=(proc.stdout + proc.stderr)[-2000:])
    print(json.dumps(report))
    return 0 if report.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
