"""Tokenizer: count() speed and load time, GGUF-metadata tokenizer vs llama-cpp-python's.

Both exact tokenizers of the embedded model (engine/tokenizer.py: ``GGUFVocab``, which the
xllamacpp engine uses, and ``LlamaVocab``) count the same text in turns, in one process: one
large text (a corpus's files joined, counted whole) and the same text as 40-line segments
(what the daemon counts: context snippets, prefix and suffix), uncached. Reports tokens per
second (median of ``--rounds``), the ratio, and the time each takes to load the vocabulary.

    nospin bench tokenizer [--corpus bench/corpora/gson] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = (".java", ".py", ".go", ".rs", ".ts", ".js", ".c", ".h", ".cc", ".kt", ".swift")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", type=Path, default=ROOT / "bench" / "corpora" / "gson",
                        help="folder whose source files make the text (default: gson)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per tokenizer")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from app.evaluation.corpus_archive import corpus_folder
    from engine.gguf_vocab import GGUFVocab
    from engine.models import embedded_model_path
    from engine.tokenizer import load_llama_vocab

    folder = corpus_folder(args.corpus)
    files = sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES)
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)
    lines = text.splitlines(keepends=True)
    segments = ["".join(lines[i : i + 40]) for i in range(0, len(lines), 40)]
    model = embedded_model_path()

    t0 = time.perf_counter()
    gguf = GGUFVocab.load(model)
    gguf_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    llama = load_llama_vocab(model)
    llama_load = time.perf_counter() - t0
    backends = {"gguf": gguf, "llama_cpp": llama}

    n_tokens = llama.count(text)
    if gguf.count(text) != n_tokens:
        raise SystemExit("the tokenizers disagree: see tests/engine/test_gguf_vocab.py")
    whole: dict[str, list[float]] = {name: [] for name in backends}
    split: dict[str, list[float]] = {name: [] for name in backends}
    for _ in range(max(1, args.rounds)):
        for name, vocab in backends.items():  # in turns: the same load on both
            t0 = time.perf_counter()
            vocab.count(text)
            whole[name].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for segment in segments:
                vocab.count(segment)
            split[name].append(time.perf_counter() - t0)
    llama.close()

    def rate(seconds: list[float]) -> int:
        return round(n_tokens / statistics.median(seconds))

    result: dict[str, Any] = {
        "corpus": str(folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder),
        "chars": len(text),
        "tokens": n_tokens,
        "segments": len(segments),
        "rounds": args.rounds,
        "load_s": {"gguf": round(gguf_load, 3), "llama_cpp": round(llama_load, 3)},
        "whole_tokens_per_s": {name: rate(v) for name, v in whole.items()},
        "segments_tokens_per_s": {name: rate(v) for name, v in split.items()},
    }
    for key in ("whole_tokens_per_s", "segments_tokens_per_s"):
        rates = result[key]
        rates["gguf_over_llama_cpp"] = round(rates["gguf"] / rates["llama_cpp"], 2)
    return result
