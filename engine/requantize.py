"""The weights the CPU engine loads: a packaged model re-quantized once where that runs faster.

The embedded Qwen2.5-Coder-0.5B is a "Q4_K_M" file, but its 896-wide tensors cannot be
K-quants, so 133 of its 170 weight tensors are q5_0, which llama.cpp's CPU code has no fast
(repacked) path for. Re-quantized to Q8_0 it prefills ~15% faster on this 2-core machine
(7.5-8.0 -> 6.5 ms per token on 2 threads, 14.9 -> 13.0 on one), decodes about as fast, and is
the same model: q5_0 values fit q8_0's grid, so over 2,048 tokens of standard-library code its
next-token log-likelihood moved from 2.2582 to 2.2587 nats and its top token agreed with the
original's at 97.7% of the positions (ties flipping). The file is 676 instead of 491 MB.
Measured figures and the daemon replay: docs/engine.md, "CPU weights".

The re-quantization is llama.cpp's, redone in numpy (engine/quantize.py, the ``gguf``
package): the same tensor types, the same bytes, no llama.cpp library needed (the xllamacpp
engine has none to call). The variant lives next to the source file,
``<source stem>.<kind>.gguf``, with a stamp naming the source's hash; it is made on first use
(atomically: a temporary file, then a rename) and reused while the stamp holds. It is made
only with room for the whole file on the disk, and renamed into place only after its tensor
table was read back and every tensor found within the file (a write cut short would leave a
truncated file). Anything that goes wrong (a full disk, a read-only cache, a source that is
not a whole GGUF file) is logged and the engine loads the source file instead: never worse
than before.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from app.config import EngineConfig
from app.errors import ModelError
from engine.models import packaged_model_at, stamp_holds, write_stamp

if TYPE_CHECKING:
    from engine.quantize import Plan

__all__ = [
    "WEIGHT_KINDS",
    "Prepared",
    "applies",
    "cpu_weights",
    "describe",
    "make_variant",
    "prepare",
    "variant_path",
]

log = logging.getLogger(__name__)

# kind -> llama.cpp's LLAMA_FTYPE_MOSTLY_* value (llama.h); q4_0 only for `nospin bench weights`
WEIGHT_KINDS = {"q8_0": 7, "q4_0": 2}
SPACE_MARGIN = 64 << 20  # free disk space needed beyond the variant's own size


def variant_path(source: Path, kind: str, folder: Path | None = None) -> Path:
    """Where the ``kind`` variant of ``source`` lives (next to it unless ``folder``)."""
    return (folder or source.parent) / f"{source.stem}.{kind}.gguf"


def applies(engine: EngineConfig) -> bool:
    """Whether the configured engine loads re-quantized CPU weights at all (``engine.kind``
    auto, llamacpp or xllamacpp with ``engine.requantize``: auto runs one of the two)."""
    return engine.kind in ("auto", "llamacpp", "xllamacpp") and engine.requantize


def cpu_weights(source: Path, *, enabled: bool = True, folder: Path | None = None) -> Path:
    """The file the CPU engine should load for the model file ``source``: its re-quantized
    variant when ``source`` is a packaged model that declares one (``ChunkedModel.
    cpu_weights``) and ``enabled`` (``engine.requantize``), made on first use; else
    ``source``. Never raises: a variant that cannot be made is logged and ``source`` used."""
    planned = _planned(source, folder) if enabled else None
    if planned is None:
        return source
    sha256, kind, target = planned
    if stamp_holds(target, source_sha256=sha256, kind=kind):
        return target
    try:
        t0 = time.monotonic()
        make_variant(source, kind, target, source_sha256=sha256)
    except (OSError, ModelError) as exc:
        log.warning("cannot make the %s weights of %s (%s): loading it as it is",
                    kind, source.name, exc)
        return source
    log.info("made the %s weights of %s in %.1f s: %s", kind, source.name,
             time.monotonic() - t0, target)
    return target


@dataclass(frozen=True, slots=True)
class Prepared:
    """What ``prepare`` did for a model file: the file the CPU engine loads and how it got it."""

    kind: str  # the variant's kind (q8_0)
    path: Path  # the file the engine loads: the variant, or the source when it failed
    status: Literal["made", "made before", "failed"]  # failed: cpu_weights logged why
    seconds: float = 0.0  # making it


def prepare(source: Path) -> Prepared | None:
    """Make ``source``'s variant now (``cpu_weights``), saying whether it was there already;
    None when ``source`` is loaded as it is (not a packaged model with a variant). For setup
    (``nospin model prepare``, ``nospin install``), so the first daemon start does not."""
    planned = _planned(source)
    if planned is None:
        return None
    sha256, kind, target = planned
    if stamp_holds(target, source_sha256=sha256, kind=kind):
        return Prepared(kind, target, "made before")
    t0 = time.monotonic()
    loads = cpu_weights(source)
    return Prepared(kind, loads, "made" if loads == target else "failed", time.monotonic() - t0)


def describe(source: Path) -> dict[str, str | bool] | None:
    """What ``cpu_weights`` would load for ``source`` (kind, path, whether it is made yet),
    without making anything; None when ``source`` is loaded as it is."""
    planned = _planned(source)
    if planned is None:
        return None
    sha256, kind, target = planned
    return {"kind": kind, "path": str(target),
            "made": stamp_holds(target, source_sha256=sha256, kind=kind)}


def _planned(source: Path, folder: Path | None = None) -> tuple[str, str, Path] | None:
    """(source hash, kind, variant path) when ``source`` is a packaged model that declares
    CPU weights; None otherwise."""
    model = packaged_model_at(source)
    if model is None or model.cpu_weights not in WEIGHT_KINDS:
        return None
    return model.sha256, model.cpu_weights, variant_path(source, model.cpu_weights, folder)


def make_variant(source: Path, kind: str, target: Path, *, source_sha256: str = "") -> None:
    """Re-quantize ``source`` to ``kind`` (one of ``WEIGHT_KINDS``) at ``target`` and stamp
    it; OSError when it cannot be written, ModelError when ``source`` cannot be re-quantized
    (not a whole GGUF file, a tensor type ``gguf`` cannot read); nothing is left behind. Also
    for benchmarks."""
    from engine.gguf_layout import read_layout  # numpy and gguf: only when a variant is made
    from engine.quantize import plan_variant

    plan = plan_variant(read_layout(source), WEIGHT_KINDS[kind])
    _write(source, plan, target)
    write_stamp(target, source_sha256=source_sha256, kind=kind)


def _write(source: Path, plan: Plan, target: Path) -> None:
    """Write ``plan`` into a temporary file next to ``target``, check it, rename it into place."""
    from engine.quantize import convert

    target.parent.mkdir(parents=True, exist_ok=True)
    need = plan.size + SPACE_MARGIN
    free = shutil.disk_usage(target.parent).free
    if free < need:
        raise OSError(f"not enough disk space in {target.parent}: {free >> 20} MB free, "
                      f"{need >> 20} MB needed")
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(source, "rb") as src, open(tmp, "wb") as out:
            out.write(plan.header)
            for old, new in zip(plan.sources, plan.tensors, strict=True):
                out.write(bytes(plan.data_offset + new.offset - out.tell()))  # padding
                src.seek(plan.source.data_offset + old.offset)
                convert(src, old, new.ggml_type, out)
            out.write(bytes(plan.size - out.tell()))
        _check(tmp, plan)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _check(path: Path, plan: Plan) -> None:
    """What llama.cpp's loader checks of a file before it loads: every tensor's data lies
    within the file (a write cut short by a full disk fails here), and it is what was planned."""
    from engine.gguf_layout import read_layout

    try:
        written = read_layout(path)
    except ModelError as exc:
        raise OSError(f"the re-quantized file is not whole: {exc.message}") from exc
    if written.file_size != plan.size or written.tensors != plan.tensors:
        raise OSError(f"the re-quantized file is not what was planned ({written.file_size:,} "
                      f"bytes, {plan.size:,} planned)")
