"""Re-quantizing GGUF files in numpy (engine/quantize.py, engine/gguf_layout.py), on small files
made here; read back with gguf's own GGUFReader. The embedded model: test_requantize.py."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from gguf import GGMLQuantizationType, GGUFReader, GGUFValueType, quants

from app.errors import ModelError
from engine.gguf_layout import TensorInfo, data_offsets, header_bytes, read_layout, u32_value
from engine.quantize import plan_variant, target_type
from engine.requantize import make_variant

Q = GGMLQuantizationType


def _tensor(name: str, shape: tuple[int, ...], qtype: Q = Q.Q5_0) -> TensorInfo:
    return TensorInfo(name, shape, qtype, 0, 0)


@pytest.mark.parametrize(("name", "shape", "qtype", "default", "tied", "expected"), [
    ("blk.0.attn_q.weight", (896, 896), Q.Q5_0, Q.Q8_0, False, Q.Q8_0),
    ("blk.0.ffn_down.weight", (4864, 896), Q.Q6_K, Q.Q8_0, False, Q.Q8_0),
    ("blk.0.attn_v.weight", (896, 128), Q.Q8_0, Q.Q8_0, False, Q.Q8_0),  # stays: copied
    ("blk.0.attn_norm.weight", (896,), Q.F32, Q.Q8_0, False, Q.F32),  # 1-D
    ("blk.0.attn_q.bias", (896,), Q.F32, Q.Q8_0, False, Q.F32),
    ("blk.0.ffn_norm.weight", (896, 4), Q.F32, Q.Q8_0, False, Q.F32),  # a norm, even 2-D
    ("blk.0.ffn_gate_inp.weight", (896, 8), Q.F32, Q.Q8_0, False, Q.F32),  # expert gate
    ("blk.0.attn_q.weight", (896, 1), Q.F32, Q.Q8_0, False, Q.F32),  # n_dims 1 for ggml
    # Q4_0 files: the output (or tied embeddings) in Q6_K, Q8_0 where rows are not 256 wide
    ("output.weight", (1536, 151936), Q.Q8_0, Q.Q4_0, False, Q.Q6_K),
    ("output.weight", (896, 151936), Q.Q8_0, Q.Q4_0, False, Q.Q8_0),
    ("token_embd.weight", (1536, 151936), Q.Q5_0, Q.Q4_0, True, Q.Q6_K),
    ("token_embd.weight", (1536, 151936), Q.Q5_0, Q.Q4_0, False, Q.Q4_0),
    ("blk.3.ffn_up.weight", (896, 4864), Q.Q5_0, Q.Q4_0, False, Q.Q4_0),
])
def test_tensor_types_follow_llama_cpps_rules(
    name: str, shape: tuple[int, ...], qtype: Q, default: Q, tied: bool, expected: Q
) -> None:
    assert target_type(_tensor(name, shape, qtype), default, tied=tied) == expected


def test_rows_that_do_not_fill_q8_0_blocks_are_refused_as_llama_cpp_refuses() -> None:
    with pytest.raises(ModelError, match="not whole Q8_0 blocks"):
        target_type(_tensor("blk.0.attn_q.weight", (100, 4), Q.F32), Q.Q8_0, tied=False)


def _write_model(path: Path, tensors: dict[str, tuple[np.ndarray, Q]]) -> None:
    """A small GGUF file: metadata as a converter writes it, then the tensors' data."""
    kv = [("general.architecture", _string("qwen2")),
          ("general.file_type", u32_value(1)),
          ("tokenizer.ggml.tokens", _strings(["a", "bc", "d\u00e9f"])),
          ("qwen2.rope.freq_base", struct.pack("<If", GGUFValueType.FLOAT32, 1e6)),
          ("general.quantization_version", u32_value(2))]
    data = [quants.quantize(values, qtype).tobytes() for values, qtype in tensors.values()]
    offsets = data_offsets([len(d) for d in data], 32)
    infos = [TensorInfo(name, tuple(reversed(values.shape)), qtype, off, len(raw))
             for (name, (values, qtype)), off, raw in zip(tensors.items(), offsets, data,
                                                          strict=True)]
    head = header_bytes(kv, infos, 32)
    with open(path, "wb") as out:
        out.write(head)
        for info, raw in zip(infos, data, strict=True):
            out.write(bytes(len(head) + info.offset - out.tell()) + raw)


def _string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<IQ", GGUFValueType.STRING, len(raw)) + raw


def _strings(items: list[str]) -> bytes:
    out = struct.pack("<IIQ", GGUFValueType.ARRAY, GGUFValueType.STRING, len(items))
    for item in items:
        out += struct.pack("<Q", len(item.encode())) + item.encode()
    return out


def test_a_small_model_re_quantized_reads_back_with_ggufs_own_reader(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    weights = rng.standard_normal((64, 96)).astype(np.float32)
    tensors = {
        "token_embd.weight": (rng.standard_normal((10, 64)).astype(np.float32), Q.Q5_0),
        "blk.1.attn_q.weight": (weights, Q.F16),
        "blk.0.attn_norm.weight": (rng.standard_normal(64).astype(np.float32), Q.F32),
        "blk.10.attn_q.weight": (weights, Q.Q5_0),
        "blk.2.attn_q.weight": (weights, Q.Q8_0),
    }
    source, target = tmp_path / "m.gguf", tmp_path / "m.q8_0.gguf"
    _write_model(source, tensors)
    assert [t.name for t in read_layout(source).tensors] == list(tensors)
    make_variant(source, "q8_0", target)

    theirs = GGUFReader(target)
    assert [t.name for t in theirs.tensors] == [  # llama.cpp's order: by layer, then name
        "token_embd.weight", "blk.0.attn_norm.weight", "blk.1.attn_q.weight",
        "blk.2.attn_q.weight", "blk.10.attn_q.weight"]
    assert theirs.fields["general.file_type"].contents() == 7
    assert theirs.fields["tokenizer.ggml.tokens"].contents() == ["a", "bc", "d\u00e9f"]
    assert theirs.fields["qwen2.rope.freq_base"].contents() == pytest.approx(1e6)
    assert list(theirs.fields)[-2:] == ["general.quantization_version", "general.file_type"]
    for t in theirs.tensors:
        values, qtype = tensors[t.name]
        got = quants.dequantize(np.asarray(t.data), t.tensor_type).reshape(values.shape)
        if values.ndim == 1:
            assert t.tensor_type == Q.F32 and np.array_equal(got, values)
            continue
        assert t.tensor_type == Q.Q8_0
        if qtype == Q.Q8_0:  # copied, not quantized twice
            assert np.array_equal(got, quants.dequantize(quants.quantize(values, Q.Q8_0),
                                                         Q.Q8_0))
        assert np.abs(got - values).max() < 0.3  # Q5_0's error, then Q8_0's
    plan = plan_variant(read_layout(source), 7)
    assert plan.size == target.stat().st_size


def test_a_tensor_type_gguf_cannot_quantize_is_a_clear_error(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    source = tmp_path / "m.gguf"
    _write_model(source, {"output.weight": (rng.standard_normal((4, 256)).astype(np.float32),
                                            Q.F32)})
    with pytest.raises(ModelError, match=r"cannot re-quantize tensor output\.weight from F32 "
                                         r"to Q6_K"):
        make_variant(source, "q4_0", tmp_path / "m.q4_0.gguf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.gguf"]
