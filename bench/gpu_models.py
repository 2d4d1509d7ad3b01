"""Random test models for the GPU check: a byte-level BPE tokenizer with Qwen2.5-Coder's markers
trained on standard-library source, and Llama-architecture models in FP16 safetensors."""

from __future__ import annotations

import json
import shutil
import sysconfig
import time
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
    if eos is None:  # a special token of the trainer: cannot be missing
        raise RuntimeError("the trained tokenizer has no <|endoftext|>")
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
