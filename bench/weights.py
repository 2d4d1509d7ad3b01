"""CPU weights: speed and fidelity of the embedded model's re-quantizations vs the shipped file.

Makes each ``--kinds`` variant of the shipped GGUF in a temporary folder as
``engine/requantize.py`` does for the engine, and again with llama.cpp's own quantizer (the
seconds each took, and whether the files are the same bytes), then, one model at a time and
alternated over ``--reps``: prefill and decode milliseconds per token through ``KVSession``
(192-token prompts from ``json/decoder.py`` in 64-token steps, then 24 one-token steps), per
thread count; and, teacher-forced over ``--files`` seeded standard-library files x ``--tokens``
tokens, the next-token log-likelihood (nats), KL divergence from the shipped weights and
top-token agreement. Used for docs/engine.md, "CPU weights".
"""

from __future__ import annotations

import argparse
import random
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

PROMPT_TOKENS = 192
DECODE_STEPS = 24


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kinds", default="q8_0,q4_0", help="re-quantizations to compare")
    parser.add_argument("--threads", default="2,1", help="comma-separated thread counts")
    parser.add_argument("--reps", type=int, default=3, help="speed repetitions per model")
    parser.add_argument("--files", type=int, default=8, help="files for the fidelity check")
    parser.add_argument("--tokens", type=int, default=256, help="tokens per file (fidelity)")
    parser.add_argument("--seed", type=int, default=1)


def _speed(path: Path, threads: int, rep: int, text_tokens: list[int]) -> tuple[float, float]:
    from engine.llamacpp_session import KVSession, load_llama

    llm = load_llama(path, n_ctx=2048, n_threads=threads)
    try:
        session = KVSession(llm, state_slots=0)
        session.prefill(text_tokens[:64], key="", chunk=64, should_stop=lambda: False)  # warm
        session.truncate(0)
        start = 200 + rep * 300
        prompt = text_tokens[start:start + PROMPT_TOKENS]
        t0 = time.monotonic()
        session.prefill(prompt, key="", chunk=64, should_stop=lambda: False)
        prefill = (time.monotonic() - t0) * 1000 / len(prompt)
        tokens = list(prompt)
        t0 = time.monotonic()
        for _ in range(DECODE_STEPS):
            tokens.append(session.argmax())
            session.prefill(tokens, key="", chunk=64, should_stop=lambda: False)
        decode = (time.monotonic() - t0) * 1000 / DECODE_STEPS
        return prefill, decode
    finally:
        llm.close()


def _logits(path: Path, texts: list[list[int]]) -> list[Any]:
    import llama_cpp

    llm = llama_cpp.Llama(str(path), n_ctx=1024, n_batch=512, n_ubatch=512, logits_all=True,
                          verbose=False)
    try:
        out = []
        for tokens in texts:
            llm.reset()  # type: ignore[no-untyped-call]
            llm.eval(tokens)
            out.append(np.array(llm.scores[: len(tokens)], dtype=np.float64))
        return out
    finally:
        llm.close()


def _llama_cpp_quantize(source: Path, kind: str, target: Path) -> float:
    """Seconds llama.cpp's own quantizer takes for the same variant (what the engine's
    numpy re-quantization, engine/quantize.py, is checked against)."""
    import ctypes
    import os

    import llama_cpp

    from engine.llama_log import muted
    from engine.requantize import WEIGHT_KINDS

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = WEIGHT_KINDS[kind]
    params.allow_requantize = True
    params.nthread = os.cpu_count() or 1
    t0 = time.monotonic()
    with muted():
        rc = llama_cpp.llama_model_quantize(str(source).encode(), str(target).encode(),
                                            ctypes.byref(params))
    if rc != 0:
        raise RuntimeError(f"llama.cpp's quantizer failed (code {rc})")
    return round(time.monotonic() - t0, 1)


def _same_bytes(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while block := fa.read(1 << 24):
            if block != fb.read(1 << 24):
                return False
    return True


def _log_softmax(logits: Any) -> Any:
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def _fidelity(base: list[Any], other: list[Any], texts: list[list[int]]) -> dict[str, float]:
    agree = total = 0
    kl: list[float] = []
    nll_base: list[float] = []
    nll_other: list[float] = []
    for lb, lo, tokens in zip(base, other, texts, strict=True):
        pb, po = _log_softmax(lb), _log_softmax(lo)
        agree += int((lb.argmax(1) == lo.argmax(1)).sum())
        total += len(tokens)
        kl.append(float((np.exp(pb) * (pb - po)).sum(1).mean()))
        nxt = np.array(tokens[1:])
        rows = np.arange(len(nxt))
        nll_base.append(float(-pb[rows, nxt].mean()))
        nll_other.append(float(-po[rows, nxt].mean()))
    return {"top1_agreement": round(agree / total, 4), "kl": round(float(np.mean(kl)), 4),
            "nll_shipped": round(float(np.mean(nll_base)), 4),
            "nll": round(float(np.mean(nll_other)), 4)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    import llama_cpp

    from engine.models import EMBEDDED_MODEL, embedded_model_path
    from engine.requantize import make_variant

    source = embedded_model_path()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    threads = [int(t) for t in args.threads.split(",") if t.strip()]
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    vocab = llama_cpp.Llama(str(source), vocab_only=True, verbose=False)
    decoder = vocab.tokenize((stdlib / "json" / "decoder.py").read_bytes(), add_bos=False)
    files = sorted(stdlib.glob("*.py"))
    picked = random.Random(args.seed).sample(files, args.files)
    texts = [vocab.tokenize(f.read_bytes(), add_bos=False)[200:200 + args.tokens]
             for f in picked]
    texts = [t for t in texts if len(t) > 1]
    out: dict[str, Any] = {"model": source.name, "kinds": kinds, "threads": threads,
                           "fidelity_files": [f.name for f in picked]}
    with tempfile.TemporaryDirectory(prefix="nsweights") as tmp:
        paths = {"shipped": source}
        for kind in kinds:
            t0 = time.monotonic()
            paths[kind] = Path(tmp) / f"{source.stem}.{kind}.gguf"
            make_variant(source, kind, paths[kind], source_sha256=EMBEDDED_MODEL.sha256)
            out[f"make_{kind}_s"] = round(time.monotonic() - t0, 1)
            out[f"size_{kind}_mb"] = paths[kind].stat().st_size >> 20
            theirs = Path(tmp) / f"llama.cpp.{kind}.gguf"
            out[f"llama_cpp_make_{kind}_s"] = _llama_cpp_quantize(source, kind, theirs)
            out[f"same_bytes_as_llama_cpp_{kind}"] = _same_bytes(paths[kind], theirs)
            theirs.unlink()
        out["size_shipped_mb"] = source.stat().st_size >> 20
        speed: dict[str, dict[str, dict[str, list[float]]]] = {
            name: {str(n): {"prefill_ms_per_token": [], "decode_ms_per_token": []}
                   for n in threads} for name in paths}
        for rep in range(args.reps):  # alternated: every model once per repetition
            for n in threads:
                for name, path in paths.items():
                    prefill, decode = _speed(path, n, rep, decoder)
                    speed[name][str(n)]["prefill_ms_per_token"].append(round(prefill, 2))
                    speed[name][str(n)]["decode_ms_per_token"].append(round(decode, 1))
        out["speed"] = speed
        base = _logits(source, texts)
        out["fidelity"] = {kind: _fidelity(base, _logits(paths[kind], texts), texts)
                           for kind in kinds}
    vocab.close()
    return out
