"""The CPU engine's weights: the embedded model re-quantized to Q8_0, made once (real model).

The variant is made, loaded and asked for a completion in a child process where llama_cpp
cannot be imported (as where llama-cpp-python is not installed): numpy and gguf make it,
xllamacpp loads it.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.config import Config
from app.errors import ModelError
from engine.gguf_layout import read_layout
from engine.models import read_gguf_metadata
from engine.requantize import cpu_weights, make_variant, variant_path

LLAMA_FTYPE_MOSTLY_Q8_0 = "7"
REPO = Path(__file__).resolve().parents[2]

# made, loaded and completed with llama_cpp unimportable; prints a JSON report
WITHOUT_LLAMA_CPP = r"""
import json, sys, time, tracemalloc
sys.modules["llama_cpp"] = None  # `import llama_cpp` raises ImportError, as when not installed
from pathlib import Path
from engine.requantize import cpu_weights
from engine.xllamacpp_server import ServerSettings, load_server, parse_chunk

source, folder = Path(sys.argv[1]), Path(sys.argv[2])
tracemalloc.start()
t0 = time.monotonic()
made = cpu_weights(source, folder=folder)
seconds = time.monotonic() - t0
# the peak of what was allocated (numpy's arrays included), not the file pages mapped in: those
# count in the RSS as the page cache has them, which differs from run to run
hwm_mb = tracemalloc.get_traced_memory()[1] / 2**20
tracemalloc.stop()
server = load_server(made, ServerSettings(n_ctx=256, n_parallel=1, n_threads=2,
                                          n_threads_batch=2, n_batch=64, cache_ram_mib=0))
pieces = []
body = {"prompt": "def add(a, b):\n    return", "max_tokens": 6, "temperature": 0.0,
        "stream": True}
server.handle_completions(body, lambda chunk: pieces.append(parse_chunk(chunk).text) and False)
print(json.dumps({"path": str(made), "seconds": seconds, "hwm_mb": hwm_mb,
                  "text": "".join(pieces)}))
"""


@pytest.fixture(scope="module")
def made(embedded_model: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    pytest.importorskip("xllamacpp")
    folder = tmp_path_factory.mktemp("weights")
    proc = subprocess.run([sys.executable, "-c", WITHOUT_LLAMA_CPP, str(embedded_model),
                           str(folder)], cwd=REPO, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return report


@pytest.fixture(scope="module")
def variant(made: dict[str, Any]) -> Path:
    return Path(made["path"])


def test_without_llama_cpp_the_variant_is_made_loaded_and_completes(
    embedded_model: Path, made: dict[str, Any]
) -> None:
    assert Path(made["path"]) == variant_path(embedded_model, "q8_0", Path(made["path"]).parent)
    assert made["text"].strip().startswith("a + b"), made["text"]
    assert made["hwm_mb"] < 400  # tensor by tensor, a few rows at a time


def test_the_tensor_types_are_llama_cpps_choice_for_q8_0(
    embedded_model: Path, variant: Path
) -> None:
    """Every 2-D "...weight" tensor but the norms becomes Q8_0; norms and biases stay F32;
    names, shapes and metadata are the source's, the file type says Q8_0."""
    source, out = read_layout(embedded_model), read_layout(variant)
    assert out.file_size == variant.stat().st_size
    before = {t.name: t for t in source.tensors}
    assert sorted(before) == sorted(t.name for t in out.tensors)
    for t in out.tensors:
        old = before[t.name]
        assert t.shape == old.shape
        weight = len(t.shape) == 2 and t.name.endswith(".weight")
        assert t.ggml_type.name == ("Q8_0" if weight else old.ggml_type.name), t.name
    assert sum(t.ggml_type.name == "Q8_0" for t in out.tensors) == 170
    assert sum(t.ggml_type.name == "F32" for t in out.tensors) == 121
    assert {t.ggml_type.name for t in source.tensors} == {"Q5_0", "Q8_0", "Q6_K", "Q4_K", "F32"}
    # llama.cpp's order: the tensors outside layers, then layer by layer, each by name
    assert [t.name for t in out.tensors[:4]] == [
        "output.weight", "output_norm.weight", "token_embd.weight", "blk.0.attn_k.bias"]
    kept = {k: v for k, v in source.kv if k != "general.file_type"}
    assert {k: v for k, v in out.kv if k != "general.file_type"} == kept
    assert [k for k, _ in out.kv][-2:] == ["general.quantization_version", "general.file_type"]


