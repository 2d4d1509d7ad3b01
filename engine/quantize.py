"""Re-quantizing a GGUF model file as llama.cpp's quantizer does, in numpy (the ``gguf`` package).

``plan_variant`` chooses each tensor's new type by llama.cpp's rules for its file type
(src/llama-quant.cpp: ``tensor_allows_quantization``, ``llama_tensor_get_type_impl``,
``tensor_type_fallback``) and lays out the new file: the source's metadata unchanged but
``general.quantization_version`` and ``general.file_type``, which it moves to the end as
llama.cpp does, and the tensors in llama.cpp's order (by layer, then name). ``convert`` writes
one tensor's new data: copied when its type stays, else dequantized and quantized again with
``gguf.quants`` (bit-exact ports of ggml's reference code), a few rows at a time (about 90 MB
of memory whatever the tensor's size).

For the embedded Qwen2.5-Coder-0.5B Q4_K_M to Q8_0 the file is byte for byte the one
llama.cpp's quantizer writes (llama-cpp-python 0.3.36: tests/engine/test_requantize.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import BinaryIO

import numpy as np
from gguf import GGML_QUANT_SIZES, GGML_QUANT_VERSION, GGMLQuantizationType, quants

from app.errors import ModelError
from engine.gguf_layout import (
    Layout,
    TensorInfo,
    data_offsets,
    header_bytes,
    tensor_nbytes,
    u32_value,
)

__all__ = ["DEFAULT_TYPES", "Plan", "convert", "plan_variant", "target_type"]

Q = GGMLQuantizationType
# llama.cpp's LLAMA_FTYPE_MOSTLY_* values (llama.h) -> the type of most of its tensors
DEFAULT_TYPES = {7: Q.Q8_0, 2: Q.Q4_0}
FILE_TYPE_KEY = "general.file_type"
QUANT_VERSION_KEY = "general.quantization_version"
SPLIT_KEYS = ("split.no", "split.count", "split.tensors.count")  # llama.cpp drops them
# converted at a time: ~40 MB of numpy temporaries. One thread: two side by side were no
# faster on 2 cores with other work running (8.9 s against 7.6, median of 3) and took more CPU
CHUNK_ELEMENTS = 1 << 20

# tensors llama.cpp never quantizes although 2-D and named "...weight" (llama-quant.cpp)
_KEEP = ("_norm.weight", "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight", "altup", "laurel",
         "per_layer_model_proj", "ssm_conv1d", "shortconv.conv.weight", "attn_rel_b.weight",
         "indexer.k_proj.weight", "indexer.q_proj.weight", "time_mix_", ".position_embd",
         ".rel_pos", ".patch_embd", ".patch_merger", "sam.", "a.rvq.codebook", "mm.a.code_embd")
_KEEP_NAMES = ("position_embd.weight", "token_types.weight")
_LAYER = re.compile(r"blk\.([+-]?\d+)")


@dataclass(frozen=True, slots=True)
class Plan:
    """The new file: its head, where its data starts, its tensors (new types and offsets,
    in the order written) and the source tensor of each."""

    source: Layout
    sources: tuple[TensorInfo, ...]  # the source's tensor behind each of ``tensors``
    tensors: tuple[TensorInfo, ...]
    header: bytes
    size: int  # of the whole file, in bytes

    @property
    def data_offset(self) -> int:
        return len(self.header)


def target_type(
    t: TensorInfo, default: GGMLQuantizationType, *, tied: bool
) -> GGMLQuantizationType:
    """The type llama.cpp's quantizer gives tensor ``t`` for a file type whose tensors are
    ``default`` (no importance matrix, no overrides); ``tied``: the file has no
    ``output.weight`` (the token embeddings are the output too). ModelError where llama.cpp
    refuses."""
    if not _quantizable(t):
        return t.ggml_type
    new = default
    if t.name == "output.weight" or (tied and t.name == "token_embd.weight"):
        if t.shape[0] % GGML_QUANT_SIZES[new][0]:
            new = Q.Q8_0
        elif new != Q.Q8_0:
            new = Q.Q6_K
    if t.shape[0] % GGML_QUANT_SIZES[new][0]:  # rows that do not fill its blocks
        if new != Q.Q6_K:
            raise ModelError(f"tensor {t.name}'s rows of {t.shape[0]} are not whole "
                             f"{new.name} blocks")
        new = Q.Q8_0 if t.shape[0] % GGML_QUANT_SIZES[Q.Q8_0][0] == 0 else Q.F16
    return new


def _quantizable(t: TensorInfo) -> bool:
    dims = len(t.shape)
    while dims > 1 and t.shape[dims - 1] == 1:  # ggml_n_dims: trailing ones do not count
        dims -= 1
    return (dims >= 2 and t.name.endswith("weight") and t.name not in _KEEP_NAMES
            and not any(part in t.name for part in _KEEP))


def _order(t: TensorInfo) -> tuple[int, bytes]:
    """llama.cpp's order of tensors: by layer (``blk.N.``; others first), then by name."""
    m = _LAYER.match(t.name)
    return (int(m.group(1)) if m else -1, t.name.encode("utf-8"))


