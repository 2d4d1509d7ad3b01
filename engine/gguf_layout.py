"""The layout of a GGUF file: its key/value section and tensor table, read, checked, written.

For re-quantizing a model file (engine/requantize.py) without llama.cpp. The ``gguf`` package
(ggml-org's) reads the same with ``GGUFReader``, but it builds numpy views for every string:
9.3 s for the embedded model's 151,936-token vocabulary and 151,387 merges. This reads it in
about 0.1 s and keeps each key's value as the bytes it is stored as, so a copy writes the
metadata back unchanged. Type sizes and the GGUF constants come from ``gguf``.

File format (little-endian): magic ``GGUF``, version (u32), tensor count (u64), key count
(u64); the keys (a string, a value type u32, the value); per tensor its name, dimension count
(u32), dimensions (u64 each, innermost first), ggml type (u32) and offset (u64) into the data
section; the data section starts at the next multiple of the alignment (``general.alignment``,
else 32) and each tensor's data at a multiple of it too.
"""

from __future__ import annotations

import math
import mmap
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gguf import (
    GGML_QUANT_SIZES,
    GGUF_DEFAULT_ALIGNMENT,
    GGUF_MAGIC,
    GGUF_VERSION,
    GGMLQuantizationType,
    GGUFValueType,
)

from app.errors import ModelError

__all__ = [
    "Layout",
    "TensorInfo",
    "data_offsets",
    "header_bytes",
    "read_layout",
    "tensor_nbytes",
    "u32_value",
]

ALIGNMENT_KEY = "general.alignment"
# the fixed sizes of the scalar value types
_SCALAR = {GGUFValueType.UINT8: 1, GGUFValueType.INT8: 1, GGUFValueType.UINT16: 2,
           GGUFValueType.INT16: 2, GGUFValueType.UINT32: 4, GGUFValueType.INT32: 4,
           GGUFValueType.FLOAT32: 4, GGUFValueType.BOOL: 1, GGUFValueType.UINT64: 8,
           GGUFValueType.INT64: 8, GGUFValueType.FLOAT64: 8}


@dataclass(frozen=True, slots=True)
class TensorInfo:
    """One tensor of a GGUF file."""

    name: str
    shape: tuple[int, ...]  # ggml's ne: innermost (row length) first
    ggml_type: GGMLQuantizationType
    offset: int  # of its data, from the start of the data section
    nbytes: int  # of its data

    @property
    def num_elements(self) -> int:
        return math.prod(self.shape)


@dataclass(frozen=True, slots=True)
class Layout:
    """What a GGUF file holds, its tensors' data aside."""

    version: int
    kv: tuple[tuple[str, bytes], ...]  # key, then its value as stored (type u32 + value)
    tensors: tuple[TensorInfo, ...]
    alignment: int
    data_offset: int  # where the data section starts, in bytes from the file's start
    file_size: int


def tensor_nbytes(ggml_type: GGMLQuantizationType, shape: Sequence[int]) -> int:
    """Bytes of a tensor of this type and shape; ModelError when rows do not fill blocks."""
    block: int
    size: int
    block, size = GGML_QUANT_SIZES[ggml_type]
    if not shape or shape[0] % block:
        raise ModelError(f"a {ggml_type.name} tensor of shape {tuple(shape)} is not whole blocks")
    return math.prod(shape) // block * size


def u32_value(value: int) -> bytes:
    """A stored u32 value (type, then value), as for ``general.file_type``."""
    return struct.pack("<II", GGUFValueType.UINT32, value)


def read_layout(path: Path) -> Layout:
    """Read ``path``'s header and check that every tensor's data lies within the file, as
    llama.cpp's loader checks before it loads (a file cut short fails here). Raises ModelError
    naming what is wrong; OSError when the file cannot be read."""
    with open(path, "rb") as fh:
        size = fh.seek(0, 2)
        if size < 24:
            raise ModelError(f"{path} is not a GGUF file ({size} bytes)")
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            try:
                return _parse(mm, size)
            except (struct.error, ValueError, KeyError, UnicodeDecodeError, IndexError) as exc:
                raise ModelError(f"{path} is not a whole GGUF file", detail=str(exc)) from exc
            except ModelError as exc:
                raise ModelError(f"{path}: {exc.message}", detail=exc.detail) from exc


