"""GPU check stages that go through nospin: ExLlamaV2Engine's interface, speculation and its
switch-off, `nospin model quantize`, and completion timings at a real model's size."""

from __future__ import annotations

import argparse
import json
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.gpu_models import N_CTX, QWEN_1_5B, QWEN_VOCAB, corpus, write_model
from bench.gpu_report import FAITHFUL_MIN_ACCEPTANCE, NATURAL_END, Report


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

    settings: dict[str, Any] = {"n_ctx": N_CTX, "max_batch": 8, "num_draft_tokens": 5} | kw
    cfg = EngineConfig(
        kind="exllamav2",
        model=str(model),
        draft_model=str(draft) if draft else "",
        model_profile="qwen2.5-coder",
        **settings,
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

        info["steering"] = _check_steering(rep, engine)

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


HEALED_PREFIX = "import os\n\n\ndef main():\n    resu"  # token healing: the word " resu" is cut


def _check_steering(rep: Report, engine: Any) -> dict[str, Any]:
    """Token healing and placeholder avoidance through exllamav2's own sampler and generator.

    The sampler check gives ``ExLlamaV2Sampler.sample`` logits whose best token cannot spell the
    cut word, with nospin's filter: the token it takes must be one that can. The requests then
    run a healed prompt and a block start with ``avoid_starts`` through the dynamic generator.
    """
    import torch
    from exllamav2.generator import ExLlamaV2Sampler

    from engine.base import FinishReason, GenerationRequest, PromptParts, generate_sync
    from engine.exllama_backend import steer_filter
    from engine.steering import StartSteer

    rt = engine._rt
    vocab = rt.vocab
    heal = " resu"
    allowed = set(vocab.piece_table().consistent(heal).tolist())
    pieces = vocab.pieces()
    info: dict[str, Any] = {"allowed_tokens": len(allowed), "vocab_texts": len(pieces)}
    filt = steer_filter(
        rt.filter_base,
        rt.model,
        vocab.tokenizer,
        lambda: StartSteer(vocab.piece_table, heal),
        pieces,
        torch.from_numpy,
    )
    filt.begin("")
    width = int(rt.model.config.vocab_size)
    logits = torch.randn((1, 1, width), dtype=torch.float32)
    best = next(i for i in range(width) if i not in allowed and i < len(pieces) and pieces[i])
    logits[0, 0, best] = 100.0
    out = ExLlamaV2Sampler.sample(
        logits,
        ExLlamaV2Sampler.Settings.greedy(),
        torch.zeros((1, 4), dtype=torch.long),
        0.5,
        vocab.tokenizer,
        filters=[filt],
    )
    token = int(out[0].flatten()[0].item())
    info["sampled"] = [token, pieces[token] if token < len(pieces) else None]
    rep.check("engine.steer_sampler_allowed", token in allowed, info["sampled"], "spells ' resu'")

    healed = PromptParts("a.py", "python", (), HEALED_PREFIX, "\n")
    fh, _ = generate_sync(
        engine,
        GenerationRequest("healed", prompt=healed, max_new_tokens=8, single_line=True),
        timeout_s=60,
    )
    info["healed"] = {"reason": fh.reason.value, "text": fh.text[:40]}
    rep.check(
        "engine.healed_request", fh.reason.value in (*NATURAL_END, "newline"), fh.reason.value
    )
    block = PromptParts("a.py", "python", (), "def main():\n    ", "\n")
    fb, _ = generate_sync(
        engine,
        GenerationRequest("avoid", prompt=block, max_new_tokens=8, avoid_starts=(".",)),
        timeout_s=60,
    )
    info["avoid"] = {"reason": fb.reason.value, "text": fb.text[:40]}
    rep.check(
        "engine.avoid_starts",
        fb.reason.value in NATURAL_END and not fb.text.lstrip().startswith("."),
        [fb.reason.value, fb.text[:20]],
    )
    rep.check("engine.steered_no_error", FinishReason.ERROR not in (fh.reason, fb.reason), "")
    return info


def _plain_run(rep: Report, engine: Any, name: str, prompt: str, n: int) -> Any:
    """One request that must end by itself and without the draft (checked as ``name``)."""
    from engine.base import GenerationRequest, generate_sync

    fin, _ = generate_sync(
        engine, GenerationRequest(name, prompt_text=prompt, max_new_tokens=n), timeout_s=60
    )
    rep.check(
        name,
        fin.reason.value in NATURAL_END and not fin.stats.speculation_used,
        [fin.reason.value, fin.stats.speculation_used, fin.stats.num_generated_tokens],
    )
    return fin


def stage_speculation(rep: Report, work: Path) -> dict[str, Any]:
    from engine.base import FinishReason, GenerationRequest, PromptParts, generate_sync

    info: dict[str, Any] = {}
    # a faithful draft: the main model itself -> acceptance well above 0.4, speculation stays on
    engine = _engine(work / "main", work / "main")
    try:
        rep.check(
            "spec.capability", engine.capabilities.speculation, engine.capabilities.speculation
        )
        # the first requests decode plainly (the governor's speed baseline: baseline_tokens,
        # more than one if a random model's text ends early); the generator is then rebuilt
        # with the draft
        for i in range(4):
            _plain_run(rep, engine, "spec.baseline_plain", f"def base_{i}(state):\n    ", 64)
            if not engine.stats().extra["baseline_tokens_left"]:
                break
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
        # on: its acceptance is high; "slower than plain" is the other rule, and a right verdict
        # when a draft as big as the model costs more than it saves
        rep.check(
            "spec.faithful_still_on",
            st.speculation_enabled or "slower than plain" in st.speculation_note,
            st.speculation_note,
        )
        lengths = [f.stats.num_generated_tokens for f in runs if f.reason is FinishReason.LENGTH]
        rep.check("spec.exact_length_with_draft", all(n == 64 for n in lengths), lengths, 64)
        # the steering filter with the draft: the first tokens are constrained, drafts of them
        # rejected where they do not spell the cut word
        healed = PromptParts("a.py", "python", (), HEALED_PREFIX, "\n")
        fh, _ = generate_sync(
            engine,
            GenerationRequest("spec-healed", prompt=healed, max_new_tokens=32),
            timeout_s=60,
        )
        info["healed_with_draft"] = _stats(fh.stats) | {"reason": fh.reason.value}
        rep.check(
            "spec.healed_with_draft",
            fh.reason.value in NATURAL_END,
            [fh.reason.value, fh.stats.speculation_used],
        )
    finally:
        engine.close()
    # an unrelated draft: acceptance near 0 -> switched off, generator rebuilt without it
    engine = _engine(work / "main", work / "draft")
    try:
        for i in range(5):  # the first is the plain baseline
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
        _plain_run(rep, engine, "spec.runs_after_switch_off", "def after(x):\n    ", 16)
        rep.check(
            "spec.capability_off",
            not engine.capabilities.speculation,
            engine.capabilities.speculation,
        )
    finally:
        engine.close()
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