def test_the_variant_is_byte_for_byte_what_llama_cpps_quantizer_writes(
    embedded_model: Path, variant: Path, tmp_path: Path
) -> None:
    llama_cpp = pytest.importorskip(
        "llama_cpp", reason="llama-cpp-python is not installed: no quantizer to compare with "
        "(installers/install.sh --native)")
    import ctypes

    from engine.llama_log import muted

    theirs = tmp_path / "llama.cpp.gguf"
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = int(LLAMA_FTYPE_MOSTLY_Q8_0)
    params.allow_requantize = True
    with muted():
        rc = llama_cpp.llama_model_quantize(str(embedded_model).encode(), str(theirs).encode(),
                                            ctypes.byref(params))
    assert rc == 0
    assert theirs.stat().st_size == variant.stat().st_size
    with open(theirs, "rb") as a, open(variant, "rb") as b:
        while block := a.read(1 << 24):
            assert block == b.read(1 << 24)


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


@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                    reason="llama-cpp-python is not installed: its logits are compared where "
                    "it is (installers/install.sh --native)")
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


def test_a_file_cut_short_is_refused_by_the_check_before_the_rename(
    variant: Path, tmp_path: Path
) -> None:
    """What a write that ran out of disk leaves: the check that runs before the rename (every
    tensor within the file, as llama.cpp's loader checks) refuses it."""
    cut = tmp_path / "cut.gguf"
    with open(variant, "rb") as src, open(cut, "wb") as out:
        out.write(src.read(variant.stat().st_size - (64 << 20)))
    assert read_layout(variant).file_size == variant.stat().st_size
    with pytest.raises(ModelError, match="past the end of the file"):
        read_layout(cut)


def test_a_truncated_source_is_a_clear_error_and_leaves_nothing(
    embedded_model: Path, tmp_path: Path
) -> None:
    source = tmp_path / "cut" / embedded_model.name
    source.parent.mkdir()
    with open(embedded_model, "rb") as src, open(source, "wb") as out:
        out.write(src.read(300 << 20))
    out_dir = tmp_path / "out"
    with pytest.raises(ModelError, match=r"cut short"):
        make_variant(source, "q8_0", out_dir / "x.q8_0.gguf")
    assert not out_dir.exists() or list(out_dir.iterdir()) == []
    with pytest.raises(ModelError, match="not a GGUF file"):
        make_variant(embedded_model.with_name(embedded_model.name + ".stamp.json"), "q8_0",
                     out_dir / "y.q8_0.gguf")


# a disk that fills up while the variant is written: a file size limit makes the write fail
# (EFBIG) at 200 MB, as a full disk fails it (ENOSPC)
DISK_FILLS = """
import json, resource, signal, sys
from pathlib import Path
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (200 << 20, resource.RLIM_INFINITY))
from engine.requantize import cpu_weights
print(json.dumps(str(cpu_weights(Path(sys.argv[1]), folder=Path(sys.argv[2])))))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_disk_that_fills_while_writing_keeps_the_original_and_leaves_nothing(
    embedded_model: Path, tmp_path: Path
) -> None:
    proc = subprocess.run([sys.executable, "-c", DISK_FILLS, str(embedded_model), str(tmp_path)],
                          cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == str(embedded_model)
    assert "cannot make the q8_0 weights" in proc.stderr and "File too large" in proc.stderr
    assert list(tmp_path.iterdir()) == []  # the temporary file is gone


def test_doctor_says_which_weights_the_cpu_engine_loads(embedded_model: Path) -> None:
    from app.config import EngineConfig
    from app.install.doctor import _cpu_weights

    made = cpu_weights(embedded_model)
    note = _cpu_weights(EngineConfig(), embedded_model)
    assert note == f"; the CPU engine loads it as q8_0 (made: {made})"
    assert _cpu_weights(EngineConfig(requantize=False), embedded_model) == ""
    assert _cpu_weights(EngineConfig(kind="remote"), embedded_model) == ""