def plan_variant(source: Layout, ftype: int) -> Plan:
    """Lay out ``source`` re-quantized to llama.cpp's file type ``ftype`` (a key of
    ``DEFAULT_TYPES``). ModelError when one of its tensors cannot be (a type ``gguf`` cannot
    convert)."""
    default = DEFAULT_TYPES[ftype]
    tied = not any(t.name == "output.weight" for t in source.tensors)
    ordered = sorted(source.tensors, key=_order)
    types = [target_type(t, default, tied=tied) for t in ordered]
    for t, new in zip(ordered, types, strict=True):
        if new != t.ggml_type and not _convertible(t.ggml_type, new):
            raise ModelError(f"cannot re-quantize tensor {t.name} from {t.ggml_type.name} to "
                             f"{new.name}")
    sizes = [tensor_nbytes(new, t.shape) for t, new in zip(ordered, types, strict=True)]
    offsets = data_offsets(sizes, source.alignment)
    tensors = tuple(replace(t, ggml_type=new, offset=off, nbytes=n)
                    for t, new, off, n in zip(ordered, types, offsets, sizes, strict=True))
    dropped = (FILE_TYPE_KEY, QUANT_VERSION_KEY, *SPLIT_KEYS)
    kv = [(k, v) for k, v in source.kv if k not in dropped]
    kv += [(QUANT_VERSION_KEY, u32_value(GGML_QUANT_VERSION)), (FILE_TYPE_KEY, u32_value(ftype))]
    header = header_bytes(kv, tensors, source.alignment)
    end = len(header) + (offsets[-1] + sizes[-1] if tensors else 0)
    size = -(-end // source.alignment) * source.alignment
    return Plan(source, tuple(ordered), tensors, header, size)


def _convertible(old: GGMLQuantizationType, new: GGMLQuantizationType) -> bool:
    """Whether ``gguf.quants`` can read ``old`` and write ``new``."""
    try:
        quants.dequantize(np.zeros(GGML_QUANT_SIZES[old][1], np.uint8), old)
        quants.quantize(np.zeros(GGML_QUANT_SIZES[new][0], np.float32), new)
    except (NotImplementedError, ValueError):
        return False
    return True


def convert(src: BinaryIO, old: TensorInfo, new: GGMLQuantizationType, out: BinaryIO) -> None:
    """Write tensor ``old``'s data, read from ``src`` at its start, as type ``new`` to ``out``.
    OSError when a read comes back short (the source changed) or a write fails."""
    if new == old.ggml_type:
        left = old.nbytes
        while left:
            block = src.read(min(left, 16 << 20))
            if not block:
                raise OSError(f"the source ended inside tensor {old.name}")
            out.write(block)
            left -= len(block)
        return
    row_bytes = tensor_nbytes(old.ggml_type, old.shape[:1])
    rows = old.num_elements // old.shape[0]
    step = max(1, CHUNK_ELEMENTS // old.shape[0])
    for first in range(0, rows, step):
        n = min(step, rows - first)
        raw = np.frombuffer(src.read(n * row_bytes), dtype=np.uint8)
        if raw.size != n * row_bytes:
            raise OSError(f"the source ended inside tensor {old.name}")
        # one row of all the chunk's blocks: gguf converts in groups of 16 rows, and short
        # rows (896 values) would cost a numpy call per 16 of them
        values = quants.dequantize(raw.reshape(1, -1), old.ggml_type)
        out.write(quants.quantize(values, new).tobytes())