def _parse(buf: mmap.mmap, size: int) -> Layout:
    magic, version, n_tensors, n_kv = struct.unpack_from("<IIQQ", buf, 0)
    if magic != GGUF_MAGIC:
        raise ModelError("not a GGUF file")
    if version < 2:
        raise ModelError(f"GGUF version {version} is not supported")
    pos = 24
    kv: list[tuple[str, bytes]] = []
    alignment = GGUF_DEFAULT_ALIGNMENT
    for _ in range(n_kv):
        key, pos = _string(buf, pos)
        start = pos
        (vtype,) = struct.unpack_from("<I", buf, pos)
        pos = _skip_value(buf, pos + 4, GGUFValueType(vtype))
        kv.append((key, bytes(buf[start:pos])))
        if key == ALIGNMENT_KEY and vtype == GGUFValueType.UINT32:
            (alignment,) = struct.unpack_from("<I", buf, start + 4)
    if alignment <= 0 or alignment % 8:
        raise ModelError(f"alignment {alignment} is not a multiple of 8")
    tensors: list[TensorInfo] = []
    for _ in range(n_tensors):
        name, pos = _string(buf, pos)
        (n_dims,) = struct.unpack_from("<I", buf, pos)
        if not 1 <= n_dims <= 4:
            raise ModelError(f"tensor {name} has {n_dims} dimensions")
        shape = struct.unpack_from(f"<{n_dims}Q", buf, pos + 4)
        ggml_type, offset = struct.unpack_from("<IQ", buf, pos + 4 + 8 * n_dims)
        pos += 4 + 8 * n_dims + 12
        qtype = GGMLQuantizationType(ggml_type)
        tensors.append(TensorInfo(name, shape, qtype, offset, tensor_nbytes(qtype, shape)))
    data_offset = _pad(pos, alignment)
    for t in tensors:
        end = data_offset + t.offset + t.nbytes
        if t.offset % alignment:
            raise ModelError(f"tensor {t.name}'s data is not aligned to {alignment} bytes")
        if end > size:
            raise ModelError(f"tensor {t.name}'s data ends at byte {end:,}, past the end of "
                             f"the file ({size:,} bytes): the file is cut short")
    return Layout(version, tuple(kv), tuple(tensors), alignment, data_offset, size)


def _string(buf: mmap.mmap, pos: int) -> tuple[str, int]:
    (n,) = struct.unpack_from("<Q", buf, pos)
    end = pos + 8 + n
    if end > len(buf):
        raise ValueError(f"a string at byte {pos} runs past the end of the file")
    return buf[pos + 8:end].decode("utf-8"), end


def _skip_value(buf: mmap.mmap, pos: int, vtype: GGUFValueType) -> int:
    """Where the value of type ``vtype`` that starts at ``pos`` ends."""
    if vtype in _SCALAR:
        return pos + _SCALAR[vtype]
    if vtype == GGUFValueType.STRING:
        n: int = struct.unpack_from("<Q", buf, pos)[0]
        return pos + 8 + n
    if vtype != GGUFValueType.ARRAY:
        raise ValueError(f"unknown value type {vtype}")
    item: int
    count: int
    item, count = struct.unpack_from("<IQ", buf, pos)
    pos += 12
    item_type = GGUFValueType(item)
    if item_type in _SCALAR:
        return pos + count * _SCALAR[item_type]
    if item_type == GGUFValueType.STRING:
        unpack = struct.Struct("<Q").unpack_from
        for _ in range(count):  # 151,936 tokens: about 0.05 s
            pos += 8 + unpack(buf, pos)[0]
        return pos
    for _ in range(count):  # arrays of arrays
        pos = _skip_value(buf, pos, item_type)
    return pos


def _pad(n: int, alignment: int) -> int:
    return -(-n // alignment) * alignment


def header_bytes(kv: Sequence[tuple[str, bytes]], tensors: Sequence[TensorInfo],
                 alignment: int) -> bytes:
    """A GGUF file's head for these keys (stored values) and tensors, padded with zeros to
    where the data section starts; the tensors' offsets as given (see ``data_offsets``)."""
    out = bytearray(struct.pack("<IIQQ", GGUF_MAGIC, GGUF_VERSION, len(tensors), len(kv)))
    for key, value in kv:
        out += _packed_string(key) + value
    for t in tensors:
        out += _packed_string(t.name)
        out += struct.pack(f"<I{len(t.shape)}QIQ", len(t.shape), *t.shape, t.ggml_type, t.offset)
    out += bytes(_pad(len(out), alignment) - len(out))
    return bytes(out)


def data_offsets(nbytes: Sequence[int], alignment: int) -> list[int]:
    """Each tensor's offset in the data section when they follow one another, each padded."""
    offsets, at = [], 0
    for n in nbytes:
        offsets.append(at)
        at += _pad(n, alignment)
    return offsets


def _packed_string(text: str) -> bytes:
    raw = text.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw
