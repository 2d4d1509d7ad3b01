"""The CPU engine's weights: the embedded model re-quantized to Q8_0, made once (real model)."""

from __future__ import annotations

import logging
import sys
import sysconfig
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.config import Config
from engine.models import read_gguf_metadata
from engine.requantize import cpu_weights, variant_path

LLAMA_FTYPE_MOSTLY_Q8_0 = "7"


@pytest.fixture(scope="module")
def variant(embedded_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cpu_weights(embedded_model, folder=tmp_path_factory.mktemp("weights"))


def test_the_embedded_model_runs_as_q8_0_made_once(embedded_model: Path, variant: Path) -> None:
    assert variant == variant_path(embedded_model, "q8_0", variant.parent)
    assert variant.name == "qwen2.5-coder-0.5b-q4_k_m.q8_0.gguf"
    meta = read_gguf_metadata(variant, stop_at="")  # the quantizer writes the type last
    assert meta["general.file_type"] == LLAMA_FTYPE_MOSTLY_Q8_0
    assert read_gguf_metadata(embedded_model)["general.file_type"] == "15"  # Q4_K_M
    made = variant.stat().st_mtime_ns
    assert cpu_weights(embedded_model, folder=variant.parent) == variant
    assert variant.stat().st_mtime_ns == made  # reused, not made again
    assert cpu_weights(embedded_model, enabled=False, folder=variant.parent) == embedded_model
    assert Config().engine.requantize  # on by default


def _logits(path: Path, tokens: list[int]) -> Any:
    import llama_cpp

    llm = llama_cpp.Llama(str(path), n_ctx=512, n_batch=256, n_ubatch=256, logits_all=True,
                          verbose=False)
    try:
        llm.eval(tokens)
        return np.array(llm.scores[: len(tokens)], dtype=np.float32)
    finally:
        llm.close()


def test_the_q8_0_weights_predict_what_the_original_predicts(
    embedded_model: Path, variant: Path, qwen_vocab: Any
) -> None:
    """Q5_0 values fit Q8_0's grid: the top next token agrees almost everywhere (2,048 tokens
    of stdlib code: 97.7%, ties flipping; a Q4_0 re-quantization agreed at 85%)."""
    source = Path(sysconfig.get_paths()["stdlib"]) / "json" / "decoder.py"
    tokens = qwen_vocab.tokenize(source.read_bytes(), add_bos=False)[400:656]
    original, q8 = _logits(embedded_model, tokens), _logits(variant, tokens)
    agree = float((original.argmax(1) == q8.argmax(1)).mean())
    assert agree >= 0.95


def test_a_file_that_is_not_a_packaged_model_is_loaded_as_it_is(tmp_path: Path) -> None:
    other = tmp_path / "mine.gguf"
    other.write_bytes(b"GGUF" + bytes(60))
    assert cpu_weights(other) == other
    assert not variant_path(other, "q8_0").exists()


def test_a_variant_whose_stamp_does_not_hold_is_made_again(
    embedded_model: Path, variant: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    stamp = variant.with_name(variant.name + ".stamp.json")
    stamp.write_text(stamp.read_text().replace('"kind": "q8_0"', '"kind": "q4_0"'))
    made = variant.stat().st_mtime_ns
    capfd.readouterr()
    assert cpu_weights(embedded_model, folder=variant.parent) == variant
    assert variant.stat().st_mtime_ns != made
    assert '"kind": "q8_0"' in stamp.read_text()
    # llama.cpp's loader check said "control-looking token ..." on a fresh install's terminal
    assert "control-looking" not in capfd.readouterr().err


def test_when_the_variant_cannot_be_made_the_original_is_loaded(
    embedded_model: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"  # as a full or read-only cache: the write fails
    blocker.write_text("x")
    with caplog.at_level(logging.WARNING, logger="engine.requantize"):
        assert cpu_weights(embedded_model, folder=blocker) == embedded_model
    assert "cannot make the q8_0 weights of qwen2.5-coder-0.5b-q4_k_m.gguf" in caplog.text
    assert "loading it as it is" in caplog.text



def test_without_llama_cpp_python_the_original_is_loaded(
    embedded_model: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A compile-free install (the xllamacpp engine) has no quantizer: the shipped file loads."""
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import llama_cpp raises ImportError
    with caplog.at_level(logging.WARNING, logger="engine.requantize"):
        assert cpu_weights(embedded_model, folder=tmp_path) == embedded_model
    assert "re-quantizing needs llama-cpp-python" in caplog.text
    assert not list(tmp_path.iterdir())


def test_the_factory_loads_the_embedded_model_as_its_q8_0_weights(embedded_model: Path) -> None:
    from app.config import with_changes
    from engine.factory import create_engine

    engine = create_engine(with_changes(Config(), {"engine.model": str(embedded_model)}))
    assert engine._model_path == variant_path(embedded_model, "q8_0")  # type: ignore[attr-defined]
    assert engine._profile.name == "qwen2.5-coder"  # type: ignore[attr-defined]
    plain = create_engine(with_changes(Config(), {"engine.model": str(embedded_model),
                                                  "engine.requantize": False}))
    assert plain._model_path == embedded_model  # type: ignore[attr-defined]


def test_model_info_says_which_weights_the_cpu_engine_loads(
    embedded_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from app.cli import main

    cpu_weights(embedded_model)  # made next to the user's copy (the factory does the same)
    assert main(["model", "info", "--model", str(embedded_model)]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["cpu_weights"] == {"kind": "q8_0", "made": True,
                                   "path": str(variant_path(embedded_model, "q8_0"))}


def test_model_prepare_says_which_weights_the_cpu_engine_loads(
    embedded_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    cpu_weights(embedded_model)  # made next to the user's copy (the factory does the same)
    assert main(["model", "prepare", "--model", str(embedded_model)]) == 0
    made = variant_path(embedded_model, "q8_0")
    assert capsys.readouterr().out.splitlines() == [
        f"model  {embedded_model}", f"loads  {made} (q8_0, made before)"]
    other = tmp_path / "other.gguf"
    other.write_bytes(made.read_bytes()[: 1 << 20])  # not a packaged model: loaded as it is
    assert main(["model", "prepare", "--model", str(other)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"loads  {other} (as it is)"


def test_a_disk_without_room_for_the_variant_keeps_the_original(
    embedded_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    import shutil

    real = shutil.disk_usage
    # the disk as a full one reports it: 100 MB free (the file system itself is not faked)
    monkeypatch.setattr("engine.requantize.shutil.disk_usage",
                        lambda p: real(p)._replace(free=100 << 20))
    with caplog.at_level(logging.WARNING, logger="engine.requantize"):
        assert cpu_weights(embedded_model, folder=tmp_path) == embedded_model
    assert "not enough disk space" in caplog.text and "100 MB free" in caplog.text
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_a_truncated_quantizer_output_would_not_be_put_in_place(
    variant: Path, tmp_path: Path
) -> None:
    """What a quantizer that ran out of disk leaves: llama.cpp's loader, which _quantize runs
    before the rename, refuses it."""
    import engine.requantize as rq

    cut = tmp_path / "cut.gguf"
    with open(variant, "rb") as src, open(cut, "wb") as out:
        out.write(src.read(variant.stat().st_size - (64 << 20)))
    assert rq._loads(variant) and not rq._loads(cut)


def test_doctor_says_which_weights_the_cpu_engine_loads(embedded_model: Path) -> None:
    from app.config import EngineConfig
    from app.install.doctor import _cpu_weights

    made = cpu_weights(embedded_model)
    note = _cpu_weights(EngineConfig(), embedded_model)
    assert note == f"; the CPU engine loads it as q8_0 (made: {made})"
    assert _cpu_weights(EngineConfig(requantize=False), embedded_model) == ""
    assert _cpu_weights(EngineConfig(kind="remote"), embedded_model) == ""
